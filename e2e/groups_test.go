package e2e

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// groupsSite serves /grp/login.html, a sign-in form whose version is
// version's: "v1"; "nopw", without its password field; "renamed", its
// button "Log in" (the same test id).
func groupsSite(t *testing.T) (*fixture, *atomic.Value) {
	t.Helper()
	var version atomic.Value
	version.Store("v1")
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /grp/login.html", func(w http.ResponseWriter, _ *http.Request) {
			v := version.Load().(string)
			pw, button := `<label>Password <input type="password" id="pw"></label>`, "Sign in"
			if v == "nopw" {
				pw = ""
			}
			if v == "renamed" {
				button = "Log in"
			}
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<!doctype html><title>Sign in</title><main><h1>Welcome back</h1>
<label>Email <input id="email"></label>%s
<button data-testid="signin-submit" onclick="document.getElementById('s').textContent='Welcome, '+document.getElementById('email').value">%s</button>
<p role="status" id="s"></p></main>`, pw, button)
		})
	})
	return f, &version
}

// groupsFlowText is a flow of nested groups on the groups site, written as
// a person keeps one (a comment, a flow-style group).
func groupsFlowText(base string) string {
	return `# Signs in; the groups are what the report and trace show.
name: grouped sign-in
baseURL: ` + base + `
steps:
  - navigate: /grp/login.html
  - group: Sign in
    steps:
      - type: {target: label=Email, text: ada@example.com}
      - group: Password
        steps:
          - type: {target: label=Password, text: hunter2}
      - click: role=button[name="Sign in"]
        fingerprint: {role: button, name: Sign in, testId: signin-submit, tag: button, within: [main, heading "Welcome back"]}
  - {group: Check, steps: [{expect: {target: role=status, check: text, expected: 'Welcome, ada@example.com', timeout: 2}}]}
`
}

// TestRunGroups: a flow's named groups of steps (`- group:`, as
// Playwright's test.step). A step that fails inside nested groups is named
// with its group path in the console and JUnit; the HTML report shows the
// groups as headings over their steps; the trace writes each group as a
// test.step action its steps nest under (parentId), the failed group
// failed. --heal=write repairs a drifted step inside a group in place, the
// rest of the file byte for byte. convert writes the groups as test.step.
func TestRunGroups(t *testing.T) {
	f, version := groupsSite(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "grouped.yaml")
	text := groupsFlowText(f.URL)
	writeFiles(t, dir, map[string]string{"grouped.yaml": text})
	env, tmp := runEnvironment(t)

	out, code := runFlows(t, env, file)
	if code != 0 || !strings.Contains(out, "PASS  grouped sign-in") {
		t.Fatalf("the grouped flow: exit %d:\n%s", code, out)
	}

	// The password field is gone: step 3 fails, in Sign in > Password.
	version.Store("nopw")
	junit, reports, traces := filepath.Join(dir, "junit.xml"), filepath.Join(dir, "reports"), filepath.Join(dir, "traces")
	out, code = runFlows(t, env, file, "--junit", junit, "--report", reports, "--trace", traces)
	const failing = "step 3, Sign in > Password > type label=Password: element_not_found"
	if code != 1 || !strings.Contains(out, "FAIL  grouped sign-in ("+file+") ") || !strings.Contains(out, failing) {
		t.Fatalf("the failing step in its groups: exit %d, want %q:\n%s", code, failing, out)
	}
	j, b := readRunJUnit(t, junit)
	if len(j.Suite.Cases) != 1 || j.Suite.Cases[0].Failure == nil || !strings.HasPrefix(j.Suite.Cases[0].Failure.Message, failing) {
		t.Errorf("JUnit does not name the step with its groups:\n%s", b)
	}
	html := readFile(t, filepath.Join(reports, "grouped sign-in.html"))
	for _, w := range []string{
		`<li class="group" style="margin-left:1em"><span class="group-path">Sign in</span></li>`,
		`<li class="group" style="margin-left:2em"><span class="group-path">Sign in › Password</span></li>`,
		`<span class="group-path">Sign in › Password ›</span> <b class="tool">browser_type</b>`,
		`failed: #3 Sign in › Password › browser_type</a>`,
	} {
		if !strings.Contains(html, w) {
			t.Errorf("the report (%d bytes) lacks %s", len(html), w)
		}
	}
	if strings.Contains(html, "Check</span>") {
		t.Errorf("the report shows the group Check, whose step never ran")
	}
	acts := traceTree(t, filepath.Join(traces, "grouped sign-in.zip"))
	want := "Frame.goto\n" +
		"Test.step Sign in (failed)\n" +
		"  Frame.fill\n" +
		"  Test.step Password (failed)\n" +
		"    Frame.fill (failed)\n"
	if acts != want {
		t.Errorf("the trace's actions:\n%s\nwant\n%s", acts, want)
	}

	// The button is renamed: --heal=write repairs the click in its group,
	// in place.
	version.Store("renamed")
	out, code = runFlows(t, env, file, "--heal=write", "--heal-ok")
	if code != 0 || !strings.Contains(out, "HEALED  grouped sign-in") || !strings.Contains(out, `HEALED step 4, click: role=button[name="Sign in"] -> role=button[name="Log in"]`) {
		t.Fatalf("--heal=write in a group: exit %d:\n%s", code, out)
	}
	healed := readFile(t, file)
	wantLines := strings.Split(text, "\n")
	gotLines := strings.Split(healed, "\n")
	if len(gotLines) != len(wantLines) {
		t.Fatalf("the repaired flow has %d lines, the flow %d:\n%s", len(gotLines), len(wantLines), healed)
	}
	for i := range wantLines {
		switch {
		case strings.Contains(wantLines[i], `click: role=button[name="Sign in"]`):
			if gotLines[i] != `      - click: role=button[name="Log in"]` {
				t.Errorf("the healed step: %q", gotLines[i])
			}
		case strings.HasPrefix(strings.TrimSpace(wantLines[i]), "fingerprint:"):
			if !strings.Contains(gotLines[i], "name: Log in") {
				t.Errorf("the healed step's fingerprint: %q", gotLines[i])
			}
		case gotLines[i] != wantLines[i]:
			t.Errorf("line %d changed: %q, was %q", i+1, gotLines[i], wantLines[i])
		}
	}
	if out, code = runFlows(t, env, file); code != 0 || !strings.Contains(out, "PASS  grouped sign-in") {
		t.Errorf("the repaired flow: exit %d:\n%s", code, out)
	}
	requireNoChrome(t, tmp, 10*time.Second)

	// convert: the groups as test.step.
	conv := filepath.Join(dir, "converted")
	if o, err := exec.Command(bin, "convert", file, "--to", "playwright", "--out", conv).CombinedOutput(); err != nil {
		t.Fatalf("e2e-mcp convert: %v\n%s", err, o)
	}
	spec := readFile(t, filepath.Join(conv, "grouped-sign-in.spec.ts"))
	mustContain(t, "the converted spec", spec,
		"  await test.step('Sign in', async () => {\n    // step 2: type label=Email\n",
		"    await test.step('Password', async () => {\n      // step 3: type label=Password\n",
		"    });\n    // step 4: click role=button[name=\"Log in\"]\n",
		"  });\n  await test.step('Check', async () => {\n")
	if _, err := os.Stat(filepath.Join(conv, "playwright.config.ts")); err != nil {
		t.Error(err)
	}
}

