package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
)

// farmBrowser is a Chrome started by the test with a debugging port: a
// stand-in for a browser farm's.
type farmBrowser struct {
	cmd  *exec.Cmd
	port string
	ws   string // ws://127.0.0.1:PORT/devtools/browser/ID
	home string // its HOME, where it would save downloads
}

func startFarmBrowser(t *testing.T) *farmBrowser {
	t.Helper()
	path := os.Getenv("E2E_MCP_BROWSER_PATH")
	if path == "" {
		for _, p := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
			if lp, err := exec.LookPath(p); err == nil {
				path = lp
				break
			}
		}
	}
	if path == "" {
		t.Fatal("no Chrome or Chromium to play the remote browser")
	}
	dir, home := t.TempDir(), t.TempDir()
	cmd := exec.Command(path, "--headless", "--no-sandbox", "--remote-debugging-port=0", "--user-data-dir="+dir,
		"--no-first-run", "--disable-dev-shm-usage", "about:blank")
	cmd.Env = append(os.Environ(), "HOME="+home)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGKILL)
		<-done
		// Its helpers, which write to the profile too, follow shortly: wait
		// for them before the profile is removed.
		waitFor(t, 20*time.Second, "the remote browser's helpers to exit", func() bool {
			return len(proctest.MustFind(proctest.CmdlineContains("--user-data-dir="+dir))) == 0
		})
	})
	var b []byte
	waitFor(t, 20*time.Second, "the remote browser's DevToolsActivePort", func() bool {
		var err error
		b, err = os.ReadFile(filepath.Join(dir, "DevToolsActivePort"))
		return err == nil && strings.Count(string(b), "\n") >= 1
	})
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return &farmBrowser{cmd: cmd, port: lines[0], ws: "ws://127.0.0.1:" + lines[0] + lines[1], home: home}
}

// pages lists the URLs of the page targets of the remote browser.
func (f *farmBrowser) pages(t *testing.T) []string {
	t.Helper()
	resp, err := http.Get("http://127.0.0.1:" + f.port + "/json/list")
	if err != nil {
		t.Fatalf("list the remote browser's targets: %v", err)
	}
	defer resp.Body.Close()
	var targets []struct{ Type, URL string }
	if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tg := range targets {
		if tg.Type == "page" {
			out = append(out, tg.URL)
		}
	}
	return out
}

func countWith(urls []string, part string) int {
	n := 0
	for _, u := range urls {
		if strings.Contains(u, part) {
			n++
		}
	}
	return n
}

// TestRemoteEndpoints: with --cdp-endpoint the server launches no browser
// and spreads sessions over the endpoints; an endpoint that goes away is
// reported once to its session, which then works on another; on exit the
// server leaves the remote browsers running without its pages.
func TestRemoteEndpoints(t *testing.T) {
	f := newFixture(t)
	a, b := startFarmBrowser(t), startFarmBrowser(t)
	env, tmp := serverEnv(t)
	// Isolated: every session in a context of its own, none in the tab the
	// browsers had open (TestCDPEndpointUsesTheOpenTab), so that none of
	// their pages stays.
	c := startClient(t, append(env, "E2E_MCP_CDP_ENDPOINT="+a.ws+",http://127.0.0.1:"+b.port, "E2E_MCP_ISOLATED=true"))
	for _, id := range []string{"s1", "s2"} {
		mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html?" + id, "sessionId": id})
	}
	if n := len(chromeProcesses(tmp)); n != 0 {
		t.Errorf("the server launched a browser of its own (%d processes)", n)
	}
	onA, onB := countWith(a.pages(t), "signup.html"), countWith(b.pages(t), "signup.html")
	if onA != 1 || onB != 1 {
		t.Fatalf("want one session on each endpoint, got %d on A and %d on B", onA, onB)
	}
	// A goes away: its session hears it once, then works on B.
	victim := "s1"
	if countWith(a.pages(t), "?s2") == 1 {
		victim = "s2"
	}
	_ = a.cmd.Process.Signal(syscall.SIGKILL)
	var out string
	waitFor(t, 20*time.Second, "the lost endpoint to be reported", func() bool {
		res := call(t, c, "browser_snapshot", map[string]any{"sessionId": victim})
		out = text(res)
		return res.IsError
	})
	mustContain(t, "the lost endpoint", out, "browser_crashed", "the remote browser at "+a.ws+" went away")
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html?again", "sessionId": victim})
	if n := countWith(b.pages(t), "signup.html"); n != 2 {
		t.Errorf("want both sessions on B now, got %d pages", n)
	}
	_ = c.Close()
	waitFor(t, 20*time.Second, "the server's pages to leave the remote browser", func() bool {
		return countWith(b.pages(t), "signup.html") == 0
	})
}

