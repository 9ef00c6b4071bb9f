package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
)

// A client that cancels a request (notifications/cancelled) gets no
// response to it: the specification says the receiver "SHOULD NOT send a
// response for the cancelled request". mcp-go cancels the call's context
// but still writes what the handler returned, so the transports here drop
// it: over stdio the framing of stdout (stdio.go), over HTTP a filter on
// the request's response (httpgate.go). The call itself answers `cancelled` and counts as
// no failure (mcptools.cancelledByClient).

// cancelledCalls are the requests clients cancelled whose responses have
// not been dropped yet, by MCP session ("" over stdio) and request id.
type cancelledCalls struct {
	mu  sync.Mutex
	ids map[string]bool
}

// maxCancelled bounds what is remembered of cancellations that came after
// their answers (nothing left to drop).
const maxCancelled = 1024

func newCancelledCalls() *cancelledCalls { return &cancelledCalls{ids: map[string]bool{}} }

func cancelKey(session string, id json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return ""
	}
	return session + "\x00" + b.String()
}

// noteMessage notes a cancellation if msg is one.
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
	if k == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.ids) >= maxCancelled {
		clear(c.ids) // answers long sent; nothing of them left to drop
	}
	c.ids[k] = true
}

// isCancelled says whether the response to request id was cancelled.
func (c *cancelledCalls) isCancelled(session string, id json.RawMessage) bool {
	k := cancelKey(session, id)
	c.mu.Lock()
	defer c.mu.Unlock()
	return k != "" && c.ids[k]
}

// forget drops what is known of request id once its response is settled.
func (c *cancelledCalls) forget(session string, id json.RawMessage) {
	k := cancelKey(session, id)
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.ids, k)
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
