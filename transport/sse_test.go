package transport

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestSSESessionsInTheTable: an SSE session is a live MCP session of the
// one table, counted against the cap; with its stream open it is neither
// evicted nor swept; a Streamable request naming it finds nothing (nor
// does mcp-go's Validate), an SSE message of another principal neither;
// closing its stream ends it.
func TestSSESessionsInTheTable(t *testing.T) {
	clk := newFakeClock()
	c := clientsAt(clk, time.Hour, 2)
	id, closed := c.openSSE("alice")
	if !strings.HasPrefix(id, mcpSessionPrefix) || c.count() != 1 {
		t.Fatalf("openSSE = %q, %d live", id, c.count())
	}
	if st, _, _ := c.enter(id, "alice", true); st != sessionUnknown {
		t.Errorf("a Streamable request naming an SSE session: %v", st)
	}
	if done, err := c.Validate(id); done || err == nil {
		t.Errorf("Validate(SSE id) = %v, %v: want unknown to the Streamable transport", done, err)
	}
	if st, _, _ := c.enterSSE(id, "bob", true); st != sessionUnknown {
		t.Errorf("another principal's message: %v", st)
	}
	st, _, end := c.enterSSE(id, "alice", true)
	if st != sessionLive {
		t.Fatalf("its principal's message: %v", st)
	}
	end()
	streamable := c.Generate()
	if st, _, _ := c.enterSSE(streamable, "", true); st != sessionUnknown {
		t.Errorf("an SSE message naming a Streamable session: %v", st)
	}
	clk.add(2 * time.Hour)
	if gone := c.silent(clk.now()); len(gone) != 1 || gone[0] != streamable {
		t.Errorf("swept %v: want only the silent Streamable session", gone)
	}
	other, closeOther := c.openSSE("")
	if evicted, full := c.admit(); evicted != "" || !full {
		t.Errorf("at the cap with two streams open: evicted %q, full %v", evicted, full)
	}
	closed()
	if c.count() != 1 {
		t.Errorf("after its stream closed: %d live", c.count())
	}
	if st, _, _ := c.enterSSE(id, "alice", true); st != sessionUnknown {
		t.Errorf("a message after the stream closed: %v", st)
	}
	closeOther()
	if st, _, _ := c.enterSSE(other, "", true); st != sessionUnknown || c.count() != 0 {
		t.Errorf("after both closed: %v, %d live", st, c.count())
	}
}

