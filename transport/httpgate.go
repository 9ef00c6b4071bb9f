package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/e2e-mcp/e2e-mcp/httpauth"
	"github.com/e2e-mcp/e2e-mcp/metrics"
)

// The MCP endpoint's own checks, between the guard (Host, Origin,
// credentials: httpauth) and mcp-go's Streamable HTTP handler:
//
//   - a request body larger than the limit is refused with 413 before
//     anything decodes it (mcp-go reads whole bodies into memory);
//   - a JSON-RPC batch (an array), which protocol version 2025-03-26 has,
//     is served member by member (batch.go); a client of a later version
//     is told its version has none;
//   - an initialize is held to the client's rate (--rate-clients, 429) and
//     to the cap on MCP sessions (--max-clients: it ends the session that
//     can best go, or gets 503 when none can; lifetime.go);
//   - a request that needs an MCP session and names none gets 400, as the
//     specification says (mcp-go answers 404, which tells a client to
//     start over, and makes a session for a GET that names none);
//   - a request naming a session that is not live gets 404 here, with a
//     body saying why when the server ended it, and never reaches mcp-go
//     (which would make a session for a GET naming any id);
//   - an MCP session belongs to the principal that initialized it (an
//     OAuth issuer and subject): a request of another principal naming it
//     gets exactly the answer an unknown session gets. With a static token
//     or no credential every client is the same principal; then the
//     session id, which is random and never listed, is the only
//     capability.

// sessionHeader is the MCP session header.
const sessionHeader = "Mcp-Session-Id"

// mcpGate is the middleware above; maxBody bounds request bodies.
type mcpGate struct {
	next    http.Handler
	maxBody int64
	// ids are the MCP sessions (lifetime.go): who owns each, which are
	// live, which the server ended and why, and the cap on them.
	ids *clientSessions
	// cancelled are the requests whose responses are not to be sent.
	cancelled *cancelledCalls
	// inits limits the initializes of one client (its OAuth subject, else
	// its address) to initsPerMinute; nil: no limit.
	inits          *httpauth.RateLimiter
	initsPerMinute int
	// endTransport ends what mcp-go holds of a session the server ended
	// (endTransport of lifetime.go, to the MCP handler; an SSE session's
	// stream is closed).
	endTransport func(id string)
	// sse serves the legacy SSE transport (sse.go); nil: not served.
	sse *sseTransport
}

func newMCPGate(next http.Handler, maxBody int64, ids *clientSessions) *mcpGate {
	g := &mcpGate{next: next, maxBody: maxBody, ids: ids, cancelled: newCancelledCalls()}
	g.endTransport = func(id string) {
		if g.sse != nil && g.sse.close(id) {
			return // an SSE session: its stream closes (sse.go)
		}
		endTransport(next, id)
	}
	return g
}

// limitInitializes limits each client to perMinute initializes a minute
// (0: no limit).
func (g *mcpGate) limitInitializes(perMinute int) {
	g.initsPerMinute = perMinute
	if perMinute > 0 {
		g.inits = httpauth.NewRateLimiter(httpauth.RateLimits{SessionsPerMinute: float64(perMinute)})
	}
}

func (g *mcpGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var msg struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	var trimmed []byte
	if r.Method == http.MethodPost {
		var ok bool
		if trimmed, ok = g.readBody(w, r); !ok {
			return
		}
		if len(trimmed) > 0 && trimmed[0] == '[' {
			g.serveBatch(w, r, trimmed)
			return
		}
		_ = json.Unmarshal(trimmed, &msg) // mcp-go answers what does not parse
	}
	if r.Method == http.MethodPost && msg.Method == "initialize" {
		// A new MCP session, whatever Mcp-Session-Id it names.
		g.serveInitialize(w, r, msg.ID)
		return
	}
	id := r.Header.Get(sessionHeader)
	if id == "" {
		// A GET without one would make a session no initialize made
		// (mcp-go makes one for it), outside the cap.
		needsSession := r.Method == http.MethodDelete || r.Method == http.MethodGet || r.Method == http.MethodPost && msg.Method != ""
		if needsSession && !modernRequest(r) {
			writeRPCError(w, http.StatusBadRequest, msg.ID, -32600,
				"Bad Request: this request needs the Mcp-Session-Id header that initialize returned; initialize first")
			return
		}
		g.serve(w, r)
		return
	}
	state, why, end := g.ids.enter(id, principalKey(r), msg.Method != "notifications/initialized")
	switch state {
	case sessionUnknown:
		// What mcp-go answers for a session id it does not know; another
		// principal's session is answered alike. None reaches mcp-go, which
		// would make a session for a GET naming any id.
		http.Error(w, "Invalid session ID", http.StatusNotFound)
		return
	case sessionEnded:
		writeRPCError(w, http.StatusNotFound, msg.ID, -32001, g.ids.endedMessage(why))
		return
	}
	defer end()
	if r.Method != http.MethodPost {
		g.serve(w, r)
		return
	}
	// No response follows a cancellation (cancel.go).
	g.cancelled.noteMessage(id, trimmed)
	if msg.Method == "" || len(msg.ID) == 0 || string(msg.ID) == "null" {
		g.serve(w, r)
		return
	}
	g.cancelled.begin(id, msg.ID)
	defer g.cancelled.end(id, msg.ID)
	w = &cancelWriter{ResponseWriter: w, c: g.cancelled, session: id, id: msg.ID}
	// A request's answer streams within the budgets of lifetime.go.
	if !g.ids.mayStream(id) {
		g.servePlain(w, r)
		return
	}
	if g.serve(w, r) || r.Context().Err() != nil {
		g.ids.didStream(id)
	}
}

