package transport

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/mark3labs/mcp-go/server"
	"go.uber.org/zap"
)

// The stdio transport's framing, between the pipes and mcp-go's stdio
// server, which reads one JSON-RPC message a line and writes one a line:
//
//   - the requests in flight are noted on the way in, and a
//     notifications/cancelled of one of them too, so that the response to
//     a cancelled request is dropped on the way out (cancel.go);
//   - a JSON-RPC batch (a line holding an array) is split into its
//     messages on the way in (planBatch: the members it refuses get their
//     errors), and their responses joined into one array line on the way
//     out, in the order of the members, for a client that negotiated
//     2025-03-26, the one protocol version that has batches; a client of
//     any other version is answered -32600 Invalid Request saying its
//     version has none (mcp-go answers a batch with a parse error). Since
//     responses are told apart by their ids alone, a batch's request whose
//     id a request in flight has, and a request whose id a batch in flight
//     waits for, are refused with -32600 too.

// ServeStdio speaks MCP over stdin and stdout (one JSON-RPC message a
// line, through the framing below) until stdin closes or ctx ends, which
// are its ordinary ends (nil).
func ServeStdio(ctx context.Context, srv *server.MCPServer, log *zap.Logger, version string, stdin io.Reader, stdout io.Writer) error {
	stdio := server.NewStdioServer(srv)
	stdio.SetErrorLogger(zap.NewStdLog(log.Named("stdio")))
	log.Info("serving MCP over stdio", zap.String("version", version))
	// No response follows a cancellation; batches for 2025-03-26.
	framing := newStdioFraming(stdout)
	err := stdio.Listen(ctx, framing.reader(stdin), framing)
	switch {
	case err == nil, errors.Is(err, context.Canceled), errors.Is(err, io.EOF):
		return nil
	}
	return err
}

// batchVersion is the protocol version with JSON-RPC batches.
const batchVersion = "2025-03-26"

// stdioFraming is the shared state of the two directions.
type stdioFraming struct {
	cancelled *cancelledCalls

	mu      sync.Mutex
	out     io.Writer
	version string                   // the protocol version the initialize response gave
	byID    map[string]*pendingBatch // a batch by the key of a request it waits for
}

// pendingBatch is a batch's answers as they come, one per member.
type pendingBatch struct {
	keys    []string          // the key of each member served as a request, "" for others
	answers []json.RawMessage // each member's response or error (nil: none, or not yet)
	waiting int               // requests whose responses are not in
}

func newStdioFraming(out io.Writer) *stdioFraming {
	return &stdioFraming{cancelled: newCancelledCalls(), out: out, byID: map[string]*pendingBatch{}}
}

// reader is stdin as mcp-go reads it.
func (f *stdioFraming) reader(in io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				if werr := f.inbound(pw, line); werr != nil {
					_ = pr.CloseWithError(werr)
					return
				}
			}
			if err != nil {
				_ = pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// inbound passes one line on, a batch as its messages.
func (f *stdioFraming) inbound(w io.Writer, line []byte) error {
	t := bytes.TrimSpace(line)
	if len(t) == 0 || t[0] != '[' {
		if id, ok := requestID(t); ok {
			f.mu.Lock()
			taken := f.byID[cancelKey("", id)] != nil
			f.mu.Unlock()
			if taken {
				return f.write(rpcError(id, -32600, fmt.Sprintf("Invalid Request: a request of a batch in flight has the id %s: give each request an id of its own", id)))
			}
			f.cancelled.begin("", id)
		}
		f.cancelled.noteMessage("", t)
		_, err := w.Write(line)
		return err
	}
	var members []json.RawMessage
	if json.Unmarshal(t, &members) != nil {
		_, err := w.Write(line) // not JSON: mcp-go answers the parse error
		return err
	}
	f.mu.Lock()
	version := f.version
	f.mu.Unlock()
	if version != batchVersion {
		return f.write(rpcError(nil, -32600, "Invalid Request: JSON-RPC batches are part of MCP protocol version "+batchVersion+
			" only, and this connection negotiated "+orUnknown(version)+": send one message a line"))
	}
	if len(members) == 0 {
		return f.write(rpcError(nil, -32600, emptyBatch))
	}
	items := planBatch(members)
	b := &pendingBatch{keys: make([]string, len(items)), answers: make([]json.RawMessage, len(items))}
	var pass [][]byte
	f.mu.Lock()
	for i, it := range items {
		switch {
		case it.refusal != nil:
			b.answers[i] = it.refusal
		case it.isRequest:
			k := cancelKey("", it.id)
			if f.byID[k] != nil || f.cancelled.inFlight("", it.id) {
				b.answers[i] = rpcError(it.id, -32600, fmt.Sprintf("Invalid Request: a request in flight has the id %s, so this one did not run: give each request an id of its own", it.id))
				continue
			}
			b.keys[i], f.byID[k] = k, b
			b.waiting++
			f.cancelled.begin("", it.id)
			pass = append(pass, it.msg)
		default:
			f.cancelled.noteMessage("", it.msg)
			pass = append(pass, it.msg)
		}
	}
	f.mu.Unlock()
	if b.waiting == 0 {
		f.writeBatch(b)
	}
	for _, m := range pass {
		if _, err := w.Write(append(append([]byte{}, m...), '\n')); err != nil {
			return err
		}
	}
	return nil
}

// requestID is the id of a JSON-RPC request (a message with a method and
// an id).
func requestID(msg []byte) (json.RawMessage, bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Method == "" || len(m.ID) == 0 || string(m.ID) == "null" {
		return nil, false
	}
	return m.ID, true
}

// batchMember reads one member of a batch: its id, whether it is a request
// (whose response the batch waits for), or why it cannot be in a batch.
func batchMember(m json.RawMessage) (id json.RawMessage, isRequest bool, bad string) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(m, &msg) != nil || bytes.TrimSpace(m)[0] != '{' {
		return nil, false, "a batch member is not a JSON-RPC object"
	}
	if msg.Method == "initialize" {
		return msg.ID, false, "initialize must not be part of a batch"
	}
	return msg.ID, msg.Method != "" && len(msg.ID) > 0 && string(msg.ID) != "null", ""
}

