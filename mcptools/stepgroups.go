package mcptools

import (
	"context"
	"slices"

	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/report"
	"github.com/e2e-mcp/e2e-mcp/trace"
)

// A flow's steps may be in named groups (`- group: Sign in`, package flow),
// as Playwright's test.step. The flow runner says which groups the calls
// it makes next are in (SetStepGroups); each call the session logs keeps
// them, and its report shows a heading where they change, its trace a
// test.step action around them.

// StepGroup is one group a call is in: its name, and an ID that tells two
// groups of one name apart (the group's index in its flow).
type StepGroup struct {
	ID   int
	Name string
}

// What a session keeps of the groups: flows nest them at most 16 deep,
// and name them in a line.
const (
	maxStepGroups    = 16
	maxStepGroupName = 200
)

// SetStepGroups puts the calls on session id from now on in the groups
// path (outermost first; none for none), for its report and trace. The
// path is kept anew, never changed after, as each logged call shares it.
func (d *Deps) SetStepGroups(ctx context.Context, id string, path []StepGroup) error {
	s, _, err := d.Sessions.acquire(ctx, id, "flow_group")
	if err != nil {
		return err
	}
	defer s.release()
	kept := make([]StepGroup, 0, min(len(path), maxStepGroups))
	for _, g := range path[:min(len(path), maxStepGroups)] {
		kept = append(kept, StepGroup{ID: g.ID, Name: text.Clip(g.Name, maxStepGroupName)})
	}
	s.steps.groups = kept
	return nil
}

// sameGroups says whether two calls are in the same groups.
func sameGroups(a, b []StepGroup) bool { return slices.Equal(a, b) }

// reportGroups marks each report step with the names of its groups,
// masked, and whether it is the first of a run of steps in them (a
// heading goes before it).
func reportGroups(steps []loggedStep, out []report.Step, mask func(string) string) {
	for i := range out {
		for _, g := range steps[i].groups {
			out[i].Group = append(out[i].Group, mask(g.Name))
		}
		out[i].GroupStart = len(steps[i].groups) > 0 && (i == 0 || !sameGroups(steps[i].groups, steps[i-1].groups))
	}
}

// traceGroups adds the groups of the logged steps (in order, each already
// an action of acts at the same index) as test.step actions: each before
// the first action it holds, spanning the actions it holds, failed when
// one of them failed; each action names its innermost group as its
// Parent.
func traceGroups(steps []loggedStep, acts []trace.Action, mask func(string) string) []trace.Action {
	var out []trace.Action
	type open struct {
		g   StepGroup
		idx int // its index in out
	}
	var stack []open
	for i, st := range steps {
		k := 0
		for k < len(stack) && k < len(st.groups) && stack[k].g == st.groups[k] {
			k++
		}
		stack = stack[:k]
		for _, g := range st.groups[k:] {
			grp := trace.Group(mask(g.Name), acts[i].Start, acts[i].End)
			if len(stack) > 0 {
				grp.Parent = stack[len(stack)-1].idx + 1
			}
			out = append(out, grp)
			stack = append(stack, open{g, len(out) - 1})
		}
		a := acts[i]
		if len(stack) > 0 {
			a.Parent = stack[len(stack)-1].idx + 1
		}
		for _, o := range stack {
			grp := &out[o.idx]
			if a.End.After(grp.End) {
				grp.End = a.End
			}
			if a.Error != nil && grp.Error == nil {
				grp.Error = &trace.Error{Name: a.Error.Name, Message: a.Error.Message}
			}
		}
		out = append(out, a)
	}
	return out
}
