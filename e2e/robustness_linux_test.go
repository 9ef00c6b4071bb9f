package e2e

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
)

// floodRoutes: /flood?n=N logs N console messages while it loads.
func floodRoutes(mux *http.ServeMux, _ *fixture) {
	mux.HandleFunc("GET /flood", func(w http.ResponseWriter, r *http.Request) {
		n := r.URL.Query().Get("n")
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>Flood</title><h1>Flood</h1><script>
for (let i = 0; i < %s; i++) console.log('message ' + i);
</script><p id="done">logged %s</p>`, n, n)
	})
}

// TestConsoleFloodStopsNoOne: a page that logs thousands of messages while
// it loads must not stop the browser: its own session answers, and so does
// every other session, during and after.
func TestConsoleFloodStopsNoOne(t *testing.T) {
	f := newFixture(t, floodRoutes)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/", "sessionId": "calm"})
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 3 {
			mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/flood?n=12000", "sessionId": "flood"})
		}
	})
	for range 5 {
		mustContain(t, "the calm session", mustCall(t, c, "browser_snapshot", map[string]any{"sessionId": "calm"}), "Sign up")
	}
	wg.Wait()
	out := mustCall(t, c, "browser_console_messages", map[string]any{"sessionId": "flood"})
	if !strings.Contains(out, "message 11999") {
		t.Errorf("the newest message is missing:\n%.600s", out)
	}
	mustContain(t, "the dropped count", out, "older messages were dropped")
	mustContain(t, "the flooded session", mustCall(t, c, "browser_snapshot", map[string]any{"sessionId": "flood"}), "logged 12000")
}

// browserProcess is the pid of the Chrome browser process (not a helper)
// a server with TMPDIR=tmp runs.
func browserProcess(t *testing.T, tmp string) int {
	t.Helper()
	for _, p := range proctest.MustFind(proctest.CmdlineContains("--user-data-dir=" + tmp + "/")) {
		if !strings.Contains(p.Cmdline, "--type=") {
			return p.PID
		}
	}
	t.Fatalf("no Chrome browser process under %s", tmp)
	return 0
}

// TestHungBrowserIsReplaced: a browser that stops answering (here: its
// process stopped) is found by the watchdog, stopped, and told to the
// session once as browser_crashed; the next call works in a new browser.
func TestHungBrowserIsReplaced(t *testing.T) {
	f := newFixture(t)
	env, tmp := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"})
	pid := browserProcess(t, tmp)
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = syscall.Kill(pid, syscall.SIGKILL) }()
	var last string
	waitFor(t, 90*time.Second, "browser_crashed after the browser stopped answering", func() bool {
		res := call(t, c, "browser_snapshot", nil)
		last = text(res)
		return res.IsError && strings.Contains(last, "browser_crashed") && strings.Contains(last, "stopped answering")
	})
	mustContain(t, "a new browser", mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"}), "Sign up")
	if p := browserProcess(t, tmp); p == pid {
		t.Errorf("the hung browser %d is still the one in use", pid)
	}
	waitFor(t, 10*time.Second, "the hung browser to be gone", func() bool {
		_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
		return err != nil
	})
}

// TestUserDataDirFreedByBrowserDeath: --user-data-dir is held while a
// browser runs on it, not longer (issue 39): when the browser of the
// server holding it dies, another server's browser opens on it, with no
// call to the first.
func TestUserDataDirFreedByBrowserDeath(t *testing.T) {
	f := newFixture(t)
	profile := filepath.Join(t.TempDir(), "profile")
	envA, tmpA := serverEnv(t)
	a := startClientArgs(t, envA, "--user-data-dir", profile)
	mustCall(t, a, "browser_navigate", map[string]any{"url": f.URL + "/"})
	envB, _ := serverEnv(t)
	b := startClientArgs(t, envB, "--user-data-dir", profile)
	mustFail(t, b, "browser_navigate", map[string]any{"url": f.URL + "/"}, "browser_launch_failed")

	if err := syscall.Kill(browserProcess(t, tmpA), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var last string
	waitFor(t, 30*time.Second, "the second server's browser on the profile after the first's died", func() bool {
		res := call(t, b, "browser_navigate", map[string]any{"url": f.URL + "/"})
		last = text(res)
		if res.IsError && !strings.Contains(last, "browser_launch_failed:") {
			t.Fatalf("the second server's browser: %s", last)
		}
		return !res.IsError
	})
	mustContain(t, "the second server's page", last, "Sign up")
}
