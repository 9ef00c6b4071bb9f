package httpauth

import (
	"container/list"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Kind is what a rate limit counts.
type Kind int

const (
	// SessionCreate counts sessions a client creates.
	SessionCreate Kind = iota
	// ToolCall counts tool calls a client makes.
	ToolCall
	numKinds
)

func (k Kind) String() string {
	switch k {
	case SessionCreate:
		return "session_create"
	case ToolCall:
		return "tool_call"
	}
	return "unknown"
}

// RateLimits configures a RateLimiter. A zero rate leaves that kind unlimited, so the zero value limits nothing
// (abuse limits are off unless configured).
//
// Seed 000's abuse profile is 10 sessions and 100 tool calls a minute per client:
//
//	httpauth.NewRateLimiter(httpauth.RateLimits{SessionsPerMinute: 10, CallsPerMinute: 100})
type RateLimits struct {
	// SessionsPerMinute is the sustained rate of session creation per client key; 0 is unlimited.
	SessionsPerMinute float64
	// CallsPerMinute is the sustained rate of tool calls per client key; 0 is unlimited.
	CallsPerMinute float64
	// SessionBurst and CallBurst are the token-bucket sizes: how many may come at once after a quiet spell.
	// They default to one minute's worth (the per-minute rate, rounded up).
	SessionBurst, CallBurst int
	// IdleTTL drops a key not seen for this long (a dropped key starts again with full buckets, which it would
	// have had by then anyway); default 10m, and never less than the time an empty bucket takes to refill.
	IdleTTL time.Duration
	// MaxKeys caps the keys held; past it the least recently seen key is dropped. Default 10000.
	MaxKeys int
}

// RateLimiter is a set of token buckets per client key and Kind. Memory stays bounded: keys idle for IdleTTL are
// dropped, and at most MaxKeys are held. It starts no goroutine and is safe for concurrent use. A nil
// *RateLimiter allows everything.
type RateLimiter struct {
	limits  [numKinds]rate.Limit
	bursts  [numKinds]int
	idleTTL time.Duration
	maxKeys int
	now     func() time.Time

	mu      sync.Mutex
	entries map[string]*list.Element // of *rateEntry
	lru     list.List                // front: most recently seen
}

type rateEntry struct {
	key      string
	buckets  [numKinds]*rate.Limiter // nil for an unlimited kind
	lastSeen time.Time
}

// NewRateLimiter builds a RateLimiter for l.
func NewRateLimiter(l RateLimits) *RateLimiter {
	return newRateLimiter(l, time.Now)
}

func newRateLimiter(l RateLimits, now func() time.Time) *RateLimiter {
	rl := &RateLimiter{idleTTL: l.IdleTTL, maxKeys: l.MaxKeys, now: now, entries: map[string]*list.Element{}}
	perMinute := [numKinds]float64{SessionCreate: l.SessionsPerMinute, ToolCall: l.CallsPerMinute}
	bursts := [numKinds]int{SessionCreate: l.SessionBurst, ToolCall: l.CallBurst}
	if rl.idleTTL <= 0 {
		rl.idleTTL = 10 * time.Minute
	}
	if rl.maxKeys <= 0 {
		rl.maxKeys = 10000
	}
	for k := range numKinds {
		if perMinute[k] <= 0 {
			continue
		}
		rl.limits[k] = rate.Limit(perMinute[k] / 60)
		rl.bursts[k] = bursts[k]
		if rl.bursts[k] <= 0 {
			rl.bursts[k] = int(math.Ceil(perMinute[k]))
		}
		refill := time.Duration(float64(rl.bursts[k]) / float64(rl.limits[k]) * float64(time.Second))
		rl.idleTTL = max(rl.idleTTL, refill)
	}
	return rl
}

// Enabled reports whether any kind is limited.
func (rl *RateLimiter) Enabled() bool {
	if rl == nil {
		return false
	}
	for _, l := range rl.limits {
		if l > 0 {
			return true
		}
	}
	return false
}

// Allow takes one token from key's bucket for kind. When the bucket is empty it takes nothing and returns false
// with how long until a token is available (always > 0), for the caller's rate_limited answer. A kind that is not
// configured (or unknown) is never limited.
func (rl *RateLimiter) Allow(key string, kind Kind) (ok bool, retryAfter time.Duration) {
	if rl == nil || kind < 0 || kind >= numKinds || rl.limits[kind] == 0 {
		return true, 0
	}
	now := rl.now()
	rl.mu.Lock()
	defer rl.mu.Unlock()
	e := rl.touch(key, now)
	b := e.buckets[kind]
	if b == nil {
		b = rate.NewLimiter(rl.limits[kind], rl.bursts[kind])
		e.buckets[kind] = b
	}
	if b.AllowN(now, 1) {
		return true, 0
	}
	// The wait until one token has accrued, corrected for float rounding so that calling again exactly
	// retryAfter later succeeds (with no other use of the key in between).
	missing := 1 - b.TokensAt(now)
	wait := max(time.Duration(math.Round(missing/float64(rl.limits[kind])*float64(time.Second))), time.Nanosecond)
	for i := 0; i < 1000 && b.TokensAt(now.Add(wait)) < 1; i++ {
		wait += time.Nanosecond
	}
	return false, wait
}

// Len is the number of keys held.
func (rl *RateLimiter) Len() int {
	if rl == nil {
		return 0
	}
	rl.mu.Lock()
	defer rl.mu.Unlock()
	return len(rl.entries)
}

// touch returns key's entry, marked seen at now, and drops idle and excess keys. rl.mu is held.
func (rl *RateLimiter) touch(key string, now time.Time) *rateEntry {
	var e *rateEntry
	if el, ok := rl.entries[key]; ok {
		e = el.Value.(*rateEntry)
		rl.lru.MoveToFront(el)
	} else {
		e = &rateEntry{key: key}
		rl.entries[key] = rl.lru.PushFront(e)
	}
	e.lastSeen = now
	for back := rl.lru.Back(); back != nil && back.Value.(*rateEntry) != e; back = rl.lru.Back() {
		old := back.Value.(*rateEntry)
		if len(rl.entries) <= rl.maxKeys && now.Sub(old.lastSeen) < rl.idleTTL {
			break
		}
		rl.lru.Remove(back)
		delete(rl.entries, old.key)
	}
	return e
}
