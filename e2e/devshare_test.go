package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
)

// TestRunSharedDevServer: flows with the same dev: (the same command, and
// cwd: . of one directory and cwd: .. of its subdirectory, the same
// directory) share one dev server, as Playwright's webServer: it starts
// once (the start script logs each start) for four flows run two at a
// time, never more than one app process lives, each flow still signs up
// in its own session, and after the run, one flow failing, no app process
// or Chrome is left. --dev-server-per-flow starts one a flow. A shared
// server that does not start fails each flow that needs it, and is
// started once.
func TestRunSharedDevServer(t *testing.T) {
	python, dir := signUpApp(t, t.TempDir())
	flow := func(name, cwd, who, want string) string {
		return fmt.Sprintf("name: %s\ndev:\n  run: sh starts.sh $PORT\n  cwd: %s\nsteps:\n  - navigate: /\n"+
			"  - type: {target: 'role=textbox[name=\"Name\"]', text: %s}\n  - click: 'role=button[name=\"Sign up\"]'\n"+
			"  - expect: {target: 'role=status', check: text, expected: '%s', timeout: 2}\n", name, cwd, who, want)
	}
	writeFiles(t, dir, map[string]string{
		"starts.sh":    fmt.Sprintf("echo start >> starts.log\nexec %s %s \"$1\"\n", python, filepath.Join(dir, "app.py")),
		"ada.yaml":     flow("ada", ".", "Ada", "Welcome, Ada!"),
		"bob.yaml":     flow("bob", ".", "Bob", "Welcome, Bob!"),
		"sub/cy.yaml":  flow("cy", "..", "Cy", "Welcome, Cy!"),
		"sub/dee.yaml": flow("dee", "..", "Dee", "Welcome, Nobody!"),
	})
	env, tmp := runEnvironment(t)
	starts := func() int { return strings.Count(readFileOr(filepath.Join(dir, "starts.log")), "start") }
	files := []string{filepath.Join(dir, "ada.yaml"), filepath.Join(dir, "bob.yaml"), filepath.Join(dir, "sub")}

	// Count the app's processes while the run lasts.
	app := filepath.Join(dir, "app.py")
	stopWatch := watchMost(func() int {
		// The app's own processes (python3 app.py PORT), not a shim's
		// (pyenv's bash) on the way to it.
		ps := proctest.MustFind(proctest.CmdlineContains(app), proctest.Live)
		return len(proctest.Filter(ps, func(p proctest.Process) bool {
			return len(p.Args) > 1 && strings.HasPrefix(filepath.Base(p.Args[0]), "python") && p.Args[1] == app
		}))
	})
	out, code := runFlows(t, env, append(files, "--parallel", "2")...)
	peak := stopWatch()
	lines := resultLines(out)
	if code != 1 || len(lines) != 4 || !strings.Contains(strings.Join(lines, ", "), "FAIL dee") || strings.Count(strings.Join(lines, ", "), "PASS") != 3 {
		t.Fatalf("four flows on a shared dev server: exit %d, want three passing and dee failing:\n%s", code, out)
	}
	if n := starts(); n != 1 || peak != 1 {
		t.Errorf("the shared dev server started %d times, at most %d app processes at once, want 1 and 1:\n%s", n, peak, out)
	}
	requireNoApp(t, dir)
	requireNoChrome(t, tmp, 10*time.Second)

	// The shared server's own session opens no browser context: one a
	// flow, none kept alive all the run for a tab nobody uses. The second
	// flow's opens while the first runs (runner/warm.go), not after it.
	debug := append(withoutEnv(env, "E2E_MCP_LOG_FORMAT"), "E2E_MCP_LOG_LEVEL=debug")
	out, code = runFlows(t, debug, files[0], files[1], "--parallel", "1")
	if n := strings.Count(out, `"method":"Target.createBrowserContext"`); code != 0 || n != 2 {
		t.Errorf("two flows on a shared dev server: exit %d, %d browser contexts opened, want 2 (one a flow)", code, n)
	}
	// (It does so only when --parallel leaves a CPU free: here, 1 of 2.)
	second := nthIndex(out, `"method":"Target.createBrowserContext"`, 2)
	if first := strings.Index(out, `"method":"Target.disposeBrowserContext"`); runtime.NumCPU() > 1 && (second < 0 || first < 0 || second > first) {
		t.Errorf("the second flow's browser context was opened after the first flow's closed (at %d, %d of the log), not while it ran", second, first)
	}

	writeFiles(t, dir, map[string]string{"starts.log": ""})
	out, code = runFlows(t, env, append(files, "--dev-server-per-flow")...)
	if code != 1 || starts() != 4 {
		t.Errorf("--dev-server-per-flow: exit %d, %d starts, want 4:\n%s", code, starts(), out)
	}
	requireNoApp(t, dir)

	writeFiles(t, dir, map[string]string{
		"starts.log": "",
		"starts.sh":  "echo start >> starts.log\necho 'no app here' >&2\nexit 3\n",
	})
	out, code = runFlows(t, env, filepath.Join(dir, "ada.yaml"), filepath.Join(dir, "bob.yaml"))
	if code != 1 || strings.Join(resultLines(out), ", ") != "FAIL ada, FAIL bob" || starts() != 1 ||
		strings.Count(out, "start the dev server (shared by the run's flows)") < 2 {
		t.Errorf("a shared dev server that does not start: exit %d, %d starts:\n%s", code, starts(), out)
	}
	requireNoApp(t, dir)
	requireNoChrome(t, tmp, 10*time.Second)
}

// watchMost polls count until the function it returns is called, which
// returns the most it saw.
func watchMost(count func() int) func() int {
	most := 0
	var mu sync.Mutex
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			n := count()
			mu.Lock()
			most = max(most, n)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() int {
		close(done)
		<-stopped
		mu.Lock()
		defer mu.Unlock()
		return most
	}
}

// requireNoApp fails the test when an app process of dir outlives the
// run that started it (a moment allowed for its exit to be seen).
func requireNoApp(t *testing.T, dir string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for left := appProcesses(dir); len(left) > 0; left = appProcesses(dir) {
		if time.Now().After(deadline) {
			t.Fatalf("app processes after the run: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// readFileOr is the text of a file, "" when it cannot be read.
func readFileOr(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// nthIndex is the index of the n-th (from 1) occurrence of sub in s, or -1.
func nthIndex(s, sub string, n int) int {
	at := -1
	for range n {
		i := strings.Index(s[at+1:], sub)
		if i < 0 {
			return -1
		}
		at += 1 + i
	}
	return at
}
