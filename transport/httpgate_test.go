package transport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestReadUpTo(t *testing.T) {
	b, err := readUpTo(strings.NewReader("hello"), -1, 5)
	if err != nil || string(b) != "hello" {
		t.Errorf("at the limit: %q %v", b, err)
	}
	if _, err := readUpTo(strings.NewReader("hello!"), -1, 5); !errors.Is(err, errTooLarge) {
		t.Errorf("over the limit: %v", err)
	}
	big := bytes.Repeat([]byte("x"), 1<<20)
	if _, err := readUpTo(bytes.NewReader(big), 10, 1000); !errors.Is(err, errTooLarge) {
		t.Errorf("a body longer than declared: %v", err)
	}
}

// fakeMCP stands for mcp-go's handler behind the gate: it makes a session
// for an initialize, ends one for a DELETE, and notes every request that
// reaches it.
type fakeMCP struct {
	ids     *clientSessions
	mu      sync.Mutex
	reached []string
}

func (f *fakeMCP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.reached = append(f.reached, r.Method+" "+r.Header.Get(sessionHeader))
	f.mu.Unlock()
	switch {
	case r.Method == http.MethodPost && strings.Contains(string(body), `"initialize"`):
		w.Header().Set(sessionHeader, f.ids.Generate())
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":0,"result":{}}`)
	case r.Method == http.MethodDelete:
		_, _ = f.ids.Terminate(r.Header.Get(sessionHeader))
	default:
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}
}

func (f *fakeMCP) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reached)
}

