package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/httpauth"
)

// The MCP endpoint's own checks, between the guard (Host, Origin,
// credentials: httpauth) and mcp-go's Streamable HTTP handler:
//
//   - a request body larger than the limit is refused with 413 before
//     anything decodes it (mcp-go reads whole bodies into memory);
//   - a JSON-RPC batch (an array), which protocol version 2025-03-26 has,
//     is served member by member (batch.go); a client of a later version
//     is told its version has none;
//   - a request that needs an MCP session and names none gets 400, as the
//     specification says (mcp-go answers 404, which tells a client to
//     start over);
//   - an MCP session belongs to the principal that initialized it (an
//     OAuth issuer and subject): a request of another principal naming it
//     gets exactly the answer an unknown session gets, and never reaches
//     mcp-go. With a static token or no credential every client is the
//     same principal; then the session id, which is random and never
//     listed, is the only capability.

// sessionHeader is the MCP session header.
const sessionHeader = "Mcp-Session-Id"

// mcpGate is the middleware above; maxBody bounds request bodies.
type mcpGate struct {
	next    http.Handler
	maxBody int64
	owners  *sessionOwners
	// ids, when set, tell a swept session's client why it is gone.
	ids *clientSessions
	// cancelled are the requests whose responses are not to be sent.
	cancelled *cancelledCalls
}

func newMCPGate(next http.Handler, maxBody int64, ttl time.Duration) *mcpGate {
	return &mcpGate{next: next, maxBody: maxBody, owners: newSessionOwners(ttl), cancelled: newCancelledCalls()}
}

func (g *mcpGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var msg struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	var trimmed []byte
	if r.Method == http.MethodPost {
		tooLarge := func() {
			w.Header().Set("Connection", "close") // the rest of the body is not read
			writeGateJSON(w, http.StatusRequestEntityTooLarge, map[string]any{"error": "request_too_large",
				"error_description": fmt.Sprintf("the request body is over this server's limit of %d bytes (--http-max-body)", g.maxBody)})
		}
		if r.ContentLength > g.maxBody {
			tooLarge() // refused before a byte of it is read
			return
		}
		body, err := readUpTo(r.Body, r.ContentLength, g.maxBody)
		_ = r.Body.Close()
		if errors.Is(err, errTooLarge) {
			tooLarge()
			return
		}
		if err != nil {
			http.Error(w, "read the request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		trimmed = bytes.TrimSpace(body)
		if len(trimmed) > 0 && trimmed[0] == '[' {
			g.serveBatch(w, r, trimmed)
			return
		}
		_ = json.Unmarshal(trimmed, &msg) // mcp-go answers what does not parse
	}
	id := r.Header.Get(sessionHeader)
	needsSession := r.Method == http.MethodDelete || r.Method == http.MethodPost && msg.Method != "initialize" && msg.Method != ""
	if id == "" && needsSession && !modernRequest(r) {
		writeRPCError(w, http.StatusBadRequest, msg.ID, -32600,
			"Bad Request: this request needs the Mcp-Session-Id header that initialize returned; initialize first")
		return
	}
	who := principalKey(r)
	if id != "" && g.ids != nil && g.ids.wasSwept(id) && g.owners.mayUse(id, who) {
		g.ids.answerSwept(w, msg.ID)
		return
	}
	if id != "" && !g.owners.mayUse(id, who) {
		// What mcp-go answers for a session id it does not know.
		http.Error(w, "Invalid session ID", http.StatusNotFound)
		return
	}
	if r.Method == http.MethodPost && msg.Method == "initialize" && who != "" {
		w = &ownerRecorder{ResponseWriter: w, owners: g.owners, who: who}
	}
	if r.Method == http.MethodPost && id != "" {
		// No response follows a cancellation (cancel.go).
		g.cancelled.noteMessage(id, trimmed)
		if msg.Method != "" && len(msg.ID) > 0 && string(msg.ID) != "null" {
			g.cancelled.begin(id, msg.ID)
			defer g.cancelled.end(id, msg.ID)
			w = &cancelWriter{ResponseWriter: w, c: g.cancelled, session: id, id: msg.ID}
		}
	}
	if id != "" && g.ids != nil {
		defer g.ids.begin(id)()
	}
	g.next.ServeHTTP(w, r)
	if r.Method == http.MethodDelete && id != "" {
		g.owners.forget(id)
	}
}

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
	owners *sessionOwners
	who    string
	done   bool
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
		o.owners.bind(id, o.who)
	}
}

func (o *ownerRecorder) Flush() {
	o.note()
	if f, ok := o.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (o *ownerRecorder) Unwrap() http.ResponseWriter { return o.ResponseWriter }

// sessionOwners maps MCP session ids to the principals that made them. An
// entry unused for ttl is forgotten (mcp-go sweeps such sessions too), and
// the map holds at most maxOwners.
type sessionOwners struct {
	mu  sync.Mutex
	ttl time.Duration
	m   map[string]ownerEntry
}

type ownerEntry struct {
	who  string
	used time.Time
}

// maxOwners bounds the sessions remembered; beyond it the least recently
// used are forgotten first, and then refused (an unknown id with no owner
// is left to mcp-go, which does not know it either).
const maxOwners = 100_000

func newSessionOwners(ttl time.Duration) *sessionOwners {
	if ttl <= 0 {
		ttl = 24 * time.Hour
	}
	return &sessionOwners{ttl: ttl, m: map[string]ownerEntry{}}
}

func (s *sessionOwners) bind(id, who string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.m) >= maxOwners {
		s.sweepLocked()
	}
	s.m[id] = ownerEntry{who: who, used: time.Now()}
}

// mayUse reports whether who may use session id: it is theirs, or it was
// not made by an identified principal.
func (s *sessionOwners) mayUse(id, who string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.m[id]
	if !ok {
		return true
	}
	if time.Since(e.used) > s.ttl {
		delete(s.m, id)
		return true
	}
	if e.who != who {
		return false
	}
	e.used = time.Now()
	s.m[id] = e
	return true
}

func (s *sessionOwners) forget(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, id)
}

// sweepLocked drops expired entries, then the oldest half if still full.
func (s *sessionOwners) sweepLocked() {
	for id, e := range s.m {
		if time.Since(e.used) > s.ttl {
			delete(s.m, id)
		}
	}
	if len(s.m) < maxOwners {
		return
	}
	var cut time.Time
	ages := make([]time.Time, 0, len(s.m))
	for _, e := range s.m {
		ages = append(ages, e.used)
	}
	cut = midpoint(ages)
	for id, e := range s.m {
		if !e.used.After(cut) {
			delete(s.m, id)
		}
	}
}

// midpoint is halfway between the oldest and the newest time: a rough
// median, without sorting a hundred thousand entries.
func midpoint(ts []time.Time) time.Time {
	lo, hi := ts[0], ts[0]
	for _, t := range ts {
		if t.Before(lo) {
			lo = t
		}
		if t.After(hi) {
			hi = t
		}
	}
	return lo.Add(hi.Sub(lo) / 2)
}

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
