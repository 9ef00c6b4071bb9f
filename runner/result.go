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
	// diagnosis says which element the failing step's target likely
	// meant, when it found nothing or more than one ("" otherwise).
	diagnosis string
	heals     []heal // the steps --heal replayed on another element
	// notRun says why the flow was not run (--max-failures reached); ""
	// when it ran.
	notRun string
	// healedFile is the repaired flow --heal wrote, and healDiff its diff;
	// healNotes say which healed steps it does not hold, and why.
	healedFile, healDiff string
	healNotes            []string
}

// healed says the flow passed only because steps were healed.
func (r flowResult) healed() bool { return !r.failed && len(r.heals) > 0 }

// summary is how the whole run went: every flow's result in the order
// given, and the counts.
type summary struct {
	results        []flowResult
	took           time.Duration
	failed, healed int
	notRun         int // flows not run (--max-failures)
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
		if r.notRun != "" {
			s.notRun++
		}
	}
	return s
}

// passed is how many flows passed without healing.
func (s summary) passed() int { return len(s.results) - s.failed - s.healed - s.notRun }