// Write is stdout as mcp-go writes it: one message a Write.
func (f *stdioFraming) Write(p []byte) (int, error) {
	id := responseID(p)
	if id == nil {
		f.noteVersion(p)
		return len(p), f.write(p)
	}
	cancelled := f.cancelled.isCancelled("", id)
	f.cancelled.end("", id)
	if cancelled {
		f.settle(cancelKey("", id), nil)
		return len(p), nil
	}
	// Kept past this Write: a copy (fmt reuses the buffer mcp-go writes).
	if f.settle(cancelKey("", id), append(json.RawMessage(nil), bytes.TrimSpace(p)...)) {
		return len(p), nil
	}
	f.noteVersion(p)
	return len(p), f.write(p)
}

// noteVersion remembers the protocol version an initialize response gives.
func (f *stdioFraming) noteVersion(p []byte) {
	if !bytes.Contains(p, []byte(`"protocolVersion"`)) {
		return
	}
	var r struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if json.Unmarshal(p, &r) == nil && r.Result.ProtocolVersion != "" {
		f.mu.Lock()
		f.version = r.Result.ProtocolVersion
		f.mu.Unlock()
	}
}

// settle files a response (nil: a cancelled request's, which has none)
// with its batch, writing the batch once every response is in; it says
// whether the response belonged to a batch.
func (f *stdioFraming) settle(key string, resp json.RawMessage) bool {
	f.mu.Lock()
	b := f.byID[key]
	if b == nil {
		f.mu.Unlock()
		return false
	}
	delete(f.byID, key)
	for i, k := range b.keys {
		if k == key {
			b.keys[i], b.answers[i] = "", resp
			b.waiting--
			break
		}
	}
	done := b.waiting == 0
	f.mu.Unlock()
	if done {
		f.writeBatch(b)
	}
	return true
}

// writeBatch writes a batch's answers as one array line, in the order of
// its members; a batch whose requests were all cancelled, and that
// refused none, writes nothing.
func (f *stdioFraming) writeBatch(b *pendingBatch) {
	var out []json.RawMessage
	for _, a := range b.answers {
		if a != nil {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return
	}
	line, err := json.Marshal(out)
	if err != nil {
		return
	}
	_ = f.write(append(line, '\n'))
}

// write writes whole lines to stdout, one at a time.
func (f *stdioFraming) write(p []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(p) == 0 || p[len(p)-1] != '\n' {
		p = append(append([]byte{}, p...), '\n')
	}
	_, err := f.out.Write(p)
	return err
}

// rpcError is a JSON-RPC error response.
func rpcError(id json.RawMessage, code int, msg string) json.RawMessage {
	var rid any
	if len(bytes.TrimSpace(id)) > 0 {
		rid = id
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": rid, "error": map[string]any{"code": code, "message": msg}})
	return b
}

func orUnknown(v string) string {
	if v == "" {
		return "none yet (initialize first)"
	}
	return v
}
