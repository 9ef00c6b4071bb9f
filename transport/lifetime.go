package transport

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/metrics"
)

// The MCP sessions of the HTTP server (docs/architecture.md §3). Every
// table a client can grow here has a bound:
//
//   - the live sessions: at most --max-clients. An initialize beyond it
//     ends the live session that can best go (one with no open stream and
//     no request in flight: first one that made no request after its
//     initialize, then the least recently active), or is refused with 503
//     when every session has a stream or a call;
//   - the sessions the server ended (for silence, never used, or to make
//     room), remembered so that the next request of such a client gets
//     404 with a body that says why and to initialize again: at most
//     maxEnded, the oldest forgotten first (a forgotten id gets the plain
//     404 of an unknown one). Sessions their clients DELETE are not kept:
//     the client knows. mcp-go's own id manager keeps every ended id for
//     good; this one replaces it;
//   - the answers that streamed (SSE: a call with a progress token, or
//     that logged to a client that set a level): mcp-go keeps some 400
//     bytes of each (its resumable stream) until the session ends, so a
//     session streams at most maxStreamedPerClient answers and all live
//     sessions together maxStreamed; past either, its calls are answered
//     as plain JSON (no progress, no resumption) until sessions end. The
//     events of the streams are bounded apart (eventstore.go).
//
// Two lifetimes over HTTP: a browser session ends after --idle-timeout
// without a tool call (its next call is told so once), while the client's
// MCP session lives as long as the client does: while it has a stream open
// (its GET listening stream, a call's answer) and until it has sent
// nothing for --client-idle-timeout. A session whose client made no
// request after its initialize (a client that reconnects in a loop, a
// probe) is ended sooner, after unusedTimeout of silence.
//
// The sweep is ours, not mcp-go's (WithSessionIdleTTL): that one counts
// requests only, and an open listening stream (heartbeats included) does
// not keep a session there, so a client listening quietly was cut.

// unusedTimeout is how long a session that made no request after its
// initialize lives without one (--client-idle-timeout when shorter).
const unusedTimeout = 10 * time.Minute

// maxEnded bounds the ended sessions remembered.
const maxEnded = 4096

// maxStreamedPerClient and maxStreamed bound the streamed answers of one
// session and of all live sessions.
const (
	maxStreamedPerClient = 10_000
	maxStreamed          = 100_000
)

// endReason is why the server ended a client's MCP session.
type endReason = metrics.ClientEnd

const (
	endIdle    = metrics.ClientIdle    // --client-idle-timeout of silence
	endUnused  = metrics.ClientUnused  // no request after its initialize
	endEvicted = metrics.ClientEvicted // made room for a new client (--max-clients)
)

// clientSessions is the HTTP server's MCP session id manager (mcp-go's
// SessionIdManager) and the record of each session's owner and activity.
type clientSessions struct {
	prefix    string        // of the ids: mcp-session-, or mcp-session-NAME. (replica.go)
	ttl       time.Duration // --client-idle-timeout; 0 never
	unusedTTL time.Duration
	max       int // --max-clients; 0 no cap
	now       func() time.Time

	// admitting is held across an initialize, from making room to the
	// answer, so that two at once cannot both take the last place.
	admitting sync.Mutex

	mu       sync.Mutex
	live     map[string]*clientActivity
	ended    map[string]endedClient
	order    []string // ended's ids, oldest first (a ring of maxEnded)
	next     int      // where the next ended id goes in order
	streamed int      // the live sessions' streamed answers
}

// clientActivity is what the server knows of a live MCP session.
type clientActivity struct {
	owner    string    // the principal that initialized it ("" none identified)
	last     time.Time // the end of its last request
	streams  int       // requests (GET streams, calls) in progress
	used     bool      // it made a request after its initialize
	streamed int       // its answers that streamed
	// sse: a session of the legacy SSE transport (sse.go), which lives
	// as long as its stream; the Streamable transport does not know it.
	sse bool
}

// endedClient is a session the server ended, and why.
type endedClient struct {
	owner string
	why   endReason
	at    time.Time
}

