package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Lines as each server prints them (from real answers, see -dump).
func TestFindRef(t *testing.T) {
	cases := []struct{ name, snap, role, label, want string }{
		{"e2e-mcp", "    - textbox \"Email\" [required] [ref=e29]\n", "textbox", "Email", "e29"},
		{"playwright", "        - textbox \"Email\" [ref=f4e14]\n", "textbox", "Email", "f4e14"},
		{"devtools", "      uid=1_18 textbox \"Email\" required\n", "textbox", "Email", "1_18"},
		{"agent-browser", "- textbox \"Email\" [required, ref=e10]\n", "textbox", "Email", "e10"},
		{"button after text", "- text: Email\n- button \"Create account\" [ref=e33]\n", "button", "Create account", "e33"},
	}
	for _, c := range cases {
		got, ok := findRef(c.snap, c.role, c.label)
		if !ok || got != c.want {
			t.Errorf("%s: findRef = %q, %v; want %q", c.name, got, ok, c.want)
		}
	}
	if _, ok := findRef("- heading \"Email\" [level=1]\n", "textbox", "Email"); ok {
		t.Error("found a ref where there is none")
	}
}

func TestRowRefs(t *testing.T) {
	snap := `- row:
  - cell "Order 1 from customer 1001, 2 items"
  - button "Ship order 1" [ref=e5]
  - link "Order 1 details" [ref=e6] [cursor=pointer]:
- row:
  - button "Ship order 2" [ref=e7]
  - link "Order 2 details"
uid=2_9 button "Ship order 3"
uid=2_10 link "Order 3 details" url="http://x/page/o3"
  - button "Ship order 4" [ref=e11]
  - link "Order 4 details" [ref=e12]
`
	if got := rowRefs(snap); got != 3 {
		t.Errorf("rowRefs = %d, want 3 (rows 1, 3 and 4; row 2's link has no ref)", got)
	}
}

func TestParsePageID(t *testing.T) {
	if id, ok := parsePageID("## Pages\n1: about:blank [selected]\n"); !ok || id != 1 {
		t.Errorf("parsePageID = %d, %v", id, ok)
	}
	if id, ok := parsePageID("## Pages\n1: a\n3: Page (http://x) [selected]\n"); !ok || id != 3 {
		t.Errorf("parsePageID = %d, %v", id, ok)
	}
}

func TestParseAnchors(t *testing.T) {
	out := `playwright-mcp:      /a/node_modules/.bin/playwright-mcp --headless --isolated --no-sandbox --executable-path /usr/bin/chromium
chrome-devtools-mcp: /a/node_modules/.bin/chrome-devtools-mcp --headless --isolated --executablePath /usr/bin/chromium --chromeArg=--no-sandbox --no-usage-statistics
agent-browser (MCP): AGENT_BROWSER_EXECUTABLE_PATH=/usr/bin/chromium AGENT_BROWSER_ARGS=--no-sandbox /a/agent-browser-linux-x64 mcp
agent-browser (CLI): /a/agent-browser-linux-x64 --executable-path /usr/bin/chromium --args --no-sandbox <command> --json
  (agent-browser keeps a daemon and Chrome running after its client leaves: end them with its 'close --all')
`
	path := filepath.Join(t.TempDir(), "anchors.txt")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	specs, err := parseAnchors(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) != 3 {
		t.Fatalf("got %d specs: %+v", len(specs), specs)
	}
	ab := specs[2]
	if ab.Key != agentBr || ab.Cmd != "/a/agent-browser-linux-x64" || !slices.Equal(ab.Args, []string{"mcp"}) ||
		len(ab.Env) != 2 || !slices.Equal(ab.Close, []string{"/a/agent-browser-linux-x64", "close", "--all"}) {
		t.Errorf("agent-browser spec: %+v", ab)
	}
	if specs[0].Key != playwright || specs[0].Args[0] != "--headless" || len(specs[0].Env) != 0 {
		t.Errorf("playwright spec: %+v", specs[0])
	}
}
