package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// Real widgets (issue 31): the shapes of the libraries browser agents fail
// on in real projects, on pages of our own.

// startClientArgs is startClient with command-line flags for the server.
func startClientArgs(t *testing.T, env []string, args ...string) *client.Client {
	t.Helper()
	stderr := &lockedBuffer{}
	c, err := client.NewStdioMCPClientWithOptions(bin, env, args, transport.WithCommandStderrWriter(stderr))
	if err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	return initialized(t, c, stderr)
}

// TestDefaultViewport: a fresh session's page measures 1280x720, as
// Playwright's, not headless Chrome's 780x493; --viewport-size changes it,
// a popup starts with it too, and a size that is not WxH stops the server
// with a message that says what to give.
func TestDefaultViewport(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	size := `() => innerWidth + "x" + innerHeight`

	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/index.html"})
	mustContain(t, "default viewport", mustCall(t, c, "browser_evaluate", map[string]any{"function": size}), `"1280x720"`)

	c = startClientArgs(t, env, "--viewport-size", "1024x600", "--caps", "emulation")
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/index.html"})
	mustContain(t, "--viewport-size", mustCall(t, c, "browser_evaluate", map[string]any{"function": size}), `"1024x600"`)
	// A popup is a tab the session did not open: it starts at the size too.
	mustCall(t, c, "browser_evaluate", map[string]any{"function": `() => { window.open(location.href, "_blank"); }`})
	mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 1})
	mustContain(t, "popup's viewport", mustCall(t, c, "browser_evaluate", map[string]any{"function": size}), `"1024x600"`)
	// An emulation reset comes back to the session's size, not the window's.
	mustCall(t, c, "browser_emulate", map[string]any{"device": "Desktop 1080p"})
	mustContain(t, "device", mustCall(t, c, "browser_evaluate", map[string]any{"function": size}), `"1920x1080"`)
	mustCall(t, c, "browser_emulate", map[string]any{"reset": true})
	mustContain(t, "reset", mustCall(t, c, "browser_evaluate", map[string]any{"function": size}), `"1024x600"`)

	cmd := exec.Command(bin, "serve", "--viewport-size", "1280*720")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), `--viewport-size "1280*720": want WIDTHxHEIGHT`) {
		t.Errorf("serve --viewport-size 1280*720: %v\n%s", err, out)
	}
}

// TestHoverCascadingMenuAtEdge: a hover-only menu near the bottom of the
// viewport whose submenu item "Recent" is partly off-screen. Scrolling it to
// the centre moved the page under the pointer resting on "File", the menu
// closed, the scroll snapped back, the menu reopened: hover answered
// not_actionable after the action timeout, with hundreds of scroll events.
// Its visible part is where the pointer goes, with no scroll at all.
func TestHoverCascadingMenuAtEdge(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/widgets/menu.html"})
	mustCall(t, c, "browser_hover", map[string]any{"target": "#file"})
	mustCall(t, c, "browser_hover", map[string]any{"target": "role=menuitem[name=Recent]"})
	state := `() => JSON.stringify({recent: document.getElementById("recent").matches(":hover"),
		open: getComputedStyle(document.querySelector("#file > ul")).display, ...counts})`
	mustContain(t, "hovered, menu open, no scroll", mustCall(t, c, "browser_evaluate", map[string]any{"function": state}),
		`{\"recent\":true,\"open\":\"block\",\"scroll\":0,\"leave\":0}`)
	out := mustCall(t, c, "browser_click", map[string]any{"target": "role=menuitem[name=Recent]"})
	mustContain(t, "click", out, "chose Recent")
	mustContain(t, "still no scroll", mustCall(t, c, "browser_evaluate", map[string]any{"function": state}), `\"scroll\":0,\"leave\":0`)
	// "Export" is wholly below the viewport: it is scrolled to the nearest
	// edge, once, and the menu stays open under the pointer.
	mustCall(t, c, "browser_hover", map[string]any{"target": "role=menuitem[name=Export]"})
	exported := `() => JSON.stringify({export: document.getElementById("export").matches(":hover"), up: scrollY, ...counts})`
	mustContain(t, "Export hovered after one small scroll", mustCall(t, c, "browser_evaluate", map[string]any{"function": exported}),
		`{\"export\":true,\"up\":70,\"scroll\":1,\"leave\":0}`)
}

