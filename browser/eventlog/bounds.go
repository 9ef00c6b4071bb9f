package eventlog

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/network"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
)

// What a session keeps of its pages is bounded where it is stored
// (docs/architecture.md §6, Bounds): a page decides how long its URLs,
// headers, console messages and dialogs are, and how many it makes, and a
// shared server must not grow with them. So every text a page makes is
// kept through keep (clipped, the clipping marked: "…[clipped 1,048,000
// bytes]"), every list has a count (the newest kept, as Playwright keeps
// a page's newest requests and console messages), and the console and
// network records of all of a session's tabs count against one budget
// (Store), which a page that opens popups cannot multiply.
// TestStoresBounded lists every store of the package and says how each is
// bounded.
const (
	// MaxURLKept bounds a URL kept: a request's, a tab's, a download's,
	// a blocked request's, a console message's location.
	MaxURLKept = 8 << 10
	// MaxHeaderKept bounds one header's value, MaxHeadersKept a
	// request's headers one way (names and values); past it the
	// largest headers are left out, and a header named "…" says how many.
	MaxHeaderKept  = 8 << 10
	MaxHeadersKept = 32 << 10
	// MaxConsoleText bounds a console message's text and a dialog's
	// message; MaxStackKept an exception's stack.
	MaxConsoleText = 4 << 10
	MaxStackKept   = 8 << 10
	// MaxShortKept bounds a short text a page names: a method, a status
	// text, a failure's reason, a header's name.
	MaxShortKept = 256
	// MaxSessionLogBytes bounds what the console and network records of
	// a session's tabs hold together; past it the session's oldest
	// records go first, whichever tab holds them.
	MaxSessionLogBytes = 16 << 20
)

// keep is what a store keeps of a text a page made: at most n bytes, the
// rest said (text.Keep).
func keep(s string, n int) string { return text.Keep(s, n) }

// KeepURL is what a store keeps of a URL.
func KeepURL(u string) string { return keep(u, MaxURLKept) }

// keepHeaders are a request's or a response's headers as a store keeps
// them: each value within MaxHeaderKept, all within MaxHeadersKept. The
// smallest are kept first, so that a page's one huge header leaves the
// others; what is left out is said by a header named "…".
func keepHeaders(h network.Headers) map[string]string {
	if len(h) == 0 {
		return nil
	}
	type kv struct{ k, v string }
	all := make([]kv, 0, len(h))
	for k, v := range h {
		all = append(all, kv{k, fmt.Sprint(v)})
	}
	slices.SortFunc(all, func(a, b kv) int {
		if d := len(a.k) + len(a.v) - len(b.k) - len(b.v); d != 0 {
			return d
		}
		return strings.Compare(a.k, b.k)
	})
	out := make(map[string]string, len(all))
	used, leftN, leftBytes := 0, 0, 0
	for _, e := range all {
		k, v := keep(e.k, MaxShortKept), keep(e.v, MaxHeaderKept)
		if used+len(k)+len(v) > MaxHeadersKept {
			leftN++
			leftBytes += len(e.k) + len(e.v)
			continue
		}
		used += len(k) + len(v)
		out[k] = v
	}
	if leftN > 0 {
		out["…"] = fmt.Sprintf("[clipped %d more headers, %s bytes]", leftN, text.Commas(leftBytes))
	}
	return out
}

// headersCost is what kept headers cost a store.
func headersCost(h map[string]string) int {
	n := 0
	for k, v := range h {
		n += len(k) + len(v) + 32
	}
	return n
}

// recordCost is about what a record takes beyond its texts.
const recordCost = 256

// Store holds the console and network records of a session's tabs: one
// lock and one budget for all of them. A tab's Log is read and changed
// only under mu; mu is taken after a page's own lock, never before, so
// that making room may take the oldest records of any tab. Its zero value
// is an empty store with the budget MaxSessionLogBytes.
type Store struct {
	mu sync.Mutex
	// max is the budget in bytes (0: MaxSessionLogBytes); used what the
	// records hold.
	max, used int
	// seq orders the records of every tab, oldest first.
	seq uint64
	// logs are the tabs' logs that hold records.
	logs map[*Log]struct{}
}

// Used is what the store's records hold, in bytes.
func (s *Store) Used() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}

func (s *Store) budget() int {
	if s.max > 0 {
		return s.max
	}
	return MaxSessionLogBytes
}

// charge counts cost more bytes for l, first making room by dropping the
// session's oldest records. Called with mu held.
func (s *Store) charge(l *Log, cost int) {
	if s.logs == nil {
		s.logs = map[*Log]struct{}{}
	}
	s.logs[l] = struct{}{}
	for s.used+cost > s.budget() && s.dropOldest() {
	}
	s.used += cost
}

// dropOldest drops the oldest record of the session, whichever tab holds
// it; false when none is left. Called with mu held.
func (s *Store) dropOldest() bool {
	var from *Log
	var oldest uint64
	var console bool
	for l := range s.logs {
		if m, ok := l.console.oldest(); ok && (from == nil || m.at < oldest) {
			from, oldest, console = l, m.at, true
		}
		if r, ok := l.network.oldest(); ok && (from == nil || r.at < oldest) {
			from, oldest, console = l, r.at, false
		}
	}
	if from == nil {
		return false
	}
	if console {
		m, _ := from.console.pop()
		s.used -= m.cost
		from.evictedConsole++
	} else {
		r, _ := from.network.pop()
		s.used -= r.cost
		from.evictedNetwork++
		if from.open[r.id] == r {
			delete(from.open, r.id)
		}
	}
	return true
}

// forget gives back what a closed tab's log held.
func (s *Store) forget(l *Log) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for m, ok := l.console.pop(); ok; m, ok = l.console.pop() {
		s.used -= m.cost
	}
	for r, ok := l.network.pop(); ok; r, ok = l.network.pop() {
		s.used -= r.cost
	}
	clear(l.open)
	delete(s.logs, l)
	l.closed = true
}

// next is the session-wide number of a new record. Called with mu held.
func (s *Store) next() uint64 {
	s.seq++
	return s.seq
}
