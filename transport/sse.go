package transport

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/httpauth"
	"github.com/mark3labs/mcp-go/server"
	"go.uber.org/zap"
)

// The legacy HTTP+SSE transport (MCP protocol 2024-11-05), for the clients
// that still speak it (docs/architecture.md §7). GET /sse opens an event
// stream; its first event, endpoint, names the URL the client POSTs its
// messages to, /sse?sessionId=ID (Playwright MCP's), and every answer
// comes on the stream. mcp-go's SSE server speaks the protocol; the gate
// holds it to what it holds Streamable HTTP to:
//
//   - the guard's Host, Origin and credential checks (the whole mux is
//     behind it), the body limit on every POST, and no batches (2024-11-05
//     has none);
//   - a stream opened is an MCP session made: the client's rate
//     (--rate-clients) and the cap on live sessions (--max-clients) apply
//     as to an initialize, in the same table (lifetime.go). A session with
//     its stream open is never evicted nor swept as silent; it ends when
//     the stream closes, and its browser sessions with it (mcp-go
//     unregisters the session, mcptools ends what it made);
//   - a POST names a live SSE session of its own principal, or gets 404
//     (unknown, or saying why the server ended it), as a Streamable request
//     does: a Streamable session id is no SSE one, nor the reverse;
//   - a request the client cancels (notifications/cancelled) gets no
//     answer on the stream (cancel.go);
//   - a stream with nothing to say gets a comment every sseHeartbeat, so
//     that a client gone without closing is found out and its session
//     ends, and proxies do not cut a quiet stream;
//   - on the server's drain a stream closes once the answers to its
//     requests in flight were sent.

// sseHeartbeat is how often a stream gets a comment line.
const sseHeartbeat = 30 * time.Second

// ssePath is where the legacy transport's stream opens and its messages
// are posted.
const ssePath = "/sse"

// sseTransport is mcp-go's SSE server and the streams open on it.
type sseTransport struct {
	stream, message http.Handler // mcp-go's handlers
	log             *zap.Logger

	mu       sync.Mutex
	open     map[string]*sseStream
	draining bool
}

// sseStream is one open stream: its end, and how many of its requests
// await their answers.
type sseStream struct {
	cancel  context.CancelFunc
	pending int
}

// sseSessionCtx carries the id the gate made for a stream to mcp-go's
// session id generator.
type sseSessionCtx struct{}

// newSSETransport serves the legacy transport of srv; contextFunc gives a
// message's call what a Streamable request's gets (its principal, its
// client's key).
func newSSETransport(srv *server.MCPServer, log *zap.Logger, contextFunc server.SSEContextFunc) *sseTransport {
	s := server.NewSSEServer(srv,
		server.WithMessageEndpoint(ssePath),
		server.WithSessionIDGenerator(func(ctx context.Context, _ *http.Request) (string, error) {
			id, _ := ctx.Value(sseSessionCtx{}).(string)
			if id == "" {
				return "", errors.New("an SSE stream the gate did not admit")
			}
			return id, nil
		}),
		// The guard checks Host and Origin before a request gets here.
		server.WithSSEDisableLocalhostProtection(true),
		server.WithSSEContextFunc(contextFunc),
	)
	return &sseTransport{stream: s.SSEHandler(), message: s.MessageHandler(), log: log.Named("sse"), open: map[string]*sseStream{}}
}

// serveSSE serves /sse: GET opens a stream, POST carries a message.
func (g *mcpGate) serveSSE(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		g.openSSE(w, r)
	case http.MethodPost:
		g.postSSE(w, r)
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "GET opens an SSE stream, POST sends a message to one", http.StatusMethodNotAllowed)
	}
}

// openSSE makes an MCP session and serves its stream until the client
// closes it or the server ends the session.
func (g *mcpGate) openSSE(w http.ResponseWriter, r *http.Request) {
	if !g.admit(w, r, nil) {
		return
	}
	id, closed := g.ids.openSSE(principalKey(r))
	g.ids.admitting.Unlock()
	ctx, cancel := context.WithCancel(r.Context())
	st := &sseStream{cancel: cancel}
	g.sse.mu.Lock()
	g.sse.open[id] = st
	g.sse.mu.Unlock()
	client := httpauth.ClientKey(r)
	g.sse.log.Debug("SSE stream opened", zap.String("connection", id), zap.String("client", client))
	sw := &sseWriter{w: w, c: g.cancelled, session: id, answered: func() { g.sse.answered(id) }}
	defer func() {
		g.sse.mu.Lock()
		delete(g.sse.open, id)
		g.sse.mu.Unlock()
		cancel()
		sw.finish()
		g.cancelled.forget(id)
		closed()
		g.sse.log.Debug("SSE stream closed", zap.String("connection", id), zap.String("client", client))
	}()
	go sw.heartbeat(ctx, sseHeartbeat, cancel)
	g.sse.stream.ServeHTTP(sw, r.WithContext(context.WithValue(ctx, sseSessionCtx{}, id)))
}

