package e2e

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// startDiagApp starts the diagnostics dev app (testdata/diag/app.py) as
// the session's managed dev server and opens its page.
func startDiagApp(t *testing.T, c *client.Client) (pid string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for this test: %v", err)
	}
	app, err := filepath.Abs("testdata/diag/app.py")
	if err != nil {
		t.Fatal(err)
	}
	out := mustCall(t, c, "session_start", map[string]any{"run": python + " " + app + " $PORT", "cwd": t.TempDir()})
	m := regexp.MustCompile(`- PID: (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("session_start names no PID:\n%s", out)
	}
	mustContain(t, "the shop page", mustCall(t, c, "browser_navigate", map[string]any{"url": "/"}), `heading "Shop"`)
	return m[1]
}

// diagEnv is a server environment with its own state dir and a short
// action timeout, so that failures come fast.
func diagEnv(t *testing.T) (env []string, tmp string) {
	env, tmp = serverEnv(t)
	return append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_ACTION_TIMEOUT=1s"), tmp
}

// images counts the image contents of a result.
func images(res *mcp.CallToolResult) int {
	n := 0
	for _, c := range res.Content {
		if ic, ok := c.(mcp.ImageContent); ok && ic.MIMEType == "image/jpeg" && len(ic.Data) > 100 {
			n++
		}
	}
	return n
}

// TestFailureDiagnostics is the scenario: a click makes the dev
// server answer 500 and log a stack trace; the step that then fails
// answers, in one response, with the screenshot, the stack trace from
// stderr, the console error and the failed request.
func TestFailureDiagnostics(t *testing.T) {
	env, _ := diagEnv(t)
	c := startClient(t, env)
	startDiagApp(t, c)

	mustCall(t, c, "browser_click", map[string]any{"target": "#ship"})
	res := call(t, c, "browser_expect", map[string]any{"target": "role=status", "check": "text", "expected": "Shipped", "timeout": 3})
	out := text(res)
	if !res.IsError {
		t.Fatalf("expect on a failed shipment passed:\n%s", out)
	}
	mustContain(t, "the failing step's response", out,
		"expect_failed:", "Next:", "Context: session stdio, browser_expect", `"expected":"Shipped"`,
		"Screenshot at the failure: attached",
		"### Dev server log", "Traceback (most recent call last):", "ValueError: warehouse offline",
		"### Console errors", "ship failed: 500",
		"### Failed requests", "POST ", "/api/ship -> 500")
	if images(res) != 1 {
		t.Errorf("want one JPEG screenshot in the failing response, got %d", images(res))
	}
	sc, _ := res.StructuredContent.(map[string]any)
	diag, _ := sc["diagnostics"].(map[string]any)
	for _, k := range []string{"screenshot", "devLog", "console", "failedRequests"} {
		if diag[k] == nil {
			t.Errorf("structuredContent.diagnostics lacks %s: %v", k, sc)
		}
	}
}

// TestFailureTypes: each error type an agent can meet, on the dev app: the
// typed error with a next step and its context, and the diagnostics where
// they help (never for bad arguments or refused requests).
func TestFailureTypes(t *testing.T) {
	env, _ := diagEnv(t)
	c := startClient(t, env)
	startDiagApp(t, c)
	snap := mustCall(t, c, "browser_snapshot", nil)
	oldRef := refOf(t, snap, "button", "Ship")
	mustCall(t, c, "browser_reload", nil)

	cases := []struct {
		name, tool string
		args       map[string]any
		typ        string
		diagnosed  bool
		want       []string
	}{
		{"no such element", "browser_click", map[string]any{"target": "#nope"}, "element_not_found", true, nil},
		{"two matches", "browser_click", map[string]any{"target": ".dup"}, "not_unique", true, []string{`button "Twin"`}},
		{"ref of a gone page", "browser_click", map[string]any{"target": oldRef}, "ref_stale", true, []string{"take a new snapshot"}},
		{"disabled button", "browser_click", map[string]any{"target": "role=button[name=Closed]"}, "not_actionable", true, []string{"disabled"}},
		{"ref never handed out", "browser_click", map[string]any{"target": "e9999"}, "ref_not_found", true, nil},
		{"wait that cannot end", "browser_wait_for", map[string]any{"text": "never shown", "timeout": 0.5}, "timeout", true,
			[]string{"### Dev server status (--status, on timeout)", `"status":"running"`}},
		{"unreachable URL", "browser_navigate", map[string]any{"url": "http://127.0.0.1:1/"}, "navigation_failed", true, nil},
		{"script throws", "browser_evaluate", map[string]any{"function": "() => { throw new Error('boom') }"}, "script_error", true, []string{"boom"}},
		{"expectation", "browser_expect", map[string]any{"target": "role=status", "check": "text", "expected": "nope", "timeout": 0.2}, "expect_failed", true, []string{"FAIL:"}},
		{"bad argument", "browser_tabs", map[string]any{"action": "jump"}, "invalid_input", false, nil},
		{"file outside the roots", "browser_file_upload", map[string]any{"paths": []string{"/etc/hostname"}}, "not_allowed", false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, c, tc.tool, tc.args)
			out := text(res)
			wantError(t, res, tc.typ, append([]string{"Next:"}, tc.want...)...)
			if tc.typ != "invalid_input" {
				mustContain(t, tc.typ, out, "Context: session stdio, "+tc.tool)
			}
			hasShot, hasLog := images(res) == 1, strings.Contains(out, "### Dev server log")
			if hasShot != tc.diagnosed || hasLog != tc.diagnosed {
				t.Errorf("%s: screenshot %v, dev log %v; want both %v:\n%s", tc.typ, hasShot, hasLog, tc.diagnosed, out)
			}
		})
	}

	t.Run("dialog open", func(t *testing.T) {
		wantError(t, call(t, c, "browser_evaluate", map[string]any{"function": "() => alert('stop')"}), "dialog_open", "stop")
		res := call(t, c, "browser_snapshot", nil)
		wantError(t, res, "dialog_open", "browser_handle_dialog", "(screenshot unavailable: a alert dialog blocks the page)", "### Dev server log")
		mustCall(t, c, "browser_handle_dialog", map[string]any{"accept": true})
	})
}

// TestFailureResponseBudget: a page that logs thousands of console errors
// and a server that writes megabytes of stderr still give a failure
// response within its caps, saying what was cut.
func TestFailureResponseBudget(t *testing.T) {
	env, _ := diagEnv(t)
	c := startClient(t, env)
	startDiagApp(t, c)
	mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => { setTimeout(() => document.getElementById('flood').click(), 300); return 1 }"})
	// The flood runs after that call returned; this wait fails once it is
	// over, so its response carries it.
	res := call(t, c, "browser_wait_for", map[string]any{"text": "never shown", "timeout": 4})
	out := text(res)
	wantError(t, res, "timeout", "### Console errors (since the previous call: 5000)", "earlier ones left out",
		"### Dev server log (last", "cut to 16 KB", "flood done", "flood line 4999")
	if len(out) > 48<<10 {
		t.Errorf("the failure response is %d KB, over 48 KB", len(out)>>10)
	}
	t.Logf("failure response: %d bytes of text, %d image(s)", len(out), images(res))
}

// TestSessionErrors: the history lists each failure, newest first.
func TestSessionErrors(t *testing.T) {
	f := newFixture(t)
	env, _ := diagEnv(t)
	c := startClient(t, env)
	mustContain(t, "no failures yet", mustCall(t, c, "session_errors", nil), "No failures in session stdio.")
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	call(t, c, "browser_click", map[string]any{"target": "#nope"})
	call(t, c, "browser_navigate", map[string]any{"url": "http://127.0.0.1:1/"})
	call(t, c, "browser_evaluate", map[string]any{"function": "() => { throw new Error('third') }"})
	out := mustCall(t, c, "session_errors", nil)
	mustContain(t, "session_errors", out, "3 failure(s) in session stdio, newest first")
	i1 := strings.Index(out, "1. ")
	i2 := strings.Index(out, "2. ")
	i3 := strings.Index(out, "3. ")
	if i1 < 0 || i2 < i1 || i3 < i2 {
		t.Fatalf("not three numbered entries:\n%s", out)
	}
	for i, want := range []string{"browser_evaluate script_error", "browser_navigate navigation_failed", "browser_click element_not_found"} {
		at := []int{i1, i2, i3}[i]
		end := len(out)
		if i < 2 {
			end = []int{i2, i3}[i]
		}
		if !strings.Contains(out[at:end], want) {
			t.Errorf("entry %d lacks %q:\n%s", i+1, want, out)
		}
	}
	mustContain(t, "session_errors", out, `arguments: {"target":"#nope"}`, "the response carried: screenshot")
}

// chromeByType lists the pids of the Chrome processes (of the server whose
// TMPDIR is tmp) of a --type ("" for the browser process itself).
func chromeByType(tmp, typ string) []int {
	ps := proctest.MustFind(proctest.CmdlineContains("--user-data-dir=" + tmp + "/"))
	var out []int
	for _, p := range ps {
		// Chrome's children rewrite their command line into one
		// space-separated string; the browser keeps NUL-separated args.
		has := strings.Contains(p.Cmdline, "--type=")
		isType := strings.Contains(p.Cmdline, "--type="+typ+"\x00") || strings.Contains(p.Cmdline, "--type="+typ+" ")
		if (typ == "" && !has) || (typ != "" && isType) {
			out = append(out, p.PID)
		}
	}
	return out
}

// TestCrashesReported: a tab whose renderer dies, and a browser that dies,
// are each reported once as browser_crashed with what was lost; the call
// after works again.
func TestCrashesReported(t *testing.T) {
	f := newFixture(t)
	env, tmp := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})

	renderers := chromeByType(tmp, "renderer")
	if len(renderers) == 0 {
		t.Fatal("no renderer process found")
	}
	for _, pid := range renderers {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	var res *mcp.CallToolResult
	waitFor(t, 10e9, "the crash to be reported", func() bool {
		res = call(t, c, "browser_snapshot", nil)
		return res.IsError
	})
	wantError(t, res, "browser_crashed", "signup.html", "crashed (its renderer died)", "cookies and storage are kept")
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})

	browsers := chromeByType(tmp, "")
	if len(browsers) != 1 {
		t.Fatalf("want one browser process, found %v", browsers)
	}
	_ = syscall.Kill(browsers[0], syscall.SIGKILL)
	waitFor(t, 10e9, "the browser death to be reported", func() bool {
		res = call(t, c, "browser_snapshot", nil)
		return res.IsError
	})
	wantError(t, res, "browser_crashed", "the browser process died", "signup.html", "cookies and storage")
	mustContain(t, "after the browser died", mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"}), "Create your account")
	if got := chromeByType(tmp, ""); len(got) != 1 || got[0] == browsers[0] {
		t.Errorf("want one new browser process, found %v (old %d)", got, browsers[0])
	}
}
