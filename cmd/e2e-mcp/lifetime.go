package main

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// Two lifetimes over HTTP (docs/architecture.md §7): a browser session ends
// after --idle-timeout without a tool call (its next call is told so once),
// while the client's MCP session lives as long as the client does: while it
// has a stream open (its GET listening stream, a call's answer) and until
// it has sent nothing for --client-idle-timeout. Only then is it swept. The
// next request of a swept client gets 404 (the specification's answer for
// an ended session) with a body that says why and what to do.
//
// The sweep is ours, not mcp-go's (WithSessionIdleTTL): that one counts
// requests only, and an open listening stream (heartbeats included) does
// not keep a session there, so a client listening quietly was cut.

// clientSessions is the HTTP server's MCP session id manager (the one of
// sessionIDs) and the record of each session's activity.
type clientSessions struct {
	server.SessionIdManager
	ttl time.Duration

	mu    sync.Mutex
	live  map[string]*clientActivity
	swept map[string]time.Time // ended for silence, when
}

// clientActivity is what keeps a client's MCP session.
type clientActivity struct {
	last    time.Time // the end of its last request
	streams int       // requests (GETs, calls) in progress
}

// maxSwept bounds the swept sessions remembered; the oldest go first.
const maxSwept = 4096

func newClientSessions(ids server.SessionIdManager, ttl time.Duration) *clientSessions {
	return &clientSessions{SessionIdManager: ids, ttl: ttl, live: map[string]*clientActivity{}, swept: map[string]time.Time{}}
}

// Generate makes a session id, whose silence is counted from now.
func (c *clientSessions) Generate() string {
	id := c.SessionIdManager.Generate()
	c.mu.Lock()
	c.live[id] = &clientActivity{last: time.Now()}
	c.mu.Unlock()
	return id
}

// Terminate ends a session (a DELETE: the client's, or the sweep's).
func (c *clientSessions) Terminate(id string) (bool, error) {
	c.mu.Lock()
	delete(c.live, id)
	c.mu.Unlock()
	return c.SessionIdManager.Terminate(id)
}

// begin notes a request of session id; end, when it is answered (a GET
// stream, when it closes).
func (c *clientSessions) begin(id string) (end func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.live[id]
	if !ok {
		return func() {}
	}
	a.streams++
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		a.streams--
		a.last = time.Now()
	}
}

// wasSwept says whether session id ended for its client's silence.
func (c *clientSessions) wasSwept(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.swept[id]
	return ok
}

// silent are the sessions whose clients have had no stream open and sent
// nothing for the timeout; they are noted as swept.
func (c *clientSessions) silent(now time.Time) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for id, a := range c.live {
		if a.streams == 0 && now.Sub(a.last) >= c.ttl {
			out = append(out, id)
			if len(c.swept) >= maxSwept {
				c.forgetOldestSweptLocked()
			}
			c.swept[id] = now
		}
	}
	return out
}

func (c *clientSessions) forgetOldestSweptLocked() {
	var oldest string
	for k, at := range c.swept {
		if oldest == "" || at.Before(c.swept[oldest]) {
			oldest = k
		}
	}
	delete(c.swept, oldest)
}

// sweep ends silent sessions until ctx ends, each through a DELETE of its
// own to the MCP handler, as if its client had sent it: the transport's
// state goes and the sessions' browser sessions end, as on any DELETE.
func (c *clientSessions) sweep(ctx context.Context, mcpHandler http.Handler) {
	if c.ttl <= 0 {
		return
	}
	t := time.NewTicker(min(max(c.ttl/4, 100*time.Millisecond), time.Minute))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			for _, id := range c.silent(now) {
				req, err := http.NewRequestWithContext(ctx, http.MethodDelete, "/mcp", nil)
				if err != nil {
					continue
				}
				req.Header.Set(sessionHeader, id)
				mcpHandler.ServeHTTP(discardResponse{h: http.Header{}}, req)
			}
		}
	}
}

// answerSwept tells a swept client why its session is gone and what to do.
func (c *clientSessions) answerSwept(w http.ResponseWriter, id []byte) {
	writeRPCError(w, http.StatusNotFound, id, -32001,
		"Session terminated: this MCP session was ended after "+c.ttl.String()+
			" without a request or an open stream (--client-idle-timeout); send initialize to start a new one (the browser sessions it made ended too)")
}

// discardResponse is the answer to the sweep's own DELETE, which no one reads.
type discardResponse struct{ h http.Header }

func (d discardResponse) Header() http.Header         { return d.h }
func (d discardResponse) Write(b []byte) (int, error) { return len(b), nil }
func (d discardResponse) WriteHeader(int)             {}
