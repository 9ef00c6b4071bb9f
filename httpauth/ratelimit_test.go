package httpauth

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// The seed's profile: 10 sessions and 100 calls a minute.
var seedProfile = RateLimits{SessionsPerMinute: 10, CallsPerMinute: 100}

func TestRateLimiterAllowsBurstThenSaysWhenToRetry(t *testing.T) {
	clock := newFakeClock()
	rl := newRateLimiter(seedProfile, clock.Now)
	for i := range 10 {
		if ok, _ := rl.Allow("client-a", SessionCreate); !ok {
			t.Fatalf("session %d refused", i+1)
		}
	}
	ok, retry := rl.Allow("client-a", SessionCreate)
	if ok || retry != 6*time.Second { // 10 a minute: one token every 6 s
		t.Fatalf("11th session: ok %v, retry after %v", ok, retry)
	}
	// A refused call takes nothing: after the advertised wait exactly one more is allowed.
	clock.Advance(retry - time.Millisecond)
	if ok, retry := rl.Allow("client-a", SessionCreate); ok || retry != time.Millisecond {
		t.Fatalf("just before: ok %v, retry %v", ok, retry)
	}
	clock.Advance(time.Millisecond)
	if ok, _ := rl.Allow("client-a", SessionCreate); !ok {
		t.Fatal("refused after the advertised wait")
	}
	if ok, retry := rl.Allow("client-a", SessionCreate); ok || retry <= 0 {
		t.Fatalf("second after the wait: ok %v, retry %v", ok, retry)
	}

	for i := range 100 {
		if ok, _ := rl.Allow("client-a", ToolCall); !ok {
			t.Fatalf("call %d refused (kinds must be independent)", i+1)
		}
	}
	if ok, retry := rl.Allow("client-a", ToolCall); ok || retry != 600*time.Millisecond {
		t.Fatalf("101st call: ok %v, retry after %v", ok, retry)
	}
}

func TestRateLimiterKeysAreIndependent(t *testing.T) {
	clock := newFakeClock()
	rl := newRateLimiter(RateLimits{SessionsPerMinute: 2}, clock.Now)
	for range 2 {
		rl.Allow("a", SessionCreate)
	}
	if ok, _ := rl.Allow("a", SessionCreate); ok {
		t.Fatal("a not limited")
	}
	for i := range 2 {
		if ok, _ := rl.Allow("b", SessionCreate); !ok {
			t.Fatalf("b's session %d refused because of a", i+1)
		}
	}
	// CallsPerMinute is 0: tool calls are unlimited.
	for range 1000 {
		if ok, retry := rl.Allow("a", ToolCall); !ok || retry != 0 {
			t.Fatal("unlimited kind refused")
		}
	}
}

func TestRateLimiterOffUnlessConfigured(t *testing.T) {
	var nilRL *RateLimiter
	for _, rl := range []*RateLimiter{nilRL, NewRateLimiter(RateLimits{})} {
		if rl.Enabled() {
			t.Fatal("enabled")
		}
		for range 1000 {
			if ok, _ := rl.Allow("k", SessionCreate); !ok {
				t.Fatal("refused")
			}
		}
		if rl.Len() != 0 {
			t.Fatal("keys kept while off")
		}
	}
	if !NewRateLimiter(seedProfile).Enabled() {
		t.Fatal("seed profile not enabled")
	}
}

func TestRateLimiterEvictsIdleKeys(t *testing.T) {
	clock := newFakeClock()
	rl := newRateLimiter(RateLimits{CallsPerMinute: 60, IdleTTL: 5 * time.Minute}, clock.Now)
	for i := range 50 {
		rl.Allow(fmt.Sprint("old-", i), ToolCall)
	}
	clock.Advance(4 * time.Minute)
	rl.Allow("recent", ToolCall)
	if n := rl.Len(); n != 51 {
		t.Fatalf("%d keys before the TTL, want 51", n)
	}
	clock.Advance(time.Minute)
	rl.Allow("new", ToolCall) // any call sweeps keys idle for IdleTTL
	if n := rl.Len(); n != 2 {
		t.Fatalf("%d keys after the TTL, want 2 (recent, new)", n)
	}
	// A key that comes back after eviction starts with a full bucket, as it would have had anyway.
	for i := range 60 {
		if ok, _ := rl.Allow("old-0", ToolCall); !ok {
			t.Fatalf("returning key refused at %d", i)
		}
	}
}

