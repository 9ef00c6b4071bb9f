package runner

import (
	"os"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// steps replays the flow's steps in order, until one fails, within the
// flow's timeout (timeout.go), telling the session the groups of each
// (groups.go).
func (r *replay) steps() {
	var groups []int
	defer func() { r.groupsFor(-1, groups) }()
	r.bounded(func() {
		for i, st := range r.t.flow.Steps {
			groups = r.groupsFor(i, groups)
			if r.timedOut() {
				r.failTimeout(i+1, r.stepName(i, st), mcptools.Answer{})
				return
			}
			if !r.step(i, st) {
				return
			}
		}
	})
}

// step replays the i-th step (from 0): its tool called with its arguments
// (a path of a flow with a baseURL and no dev server made absolute), and
// when its target drifted, diagnosed and, with --heal, replayed on the
// likely same element (heal.go). It returns false when the step failed.
func (r *replay) step(i int, st flow.Step) bool {
	f := r.t.flow
	if r.log != nil {
		target, _ := st.Args["target"].(string)
		defer r.timeStep(i+1, describeStep(st), target, time.Now())
	}
	what := r.stepName(i, st)
	tool, args, err := st.Tool(os.LookupEnv)
	if err != nil {
		return r.fail(i+1, what, mcptools.Answer{}, err)
	}
	restore, ok := r.as(st, i+1)
	defer restore()
	if !ok {
		return false
	}
	if u, ok := args["url"].(string); ok && f.Dev == nil && f.BaseURL != "" && strings.HasPrefix(u, "/") {
		args["url"] = strings.TrimRight(f.BaseURL, "/") + u
	} else if ok {
		if args["url"], err = r.actorURL(u); err != nil {
			return r.fail(i+1, what, mcptools.Answer{}, err)
		}
	}
	ans, err := r.call(tool, args)
	if r.timedOut() {
		return r.failTimeout(i+1, what, ans)
	}
	if err != nil {
		return r.fail(i+1, what, ans, err)
	}
	if ans.Err == nil {
		return true
	}
	target, _ := args["target"].(string)
	if target == "" || !drifted(ans.Err.Type) {
		return r.fail(i+1, what, ans, nil)
	}
	d := r.diagnose(st, target)
	if d == nil || r.heal == HealOff || !d.Verdict.Heal {
		return r.fail(i+1, what, ans, nil, d)
	}
	healed, h, err := r.tryHeal(i, st, tool, args, d)
	if r.timedOut() {
		return r.failTimeout(i+1, what, healed)
	}
	if h == nil {
		if err != nil {
			return r.fail(i+1, what, healed, err)
		}
		// The healed replay failed too: its answer, and why it was tried.
		return r.fail(i+1, what+" (healed to "+d.Verdict.Best.Locator+")", healed, nil, d)
	}
	r.res.heals = append(r.res.heals, *h)
	return true
}

// describeStep says a step in words for the summary, after its actor
// when it has one ("bob: click ...").
func describeStep(st flow.Step) string {
	if st.Actor != "" {
		return st.Actor + ": " + describeAction(st)
	}
	return describeAction(st)
}

// describeAction says a step's action in words.
func describeAction(st flow.Step) string {
	if u, ok := st.Args["url"].(string); ok && st.Action == "request" {
		m, _ := st.Args["method"].(string)
		if m == "" {
			m = "GET"
		}
		return "request " + strings.ToUpper(m) + " " + u
	}
	for _, k := range []string{"target", "url", "key", "text"} {
		if v, ok := st.Args[k].(string); ok {
			return st.Action + " " + v
		}
	}
	return st.Action
}