const testInit = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`

// do sends one request through the gate, from addr.
func do(g http.Handler, method, session, addr, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, "/mcp", strings.NewReader(body))
	r.RemoteAddr = addr
	r.Header.Set("Content-Type", "application/json")
	if session != "" {
		r.Header.Set(sessionHeader, session)
	}
	w := httptest.NewRecorder()
	g.ServeHTTP(w, r)
	return w
}

// TestGateSessionsOnlyFromInitialize: no request makes an MCP session but
// an initialize. A GET naming no session is a 400, a request naming one
// that is not live a 404, and neither reaches mcp-go, which makes a
// session (kept for good, with its goroutine) for a GET naming any id.
func TestGateSessionsOnlyFromInitialize(t *testing.T) {
	ids := newClientSessions(sessionPrefix(""), time.Hour, 10)
	next := &fakeMCP{ids: ids}
	g := newMCPGate(next, 1<<20, ids)
	if w := do(g, http.MethodGet, "", "10.0.0.1:1", ""); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "Mcp-Session-Id") {
		t.Errorf("a GET without a session: %d %s", w.Code, w.Body)
	}
	for i := range 100 {
		made := fmt.Sprintf("mcp-session-%08d-0000-4000-8000-000000000000", i)
		if w := do(g, http.MethodGet, made, "10.0.0.1:1", ""); w.Code != http.StatusNotFound {
			t.Fatalf("a GET naming a made-up session: %d %s", w.Code, w.Body)
		}
		if w := do(g, http.MethodPost, made, "10.0.0.1:1", listCallBody); w.Code != http.StatusNotFound {
			t.Fatalf("a call naming a made-up session: %d %s", w.Code, w.Body)
		}
	}
	if n := next.count(); n != 0 {
		t.Errorf("%d requests naming no live session reached mcp-go: %v", n, next.reached)
	}
	w := do(g, http.MethodPost, "", "10.0.0.1:1", testInit)
	id := w.Header().Get(sessionHeader)
	if w.Code != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d %s", w.Code, w.Body)
	}
	if w := do(g, http.MethodGet, id, "10.0.0.1:1", ""); w.Code != http.StatusOK {
		t.Errorf("a GET of a live session: %d %s", w.Code, w.Body)
	}
}

const listCallBody = `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`

// TestGateCapAndRate: at --max-clients with every session busy an
// initialize gets 503 with Retry-After and a JSON-RPC error saying what to
// do; once a session is free it is ended to make room (its transport
// state too), and its client's next request gets 404 saying why, after
// which it initializes again. Past --rate-clients a client gets 429 with
// Retry-After; another client does not.
func TestGateCapAndRate(t *testing.T) {
	ids := newClientSessions(sessionPrefix(""), time.Hour, 2)
	next := &fakeMCP{ids: ids}
	g := newMCPGate(next, 1<<20, ids)
	ended := make(chan string, 4)
	g.endTransport = func(id string) { ended <- id }
	a := do(g, http.MethodPost, "", "10.0.0.1:1", testInit).Header().Get(sessionHeader)
	b := do(g, http.MethodPost, "", "10.0.0.1:1", testInit).Header().Get(sessionHeader)
	_, _, endA := ids.enter(a, "", true) // a stream open on each
	_, _, endB := ids.enter(b, "", true)
	w := do(g, http.MethodPost, "", "10.0.0.2:1", testInit)
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "10" ||
		!strings.Contains(w.Body.String(), `"code":-32000`) || !strings.Contains(w.Body.String(), `"id":0`) ||
		!strings.Contains(w.Body.String(), "--max-clients") || !strings.Contains(w.Body.String(), "retry in 10 s") {
		t.Errorf("an initialize with every session busy: %d %v %s", w.Code, w.Header(), w.Body)
	}
	endB()
	w = do(g, http.MethodPost, "", "10.0.0.2:1", testInit)
	if w.Code != http.StatusOK || ids.count() != 2 {
		t.Fatalf("an initialize with one session free: %d %s, %d live", w.Code, w.Body, ids.count())
	}
	select {
	case id := <-ended:
		if id != b {
			t.Errorf("ended %s, want the free session %s", id, b)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the evicted session's transport state was not ended")
	}
	w = do(g, http.MethodPost, b, "10.0.0.1:1", listCallBody)
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "--max-clients") || !strings.Contains(w.Body.String(), "send initialize") ||
		!strings.Contains(w.Body.String(), `"id":7`) {
		t.Errorf("the evicted client's next call: %d %s", w.Code, w.Body)
	}
	if st, _, _ := ids.enter(a, "", true); st != sessionLive {
		t.Error("the session with a stream open was ended")
	}
	endA()

	g.limitInitializes(3)
	for i := range 3 {
		if w := do(g, http.MethodPost, "", "10.0.0.3:1", testInit); w.Code != http.StatusOK {
			t.Fatalf("initialize %d within the rate: %d %s", i+1, w.Code, w.Body)
		}
	}
	w = do(g, http.MethodPost, "", "10.0.0.3:2", testInit)
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), "--rate-clients") {
		t.Errorf("the 4th initialize in a minute: %d %v %s", w.Code, w.Header(), w.Body)
	}
	if w := do(g, http.MethodPost, "", "10.0.0.4:1", testInit); w.Code != http.StatusOK {
		t.Errorf("another client's initialize: %d %s", w.Code, w.Body)
	}
}

// keeper stands for mcp-go keeping a call's stream, and with it the
// writer the call was answered on, for as long as the session lives.
type keeper struct {
	kept []http.ResponseWriter
	sse  bool // answer as a stream
}

func (k *keeper) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	k.kept = append(k.kept, w)
	if _, canStream := w.(http.Flusher); canStream && k.sse {
		w.Header().Set("Content-Type", "text/event-stream")
	}
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, "data: {}\n\n")
}

// TestGateLetsGoOfAnswers: the writer mcp-go keeps of an answered call
// holds nothing of the HTTP response (it writes nothing more), and a
// session past its budget of streamed answers gets a writer that cannot
// stream, so that mcp-go keeps nothing more of its calls.
func TestGateLetsGoOfAnswers(t *testing.T) {
	ids := newClientSessions(sessionPrefix(""), time.Hour, 0)
	k := &keeper{sse: true}
	g := newMCPGate(k, 1<<20, ids)
	id := ids.Generate()
	if w := do(g, http.MethodPost, id, "10.0.0.1:1", listCallBody); w.Code != http.StatusOK {
		t.Fatalf("a call: %d %s", w.Code, w.Body)
	}
	kept := k.kept[0]
	if n, err := kept.Write([]byte("late")); n != 0 || err == nil {
		t.Errorf("a write on a kept writer after the answer: %d %v", n, err)
	}
	if u, ok := kept.(interface{ Unwrap() http.ResponseWriter }); !ok || u.Unwrap() != nil {
		t.Error("the kept writer still reaches the HTTP response")
	}
	ids.mu.Lock()
	streamed := ids.live[id].streamed
	ids.live[id].streamed = maxStreamedPerClient
	ids.mu.Unlock()
	if streamed != 1 {
		t.Errorf("%d streamed answers counted, want 1", streamed)
	}
	if w := do(g, http.MethodPost, id, "10.0.0.1:1", listCallBody); w.Code != http.StatusOK || w.Header().Get("Content-Type") == "text/event-stream" {
		t.Fatalf("a call past the budget: %d %v", w.Code, w.Header())
	}
	if _, canStream := k.kept[1].(http.Flusher); canStream {
		t.Error("a call past the budget of streamed answers was given a writer that streams")
	}
}
