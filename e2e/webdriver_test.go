//go:build linux

package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// chromedriver is a real chromedriver the test started: a WebDriver grid of
// one machine. Its Chromes get their profiles in tmp (chromedriver makes
// them, org.chromium.Chromium.scoped_dir.*, under its TMPDIR and removes
// them with their sessions).
type chromedriver struct {
	cmd  *exec.Cmd
	url  string
	tmp  string
	done chan struct{}
}

func startChromedriver(t *testing.T) *chromedriver {
	t.Helper()
	path, err := exec.LookPath("chromedriver")
	if err != nil {
		t.Fatal("no chromedriver: make ensure-browser installs Debian's chromium-driver")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	d := &chromedriver{url: "http://127.0.0.1:" + strconv.Itoa(port), tmp: t.TempDir(), done: make(chan struct{})}
	d.cmd = exec.Command(path, "--port="+strconv.Itoa(port))
	// Its home too: a download its browsers saved would land there.
	d.cmd.Env = append(os.Environ(), "TMPDIR="+d.tmp, "HOME="+d.tmp)
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = d.cmd.Wait(); close(d.done) }()
	t.Cleanup(d.stop)
	waitFor(t, 20*time.Second, "chromedriver's /status to say ready", func() bool {
		resp, err := http.Get(d.url + "/status")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		var b [4096]byte
		n, _ := resp.Body.Read(b[:])
		return strings.Contains(string(b[:n]), `"ready":true`)
	})
	return d
}

// stop kills chromedriver, and first the Chromes it still runs (a test
// that failed early), which would outlive it.
func (d *chromedriver) stop() {
	for _, p := range d.browsers() {
		_ = syscall.Kill(p.PID, syscall.SIGKILL)
	}
	_ = d.cmd.Process.Signal(syscall.SIGKILL)
	<-d.done
}

// browsers lists the Chromes chromedriver started (its children) that
// still run.
func (d *chromedriver) browsers() []proctest.Process {
	return proctest.MustFind(proctest.Live, func(p proctest.Process) bool { return p.PPID == d.cmd.Process.Pid })
}

// profiles lists the profiles chromedriver made that remain: its scoped
// directories that hold a Chrome profile.
func (d *chromedriver) profiles() []string {
	m, _ := filepath.Glob(filepath.Join(d.tmp, "org.chromium.Chromium.scoped_dir.*", "Default"))
	return m
}

// scoped lists every directory chromedriver made for its sessions.
func (d *chromedriver) scoped() []string {
	m, _ := filepath.Glob(filepath.Join(d.tmp, "org.chromium.Chromium.scoped_dir.*"))
	return m
}

// waitBrowsers waits, bounded, for chromedriver to run n Chromes with n
// profiles; with none, nothing it made for a session may remain.
func (d *chromedriver) waitBrowsers(t *testing.T, n int, when string) {
	t.Helper()
	waitFor(t, 20*time.Second, fmt.Sprintf("%d Chrome(s) of chromedriver and as many profiles %s", n, when), func() bool {
		return len(d.browsers()) == n && len(d.profiles()) == n && (n > 0 || len(d.scoped()) == 0)
	})
}

// signUp runs the sign-up on its own session, without the test's t: it runs
// beside another.
func signUp(c *client.Client, url, session string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	name := "Ada " + session
	for _, step := range []struct {
		tool string
		args map[string]any
	}{
		{"browser_navigate", map[string]any{"url": url}},
		{"browser_batch", map[string]any{"steps": []any{
			map[string]any{"type": map[string]any{"target": "label=Name", "text": name}},
			map[string]any{"check": "label=I accept the terms"},
			map[string]any{"click": "role=button[name='Sign up']"},
			map[string]any{"wait": map[string]any{"text": "Welcome, " + name + "!"}},
		}}},
		{"browser_expect", map[string]any{"target": "role=status", "check": "text", "expected": "Welcome, " + name + "!"}},
	} {
		step.args["sessionId"] = session
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = step.tool, step.args
		res, err := c.CallTool(ctx, req)
		if err != nil {
			return fmt.Errorf("%s on %s: protocol error: %v", step.tool, session, err)
		}
		if res.IsError {
			return fmt.Errorf("%s on %s failed:\n%s", step.tool, session, text(res))
		}
	}
	return nil
}

