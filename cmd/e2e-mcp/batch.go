package main

import (
	"bufio"
	"bytes"
	"encoding/json"
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
// goes through the gate and mcp-go as a POST of its own, all at once, and
// the responses to its requests come back as one JSON array, in the order
// of the requests (202 when it held no request). In-stream notifications
// of the members (progress, log messages) are not relayed. A client of a
// later version is answered -32600 saying its version has no batches.
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
	if len(members) == 0 || len(members) > maxBatch {
		writeRPCError(w, http.StatusBadRequest, nil, -32600, "Invalid Request: a batch holds 1 to 100 messages")
		return
	}
	answers := make([]json.RawMessage, len(members))
	var wg sync.WaitGroup
	for i, m := range members {
		id, isRequest, bad := batchMember(m)
		if bad != "" {
			answers[i] = rpcError(id, -32600, "Invalid Request: "+bad)
			continue
		}
		wg.Go(func() {
			sub := r.Clone(r.Context())
			sub.Body = newBody(m)
			sub.ContentLength = int64(len(m))
			rec := &batchRecorder{h: http.Header{}}
			g.ServeHTTP(rec, sub)
			if isRequest {
				answers[i] = rec.response(id)
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