// traceTree is a trace's actions as an indented tree (by parentId): each
// as Class.method, a test.step with its title, (failed) when it failed.
func traceTree(t *testing.T, path string) string {
	t.Helper()
	tz := readTrace(t, path)
	type act struct {
		line   string
		parent string
		failed bool
	}
	acts := map[string]*act{}
	var order []string
	for _, ev := range tz.events {
		id, _ := ev["callId"].(string)
		switch ev["type"] {
		case "before":
			line := fmt.Sprintf("%v.%v", ev["class"], ev["method"])
			if ev["class"] == "Test" {
				line += fmt.Sprintf(" %v", ev["title"])
			}
			parent, _ := ev["parentId"].(string)
			acts[id] = &act{line: line, parent: parent}
			order = append(order, id)
		case "after":
			if a := acts[id]; a != nil && ev["error"] != nil {
				a.failed = true
			}
		}
	}
	depth := func(id string) int {
		n := 0
		for a := acts[id]; a != nil && a.parent != ""; a = acts[a.parent] {
			n++
		}
		return n
	}
	var b strings.Builder
	for _, id := range order {
		a := acts[id]
		if !strings.HasPrefix(a.line, "Frame.") && !strings.HasPrefix(a.line, "Test.") {
			continue // the calls that are no page's (session_start...)
		}
		b.WriteString(strings.Repeat("  ", depth(id)) + a.line)
		if a.failed {
			b.WriteString(" (failed)")
		}
		b.WriteString("\n")
	}
	return b.String()
}