// readBody reads a POST's body within the limit (413 past it, refused
// before a byte is read when its length says so) and puts it back for the
// handlers after the gate; it returns the body trimmed, or false when the
// request was answered.
func (g *mcpGate) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	tooLarge := func() {
		w.Header().Set("Connection", "close") // the rest of the body is not read
		writeGateJSON(w, http.StatusRequestEntityTooLarge, map[string]any{"error": "request_too_large",
			"error_description": fmt.Sprintf("the request body is over this server's limit of %d bytes (--http-max-body)", g.maxBody)})
	}
	if r.ContentLength > g.maxBody {
		tooLarge()
		return nil, false
	}
	body, err := readUpTo(r.Body, r.ContentLength, g.maxBody)
	_ = r.Body.Close()
	if errors.Is(err, errTooLarge) {
		tooLarge()
		return nil, false
	}
	if err != nil {
		http.Error(w, "read the request body: "+err.Error(), http.StatusBadRequest)
		return nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return bytes.TrimSpace(body), true
}

// serveInitialize makes a new MCP session, within the client's rate and
// the cap on sessions (admit).
func (g *mcpGate) serveInitialize(w http.ResponseWriter, r *http.Request, rpcID json.RawMessage) {
	if !g.admit(w, r, rpcID) {
		return
	}
	defer g.ids.admitting.Unlock()
	if who := principalKey(r); who != "" {
		w = &ownerRecorder{ResponseWriter: w, ids: g.ids, who: who}
	}
	g.serve(w, r)
}

// admit lets a client make a new MCP session (an initialize, or an SSE
// stream opened), within its rate and the cap on sessions (lifetime.go):
// at the cap the session that can best go is ended to make room, and when
// none can, the request is refused with 503 and Retry-After. Admitted, it
// returns with g.ids.admitting held, for the caller to release once the
// session is made, so that two cannot take the last place.
func (g *mcpGate) admit(w http.ResponseWriter, r *http.Request, rpcID json.RawMessage) bool {
	if ok, retry := g.inits.Allow(httpauth.ClientKey(r), httpauth.SessionCreate); !ok {
		metrics.ClientRefused(metrics.ClientRate)
		secs := max(1, int(math.Ceil(retry.Seconds())))
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		writeRPCError(w, http.StatusTooManyRequests, rpcID, -32000, fmt.Sprintf(
			"Too many initializes: this client may start %d MCP sessions a minute (--rate-clients); retry in %d s, "+
				"and keep using the session it has (its Mcp-Session-Id, or its SSE stream) rather than starting another", g.initsPerMinute, secs))
		return false
	}
	g.ids.admitting.Lock()
	evicted, full := g.ids.admit()
	if full {
		g.ids.admitting.Unlock()
		metrics.ClientRefused(metrics.ClientsFull)
		w.Header().Set("Retry-After", strconv.Itoa(fullRetrySeconds))
		writeRPCError(w, http.StatusServiceUnavailable, rpcID, -32000, fmt.Sprintf(
			"Server full: all %d MCP sessions of this server (--max-clients) have a stream open or a request in flight, "+
				"so none can make room for a new one; retry in %d s (Retry-After), and end the sessions you no longer use "+
				"with a DELETE (or by closing their SSE stream)",
			g.ids.max, fullRetrySeconds))
		return false
	}
	if evicted != "" {
		// Its browser sessions end too, which may take a dev server's
		// --shutdown: not while the next initialize waits.
		go g.endTransport(evicted)
	}
	return true
}

// fullRetrySeconds is the Retry-After of an initialize refused because
// every session is busy.
const fullRetrySeconds = 10

// serve passes a request to mcp-go through a writer it cannot keep: mcp-go
// keeps a resumable stream's first writer for as long as the session
// lives, and with it the whole HTTP response and request of every call
// that streamed. It says whether the answer streamed (SSE).
func (g *mcpGate) serve(w http.ResponseWriter, r *http.Request) (streamed bool) {
	rw := &releasedWriter{w: w}
	defer rw.release()
	g.next.ServeHTTP(rw, r)
	rw.mu.Lock()
	defer rw.mu.Unlock()
	return rw.streamed
}