// TestSSEWriter: the answer to a cancelled request is not written, others
// are, each counted once; mcp-go's wildcard CORS header is taken off; a
// heartbeat is a comment, and one that cannot be written ends the stream.
func TestSSEWriter(t *testing.T) {
	calls := newCancelledCalls()
	calls.begin("s", []byte(`1`))
	calls.begin("s", []byte(`"two"`))
	calls.noteMessage("s", []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`))
	rec := httptest.NewRecorder()
	answered := 0
	w := &sseWriter{w: rec, c: calls, session: "s", answered: func() { answered++ }}
	w.Header().Set("Access-Control-Allow-Origin", "*")
	for _, ev := range []string{
		"event: endpoint\ndata: /sse?sessionId=s\r\n\r\n",
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n",
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"two\",\"result\":{}}\n\n",
	} {
		if _, err := w.Write([]byte(ev)); err != nil {
			t.Fatal(err)
		}
	}
	body := rec.Body.String()
	if strings.Contains(body, `"id":1`) || !strings.Contains(body, `"id":"two"`) || !strings.Contains(body, "notifications/progress") || !strings.Contains(body, "event: endpoint") {
		t.Errorf("stream:\n%s", body)
	}
	if answered != 2 || calls.len() != 0 {
		t.Errorf("answered %d, tracked %d: want 2 and 0", answered, calls.len())
	}
	if got := rec.Result().Header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Errorf("Access-Control-Allow-Origin %q", got)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() { w.heartbeat(ctx, time.Millisecond, cancel); close(done) }()
	pollUntil(t, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return strings.Contains(rec.Body.String(), "\n: keep-alive\n\n")
	})
	cancel()
	<-done

	broken := &sseWriter{w: failingWriter{httptest.NewRecorder()}, c: calls, session: "t", answered: func() {}, started: true}
	bctx, bcancel := context.WithCancel(context.Background())
	defer bcancel()
	broken.heartbeat(bctx, time.Millisecond, bcancel) // returns once a write fails
	if bctx.Err() == nil {
		t.Error("a heartbeat that cannot be written left the stream open")
	}
}

// failingWriter is a response whose connection is gone.
type failingWriter struct{ *httptest.ResponseRecorder }

func (failingWriter) Write([]byte) (int, error) { return 0, net.ErrClosed }

// pollUntil polls cond until it holds, failing the test after 10 s.
func pollUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 10s")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestSSEDrain: draining closes a stream with nothing in flight at once,
// and one with a request in flight once its answer is sent.
func TestSSEDrain(t *testing.T) {
	s := &sseTransport{open: map[string]*sseStream{}}
	idle, idleCancel := context.WithCancel(context.Background())
	busy, busyCancel := context.WithCancel(context.Background())
	defer idleCancel()
	defer busyCancel()
	s.open["idle"], s.open["busy"] = &sseStream{cancel: idleCancel}, &sseStream{cancel: busyCancel}
	s.pend("busy")
	s.drain()
	if idle.Err() == nil || busy.Err() != nil {
		t.Fatalf("after drain: idle closed %v, busy closed %v", idle.Err() != nil, busy.Err() != nil)
	}
	s.answered("busy")
	if busy.Err() == nil {
		t.Error("the busy stream stayed open after its answer")
	}
	if !s.close("idle") || s.close("nothing") {
		t.Error("close says whether a stream of the id was open")
	}
}

// TestCancelledCallsForget: a closed stream's requests are dropped, only
// its own.
func TestCancelledCallsForget(t *testing.T) {
	c := newCancelledCalls()
	c.begin("a", []byte(`1`))
	c.begin("a", []byte(`2`))
	c.begin("ab", []byte(`1`))
	c.forget("a")
	if c.len() != 1 || !c.inFlight("ab", []byte(`1`)) {
		t.Errorf("after forget(a): %d tracked", c.len())
	}
}

// TestListeningNote: the line scripts wait for names the address a client
// reaches (a wildcard as localhost, IPv6 in brackets), and the .mcp.json
// entry names the token's variable, never its value.
func TestListeningNote(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8931": "Listening on http://127.0.0.1:8931\n",
		"0.0.0.0:8931":   "Listening on http://localhost:8931\n",
		"[::]:8931":      "Listening on http://localhost:8931\n",
		"[::1]:8931":     "Listening on http://[::1]:8931\n",
	} {
		tcp, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		note := listeningNote(tcp, false)
		if !strings.HasPrefix(note, want) || strings.Contains(note, "headers") ||
			!strings.Contains(note, `"url": "`+strings.TrimSuffix(strings.TrimPrefix(want, "Listening on "), "\n")+`/mcp"`) {
			t.Errorf("%s:\n%s", addr, note)
		}
	}
	tcp, _ := net.ResolveTCPAddr("tcp", "127.0.0.1:1")
	if note := listeningNote(tcp, true); !strings.Contains(note, `"Authorization": "Bearer ${E2E_MCP_AUTH_TOKEN}"`) {
		t.Errorf("with a token:\n%s", note)
	}
}

// TestSSEMethods: /sse takes GET and POST only, and a POST must name its
// session.
func TestSSEMethods(t *testing.T) {
	g := newMCPGate(http.NotFoundHandler(), 1<<20, newClientSessions(mcpSessionPrefix, time.Hour, 10))
	rec := httptest.NewRecorder()
	g.serveSSE(rec, httptest.NewRequest(http.MethodPut, "/sse", nil))
	if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, POST" {
		t.Errorf("PUT /sse: %d %q", rec.Code, rec.Header().Get("Allow"))
	}
	rec = httptest.NewRecorder()
	g.serveSSE(rec, httptest.NewRequest(http.MethodPost, "/sse", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)))
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "endpoint event") {
		t.Errorf("POST /sse without sessionId: %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	g.serveSSE(rec, httptest.NewRequest(http.MethodPost, "/sse?sessionId=x", strings.NewReader(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)))
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "no JSON-RPC batches") {
		t.Errorf("a batch over SSE: %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	g.serveSSE(rec, httptest.NewRequest(http.MethodPost, "/sse?sessionId=x", strings.NewReader(strings.Repeat(" ", 2<<20))))
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over the limit: %d", rec.Code)
	}
}
