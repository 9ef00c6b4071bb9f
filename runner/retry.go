package runner

import (
	"context"
	"fmt"
	"time"
)

// With --retries N a flow that fails runs again, up to N more times, each
// attempt in a new session of its own (as Playwright Test retries in a new
// worker): its own browser context, dev server and files, named after the
// flow with -retryK appended (FLOW-retry1.html, .zip, .png), as Playwright
// names a retry's results. A flow that passes on a retry is flaky: it does
// not fail the run, and the runner says why it flaked, from what the failed
// attempt and the passing one recorded (flaky.go).
//
// A flow that passes the first time costs nothing more than without
// --retries: its steps are timed (two clock reads a step), and nothing is
// read from its session. The session's timeline is read only from an
// attempt that failed with a retry to come, and from a retry that passed
// after one failed.

// attempt is the test's k-th attempt (0 the first, the test itself).
func (t test) attempt(k int) test {
	if k == 0 {
		return t
	}
	t.retry = k
	t.session = fmt.Sprintf("%s-retry%d", t.session, k)
	t.stem = fmt.Sprintf("%s-retry%d", t.stem, k)
	return t
}

// runTest runs the test, then again while it fails, up to rn.retries more
// times. The result is the last attempt's, with the failed ones before it.
func (rn *runner) runTest(ctx context.Context, t test) flowResult {
	var prior priorAttempts
	for k := 0; ; k++ {
		res, log := rn.runFlow(ctx, t.attempt(k), prior)
		if !res.failed || k >= rn.retries || ctx.Err() != nil {
			return res
		}
		prior.results = append(prior.results, res)
		prior.last = log
	}
}

// priorAttempts are the attempts of a test that failed before the one
// under way, and what the last of them recorded.
type priorAttempts struct {
	results []flowResult
	last    *attemptLog
}

// timeStep notes how the n-th step went (it began at start) when the
// attempt is timed (--retries).
func (r *replay) timeStep(n int, what, target string, start time.Time) {
	ok := !r.res.failed || r.res.failedStep != n
	r.log.steps = append(r.log.steps, stepTime{n: n, what: what, target: target, start: start, end: time.Now(), ok: ok})
}

// attemptDone notes the earlier attempts on the result, and reads the
// session's timeline when a comparison needs it: this attempt failed and
// a retry follows, or it passed after one failed, and then it names where
// the two parted (diverge). It runs before the flow writers, which show
// it.
func (r *replay) attemptDone(prior priorAttempts) {
	if r.log == nil {
		return
	}
	r.res.earlier = prior.results
	res := &r.res
	r.log.failed, r.log.failedStep, r.log.step, r.log.headline = res.failed, res.failedStep, res.step, res.headline
	retried := res.failed && r.t.retry < r.retries
	compared := !res.failed && prior.last != nil
	if !retried && !compared {
		return
	}
	tl, err := r.deps.SessionTimeline(r.ctx, r.t.session)
	if err != nil {
		r.log.unread = err.Error()
	}
	r.log.tl = tl
	if compared {
		res.why = r.secrets.String(diverge(prior.last, r.log).String())
	}
}

// firstRetries says which sessions trace and record a video when --trace-mode
// or --video-mode is on-first-retry: the first retry's of each test, and
// every session in the other mode.
func firstRetries(o Options, s *Suite) func(id string) (trace, video bool) {
	first := map[string]bool{}
	for _, t := range s.tests {
		first[t.attempt(1).session] = true
	}
	return func(id string) (trace, video bool) {
		return o.TraceMode != TraceOnFirstRetry || first[id], o.VideoMode != VideoOnFirstRetry || first[id]
	}
}