func TestRateLimiterIdleTTLNeverShorterThanRefill(t *testing.T) {
	clock := newFakeClock()
	// 1 session a minute with a burst of 5 refills in 5 minutes; a 1-minute TTL would let a client reset its
	// bucket by waiting, so the TTL is raised to the refill time.
	rl := newRateLimiter(RateLimits{SessionsPerMinute: 1, SessionBurst: 5, IdleTTL: time.Minute}, clock.Now)
	for range 5 {
		rl.Allow("a", SessionCreate)
	}
	clock.Advance(2 * time.Minute)
	rl.Allow("other", SessionCreate)
	if rl.Len() != 2 {
		t.Fatalf("key evicted before its bucket refilled: %d keys", rl.Len())
	}
	// Two minutes refilled two tokens, no more.
	for i := range 2 {
		if ok, _ := rl.Allow("a", SessionCreate); !ok {
			t.Fatalf("token %d refused", i+1)
		}
	}
	if ok, _ := rl.Allow("a", SessionCreate); ok {
		t.Fatal("bucket was reset")
	}
}

func TestRateLimiterMaxKeysBoundsMemory(t *testing.T) {
	clock := newFakeClock()
	rl := newRateLimiter(RateLimits{CallsPerMinute: 100, MaxKeys: 100}, clock.Now)
	for i := range 10_000 {
		rl.Allow(fmt.Sprint("client-", i), ToolCall)
		if n := rl.Len(); n > 100 {
			t.Fatalf("%d keys held after %d clients", n, i+1)
		}
	}
	if rl.Len() != 100 || len(rl.entries) != rl.lru.Len() {
		t.Fatalf("len %d, map %d, list %d", rl.Len(), len(rl.entries), rl.lru.Len())
	}
	// The most recent keys survive: client-9999 is still limited by its own bucket.
	for range 99 {
		rl.Allow("client-9999", ToolCall)
	}
	if ok, _ := rl.Allow("client-9999", ToolCall); ok {
		t.Fatal("recent key lost its bucket")
	}
}

func TestRateLimiterConcurrentUse(t *testing.T) {
	rl := NewRateLimiter(RateLimits{SessionsPerMinute: 10, CallsPerMinute: 100, MaxKeys: 8})
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := map[string]int{}
	for g := range 16 {
		wg.Go(func() {
			key := fmt.Sprint("k", g%4)
			for range 50 {
				if ok, _ := rl.Allow(key, ToolCall); ok {
					mu.Lock()
					allowed[key]++
					mu.Unlock()
				}
				rl.Allow(fmt.Sprint("churn-", g), SessionCreate)
			}
		})
	}
	wg.Wait()
	// Four goroutines share each key and ask 200 times within well under a minute; churn keys may evict a key
	// (resetting it), so a key gets at least its burst and at most a few bursts.
	for k, n := range allowed {
		if n < 100 {
			t.Errorf("%s allowed %d calls, want at least the burst of 100", k, n)
		}
	}
	if rl.Len() > 8 {
		t.Fatalf("%d keys, MaxKeys 8", rl.Len())
	}
}

func TestKindString(t *testing.T) {
	if SessionCreate.String() != "session_create" || ToolCall.String() != "tool_call" || Kind(9).String() != "unknown" {
		t.Fatal("kind names")
	}
	if ok, _ := NewRateLimiter(seedProfile).Allow("k", Kind(9)); !ok {
		t.Fatal("unknown kind refused")
	}
}