// servePlain passes a request to mcp-go through a writer that cannot
// stream, so that its answer is one JSON body (what it would have
// streamed before, progress and log messages, is not sent).
func (g *mcpGate) servePlain(w http.ResponseWriter, r *http.Request) {
	rw := &releasedWriter{w: w}
	defer rw.release()
	g.next.ServeHTTP(plainWriter{rw}, r)
}

// plainWriter is a response writer without Flush: mcp-go does not stream
// on it.
type plainWriter struct{ rw *releasedWriter }

func (p plainWriter) Header() http.Header         { return p.rw.Header() }
func (p plainWriter) WriteHeader(code int)        { p.rw.WriteHeader(code) }
func (p plainWriter) Write(b []byte) (int, error) { return p.rw.Write(b) }

// releasedWriter is the response writer mcp-go gets: once the request is
// answered it lets go of the response under it, and writes nothing more.
// It passes Flush and Unwrap through (streamed answers, write deadlines).
type releasedWriter struct {
	mu       sync.Mutex
	w        http.ResponseWriter
	h        http.Header // the header a late caller gets
	streamed bool        // the answer is an SSE stream
}

// release lets go of the response.
func (rw *releasedWriter) release() {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	rw.w = nil
}

func (rw *releasedWriter) inner() http.ResponseWriter {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	return rw.w
}

func (rw *releasedWriter) Header() http.Header {
	if w := rw.inner(); w != nil {
		return w.Header()
	}
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if rw.h == nil {
		rw.h = http.Header{}
	}
	return rw.h
}

func (rw *releasedWriter) WriteHeader(code int) {
	if w := rw.inner(); w != nil {
		if strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
			rw.mu.Lock()
			rw.streamed = true
			rw.mu.Unlock()
		}
		w.WriteHeader(code)
	}
}

func (rw *releasedWriter) Write(p []byte) (int, error) {
	if w := rw.inner(); w != nil {
		return w.Write(p)
	}
	return 0, http.ErrHandlerTimeout
}

// Flush passes a stream's flush through.
func (rw *releasedWriter) Flush() {
	if f, ok := rw.inner().(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (rw *releasedWriter) Unwrap() http.ResponseWriter { return rw.inner() }

var errTooLarge = errors.New("request body too large")

// readUpTo reads a body of at most max bytes into a buffer sized once, from
// its declared length when it has one.
func readUpTo(r io.Reader, declared, limit int64) ([]byte, error) {
	size := int64(4 << 10)
	if declared > 0 {
		size = declared
	}
	buf := bytes.NewBuffer(make([]byte, 0, min(size, limit)+1))
	n, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, errTooLarge
	}
	return buf.Bytes(), nil
}

// modernRequest reports a request of a protocol version without sessions
// (mcp-go refuses those versions here, with its own answer).
func modernRequest(r *http.Request) bool {
	v := r.Header.Get("Mcp-Protocol-Version")
	return v != "" && v >= "2026-07-28"
}

// principalKey is who the guard authenticated, when a credential says who
// (an OAuth subject), else "".
func principalKey(r *http.Request) string {
	if p, ok := httpauth.PrincipalFromContext(r.Context()); ok {
		return p.Key()
	}
	return ""
}

// ownerRecorder notes the session id an initialize answer carries as the
// principal's. It passes Flush and Unwrap through (streamed answers).
type ownerRecorder struct {
	http.ResponseWriter
	ids  *clientSessions
	who  string
	done bool
}

func (o *ownerRecorder) WriteHeader(code int) {
	o.note()
	o.ResponseWriter.WriteHeader(code)
}

func (o *ownerRecorder) Write(b []byte) (int, error) {
	o.note()
	return o.ResponseWriter.Write(b)
}

func (o *ownerRecorder) note() {
	if o.done {
		return
	}
	o.done = true
	if id := o.Header().Get(sessionHeader); id != "" {
		o.ids.bind(id, o.who)
	}
}

func (o *ownerRecorder) Flush() {
	o.note()
	if f, ok := o.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (o *ownerRecorder) Unwrap() http.ResponseWriter { return o.ResponseWriter }

func writeGateJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// writeRPCError answers with a JSON-RPC error object.
func writeRPCError(w http.ResponseWriter, code int, id json.RawMessage, rpcCode int, msg string) {
	var rid any
	if len(bytes.TrimSpace(id)) > 0 {
		rid = id
	}
	writeGateJSON(w, code, map[string]any{"jsonrpc": "2.0", "id": rid, "error": map[string]any{"code": rpcCode, "message": msg}})
}
