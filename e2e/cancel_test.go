package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawPeer is the binary over stdio driven by raw JSON-RPC lines, for tests
// that must see exactly what the server sends (and what it does not).
type rawPeer struct {
	t      *testing.T
	stderr *lockedBuffer // the server's log
	in     *bufio.Writer
	mu     sync.Mutex
	got    []map[string]any // every message received, in order
	more   chan struct{}    // closed and replaced on each message
}

// startPeer starts the binary and initializes it on 2025-11-25.
func startPeer(t *testing.T, env []string) *rawPeer {
	t.Helper()
	p := startPeerRaw(t, env)
	p.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	p.await("init")
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

// startPeerRaw starts the binary, not initialized.
func startPeerRaw(t *testing.T, env []string) *rawPeer {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &rawPeer{t: t, stderr: stderr, in: bufio.NewWriter(stdin), more: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				var a []any
				if json.Unmarshal(sc.Bytes(), &a) == nil {
					m = map[string]any{"array": a}
				} else {
					m = map[string]any{"unparsed": sc.Text()}
				}
			}
			p.mu.Lock()
			p.got = append(p.got, m)
			close(p.more)
			p.more = make(chan struct{})
			p.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	return p
}

func (p *rawPeer) send(line string) {
	p.t.Helper()
	if _, err := p.in.WriteString(line + "\n"); err != nil {
		p.t.Fatal(err)
	}
	if err := p.in.Flush(); err != nil {
		p.t.Fatal(err)
	}
}

// await waits for the response to request id and returns it.
func (p *rawPeer) await(id string) map[string]any {
	p.t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		p.mu.Lock()
		for _, m := range p.got {
			if fmt.Sprint(m["id"]) == id && m["method"] == nil {
				p.mu.Unlock()
				return m
			}
		}
		more := p.more
		p.mu.Unlock()
		select {
		case <-more:
		case <-deadline:
			p.t.Fatalf("no response to %s", id)
		}
	}
}

// responsesTo counts the responses to request id received so far.
func (p *rawPeer) responsesTo(id string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, m := range p.got {
		if fmt.Sprint(m["id"]) == id && m["method"] == nil {
			n++
		}
	}
	return n
}

// longCall is a page that starts a request the test holds, and a tool call
// that waits on it: a call that runs until the test lets it go.
func longCall(t *testing.T) (f *fixture, started chan struct{}) {
	started = make(chan struct{}, 4)
	f = newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /hold", func(w http.ResponseWriter, r *http.Request) {
			started <- struct{}{}
			<-r.Context().Done() // until the page goes (the call was cancelled and the test ends)
		})
	})
	return f, started
}

const holdFunction = `async () => { await fetch('/hold'); return 'done'; }`

// TestCancelledCallGetsNoResponse: over stdio, a call the client cancels
// (notifications/cancelled, sent once the call is seen running) gets no
// response at all, as the specification says; it is no failure:
// session_errors lists none, and the session works on.
func TestCancelledCallGetsNoResponse(t *testing.T) {
	f, started := longCall(t)
	env, _ := serverEnv(t)
	p := startPeer(t, env)
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"browser_navigate","arguments":{"url":%q}}}`, f.URL+"/"))
	p.await("1")
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"browser_evaluate","arguments":{"function":%q}}}`, holdFunction))
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the call never reached the page")
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"the user changed their mind"}}`)
	// session_errors holds the session, so it answers only once the
	// cancelled call has ended: whatever that call would have sent was
	// sent by then.
	p.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"session_errors","arguments":{}}}`)
	res := p.await("3")
	if n := p.responsesTo("2"); n != 0 {
		t.Errorf("the cancelled call got %d response(s)", n)
	}
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), "No failures in session") {
		t.Errorf("session_errors after a cancellation: %s", b)
	}
	p.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"browser_snapshot","arguments":{}}}`)
	if b, _ := json.Marshal(p.await("4")); strings.Contains(string(b), `"isError":true`) {
		t.Errorf("the session after a cancellation: %s", b)
	}
}

// rawHTTP posts raw JSON-RPC messages to a server's /mcp as one MCP
// session, for tests that must see exactly what a response carries.
type rawHTTP struct {
	base, session string
}

// post sends one message and returns the status and the whole body (an
// SSE stream is read to its end).
func (h *rawHTTP) post(t *testing.T, msg string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, h.base+"/mcp", strings.NewReader(msg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if h.session != "" {
		req.Header.Set("Mcp-Session-Id", h.session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", msg, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		h.session = id
	}
	return resp.StatusCode, string(b)
}

func initRawHTTP(t *testing.T, base string) *rawHTTP {
	t.Helper()
	h := &rawHTTP{base: base}
	if code, body := h.post(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`); code != 200 || h.session == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	h.post(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return h
}

// TestCancelledCallIsNoFailure: over HTTP, a call the client cancels (with
// notifications/cancelled on another POST, as the official SDKs do) gets
// no response on its own POST and is not counted as a failure: no error
// in the metrics, none in session_errors, no warning in the client's log.
func TestCancelledCallIsNoFailure(t *testing.T) {
	f, started := longCall(t)
	env, _ := serverEnv(t)
	s := startHTTP(t, append(env, "E2E_MCP_ALLOWED_ORIGINS="+f.URL))
	h := initRawHTTP(t, s.base)
	h.post(t, `{"jsonrpc":"2.0","id":"lvl","method":"logging/setLevel","params":{"level":"debug"}}`)
	if _, body := h.post(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"browser_navigate","arguments":{"url":%q}}}`, f.URL+"/")); !strings.Contains(body, "### Page") {
		t.Fatalf("navigate: %s", body)
	}
	type answer struct {
		code int
		body string
	}
	cancelled := make(chan answer, 1)
	go func() {
		code, body := h.post(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"browser_evaluate","arguments":{"function":%q}}}`, holdFunction))
		cancelled <- answer{code, body}
	}()
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the call never reached the page")
	}
	if code, body := h.post(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"no longer needed"}}`); code != http.StatusAccepted {
		t.Fatalf("the cancellation: %d %s", code, body)
	}
	var a answer
	select {
	case a = <-cancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("the cancelled call's POST never ended")
	}
	if strings.Contains(a.body, `"id":2`) || strings.Contains(a.body, "internal_error") {
		t.Errorf("the cancelled call was answered (%d): %s", a.code, a.body)
	}
	for _, bad := range []string{"tool failed", "internal_error"} {
		if strings.Contains(a.body, bad) {
			t.Errorf("its stream carried %q: %s", bad, a.body)
		}
	}
	_, out := h.post(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"session_errors","arguments":{}}}`)
	mustContain(t, "session_errors", out, "No failures in session")
	_, metrics := s.get(t, "/metrics")
	for _, line := range strings.Split(metrics, "\n") {
		if strings.HasPrefix(line, "e2e_mcp_tool_errors_total") && strings.Contains(line, "browser_evaluate") {
			t.Errorf("the cancelled call counted as an error: %s", line)
		}
	}
}