// TestTypeAtCaret: browser_type with slowly types at the caret, as
// Playwright's pressSequentially does, keeping what the editor holds: the
// agent adds to a line of a document without a key press per character.
// It used to select the whole content first, so the text replaced the
// document. The recorded flow replays it, and exports as pressSequentially.
func TestTypeAtCaret(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	dir := t.TempDir()
	env = append(env, "E2E_MCP_FILE_ROOTS="+dir)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/widgets/editor.html"})
	mustCall(t, c, "browser_click", map[string]any{"target": "text=First line"})
	mustCall(t, c, "browser_press_key", map[string]any{"key": "End"})
	out := mustCall(t, c, "browser_type", map[string]any{"target": "role=textbox[name=Editor]", "text": " (edited)", "slowly": true})
	mustContain(t, "typed at the caret", out, "First line (edited)")
	lines := `() => [...document.querySelectorAll("#editor p")].map((p) => p.textContent).join("|")`
	mustContain(t, "the document", mustCall(t, c, "browser_evaluate", map[string]any{"function": lines}), `"First line (edited)|Third line"`)
	mustContain(t, "End, then one key a character", mustCall(t, c, "browser_evaluate", map[string]any{"function": `() => keys`}), "10")
	mustCall(t, c, "browser_expect", map[string]any{"target": "#editor p >> nth=0", "check": "text", "expected": "First line (edited)"})

	flowFile := filepath.Join(dir, "edit.yaml")
	mustCall(t, c, "session_export_flow", map[string]any{"path": flowFile, "name": "edit"})
	b, err := os.ReadFile(flowFile)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the exported flow:\n%s", b)
	mustContain(t, "the flow", string(b), "press: End", "slowly: true", "(edited)")
	if out, code := runFlows(t, env, flowFile); code != 0 {
		t.Errorf("the flow does not replay (exit %d):\n%s", code, out)
	}
	spec := mustCall(t, c, "session_export_flow", map[string]any{"format": "playwright"})
	mustContain(t, "the spec", spec, ".pressSequentially(' (edited)')")
	if strings.Contains(spec, ".clear()") {
		t.Errorf("the spec clears the editor before typing at the caret:\n%s", spec)
	}
}

// TestGridCellRefs: every cell of an interactive grid has a ref, also on a
// row condensed to one line: AG Grid's cells take focus by script only
// (tabindex=-1), and a cell edited by a double click was reachable only by
// a selector written by hand.
func TestGridCellRefs(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	out := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/widgets/grid.html"})
	m := regexp.MustCompile(`- row: gridcell "1001" \[ref=e\d+\] \| gridcell "Bolts" \[ref=e\d+\] \| gridcell "131" \[ref=(e\d+)\]`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no row with a ref on each cell:\n%s", out)
	}
	mustContain(t, "header cells", out, `columnheader "Quantity" [ref=`)
	out = mustCall(t, c, "browser_click", map[string]any{"target": m[1], "doubleClick": true})
	mustContain(t, "the editor", out, `textbox "Quantity of Bolts"`)
	out = mustCall(t, c, "browser_type", map[string]any{"target": "role=textbox[name='Quantity of Bolts']", "text": "140", "submit": true})
	mustContain(t, "saved", out, "Bolts quantity saved: 140")
}

// TestFindContainerControls: browser_find that matches a container (a card
// of a feed) lists the controls inside it with their refs, so the agent
// clicks the card's Like button without another snapshot.
func TestFindContainerControls(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/widgets/feed.html"})
	out := mustCall(t, c, "browser_find", map[string]any{"role": "article", "name": "Post 17 by"})
	m := regexp.MustCompile(`button "Like" \[ref=(e\d+)\]`).FindAllStringSubmatch(out, -1)
	if len(m) != 1 {
		t.Fatalf("want the one Like button of post 17 with its ref:\n%s", out)
	}
	mustContain(t, "the card's own text", out, `article "Post 17 by Linus"`)
	out = mustCall(t, c, "browser_click", map[string]any{"target": m[0][1]})
	mustContain(t, "liked post 17", out, "4 likes")
	likes := `() => document.querySelectorAll("article")[16].querySelector(".likes").textContent`
	mustContain(t, "post 17's count", mustCall(t, c, "browser_evaluate", map[string]any{"function": likes}), `"4 likes"`)
}
