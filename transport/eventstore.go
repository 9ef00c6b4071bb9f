package transport

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"sync"

	"github.com/mark3labs/mcp-go/server"
)

// boundedEvents is the store of the HTTP server's resumable SSE streams
// (mcp-go's EventStore): every message sent on a stream (a call's progress
// and answer, the listening stream's notifications) is kept under an event
// id, so that a client whose connection broke reconnects with
// Last-Event-ID and is sent what it missed. mcp-go's in-memory store keeps
// every event of a session for as long as the session lives, so a client
// that makes calls that stream (a progress token, a log level) grew it
// without end. This one keeps at most perSession bytes of one session's
// events and total bytes of all sessions' (each event counted with
// eventOverhead): past the first the session's oldest events go, past the
// second the oldest of the session holding the most. A client that resumes
// from an event no longer kept is told "Unknown Last-Event-ID" (400) by
// mcp-go, as for any id it does not know.
type boundedEvents struct {
	perSession, total int

	mu       sync.Mutex
	seq      int64 // the last event id given
	bytes    int
	sessions map[string]*sessionEvents
}

// The bounds of the event store: one session's events, and all of them.
const (
	maxSessionEvents = 4 << 20
	maxEvents        = 64 << 20
	eventOverhead    = 128 // what an event costs besides its message
)

// sessionEvents are one session's events, every stream's, oldest first
// (their ids ascending).
type sessionEvents struct {
	bytes  int
	events []storedEvent
}

type storedEvent struct {
	seq    int64
	stream string
	msg    json.RawMessage
}

func (e storedEvent) cost() int { return len(e.msg) + len(e.stream) + eventOverhead }

var _ server.EventStore = (*boundedEvents)(nil)

func newBoundedEvents(perSession, total int) *boundedEvents {
	return &boundedEvents{perSession: perSession, total: total, sessions: map[string]*sessionEvents{}}
}

// StoreEvent keeps message as the next event of stream, dropping the
// oldest events past the bounds, and returns its id.
func (b *boundedEvents) StoreEvent(_ context.Context, session, stream string, message json.RawMessage) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	se := b.sessions[session]
	if se == nil {
		se = &sessionEvents{}
		b.sessions[session] = se
	}
	b.seq++
	// A copy: the caller may reuse its buffer.
	e := storedEvent{seq: b.seq, stream: stream, msg: append(json.RawMessage(nil), message...)}
	se.events = append(se.events, e)
	se.bytes += e.cost()
	b.bytes += e.cost()
	for se.bytes > b.perSession && len(se.events) > 1 {
		b.dropOldestLocked(session, se)
	}
	for b.bytes > b.total {
		var most string
		for id, s := range b.sessions {
			if most == "" || s.bytes > b.sessions[most].bytes {
				most = id
			}
		}
		b.dropOldestLocked(most, b.sessions[most])
	}
	return strconv.FormatInt(e.seq, 10), nil
}

// dropOldestLocked drops a session's oldest event (and the session, when
// it has none left). b.mu is held.
func (b *boundedEvents) dropOldestLocked(id string, se *sessionEvents) {
	c := se.events[0].cost()
	se.events[0] = storedEvent{}
	se.events = se.events[1:]
	se.bytes -= c
	b.bytes -= c
	if len(se.events) == 0 {
		delete(b.sessions, id)
	}
}

// ReplayEventsAfter sends the events of lastEventID's stream kept after
// it, in order, and returns the stream's id; an id this session has not
// (never had, or no longer keeps) is ErrUnknownEventID.
func (b *boundedEvents) ReplayEventsAfter(_ context.Context, session, lastEventID string, send func(eventID string, message json.RawMessage) error) (string, error) {
	unknown := fmt.Errorf("%w: %s", server.ErrUnknownEventID, lastEventID)
	seq, err := strconv.ParseInt(lastEventID, 10, 64)
	if err != nil {
		return "", unknown
	}
	b.mu.Lock()
	se := b.sessions[session]
	if se == nil {
		b.mu.Unlock()
		return "", unknown
	}
	i := sort.Search(len(se.events), func(i int) bool { return se.events[i].seq >= seq })
	if i == len(se.events) || se.events[i].seq != seq {
		b.mu.Unlock()
		return "", unknown
	}
	stream := se.events[i].stream
	var tail []storedEvent
	for _, e := range se.events[i+1:] {
		if e.stream == stream {
			tail = append(tail, e)
		}
	}
	b.mu.Unlock()
	for _, e := range tail {
		if err := send(strconv.FormatInt(e.seq, 10), e.msg); err != nil {
			return "", err
		}
	}
	return stream, nil
}

// PurgeSession drops a session's events (it ended).
func (b *boundedEvents) PurgeSession(_ context.Context, session string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if se := b.sessions[session]; se != nil {
		b.bytes -= se.bytes
		delete(b.sessions, session)
	}
	return nil
}

// size is the bytes the store counts, and its events.
func (b *boundedEvents) size() (bytes, events int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, se := range b.sessions {
		events += len(se.events)
	}
	return b.bytes, events
}
