package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/prometheus/common/expfmt"
)

// httpServer is the binary serving Streamable HTTP.
type httpServer struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:port
	log  *lockedBuffer
	done chan struct{}
	// token, when set, is sent as a bearer token by get (/metrics needs
	// it on a server with E2E_MCP_AUTH_TOKEN).
	token string
}

var listenRE = regexp.MustCompile(`serving MCP over HTTP.*"addr": "([^"]+)"`)

// startHTTP runs the binary with --http on a free port and waits for it to
// say where it listens.
func startHTTP(t *testing.T, env []string, args ...string) *httpServer {
	t.Helper()
	return startServing(t, env, listenRE, func(m string) string { return "http://" + m },
		append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
}

// startServing runs the binary with args and waits until a line of its
// stderr matches addrRE, whose first group, through base, is the server's
// base URL. Its stderr is read to the end, whatever the lines' length (a
// server whose stderr is not drained blocks), and kept as its log; the
// server is stopped (SIGTERM, then killed after 30 s) when the test ends.
func startServing(t *testing.T, env []string, addrRE *regexp.Regexp, base func(match string) string, args ...string) *httpServer {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &httpServer{cmd: cmd, log: &lockedBuffer{}, done: make(chan struct{})}
	addr := make(chan string, 1)
	read := make(chan struct{})
	go func() {
		defer close(read)
		r := bufio.NewReader(stderr)
		for {
			line, err := r.ReadString('\n')
			_, _ = s.log.Write([]byte(line))
			if m := addrRE.FindStringSubmatch(strings.TrimSuffix(line, "\n")); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { _ = cmd.Wait(); close(s.done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("server log:\n%s", s.log.String())
		}
	})
	select {
	case a := <-addr:
		s.base = base(a)
	case <-s.done:
		<-read
		t.Fatalf("%v: the server exited before it said where it listens:\n%s", args, s.log.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("%v: the server did not say where it listens within 30 s:\n%s", args, s.log.String())
	}
	return s
}

// client opens an MCP client on the server's /mcp and initializes it.
func (s *httpServer) client(t *testing.T) *client.Client {
	t.Helper()
	c, err := client.NewStreamableHttpClient(s.base + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := initialize(c); err != nil {
		t.Fatalf("over HTTP: %v", err)
	}
	return c
}

func (s *httpServer) get(t *testing.T, path string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// isolationRoutes: /iso?who=X sets a cookie and localStorage for X (only if
// none is set yet) and shows what the browser context holds.
func isolationRoutes(mux *http.ServeMux, _ *fixture) {
	mux.HandleFunc("GET /iso", func(w http.ResponseWriter, r *http.Request) {
		who := r.URL.Query().Get("who")
		if who != "" {
			http.SetCookie(w, &http.Cookie{Name: "who", Value: who, Path: "/"})
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>Iso</title><p id="c"></p><p id="l"></p><script>
if (%q && !localStorage.getItem('who')) localStorage.setItem('who', %q);
document.getElementById('c').textContent = 'cookie=' + document.cookie;
document.getElementById('l').textContent = 'storage=' + localStorage.getItem('who');
</script>`, who, who)
	})
}

// checkIsolated has each of the callers mark its session, concurrently,
// then look: each sees its own mark and never the other's.
func checkIsolated(t *testing.T, f *fixture, calls map[string]func(tool string, args map[string]any) string) {
	t.Helper()
	var wg sync.WaitGroup
	for who, do := range calls {
		wg.Go(func() {
			do("browser_navigate", map[string]any{"url": f.URL + "/iso?who=" + who})
			out := do("browser_navigate", map[string]any{"url": f.URL + "/iso"})
			for other := range calls {
				if other == who {
					mustContain(t, who+"'s view", out, "cookie=who="+who, "storage="+who)
				} else if strings.Contains(out, "="+other) {
					t.Errorf("%s sees %s's cookie or storage:\n%s", who, other, out)
				}
			}
		})
	}
	wg.Wait()
}

// TestHTTPIsolation: two HTTP clients, and two sessionIds on one stdio
// connection, set cookies and storage concurrently and never see each
// other's.
func TestHTTPIsolation(t *testing.T) {
	f := newFixture(t, isolationRoutes)
	env, _ := serverEnv(t)
	s := startHTTP(t, env)
	a, b := s.client(t), s.client(t)
	checkIsolated(t, f, map[string]func(string, map[string]any) string{
		"alice": func(tool string, args map[string]any) string { return mustCall(t, a, tool, args) },
		"bob":   func(tool string, args map[string]any) string { return mustCall(t, b, tool, args) },
	})
	// Each client lists its own session only: the other's is not its
	// business (nor its id, which is the other's Mcp-Session-Id).
	out := mustCall(t, a, "session_list", nil)
	if n := strings.Count(out, "mcp-session-"); n != 1 || !strings.Contains(out, "(yours)") {
		t.Errorf("want a's own HTTP session listed, and only it, got %d:\n%s", n, out)
	}

	env2, _ := serverEnv(t)
	c := startClient(t, env2)
	with := func(id string) func(string, map[string]any) string {
		return func(tool string, args map[string]any) string {
			args["sessionId"] = id
			return mustCall(t, c, tool, args)
		}
	}
	checkIsolated(t, f, map[string]func(string, map[string]any) string{"carol": with("carol"), "dave": with("dave")})
}

// scrape reads /metrics and returns the value of a sample, by metric name
// and labels (name=value pairs).
func scrape(t *testing.T, s *httpServer, name string, labels ...string) float64 {
	t.Helper()
	v, _ := scrapeFound(t, s, name, labels...)
	return v
}

// scrapeFound is scrape that also says whether /metrics has the sample.
func scrapeFound(t *testing.T, s *httpServer, name string, labels ...string) (float64, bool) {
	t.Helper()
	code, body := s.get(t, "/metrics")
	if code != 200 {
		t.Fatalf("/metrics: %d", code)
	}
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("/metrics does not parse as Prometheus text: %v", err)
	}
	fam, ok := fams[name]
	if !ok {
		return 0, false
	}
	for _, m := range fam.GetMetric() {
		match := true
		for i := 0; i+1 < len(labels); i += 2 {
			found := false
			for _, l := range m.GetLabel() {
				if l.GetName() == labels[i] && l.GetValue() == labels[i+1] {
					found = true
				}
			}
			match = match && found
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

// TestHTTPMetricsAndHealth: /metrics moves with the calls; /health is 200
// with a browser and 503 when none can be started.
func TestHTTPMetricsAndHealth(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	s := startHTTP(t, env)
	c := s.client(t)
	before := scrape(t, s, "e2e_mcp_tool_calls_total", "tool", "browser_navigate")
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	call(t, c, "browser_click", map[string]any{"target": "#nope", "element": "missing"})
	if got := scrape(t, s, "e2e_mcp_tool_calls_total", "tool", "browser_navigate"); got != before+2 {
		t.Errorf("tool calls of browser_navigate went from %v to %v, want +2", before, got)
	}
	if got := scrape(t, s, "e2e_mcp_tool_errors_total", "tool", "browser_click", "type", "element_not_found"); got != 1 {
		t.Errorf("errors of browser_click element_not_found = %v, want 1", got)
	}
	if got := scrape(t, s, "e2e_mcp_tool_duration_seconds", "tool", "browser_navigate"); got < 2 {
		t.Errorf("latency samples of browser_navigate = %v, want >= 2", got)
	}
	if got := scrape(t, s, "e2e_mcp_sessions_active"); got != 1 {
		t.Errorf("sessions active = %v, want 1", got)
	}
	if got := scrape(t, s, "e2e_mcp_browser_launches_total", "result", "ok"); got != 1 {
		t.Errorf("browser launches ok = %v, want 1", got)
	}
	code, body := s.get(t, "/health")
	if code != 200 || !strings.Contains(body, `"status":"ok"`) || !strings.Contains(body, `"active":1`) {
		t.Errorf("/health = %d %s", code, body)
	}

	// /health itself starts no browser; once a session's launch failed,
	// it says so until a launch succeeds.
	envBad, _ := serverEnv(t)
	bad := startHTTP(t, append(envBad, "E2E_MCP_BROWSER_PATH=/bin/false"))
	code, body = bad.get(t, "/health")
	if code != http.StatusOK || !strings.Contains(body, `"executable":"/bin/false"`) {
		t.Errorf("/health before any launch = %d %s", code, body)
	}
	wantError(t, call(t, bad.client(t), "browser_navigate", map[string]any{"url": f.URL + "/"}), "browser_launch_failed")
	code, body = bad.get(t, "/health")
	if code != http.StatusServiceUnavailable || !strings.Contains(body, `"status":"unhealthy"`) || !strings.Contains(body, "failed to start") {
		t.Errorf("/health with a browser that cannot start = %d %s", code, body)
	}
}

// TestSessionLimit: with --max-sessions 2, a third session ends the least
// recently used idle one; when both are in a call it gets
// capacity_exceeded.
func TestSessionLimit(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	s := startHTTP(t, append(env, "E2E_MCP_MAX_SESSIONS=2"))
	c := s.client(t)
	nav := func(id string) *mcp.CallToolResult {
		return call(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html", "sessionId": id})
	}
	for _, id := range []string{"one", "two", "three"} {
		if res := nav(id); res.IsError {
			t.Fatalf("session %s: %s", id, text(res))
		}
	}
	out := mustCall(t, c, "session_list", map[string]any{"sessionId": "three"})
	if strings.Contains(out, "- one") || !strings.Contains(out, "two") {
		t.Errorf("want one evicted (least recently used) and two kept:\n%s", out)
	}
	if got := scrape(t, s, "e2e_mcp_sessions_ended_total", "reason", "evicted"); got != 1 {
		t.Errorf("evicted sessions = %v, want 1", got)
	}

	// Both sessions busy: a third is refused.
	var wg sync.WaitGroup
	for _, id := range []string{"two", "three"} {
		wg.Go(func() {
			call(t, c, "browser_wait_for", map[string]any{"time": 3, "sessionId": id})
		})
	}
	waitFor(t, 10*time.Second, "both sessions to be in a call", func() bool {
		return scrape(t, s, "e2e_mcp_tool_calls_in_flight") >= 2
	})
	res := nav("four")
	wg.Wait()
	wantError(t, res, "capacity_exceeded", "all 2 sessions")
}

// TestHTTPShutdown: SIGTERM drains, ends every session (the dev server gets
// --shutdown) and leaves no Chrome process.
func TestHTTPShutdown(t *testing.T) {
	f := newFixture(t)
	env, state := fixtureEnv(t) // its cleanup fails the test if a dev server is left
	tmp := strings.TrimPrefix(env[slicesIndex(env, "TMPDIR=")], "TMPDIR=")
	s := startHTTP(t, append(env, "E2E_MCP_SERVER_COMMAND="+devfixture))
	c := s.client(t)
	mustCall(t, c, "session_start", nil)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	if len(chromeProcesses(tmp)) == 0 || len(fixtureProcesses(state)) == 0 {
		t.Fatal("no Chrome or no dev server while a session is open")
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not exit within 30s of SIGTERM")
	}
	requireNoChrome(t, tmp, 10*time.Second)
	if !strings.Contains(verbs(state), "shutdown") {
		t.Errorf("the dev server got no --shutdown; verbs: %s", verbs(state))
	}
	mustContain(t, "the server log", s.log.String(), "draining HTTP", "dev server stopped")
}

// slicesIndex is the index of the first entry of env with prefix, or -1.
func slicesIndex(env []string, prefix string) int {
	for i := len(env) - 1; i >= 0; i-- {
		if strings.HasPrefix(env[i], prefix) {
			return i
		}
	}
	return -1
}

// sseEvent is one event of a text/event-stream.
type sseEvent struct{ id, data string }

// readEvents reads SSE events from r until stop says so or the stream ends.
func readEvents(r io.Reader, stop func(sseEvent) bool) []sseEvent {
	var out []sseEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var ev sseEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id:"):
			ev.id = strings.TrimSpace(line[3:])
		case strings.HasPrefix(line, "data:"):
			ev.data += strings.TrimSpace(line[5:])
		case line == "":
			if ev.data != "" {
				out = append(out, ev)
				if stop(ev) {
					return out
				}
			}
			ev = sseEvent{}
		}
	}
	return out
}

// TestHTTPResume: a client whose connection breaks in the middle of a call
// reconnects with Last-Event-ID and gets the rest of the stream, answer
// included (resumable SSE).
func TestHTTPResume(t *testing.T) {
	env, _ := fixtureEnv(t, "FIXTURE_MODE=slow", "FIXTURE_SLOW=3s")
	s := startHTTP(t, append(env, "E2E_MCP_SERVER_COMMAND="+devfixture))
	do := func(method, body string, h map[string]string) *http.Response {
		req, _ := http.NewRequest(method, s.base+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range h {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := do("POST", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, nil)
	sid := resp.Header.Get("Mcp-Session-Id")
	resp.Body.Close()
	if sid == "" {
		t.Fatal("no Mcp-Session-Id")
	}
	h := map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25"}
	do("POST", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h).Body.Close()

	// A slow session_start with a progress token answers as an SSE stream;
	// read its first event, then drop the connection.
	resp = do("POST", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"session_start","arguments":{},"_meta":{"progressToken":"p1"}}}`, h)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("a call with progress answers %s, want an SSE stream", ct)
	}
	first := readEvents(resp.Body, func(sseEvent) bool { return true })
	resp.Body.Close()
	if len(first) != 1 || first[0].id == "" || !strings.Contains(first[0].data, "notifications/progress") {
		t.Fatalf("first event: %+v", first)
	}

	h["Last-Event-ID"] = first[0].id
	req, _ := http.NewRequest("GET", s.base+"/mcp", nil)
	req.Header.Set("Accept", "text/event-stream")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rest := readEvents(resp.Body, func(e sseEvent) bool { return strings.Contains(e.data, `"id":7`) })
	if len(rest) == 0 || !strings.Contains(rest[len(rest)-1].data, `"id":7`) || !strings.Contains(rest[len(rest)-1].data, "Dev server") {
		t.Fatalf("the resumed stream does not end with the call's answer: %+v", rest)
	}
	mustCall(t, s.client(t), "session_list", nil) // the server still serves
	do("DELETE", "", h).Body.Close()              // ends the session: the dev server gets --shutdown
}

// TestHTTPDevCommandsLimited: over HTTP a client cannot name a command to
// run; session_start runs only the configured one.
func TestHTTPDevCommandsLimited(t *testing.T) {
	env, _ := fixtureEnv(t)
	s := startHTTP(t, append(env, "E2E_MCP_SERVER_COMMAND="+devfixture))
	c := s.client(t)
	for _, args := range []map[string]any{
		{"commandPath": "/bin/sh", "args": []string{"-c", "touch /tmp/pwned"}},
		{"run": "python3 -m http.server $PORT"},
		{"cwd": "/"},
	} {
		wantError(t, call(t, c, "session_start", args), "not_allowed", "only the dev-server command this server was started with")
	}
	out := mustCall(t, c, "session_start", nil)
	mustContain(t, "the configured command", out, "Dev server")
	mustCall(t, c, "session_end", nil)
}

// TestLoggingCapability: a client that asks for warnings with
// logging/setLevel hears about a failed call; with "error" it does not.
func TestLoggingCapability(t *testing.T) {
	env, _ := serverEnv(t)
	s := startHTTP(t, env)
	c := s.client(t)
	var mu sync.Mutex
	var got []string
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/message" {
			b, _ := json.Marshal(n.Params)
			mu.Lock()
			got = append(got, string(b))
			mu.Unlock()
		}
	})
	setLevel := func(level mcp.LoggingLevel) {
		req := mcp.SetLevelRequest{}
		req.Params.Level = level
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := c.SetLevel(ctx, req); err != nil { //nolint:staticcheck // deprecated from 2026-07-28 on; our HTTP sessions speak 2025-11-25, where issue 8 asks for it
			t.Fatalf("logging/setLevel: %v", err)
		}
	}
	setLevel(mcp.LoggingLevelError)
	call(t, c, "browser_tabs", map[string]any{"action": "select", "index": 5})
	setLevel(mcp.LoggingLevelWarning)
	call(t, c, "browser_tabs", map[string]any{"action": "select", "index": 6})
	waitFor(t, 10*time.Second, "the warning about the failed call", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) > 0
	})
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || !strings.Contains(got[0], `"level":"warning"`) || !strings.Contains(got[0], "tool failed") || !strings.Contains(got[0], "no tab 6") {
		t.Errorf("want one warning about the second call, got %q", got)
	}
}

// TestMetricsDeclaredAtZero: on a server that has launched nothing, the
// browser crash and launch counters are there at zero for each of their
// kinds, so that a dashboard's rate() and an alert on them work before the
// first crash.
func TestMetricsDeclaredAtZero(t *testing.T) {
	env, _ := serverEnv(t)
	s := startHTTP(t, env)
	for name, labels := range map[string][]string{
		"e2e_mcp_browser_crashes_total":  {"kind", "browser", "kind", "tab", "kind", "hung"},
		"e2e_mcp_browser_launches_total": {"result", "ok", "result", "failed"},
	} {
		for i := 0; i < len(labels); i += 2 {
			if v, ok := scrapeFound(t, s, name, labels[i], labels[i+1]); !ok || v != 0 {
				t.Errorf("%s{%s=%q}: %v (there: %v), want 0 before anything happened", name, labels[i], labels[i+1], v, ok)
			}
		}
	}
}
