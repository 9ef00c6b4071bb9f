package mcptools

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/report"
	"github.com/e2e-mcp/e2e-mcp/trace"
)

// TestStepGroups: the calls of a flow's groups become, in the trace, a
// test.step action before each run of calls in a group (nested, spanning
// its calls, failed when one failed; two groups of one name apart), every
// call under its innermost group; in the report, each call names its
// groups and the first of each run says so (its heading).
func TestStepGroups(t *testing.T) {
	t0 := time.Now()
	signIn, pw, again := StepGroup{ID: 0, Name: "Sign in"}, StepGroup{ID: 1, Name: "Password"}, StepGroup{ID: 2, Name: "Sign in"}
	paths := [][]StepGroup{nil, {signIn}, {signIn, pw}, {signIn}, {again}, nil}
	var steps []loggedStep
	var acts []trace.Action
	for i, p := range paths {
		st := loggedStep{tool: fmt.Sprintf("t%d", i), start: t0.Add(time.Duration(i) * time.Second), took: 500 * time.Millisecond, ok: i != 2, groups: p}
		steps = append(steps, st)
		a := trace.Action{Class: "Frame", Method: st.tool, Start: st.start, End: st.start.Add(st.took)}
		if !st.ok {
			a.Error = &trace.Error{Name: "timeout", Message: "x"}
		}
		acts = append(acts, a)
	}
	var got []string
	out := traceGroups(steps, acts, strings.ToUpper)
	for i, a := range out {
		line := fmt.Sprintf("%d %s parent=%d", i+1, a.Method, a.Parent)
		if a.Class == "Test" {
			line = fmt.Sprintf("%d step %q parent=%d %s-%s failed=%t", i+1, a.Title, a.Parent, a.Start.Sub(t0), a.End.Sub(t0), a.Error != nil)
		}
		got = append(got, line)
	}
	want := []string{
		"1 t0 parent=0",
		`2 step "SIGN IN" parent=0 1s-3.5s failed=true`,
		"3 t1 parent=2",
		`4 step "PASSWORD" parent=2 2s-2.5s failed=true`,
		"5 t2 parent=4",
		"6 t3 parent=2",
		`7 step "SIGN IN" parent=0 4s-4.5s failed=false`,
		"8 t4 parent=7",
		"9 t5 parent=0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the trace's actions:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	rs := make([]report.Step, len(steps))
	reportGroups(steps, rs, strings.ToUpper)
	got = nil
	for _, s := range rs {
		got = append(got, fmt.Sprintf("%s %t", strings.Join(s.Group, " > "), s.GroupStart))
	}
	want = []string{" false", "SIGN IN true", "SIGN IN > PASSWORD true", "SIGN IN true", "SIGN IN true", " false"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the report's steps: %q, want %q", got, want)
	}
}