func newClientSessions(prefix string, ttl time.Duration, maxClients int) *clientSessions {
	unused := unusedTimeout
	if ttl > 0 && ttl < unused {
		unused = ttl
	}
	return &clientSessions{prefix: prefix, ttl: ttl, unusedTTL: unused, max: maxClients, now: time.Now,
		live: map[string]*clientActivity{}, ended: map[string]endedClient{}}
}

// Generate makes a session id (the gate has made room for it), whose
// silence is counted from now.
func (c *clientSessions) Generate() string {
	id := c.prefix + newUUID()
	c.mu.Lock()
	c.live[id] = &clientActivity{last: c.now()}
	c.mu.Unlock()
	return id
}

// Validate says whether id is live (false, nil), ended by the server
// (true, nil) or unknown (an error): mcp-go answers 404 to the last two.
func (c *clientSessions) Validate(id string) (isTerminated bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a, ok := c.live[id]; ok && !a.sse {
		return false, nil
	}
	if _, ok := c.ended[id]; ok {
		return true, nil
	}
	return false, fmt.Errorf("session not found: %s", id)
}

// Terminate ends a session: its client's DELETE, or the server's own (the
// sweep's and an eviction's, which took it out of live already).
func (c *clientSessions) Terminate(id string) (isNotAllowed bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a, ok := c.live[id]; ok {
		delete(c.live, id)
		c.streamed -= a.streamed
		metrics.ClientEnded(metrics.ClientDeleted)
	}
	return false, nil
}

// mayStream says whether a request of session id may get a streamed
// answer: its session and all of them are within their budgets.
func (c *clientSessions) mayStream(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	a := c.live[id]
	return a != nil && a.streamed < maxStreamedPerClient && c.streamed < maxStreamed
}

// didStream counts a streamed answer of session id.
func (c *clientSessions) didStream(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a := c.live[id]; a != nil {
		a.streamed++
		c.streamed++
	}
}

// bind notes the principal that initialized session id.
func (c *clientSessions) bind(id, owner string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a, ok := c.live[id]; ok {
		a.owner = owner
	}
}

// sessionState is what a request naming a session finds.
type sessionState int

const (
	sessionUnknown sessionState = iota // never made here, forgotten, or another principal's
	sessionLive
	sessionEnded // ended by the server, which remembers why
)

// enter notes a request of principal who naming Streamable HTTP session
// id, when the session is live and theirs: the returned function ends it
// (for a GET stream, when it closes). use says the request counts as using
// the session (anything but notifications/initialized). Another
// principal's session is unknown to who, live or ended, and so is a
// session of the other transport.
func (c *clientSessions) enter(id, who string, use bool) (sessionState, endReason, func()) {
	return c.enterAs(id, who, false, use)
}

// enterSSE is enter for a message POSTed to SSE session id.
func (c *clientSessions) enterSSE(id, who string, use bool) (sessionState, endReason, func()) {
	return c.enterAs(id, who, true, use)
}

func (c *clientSessions) enterAs(id, who string, sse, use bool) (sessionState, endReason, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a, ok := c.live[id]; ok {
		if a.owner != "" && a.owner != who || a.sse != sse {
			return sessionUnknown, "", nil
		}
		a.streams++
		a.last = c.now()
		a.used = a.used || use
		return sessionLive, "", func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			a.streams--
			a.last = c.now()
		}
	}
	if e, ok := c.ended[id]; ok && (e.owner == "" || e.owner == who) {
		return sessionEnded, e.why, nil
	}
	return sessionUnknown, "", nil
}

// openSSE makes a session of the legacy SSE transport for principal owner
// ("" none identified), its stream open: the gate has made room for it.
// The returned function closes its stream, which ends it; an SSE session
// has no other end of its client's (nor a DELETE), so it counts as one a
// client ended.
func (c *clientSessions) openSSE(owner string) (id string, closed func()) {
	id = c.prefix + newUUID()
	a := &clientActivity{owner: owner, last: c.now(), streams: 1, sse: true}
	c.mu.Lock()
	c.live[id] = a
	c.mu.Unlock()
	return id, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		a.streams--
		a.last = c.now()
		if c.live[id] == a {
			delete(c.live, id)
			c.streamed -= a.streamed
			metrics.ClientEnded(metrics.ClientDeleted)
		}
	}
}

