package transport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// maxBatch bounds the members of one JSON-RPC batch.
const maxBatch = 100

// serveBatch serves a POST whose body is a JSON-RPC batch. Protocol version
// 2025-03-26 has batches, and a client of it sends no Mcp-Protocol-Version
// header (later versions must send it, so a request without one is
// 2025-03-26's, as the specification of 2025-06-18 says): each member
// that planBatch lets through goes through the gate and mcp-go as a POST of
// its own, all at once, and the responses to its requests come back as one
// JSON array, in the order of the members, with the errors of the members
// refused in their places (202 when it held no request). In-stream
// notifications of the members (progress, log messages) are not relayed.
// A client of a later version is answered -32600 saying its version has
// no batches.
func (g *mcpGate) serveBatch(w http.ResponseWriter, r *http.Request, body []byte) {
	if v := r.Header.Get("Mcp-Protocol-Version"); v != "" && v != batchVersion {
		writeRPCError(w, http.StatusBadRequest, nil, -32600, "Invalid Request: JSON-RPC batches are part of MCP protocol version "+
			batchVersion+" only, and this request speaks "+v+": send one message per POST")
		return
	}
	var members []json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		writeRPCError(w, http.StatusBadRequest, nil, -32700, "Parse error: "+err.Error())
		return
	}
	if len(members) == 0 {
		writeRPCError(w, http.StatusBadRequest, nil, -32600, emptyBatch)
		return
	}
	items := planBatch(members)
	answers := make([]json.RawMessage, len(items))
	var wg sync.WaitGroup
	for i, it := range items {
		if it.refusal != nil {
			answers[i] = it.refusal
			continue
		}
		wg.Go(func() {
			sub := r.Clone(r.Context())
			sub.Body = newBody(it.msg)
			sub.ContentLength = int64(len(it.msg))
			rec := &batchRecorder{h: http.Header{}}
			g.ServeHTTP(rec, sub)
			if it.isRequest {
				answers[i] = rec.response(it.id)
			}
		})
	}
	wg.Wait()
	var out []json.RawMessage
	for _, a := range answers {
		if a != nil {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

// emptyBatch is the answer to an empty batch, the one batch JSON-RPC
// answers with a single error.
const emptyBatch = "Invalid Request: an empty batch"

// batchItem is one member of a batch, as both transports (stdio.go, and
// serveBatch over HTTP) serve it.
type batchItem struct {
	msg       json.RawMessage
	id        json.RawMessage
	isRequest bool            // a request: the batch's answer holds its response
	refusal   json.RawMessage // the error it gets instead of being served (nil: served)
}

// planBatch reads a batch's members in order. A member that is not a
// JSON-RPC object, an initialize, every request whose id another request
// of the batch has (JSON-RPC gives each request its response, and a client
// could not tell which of two responses of one id answers which: neither
// runs, both are told), and, in a batch of more than maxBatch members,
// every member, each get their own -32600 error in their place: a batch is
// never answered by one bare error object, and no request of it goes
// unanswered.
func planBatch(members []json.RawMessage) []batchItem {
	items := make([]batchItem, len(members))
	requests := map[string]int{}
	for i, m := range members {
		id, isRequest, bad := batchMember(m)
		items[i] = batchItem{msg: m, id: id, isRequest: isRequest}
		switch {
		case len(members) > maxBatch:
			bad = fmt.Sprintf("this batch has %d messages, over the limit of %d: send at most %d a batch", len(members), maxBatch, maxBatch)
		case bad == "" && isRequest && cancelKey("", id) == "":
			bad = "the id of a request is a string or a number"
		case bad == "" && isRequest:
			requests[cancelKey("", id)]++
		}
		if bad != "" {
			items[i].refusal = rpcError(id, -32600, "Invalid Request: "+bad)
		}
	}
	for i, it := range items {
		if it.refusal == nil && it.isRequest {
			if n := requests[cancelKey("", it.id)]; n > 1 {
				items[i].refusal = rpcError(it.id, -32600, fmt.Sprintf(
					"Invalid Request: %d requests of this batch have the id %s, and none of them ran: give each request an id of its own", n, it.id))
			}
		}
	}
	return items
}

func newBody(b []byte) *bodyReader { return &bodyReader{Reader: bytes.NewReader(b)} }

type bodyReader struct{ *bytes.Reader }

func (bodyReader) Close() error { return nil }

// batchRecorder keeps what the handler answered one member of a batch. It
// cannot flush, so mcp-go answers with a JSON body rather than a stream.
type batchRecorder struct {
	h    http.Header
	code int
	body bytes.Buffer
}

func (b *batchRecorder) Header() http.Header         { return b.h }
func (b *batchRecorder) Write(p []byte) (int, error) { return b.body.Write(p) }
func (b *batchRecorder) WriteHeader(code int) {
	if b.code == 0 {
		b.code = code
	}
}

// response is the JSON-RPC response the member's request got: the body,
// the response event of a stream, or an error made of what a refusal said
// (nil when the request was cancelled and got none).
func (b *batchRecorder) response(id json.RawMessage) json.RawMessage {
	body := bytes.TrimSpace(b.body.Bytes())
	if len(body) > 0 && body[0] == '{' {
		return body
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64<<10), len(body)+1)
	for sc.Scan() {
		if data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:")); ok && responseID(data) != nil {
			return bytes.TrimSpace(data)
		}
	}
	if b.code == 0 || b.code == http.StatusOK || b.code == http.StatusAccepted {
		return nil
	}
	return rpcError(id, -32600, strings.TrimSpace(http.StatusText(b.code)+": "+string(body)))
}