// TestWebDriverGrid: with --webdriver-url each session takes a browser of
// its own from a real chromedriver; two sessions sign up at once, each
// seeing its own result; popups, the request policy and downloads work
// there (the grid runs on this machine); a session's end deletes its
// WebDriver session (its
// Chrome and profile go), and so does the server's exit; a grid that is
// down is a typed error naming it and the refused connection.
func TestWebDriverGrid(t *testing.T) {
	f := newFixture(t, filesAPI)
	d := startChromedriver(t)
	env, tmp := serverEnv(t)
	roots := t.TempDir()
	env = append(env, "E2E_MCP_WEBDRIVER_URLS="+d.url, "E2E_MCP_BLOCKED_ORIGINS=blocked.example", "E2E_MCP_FILE_ROOTS="+roots)
	c := startClient(t, env)

	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, id := range []string{"s1", "s2"} {
		wg.Go(func() { errs[i] = signUp(c, f.URL+"/signup.html", id) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	f.mu.Lock()
	got := strings.Join(f.signups, ",")
	f.mu.Unlock()
	if !strings.Contains(got, "Ada s1") || !strings.Contains(got, "Ada s2") {
		t.Errorf("the site got sign-ups %q, want both sessions'", got)
	}
	d.waitBrowsers(t, 2, "while two sessions run")
	if n := len(chromeProcesses(tmp)); n != 0 {
		t.Errorf("the server launched a browser of its own (%d processes)", n)
	}
	// Each session saw its own page: s2's status names s2.
	mustContain(t, "s2's page", mustCall(t, c, "browser_snapshot", map[string]any{"sessionId": "s2"}), "Welcome, Ada s2!")

	// The other tools work on a grid's browser: a popup opens as a tab of
	// the session; the request policy refuses a blocked origin; a download
	// is saved under the file roots (the grid's machine is this one).
	out := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/tabs/opener.html", "sessionId": "s1"})
	out = mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, out, "button", "Open popup"), "sessionId": "s1"})
	mustContain(t, "a popup on the grid's browser", out, "New tabs opened: 1", "- 1: [Popup]")
	mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 1, "sessionId": "s1"})
	mustCall(t, c, "browser_type", map[string]any{"target": "label=Greeting", "text": "from the grid", "sessionId": "s1"})
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=Send]", "sessionId": "s1"})
	mustContain(t, "the popup's page", out, "Popup says from the grid")
	wantError(t, call(t, c, "browser_navigate", map[string]any{"url": "http://blocked.example/", "sessionId": "s1"}), "not_allowed", "blocked.example")
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/files/downloads.html", "sessionId": "s1"})
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Download report']", "sessionId": "s1"})
	saved := filepath.Join(roots, "e2e-mcp-downloads", "report.csv")
	mustContain(t, "a download on the grid's browser", out, "### Downloads", "- report.csv: 34 bytes, saved to "+saved)
	if b, err := os.ReadFile(saved); err != nil || !strings.HasPrefix(string(b), "order,total") {
		t.Errorf("the saved download: %q, %v", b, err)
	}

	mustCall(t, c, "session_end", map[string]any{"sessionId": "s1"})
	d.waitBrowsers(t, 1, "after s1 ended")
	mustContain(t, "s2 after s1 ended", mustCall(t, c, "browser_snapshot", map[string]any{"sessionId": "s2"}), "Welcome, Ada s2!")

	_ = c.Close()
	d.waitBrowsers(t, 0, "after the server exited")
	// The sessions' download directories went with them.
	if left, _ := filepath.Glob(filepath.Join(tmp, "e2e-mcp-chrome-*")); len(left) > 0 {
		t.Errorf("directories left after the server exited: %v", left)
	}

	// The grid goes down: a new session answers a typed error naming it.
	d.stop()
	c = startClient(t, env)
	res := call(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html", "sessionId": "s3"})
	wantError(t, res, "browser_launch_failed", "no browser from the WebDriver grid", "WebDriver grid "+d.url+" unreachable", "connection refused", "--webdriver-url")
}

