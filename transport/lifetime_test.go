package transport

import (
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock a test moves.
type fakeClock struct{ t time.Time }

func (f *fakeClock) now() time.Time      { return f.t }
func (f *fakeClock) add(d time.Duration) { f.t = f.t.Add(d) }
func newFakeClock() *fakeClock           { return &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }
func clientsAt(c *fakeClock, ttl time.Duration, maxClients int) *clientSessions {
	s := newClientSessions(sessionPrefix(""), ttl, maxClients)
	s.now = c.now
	return s
}

// newClient makes a session as an initialize does: room first.
func newClient(t *testing.T, c *clientSessions) string {
	t.Helper()
	if _, full := c.admit(); full {
		t.Fatal("no room for a new session")
	}
	return c.Generate()
}

// use makes one request on a session.
func use(t *testing.T, c *clientSessions, id string) {
	t.Helper()
	state, _, end := c.enter(id, "", true)
	if state != sessionLive {
		t.Fatalf("session %s is not live", id)
	}
	end()
}

// TestClientSessionsOwners: a session belongs to the principal that
// initialized it; to any other it is unknown, live or ended. A session its
// client DELETEs is forgotten; one the server ended is remembered, and
// said to its owner only.
func TestClientSessionsOwners(t *testing.T) {
	clock := newFakeClock()
	c := clientsAt(clock, time.Hour, 0)
	id := c.Generate()
	c.bind(id, "alice")
	if st, _, end := c.enter(id, "alice", true); st != sessionLive {
		t.Fatal("alice's own session")
	} else {
		end()
	}
	for _, who := range []string{"bob", ""} {
		if st, _, _ := c.enter(id, who, true); st != sessionUnknown {
			t.Errorf("alice's session is %v to %q, want unknown", st, who)
		}
	}
	if st, _, _ := c.enter("mcp-session-made-up", "alice", true); st != sessionUnknown {
		t.Errorf("a made-up id: %v", st)
	}
	clock.add(2 * time.Hour)
	if gone := c.silent(clock.now()); len(gone) != 1 || gone[0] != id {
		t.Fatalf("swept %v, want %s", gone, id)
	}
	if st, why, _ := c.enter(id, "alice", true); st != sessionEnded || why != endIdle {
		t.Errorf("alice's swept session: %v %v", st, why)
	}
	if st, _, _ := c.enter(id, "bob", true); st != sessionUnknown {
		t.Errorf("alice's swept session to bob: %v", st)
	}
	if ended, err := c.Validate(id); !ended || err != nil {
		t.Errorf("Validate(swept) = %v, %v", ended, err)
	}
	mine := c.Generate()
	if _, err := c.Terminate(mine); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Validate(mine); err == nil {
		t.Error("a session its client ended is still known")
	}
}

// TestClientSessionsCap: at --max-clients an initialize ends, among the
// sessions with no stream open and no request in flight, first one never
// used after its initialize, then the least recently active; with every
// session busy it is refused. Grown far past the cap, the live sessions
// never pass it, the busy one is never ended, and the ended ones
// remembered stay within maxEnded.
func TestClientSessionsCap(t *testing.T) {
	clock := newFakeClock()
	c := clientsAt(clock, 24*time.Hour, 3)
	older := newClient(t, c)
	use(t, c, older)
	clock.add(time.Minute)
	busy := newClient(t, c)
	_, _, endBusy := c.enter(busy, "", true) // a GET stream, open
	clock.add(time.Minute)
	unused := newClient(t, c)
	clock.add(time.Minute)
	if c.count() != 3 {
		t.Fatalf("%d live", c.count())
	}
	if ev, full := c.admit(); full || ev != unused {
		t.Fatalf("admit ended %q (full %v), want the unused one %q", ev, full, unused)
	}
	if st, why, _ := c.enter(unused, "", true); st != sessionEnded || why != endEvicted {
		t.Errorf("the evicted session: %v %v", st, why)
	}
	newer := c.Generate()
	use(t, c, newer)
	clock.add(time.Minute)
	if ev, _ := c.admit(); ev != older {
		t.Fatalf("admit ended %q, want the least recently active %q", ev, older)
	}
	third := c.Generate()
	_, _, endNewer := c.enter(newer, "", true) // a call in flight
	_, _, endThird := c.enter(third, "", true)
	if ev, full := c.admit(); !full || ev != "" || c.count() != 3 {
		t.Fatalf("every session busy: admit = %q, full %v, %d live", ev, full, c.count())
	}
	endNewer()
	endThird()

	// Far past the cap: 2,000 initializes, one in four DELETEd.
	for i := range 2000 {
		clock.add(time.Second)
		id := newClient(t, c)
		if i%4 == 0 {
			_, _ = c.Terminate(id)
		}
		if n := c.count(); n > 3 {
			t.Fatalf("after %d initializes %d sessions live, over the cap of 3", i+1, n)
		}
	}
	if st, _, _ := c.enter(busy, "", true); st != sessionLive {
		t.Error("the session with a stream open was ended")
	}
	endBusy()
	if len(c.ended) > maxEnded || len(c.order) > maxEnded {
		t.Errorf("%d ended sessions remembered, over %d", len(c.ended), maxEnded)
	}
}

// TestEndedSessionsBounded: the sessions the server ended are remembered
// up to maxEnded, the oldest forgotten first (then unknown: a plain 404).
func TestEndedSessionsBounded(t *testing.T) {
	clock := newFakeClock()
	c := clientsAt(clock, 24*time.Hour, 1)
	var ids []string
	for range 2*maxEnded + 5 {
		ids = append(ids, newClient(t, c))
	}
	if len(c.ended) != maxEnded || len(c.order) != maxEnded {
		t.Fatalf("%d ended remembered (order %d), want %d", len(c.ended), len(c.order), maxEnded)
	}
	if _, err := c.Validate(ids[0]); err == nil {
		t.Error("the oldest ended session is still remembered")
	}
	if ended, err := c.Validate(ids[len(ids)-2]); !ended || err != nil {
		t.Errorf("the newest ended session: %v %v", ended, err)
	}
}

// TestSilentSessionsSwept: a session never used after its initialize goes
// after unusedTimeout of silence, a used one after --client-idle-timeout,
// one with a stream open never; a shorter --client-idle-timeout shortens
// the first too, and 0 sweeps none.
func TestSilentSessionsSwept(t *testing.T) {
	clock := newFakeClock()
	c := clientsAt(clock, time.Hour, 0)
	unused, used, streaming := c.Generate(), c.Generate(), c.Generate()
	use(t, c, used)
	_, _, end := c.enter(streaming, "", false) // notifications/initialized does not count as use...
	clock.add(unusedTimeout + time.Second)
	if gone := c.silent(clock.now()); len(gone) != 1 || gone[0] != unused {
		t.Fatalf("after %s swept %v, want only the unused session", unusedTimeout, gone)
	}
	if _, why, _ := c.enter(unused, "", true); why != endUnused {
		t.Errorf("why: %v", why)
	}
	if msg := c.endedMessage(endUnused); !strings.Contains(msg, "made no request in the 10m0s") || !strings.Contains(msg, "send initialize") {
		t.Errorf("the unused session's 404: %s", msg)
	}
	clock.add(time.Hour)
	if gone := c.silent(clock.now()); len(gone) != 1 || gone[0] != used {
		t.Fatalf("after an hour swept %v, want the used session", gone)
	}
	end() // ...and a stream keeps it, however long
	if gone := c.silent(clock.now()); len(gone) != 0 {
		t.Fatalf("a stream just closed: swept %v", gone)
	}
	if c := newClientSessions("", 3*time.Second, 0); c.unusedTTL != 3*time.Second {
		t.Errorf("unusedTTL with --client-idle-timeout 3s: %s", c.unusedTTL)
	}
}

// TestStreamBudgets: a session streams at most maxStreamedPerClient
// answers, all sessions at most maxStreamed; a session's end gives its
// share back.
func TestStreamBudgets(t *testing.T) {
	c := newClientSessions(sessionPrefix(""), time.Hour, 0)
	heavy, light := c.Generate(), c.Generate()
	for range maxStreamedPerClient {
		if !c.mayStream(heavy) {
			t.Fatal("refused within the budget")
		}
		c.didStream(heavy)
	}
	if c.mayStream(heavy) || !c.mayStream(light) {
		t.Fatalf("past one session's budget: heavy %v, light %v", c.mayStream(heavy), c.mayStream(light))
	}
	c.mu.Lock()
	c.streamed += maxStreamed // as if the others had streamed all
	c.mu.Unlock()
	if c.mayStream(light) {
		t.Error("past the budget of all sessions")
	}
	_, _ = c.Terminate(heavy)
	c.mu.Lock()
	c.streamed -= maxStreamed
	left := c.streamed
	c.mu.Unlock()
	if left != 0 || !c.mayStream(light) {
		t.Errorf("after the heavy session ended: %d counted, light may stream %v", left, c.mayStream(light))
	}
	if c.mayStream("mcp-session-unknown") {
		t.Error("an unknown session may stream")
	}
}
