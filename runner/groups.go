package runner

import (
	"slices"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// A flow's named groups of steps (flow.Group, as Playwright's test.step):
// a failing step is named with its group path in the console, JUnit and
// artifacts ("Sign in > type label=Password"), and the flow's session is
// told which groups its calls are in (Deps.SetStepGroups), for the groups
// its report and trace show.

// stepName says step i (from 0) in words, after the groups it is in.
func (r *replay) stepName(i int, st flow.Step) string {
	return strings.Join(append(r.t.flow.GroupPath(i), describeStep(st)), " > ")
}

// groupsFor tells the session the groups step i is in (-1: none), when
// they are not those of the step before (were).
func (r *replay) groupsFor(i int, were []int) []int {
	f := r.t.flow
	if len(f.Groups) == 0 {
		return nil
	}
	var now []int
	if i >= 0 {
		now = f.GroupsAt(i)
	}
	if slices.Equal(now, were) {
		return were
	}
	path := make([]mcptools.StepGroup, len(now))
	for k, gi := range now {
		path[k] = mcptools.StepGroup{ID: gi, Name: f.Groups[gi].Name}
	}
	// The report and trace lose the groups if this fails; the replay
	// goes on.
	_ = r.deps.SetStepGroups(r.base, r.t.session, path)
	return now
}
