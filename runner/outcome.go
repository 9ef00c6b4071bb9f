package runner

import (
	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// outcome is how a flow ended, in the words every reporter, the JSON
// report and the blob use (Playwright's where it has one).
type outcome string

// The outcomes of a flow.
const (
	outcomePassed  outcome = "passed"  // every step passed, first time
	outcomeFailed  outcome = "failed"  // a step failed (on its last attempt)
	outcomeFlaky   outcome = "flaky"   // failed, then passed on a retry
	outcomeHealed  outcome = "healed"  // passed only because --heal replayed steps on another element
	outcomeSkipped outcome = "skipped" // not run
)

// outcomes are the outcomes a blob may hold, in the order the JSON
// report's stats count them.
var outcomes = []outcome{outcomePassed, outcomeFailed, outcomeFlaky, outcomeHealed, outcomeSkipped}

// outcome is how the flow ended: failed and skipped first, then flaky (a
// failed attempt before the one that passed), then healed.
func (r flowResult) outcome() outcome {
	switch {
	case r.failed:
		return outcomeFailed
	case r.skipped != "":
		return outcomeSkipped
	case r.flaky():
		return outcomeFlaky
	case r.healed():
		return outcomeHealed
	}
	return outcomePassed
}

// tries is how many times the flow ran: 1 unless retried, 0 when skipped.
func (r flowResult) tries() int {
	if r.skipped != "" {
		return 0
	}
	return r.attempts()
}

// stepInfo is one step of a flow as reports show it: what it does and
// where it is in the flow file.
type stepInfo struct {
	action string
	title  string // describeStep's words, masked
	pos    flow.Pos
}

// stepInfos are the flow's steps as reports show them, their words masked
// with secrets (a flow may type a password literally).
func stepInfos(f *flow.Flow, secrets *redact.Set) []stepInfo {
	out := make([]stepInfo, len(f.Steps))
	for i, st := range f.Steps {
		out[i] = stepInfo{action: st.Action, title: secrets.String(describeStep(st)), pos: st.Pos}
	}
	return out
}

// stepOutcome is how the n-th step (from 1) of a flow that ended as r
// went: passed, healed, failed, or skipped when the flow stopped before
// it.
func (r flowResult) stepOutcome(n int) outcome {
	switch {
	case r.skipped != "", r.failed && n > r.failedStep:
		return outcomeSkipped
	case r.failed && n == r.failedStep:
		return outcomeFailed
	}
	for _, h := range r.heals {
		if h.step == n {
			return outcomeHealed
		}
	}
	return outcomePassed
}

// failedAt is where the failing step is in the flow file (zero when the
// flow failed before its first step, or the step has no place).
func (r flowResult) failedAt() flow.Pos {
	if !r.failed || r.failedStep < 1 || r.failedStep > len(r.steps) {
		return flow.Pos{}
	}
	return r.steps[r.failedStep-1].pos
}