// postSSE passes a message to the SSE session its URL names.
func (g *mcpGate) postSSE(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("sessionId")
	if id == "" {
		writeRPCError(w, http.StatusBadRequest, nil, -32600,
			"Bad Request: POST to the URL the SSE stream's endpoint event gave (it names the session); open GET "+ssePath+" first")
		return
	}
	trimmed, ok := g.readBody(w, r)
	if !ok {
		return
	}
	if len(trimmed) > 0 && trimmed[0] == '[' {
		writeRPCError(w, http.StatusBadRequest, nil, -32600,
			"Invalid Request: the SSE transport (protocol 2024-11-05) has no JSON-RPC batches: send one message per POST")
		return
	}
	var msg struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(trimmed, &msg) // mcp-go answers what does not parse
	state, why, end := g.ids.enterSSE(id, principalKey(r), msg.Method != "notifications/initialized")
	switch state {
	case sessionUnknown:
		writeRPCError(w, http.StatusNotFound, msg.ID, -32001,
			"Invalid session ID: no open SSE stream of this server has it; open GET "+ssePath+" for a new session")
		return
	case sessionEnded:
		writeRPCError(w, http.StatusNotFound, msg.ID, -32001, g.ids.endedMessage(why))
		return
	}
	defer end()
	g.cancelled.noteMessage(id, trimmed)
	request := msg.Method != "" && len(msg.ID) > 0 && string(msg.ID) != "null"
	if !request {
		g.sse.message.ServeHTTP(w, r)
		return
	}
	// Its answer comes on the stream (sseWriter), or never if the stream
	// closes first.
	g.cancelled.begin(id, msg.ID)
	g.sse.pend(id)
	rec := &statusRecorder{ResponseWriter: w}
	g.sse.message.ServeHTTP(rec, r)
	if rec.code != http.StatusAccepted {
		// Refused (its stream just closed): no answer will come.
		g.cancelled.end(id, msg.ID)
		g.sse.answered(id)
	}
}

// close closes the stream of SSE session id, which ends it; false when no
// stream of that id is open.
func (s *sseTransport) close(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.open[id]
	if st != nil {
		st.cancel()
	}
	return st != nil
}

// pend counts a request of session id awaiting its answer.
func (s *sseTransport) pend(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.open[id]; st != nil {
		st.pending++
	}
}

// answered counts an answer of session id sent (or dropped); draining, the
// stream closes with its last.
func (s *sseTransport) answered(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.open[id]; st != nil && st.pending > 0 {
		if st.pending--; st.pending == 0 && s.draining {
			st.cancel()
		}
	}
}

// drain closes every stream once the answers to its requests in flight
// were sent (the server's drain; the HTTP server waits for the streams).
func (s *sseTransport) drain() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.draining = true
	for _, st := range s.open {
		if st.pending == 0 {
			st.cancel()
		}
	}
}

// sseWriter is an SSE stream's response as mcp-go writes it (one event a
// write): an answer to a request the client cancelled is dropped, every
// answer is counted, the wildcard CORS header mcp-go sets is taken off (the
// guard decides which origins may call), and heartbeats go between
// events.
type sseWriter struct {
	mu       sync.Mutex
	w        http.ResponseWriter
	c        *cancelledCalls
	session  string
	answered func()
	started  bool
	done     bool // the handler returned: nothing more is written
}

// finish stops every write, a heartbeat's too: the response is over.
func (s *sseWriter) finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
}

func (s *sseWriter) Header() http.Header { return s.w.Header() }

func (s *sseWriter) WriteHeader(code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.startLocked(code)
}

// startLocked writes the status line and headers, once.
func (s *sseWriter) startLocked(code int) {
	if s.started {
		return
	}
	s.started = true
	if s.w.Header().Get("Access-Control-Allow-Origin") == "*" {
		s.w.Header().Del("Access-Control-Allow-Origin")
	}
	s.w.WriteHeader(code)
}

func (s *sseWriter) Write(p []byte) (int, error) {
	if id := eventResponseID(p); id != nil {
		cancelled := s.c.isCancelled(s.session, id)
		s.c.end(s.session, id)
		defer s.answered()
		if cancelled {
			return len(p), nil
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return 0, http.ErrHandlerTimeout
	}
	s.startLocked(http.StatusOK)
	return s.w.Write(p)
}

// Flush passes the stream's flush through.
func (s *sseWriter) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.w.(http.Flusher); ok && !s.done {
		f.Flush()
	}
}

// heartbeat writes a comment every interval until ctx ends; a write that
// fails (the client is gone) ends the stream.
func (s *sseWriter) heartbeat(ctx context.Context, interval time.Duration, end context.CancelFunc) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.mu.Lock()
		var err error
		if s.started && !s.done { // after the endpoint event, never before it
			if _, err = s.w.Write([]byte(": keep-alive\n\n")); err == nil {
				err = http.NewResponseController(s.w).Flush()
			}
		}
		s.mu.Unlock()
		if err != nil {
			end()
			return
		}
	}
}

// eventResponseID is the id of the JSON-RPC response an SSE event carries
// in its data, or nil.
func eventResponseID(p []byte) json.RawMessage {
	sc := bufio.NewScanner(bytes.NewReader(p))
	sc.Buffer(make([]byte, 0, 64<<10), len(p)+1)
	for sc.Scan() {
		if data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:")); ok {
			return responseID(data)
		}
	}
	return nil
}

// statusRecorder notes the status a handler answered with.
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}
