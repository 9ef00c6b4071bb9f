package runner

import "time"

// flowResult is how one flow went: what runFlow found, and where the flow
// writers put what it left. Every text in it is masked with the run's
// secrets. The reporters read it; a new field is filled where it is
// known (runFlow, a flowWriter) and shown by the reporters that need it.
type flowResult struct {
	file, name string
	took       time.Duration
	failed     bool
	failedStep int    // 1-based; 0 for the dev server's start
	step       string // the failing step, in words
	errType    string // the failure's error type (timeout, expect_failed, ...)
	headline   string // "type: message (next step)"
	message    string // the whole failure answer, diagnostics included
	artifacts  string // the failure's artifacts directory, when --artifacts asked for them
	report     string // the HTML report's path, when --report asked for one
	video      string // the video's path, when --video kept one
	videoNote  string // what the video holds, in words
	trace      string // the trace's path, when --trace asked for one
	// actorFiles are the report and trace of each actor that acted
	// (actors.go), in the order they first acted.
	actorFiles []actorFiles
	// diagnosis says which element the failing step's target likely
	// meant, when it found nothing or more than one ("" otherwise).
	diagnosis string
	heals     []heal // the steps --heal replayed on another element
	// healedFile is the repaired flow --heal wrote, and healDiff its diff;
	// healNotes say which healed steps it does not hold, and why.
	healedFile, healDiff string
	healNotes            []string
	// earlier are the attempts that failed before this one (--retries),
	// first first; why says, of a flaky flow, where the last of them and
	// this one parted and what differed (flaky.go).
	earlier []flowResult
	why     string
	// steps are the flow's steps, where each is in its file (outcome.go).
	steps []stepInfo
	// skipped says why the flow did not run (--max-failures reached);
	// "" when it ran. The outcome (outcome.go) reads it.
	skipped string
}

// healed says the flow passed only because steps were healed.
func (r flowResult) healed() bool { return !r.failed && len(r.heals) > 0 }

// flaky says the flow failed, then passed on a retry (not by healing).
func (r flowResult) flaky() bool { return !r.failed && !r.healed() && len(r.earlier) > 0 }

// attempts is how many times the flow ran.
func (r flowResult) attempts() int { return len(r.earlier) + 1 }

// allTook is how long all its attempts took.
func (r flowResult) allTook() time.Duration {
	d := r.took
	for _, e := range r.earlier {
		d += e.took
	}
	return d
}

// summary is how the whole run went: every flow's result in the order
// given, and the counts.
type summary struct {
	results                        []flowResult
	took                           time.Duration
	failed, healed, flaky, skipped int
}

// summarize counts the results of a run that took took.
func summarize(results []flowResult, took time.Duration) summary {
	s := summary{results: results, took: took}
	for _, r := range results {
		if r.failed {
			s.failed++
		}
		if r.healed() {
			s.healed++
		}
		if r.flaky() {
			s.flaky++
		}
		if r.skipped != "" {
			s.skipped++
		}
	}
	return s
}

// passed is how many flows passed the first time without healing.
func (s summary) passed() int { return len(s.results) - s.failed - s.healed - s.flaky - s.skipped }

// exitCode is the exit code of a run that ended as s: ExitFailed when a
// flow failed (on every attempt), or passed only by healing without
// healOK (--heal-ok). A flaky flow passed.
func (s summary) exitCode(healOK bool) int {
	if s.failed > 0 || (s.healed > 0 && !healOK) {
		return ExitFailed
	}
	return ExitOK
}
