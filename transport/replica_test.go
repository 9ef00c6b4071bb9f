package transport

import (
	"strings"
	"testing"
	"time"
)

// TestReplicaSessionIDs: a named replica's ids carry its name; it knows
// its own ids, refuses another replica's and made-up ones, and ends its own.
func TestReplicaSessionIDs(t *testing.T) {
	r1 := newClientSessions(sessionPrefix("r1"), time.Hour, 0)
	r2 := newClientSessions(sessionPrefix("r2"), time.Hour, 0)
	id := r1.Generate()
	if !strings.HasPrefix(id, "mcp-session-r1.") || len(id) != len("mcp-session-r1.")+36 {
		t.Fatalf("id = %q, want mcp-session-r1.<uuid>", id)
	}
	if other := r1.Generate(); other == id {
		t.Fatalf("two ids alike: %q", id)
	}
	if ended, err := r1.Validate(id); err != nil || ended {
		t.Errorf("r1.Validate(its own id) = %v, %v; want live", ended, err)
	}
	forged := "mcp-session-r2." + strings.TrimPrefix(id, "mcp-session-r1.")
	for _, bad := range []string{forged, "mcp-session-" + strings.TrimPrefix(id, "mcp-session-r1."), "mcp-session-r1.nope", ""} {
		if _, err := r1.Validate(bad); err == nil {
			t.Errorf("r1.Validate(%q): no error, want unknown", bad)
		}
	}
	if _, err := r2.Validate(id); err == nil {
		t.Errorf("r2 knows r1's id %q", id)
	}
	if notAllowed, err := r2.Terminate(id); notAllowed || err != nil {
		t.Errorf("r2.Terminate(r1's id) = %v, %v; want nothing done", notAllowed, err)
	}
	if ended, err := r1.Validate(id); err != nil || ended {
		t.Errorf("r1's id after r2's Terminate: %v, %v; want live", ended, err)
	}
	if notAllowed, err := r1.Terminate(id); notAllowed || err != nil {
		t.Fatalf("r1.Terminate = %v, %v", notAllowed, err)
	}
	// Its client ended it: nothing is kept of it, and it is unknown (404).
	if _, err := r1.Validate(id); err == nil {
		t.Errorf("r1.Validate after Terminate: live")
	}
	if id := newClientSessions(sessionPrefix(""), time.Hour, 0).Generate(); !strings.HasPrefix(id, "mcp-session-") || len(id) != len("mcp-session-")+36 {
		t.Errorf("no --replica-id: %q, want mcp-go's form mcp-session-<uuid>", id)
	}
}
