package runner

import (
	"testing"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

// TestActorSteps: an actor's step is named with its actor (the output,
// JUnit and the JSON report read describeStep) and goes to a session of
// its own beside the flow's, per attempt; a request step says its method.
func TestActorSteps(t *testing.T) {
	f, err := flow.Parse([]byte("name: x\nsteps:\n  - click: '#go'\n    actor: bob\n  - request: {method: post, url: /api/x}\n  - request: /api/y\n    actor: bob\n"))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"bob: click #go", "request POST /api/x", "bob: request GET /api/y"} {
		if got := describeStep(f.Steps[i]); got != want {
			t.Errorf("step %d: %q, want %q", i+1, got, want)
		}
	}
	tt := test{session: "flow-3", flow: f}
	if got := actorSession(tt, "bob"); got != "flow-3.bob" {
		t.Errorf("bob's session: %q", got)
	}
	if got := actorSession(tt.attempt(1), "bob"); got != "flow-3-retry1.bob" {
		t.Errorf("bob's session on a retry: %q", got)
	}
	if got := actorSession(tt, ""); got != "flow-3" {
		t.Errorf("the flow's own session: %q", got)
	}
}
