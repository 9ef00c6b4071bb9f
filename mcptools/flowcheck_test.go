package mcptools

import (
	"context"
	"strings"
	"testing"
)

// TestCheckFlowReadsOneFlow: session_check_flow takes a path or the YAML,
// one of them, and refuses a text that is not a flow before any step runs.
func TestCheckFlowReadsOneFlow(t *testing.T) {
	d := testDeps()
	ctx := context.Background()
	for _, tc := range []struct {
		args FlowCheckParams
		want string
	}{
		{FlowCheckParams{}, "give path (a flow file) or flow (its YAML), one of them"},
		{FlowCheckParams{Path: "/a.yaml", Flow: "name: x"}, "one of them"},
		{FlowCheckParams{Flow: "name: x\nsteps:\n  - jump: here\n"}, `not a flow: line 3: unknown action "jump"`},
		// A flow of several actors needs as many browser contexts.
		{FlowCheckParams{Flow: "name: x\nsteps:\n  - back\n  - reload:\n    actor: bob\n"}, "the flow has actors (bob)"},
	} {
		_, err := d.readFlow(ctx, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.args, err, tc.want)
		}
	}
	f, err := d.readFlow(ctx, FlowCheckParams{Flow: "name: x\nsteps:\n  - click: 'role=button[name=\"Go\"]'\n    fingerprint: {role: button, name: Go}\n"})
	if err != nil || f.Steps[0].Fingerprint == nil || f.Steps[0].Fingerprint.Name != "Go" {
		t.Errorf("a flow with a fingerprint: %+v, %v", f, err)
	}
}

// TestCheckFlowReadsNoEnvironment: a flow's ${VAR} is refused, never read
// from the server's environment.
func TestCheckFlowReadsNoEnvironment(t *testing.T) {
	t.Setenv("CHECK_FLOW_SECRET", "from-the-server")
	d := testDeps()
	f, err := d.readFlow(context.Background(), FlowCheckParams{Flow: "name: x\nsteps:\n  - type: {target: '#a', text: '${CHECK_FLOW_SECRET}'}\n"})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = d.flowStep(context.Background(), &Session{}, f, f.Steps[0], toolsByName(d)())
	if err == nil || !strings.Contains(err.Error(), "does not read the server's environment") {
		t.Errorf("a flow variable: %v", err)
	}
}