// admit makes room for one more session: under the cap it does nothing;
// at the cap it ends the session that can best go (no stream open, no
// request in flight; one never used first, then the least recently
// active) and returns its id, for the caller to end its transport state.
// full says no session could go. The caller holds admitting.
func (c *clientSessions) admit() (evicted string, full bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.max <= 0 || len(c.live) < c.max {
		return "", false
	}
	var best *clientActivity
	for id, a := range c.live {
		if a.streams > 0 {
			continue
		}
		if best == nil || (!a.used && best.used) || (a.used == best.used && a.last.Before(best.last)) {
			best, evicted = a, id
		}
	}
	if best == nil {
		return "", true
	}
	c.endLocked(evicted, endEvicted)
	return evicted, false
}

// silent ends the sessions whose clients have had no stream open and sent
// nothing for the timeout (unusedTTL for those that never made a request
// after their initialize), and returns their ids.
func (c *clientSessions) silent(now time.Time) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for id, a := range c.live {
		if a.streams > 0 {
			continue
		}
		switch quiet := now.Sub(a.last); {
		case quiet >= c.ttl:
			c.endLocked(id, endIdle)
		case !a.used && quiet >= c.unusedTTL:
			c.endLocked(id, endUnused)
		default:
			continue
		}
		out = append(out, id)
	}
	return out
}

// endLocked moves a live session to the ended ones, the oldest of which
// is forgotten beyond maxEnded. c.mu is held.
func (c *clientSessions) endLocked(id string, why endReason) {
	a := c.live[id]
	delete(c.live, id)
	c.streamed -= a.streamed
	metrics.ClientEnded(why)
	if len(c.order) < maxEnded {
		c.order = append(c.order, id)
	} else {
		delete(c.ended, c.order[c.next])
		c.order[c.next] = id
		c.next = (c.next + 1) % maxEnded
	}
	c.ended[id] = endedClient{owner: a.owner, why: why, at: c.now()}
}

// count is the number of live sessions.
func (c *clientSessions) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.live)
}

// sweep ends silent sessions until ctx ends.
func (c *clientSessions) sweep(ctx context.Context, terminate func(id string)) {
	if c.ttl <= 0 {
		return
	}
	t := time.NewTicker(min(max(c.unusedTTL/4, 100*time.Millisecond), time.Minute))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			for _, id := range c.silent(now) {
				terminate(id)
			}
		}
	}
}

// endTransport ends what mcp-go holds of a session the server ended: a
// DELETE of its own to the MCP handler, as if its client had sent it, so
// that the transport's state goes and the session's browser sessions end,
// as on any DELETE.
func endTransport(mcpHandler http.Handler, id string) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodDelete, "/mcp", nil)
	if err != nil {
		return
	}
	req.Header.Set(sessionHeader, id)
	mcpHandler.ServeHTTP(discardResponse{h: http.Header{}}, req)
}

// endedMessage tells a client whose session the server ended why, and
// what to do.
func (c *clientSessions) endedMessage(why endReason) string {
	const again = "; send initialize to start a new one (the browser sessions it made ended too)"
	switch why {
	case endUnused:
		return "Session terminated: this MCP session made no request in the " + c.unusedTTL.String() +
			" after its initialize, so the server ended it" + again
	case endEvicted:
		return fmt.Sprintf("Session terminated: this server keeps at most %d MCP sessions (--max-clients) and ended this one, "+
			"which had no stream open and no request in flight, to make room for a new client%s; "+
			"a client keeps its session by keeping its GET stream open, and ends it with a DELETE when done", c.max, again)
	}
	return "Session terminated: this MCP session was ended after " + c.ttl.String() +
		" without a request or an open stream (--client-idle-timeout)" + again
}

// discardResponse is the answer to the server's own DELETE, which no one
// reads.
type discardResponse struct{ h http.Header }

func (d discardResponse) Header() http.Header         { return d.h }
func (d discardResponse) Write(b []byte) (int, error) { return len(b), nil }
func (d discardResponse) WriteHeader(int)             {}

// newUUID is a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}