// TestWebDriverGrid_Signal: a server ended by SIGTERM deletes its grid
// sessions on the way out.
func TestWebDriverGrid_Signal(t *testing.T) {
	f := newFixture(t)
	d := startChromedriver(t)
	env, _ := serverEnv(t)
	s := startRaw(t, append(env, "E2E_MCP_WEBDRIVER_URLS="+d.url))
	s.openBrowser(t, f.URL+"/signup.html")
	d.waitBrowsers(t, 1, "while the session runs")
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	s.waitExit(t, 20*time.Second)
	d.waitBrowsers(t, 0, "after SIGTERM")
}

// slowGrid is a WebDriver grid that makes a session as soon as it is asked
// (as a real one does, whether or not the client waits for the answer) but
// answers POST /session only when released; it records what was deleted.
type slowGrid struct {
	*httptest.Server
	asked, release chan struct{}
	mu             sync.Mutex
	made, deleted  []string
}

func startSlowGrid(t *testing.T) *slowGrid {
	g := &slowGrid{asked: make(chan struct{}, 8), release: make(chan struct{})}
	g.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/session":
			g.mu.Lock()
			id := fmt.Sprintf("slow-%d", len(g.made)+1)
			g.made = append(g.made, id)
			g.mu.Unlock()
			g.asked <- struct{}{}
			<-g.release
			fmt.Fprintf(w, `{"value":{"sessionId":%q,"capabilities":{"browserName":"chrome","se:cdp":"ws://127.0.0.1:1/session/%s/se/cdp"}}}`, id, id)
		case r.Method == http.MethodDelete && strings.HasPrefix(r.URL.Path, "/session/"):
			g.mu.Lock()
			g.deleted = append(g.deleted, strings.TrimPrefix(r.URL.Path, "/session/"))
			g.mu.Unlock()
			fmt.Fprint(w, `{"value":null}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(func() {
		select {
		case <-g.release:
		default:
			close(g.release)
		}
		g.Close()
	})
	return g
}

// left is the sessions the grid made that were not deleted.
func (g *slowGrid) left() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for _, id := range g.made {
		if !slices.Contains(g.deleted, id) {
			out = append(out, id)
		}
	}
	return out
}

// TestWebDriverGrid_ExitWhileCreating: a server that exits (SIGTERM, or its
// client closing stdin) while a grid is still making a session for it waits
// for the grid's answer and deletes the session, so that its browser does
// not stay on the grid.
func TestWebDriverGrid_ExitWhileCreating(t *testing.T) {
	for _, how := range []string{"SIGTERM", "stdin closed"} {
		t.Run(how, func(t *testing.T) {
			g := startSlowGrid(t)
			env, _ := serverEnv(t)
			s := startRaw(t, append(env, "E2E_MCP_WEBDRIVER_URLS="+g.URL))
			s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"grid","version":"1"}}}`)
			s.await(t, 1)
			s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			s.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"browser_navigate","arguments":{"url":"about:blank"}}}`)
			select {
			case <-g.asked:
			case <-time.After(30 * time.Second):
				t.Fatal("the server never asked the grid for a session")
			}
			if how == "SIGTERM" {
				_ = s.cmd.Process.Signal(syscall.SIGTERM)
			} else {
				_ = s.stdin.Close()
			}
			waitFor(t, 10*time.Second, "the server to begin its exit", func() bool { return strings.Contains(s.stderr.String(), "shutting down") })
			close(g.release)
			s.waitExit(t, 30*time.Second)
			if left := g.left(); len(left) > 0 {
				t.Fatalf("the grid's sessions %v were never deleted", left)
			}
		})
	}
}