// TestRemoteEndpointHeaders: --cdp-header goes with the endpoint's
// /json/version request as with its websocket handshake (a hosted browser
// service, played by a proxy in front of a Chrome, refuses both without
// its key), and a bare name is a header with an empty value.
func TestRemoteEndpointHeaders(t *testing.T) {
	f := newFixture(t)
	b := startFarmBrowser(t)
	target, err := url.Parse("http://127.0.0.1:" + b.port)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	var seen []string
	service := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		empty, hasEmpty := r.Header["X-Empty"]
		mu.Lock()
		seen = append(seen, fmt.Sprintf("%s key=%v empty=%v", r.URL.Path, r.Header.Get("Authorization") == "Bearer k1", hasEmpty && len(empty) == 1 && empty[0] == ""))
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer k1" {
			http.Error(w, "no key", http.StatusUnauthorized)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(service.Close) // after the server's (LIFO): its websocket goes first
	env, _ := serverEnv(t)
	c := startClientArgs(t, env, "--cdp-endpoint", service.URL, "--cdp-header", "Authorization: Bearer k1; X-Empty")
	mustContain(t, "navigate through the service", mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"}), "### Page")
	mu.Lock()
	defer mu.Unlock()
	var version, socket bool
	for _, s := range seen {
		path, rest, _ := strings.Cut(s, " ")
		if rest != "key=true empty=true" {
			t.Errorf("a request without the headers: %s", s)
		}
		version = version || path == "/json/version/"
		socket = socket || strings.HasPrefix(path, "/devtools/browser/")
	}
	if !version || !socket {
		t.Errorf("want the /json/version request and the websocket handshake, got %q", seen)
	}
}

// portSwitch is an address that comes and goes at the test's word,
// forwarding its connections to a browser's debugging port: a remote
// browser that goes away and comes back at the same address.
type portSwitch struct {
	t      *testing.T
	addr   string
	mu     sync.Mutex
	ln     net.Listener
	target string
	conns  map[net.Conn]bool
}

func newPortSwitch(t *testing.T, target string) *portSwitch {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &portSwitch{t: t, addr: ln.Addr().String(), ln: ln, target: target, conns: map[net.Conn]bool{}}
	go s.serve(ln)
	t.Cleanup(s.down)
	return s
}

func (s *portSwitch) serve(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go s.forward(c)
	}
}

func (s *portSwitch) forward(c net.Conn) {
	s.mu.Lock()
	target := s.target
	s.conns[c] = true
	s.mu.Unlock()
	up, err := net.Dial("tcp", target)
	if err != nil {
		_ = c.Close()
		return
	}
	s.mu.Lock()
	s.conns[up] = true
	s.mu.Unlock()
	go func() { _, _ = io.Copy(up, c); _ = up.Close() }()
	_, _ = io.Copy(c, up)
	_ = c.Close()
}

// down stops listening and cuts every connection: nothing answers there.
func (s *portSwitch) down() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln != nil {
		_ = s.ln.Close()
		s.ln = nil
	}
	for c := range s.conns {
		_ = c.Close()
		delete(s.conns, c)
	}
}

// up listens at the same address again, forwarding to target.
func (s *portSwitch) up(target string) {
	s.t.Helper()
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		s.t.Fatalf("listen at %s again: %v", s.addr, err)
	}
	s.mu.Lock()
	s.ln, s.target = ln, target
	s.mu.Unlock()
	go s.serve(ln)
}

// TestRemoteBrowserComesBack: a remote browser that went away, and came
// back at its address, serves the very next call, as Playwright MCP's
// does: its session is told once that the browser went, a call while it
// is away fails saying it cannot be reached, and the first call after it
// is back does not wait out a backoff its failures started.
func TestRemoteBrowserComesBack(t *testing.T) {
	f := newFixture(t)
	a := startFarmBrowser(t)
	sw := newPortSwitch(t, "127.0.0.1:"+a.port)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CDP_ENDPOINT=http://"+sw.addr))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	b := startFarmBrowser(t) // the browser that comes back, ready before it does
	_ = a.cmd.Process.Signal(syscall.SIGKILL)
	sw.down()
	var out string
	waitFor(t, 20*time.Second, "the lost browser to be reported", func() bool {
		res := call(t, c, "browser_snapshot", nil)
		out = text(res)
		return res.IsError
	})
	mustContain(t, "the lost browser", out, "browser_crashed")
	wantError(t, call(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"}), "browser_launch_failed", "no remote browser can be reached")
	sw.up("127.0.0.1:" + b.port)
	mustContain(t, "the first call after it came back", mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html?back"}), "### Page")
	if n := countWith(b.pages(t), "signup.html?back"); n != 1 {
		t.Errorf("want the page on the browser that came back, got %d", n)
	}
}
