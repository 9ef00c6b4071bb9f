package mcptools

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"go.uber.org/zap"
)

// TestRegistryBounded: a client that names 2,000 sessions one after
// another on a server with --max-sessions 5 never has more than 5 open:
// each new one ends the least recently used idle one, never the one in a
// call; the notes that tell a caller once why its session ended stay
// within maxEndNotes, the newest kept (its next call is told) and the
// oldest forgotten (a new session starts). With every session in a call,
// a new one is refused.
func TestRegistryBounded(t *testing.T) {
	r := NewRegistry(nil, zap.NewNop())
	r.MaxSessions = 5
	ctx := context.Background()
	busy, _, err := r.acquire(ctx, "busy", "browser_wait_for")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		s, _, err := r.acquire(ctx, fmt.Sprint("s-", i), "browser_navigate")
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		s.release()
		if n, _ := r.Counts(); n > 5 {
			t.Fatalf("after %d sessions %d open, over --max-sessions 5", i+1, n)
		}
	}
	r.mu.Lock()
	_, kept := r.sessions[busy.key]
	notes, order := len(r.ended), len(r.order)
	r.mu.Unlock()
	if !kept {
		t.Error("the session in a call was ended")
	}
	if notes != maxEndNotes || order != maxEndNotes {
		t.Errorf("%d end notes (order %d), want the bound %d", notes, order, maxEndNotes)
	}
	var te *ToolError
	if _, _, err := r.acquire(ctx, "s-1990", "browser_snapshot"); !errors.As(err, &te) || te.Type != ErrSessionEnded {
		t.Errorf("a recently evicted session's next call: %v, want session_ended", err)
	}
	s, _, err := r.acquire(ctx, "s-0", "browser_snapshot")
	if err != nil {
		t.Fatalf("a session evicted long ago (its note forgotten): %v, want a new session", err)
	}
	s.release()
	var held []*Session
	for i := range 4 {
		s, _, err := r.acquire(ctx, fmt.Sprint("held-", i), "browser_wait_for")
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, s)
	}
	if _, _, err := r.acquire(ctx, "one-more", "browser_navigate"); !errors.As(err, &te) || te.Type != ErrCapacityExceeded {
		t.Errorf("every session in a call: %v, want capacity_exceeded", err)
	}
	for _, s := range append(held, busy) {
		s.release()
	}
}
