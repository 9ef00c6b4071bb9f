package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// A flow's steps may take at most its timeout (`timeout: 2m` in the flow,
// else run --timeout; none by default), as Playwright's test timeout,
// where test.setTimeout in the test wins over the config. Preparing the
// session (the dev server's start, which has its own timeout, and the
// storage state) is not counted, as Playwright's webServer is not. Past it
// the step under way is cut short (its context ends) and the flow fails
// with the type flow_timeout, naming that step, its group path and the
// time taken; then the flow writers and session_end run on the run's own
// context, so the session, its browser context and its dev server end as
// after any failure.

// errFlowTimeout is the type of a flow's failure past its timeout.
const errFlowTimeout = "flow_timeout"

// flowTimeout is the time the flow's steps may take (0: no bound) and
// what set it.
func (r *replay) flowTimeout() (time.Duration, string) {
	if d := r.t.flow.Timeout; d > 0 {
		return d, "the flow's timeout:"
	}
	if r.timeout > 0 {
		return r.timeout, "--timeout"
	}
	return 0, ""
}

// bounded runs the flow's steps (steps) on a context that ends at the
// flow's timeout, and puts the run's context back after.
func (r *replay) bounded(steps func()) {
	r.stepsStart = time.Now()
	if d, _ := r.flowTimeout(); d > 0 {
		ctx, cancel := context.WithTimeout(r.base, d)
		r.ctx = ctx
		defer func() {
			cancel()
			r.ctx = r.base
		}()
	}
	steps()
}

// timedOut says whether the flow's steps ran past its timeout (and not
// that the whole run was cancelled).
func (r *replay) timedOut() bool {
	return r.ctx != r.base && r.ctx.Err() == context.DeadlineExceeded && r.base.Err() == nil
}

// failTimeout fails the flow past its timeout, in step n (1-based) doing
// what; a is the step's answer when it was cut short, if any. It returns
// false.
func (r *replay) failTimeout(n int, what string, a mcptools.Answer) bool {
	d, by := r.flowTimeout()
	took := time.Since(r.stepsStart)
	e := &mcptools.AnswerError{Type: errFlowTimeout,
		Message: fmt.Sprintf("the flow's steps ran past its timeout of %s (%s): %.1fs, in step %d (%s)", flow.FormatDuration(d), by, took.Seconds(), n, what),
		Next:    fmt.Sprintf("find why step %d took so long (its report or trace shows it), or raise the timeout", n)}
	text := "### Error\n" + e.Line() + "\n"
	if a.Text != "" {
		text += "\n### The step's answer when it was cut short\n" + a.Text + "\n"
	}
	return r.fail(n, what, mcptools.Answer{Text: text, Err: e, Images: a.Images}, nil)
}
