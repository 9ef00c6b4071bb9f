package transport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// A client that cancels a request (notifications/cancelled) gets no
// response to it: the specification says the receiver "SHOULD NOT send a
// response for the cancelled request". mcp-go cancels the call's context
// but still writes what the handler returned, so the transports here drop
// it: over stdio the framing of stdout (stdio.go), over HTTP a filter on
// the request's response (httpgate.go). The call itself answers `cancelled` and counts as
// no failure (mcptools.cancelledByClient).

// cancelledCalls are the requests in flight, by MCP session ("" over
// stdio) and request id, and whether their clients cancelled them. A
// cancellation is noted only for a request in flight (one of an answered
// or unknown request has nothing left to drop), so the table holds no more
// than the requests in flight, and at most maxInFlight of those: past it a
// request is not tracked, and a cancellation of it is not honoured (its
// answer is sent, which a client that cancelled ignores).
type cancelledCalls struct {
	mu    sync.Mutex
	calls map[string]*inFlight
}

// inFlight is one request id in flight; a client that reuses an id while
// a request of it runs has two.
type inFlight struct {
	n         int
	cancelled bool
}

// maxInFlight bounds the requests tracked.
const maxInFlight = 10_000

func newCancelledCalls() *cancelledCalls { return &cancelledCalls{calls: map[string]*inFlight{}} }

// cancelKey is the key of request id of a session: the id as mcp-go
// reads it and writes it back in the response (a string, or a number, an
// integral one as an integer: 1.0 is 1), so that a request and its
// response have the same key; "" for an id that is neither.
func cancelKey(session string, id json.RawMessage) string {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		return session + "\x00s" + v
	case float64:
		if v == float64(int64(v)) {
			return session + "\x00n" + strconv.FormatInt(int64(v), 10)
		}
		return session + "\x00n" + strconv.FormatFloat(v, 'g', -1, 64)
	}
	return ""
}

// begin notes that request id is in flight; end, that it was answered.
func (c *cancelledCalls) begin(session string, id json.RawMessage) {
	k := cancelKey(session, id)
	if k == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.calls[k]; f != nil {
		f.n++
		return
	}
	if len(c.calls) < maxInFlight {
		c.calls[k] = &inFlight{n: 1}
	}
}

func (c *cancelledCalls) end(session string, id json.RawMessage) {
	k := cancelKey(session, id)
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.calls[k]; f != nil {
		if f.n--; f.n <= 0 {
			delete(c.calls, k)
		}
	}
}

// forget drops what is tracked of a session's requests: its transport
// is gone, and no answer of it will come (an SSE stream that closed).
func (c *cancelledCalls) forget(session string) {
	prefix := session + "\x00"
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.calls {
		if strings.HasPrefix(k, prefix) {
			delete(c.calls, k)
		}
	}
}

// inFlight says whether request id is in flight.
func (c *cancelledCalls) inFlight(session string, id json.RawMessage) bool {
	k := cancelKey(session, id)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[k] != nil
}

// len is the number of request ids tracked.
func (c *cancelledCalls) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.calls)
}

// noteMessage notes a cancellation if msg is one, of a request in flight.
func (c *cancelledCalls) noteMessage(session string, msg []byte) {
	if !bytes.Contains(msg, []byte("notifications/cancelled")) {
		return
	}
	var n struct {
		Method string `json:"method"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &n) != nil || n.Method != "notifications/cancelled" || len(n.Params.RequestID) == 0 {
		return
	}
	k := cancelKey(session, n.Params.RequestID)
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.calls[k]; f != nil {
		f.cancelled = true
	}
}

// isCancelled says whether the response to request id was cancelled.
func (c *cancelledCalls) isCancelled(session string, id json.RawMessage) bool {
	k := cancelKey(session, id)
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.calls[k]
	return f != nil && f.cancelled
}

// responseID is the id of a JSON-RPC response (a message with an id and no
// method), or nil.
func responseID(msg []byte) json.RawMessage {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(bytes.TrimSpace(msg), &m) != nil || m.Method != "" || len(m.ID) == 0 || string(m.ID) == "null" {
		return nil
	}
	return m.ID
}

// cancelWriter is an HTTP response of request id of MCP session session:
// its JSON-RPC response is dropped when the client cancelled the request
// (a JSON body, or an SSE event on its stream; notifications go through).
type cancelWriter struct {
	http.ResponseWriter
	c       *cancelledCalls
	session string
	id      json.RawMessage
}

func (w *cancelWriter) Write(p []byte) (int, error) {
	if w.c.isCancelled(w.session, w.id) && carriesResponse(p, w.id) {
		return len(p), nil
	}
	return w.ResponseWriter.Write(p)
}

// Flush passes a stream's flush through.
func (w *cancelWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *cancelWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// carriesResponse says whether an HTTP write holds the response to id: a
// JSON body, or the data of an SSE event.
func carriesResponse(p []byte, id json.RawMessage) bool {
	if t := bytes.TrimSpace(p); len(t) > 0 && t[0] == '{' {
		return cancelKey("", responseID(t)) == cancelKey("", id)
	}
	sc := bufio.NewScanner(bytes.NewReader(p))
	sc.Buffer(make([]byte, 0, 64<<10), len(p)+1)
	for sc.Scan() {
		if data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:")); ok {
			if got := responseID(data); got != nil && cancelKey("", got) == cancelKey("", id) {
				return true
			}
		}
	}
	return false
}
