package runner

import (
	"fmt"
	"io"
)

// lineReporter is run --reporter line: one line of progress ([3/10] and
// the flow that just ended), rewritten in place on a terminal, with each
// flow that did not simply pass (nor was skipped) printed in full
// (console's lines) as it ends, then the summary. Off a terminal (a CI log) there is no progress
// line: only those flows and the summary.
type lineReporter struct {
	w        io.Writer
	terminal bool
	total    int // flows in the run
	done     int
	summary  *console
}

// clearLine takes a terminal's cursor to the start of its line and
// clears it.
const clearLine = "\r\x1b[2K"

func (l *lineReporter) flowEnded(r flowResult) {
	l.done++
	if l.terminal {
		fmt.Fprint(l.w, clearLine)
	}
	if o := r.outcome(); o != outcomePassed && o != outcomeSkipped {
		printResult(l.w, r)
	}
	if l.terminal {
		fmt.Fprintf(l.w, "[%d/%d] %s %s (%s)", l.done, l.total, r.outcome(), r.name, r.file)
	}
}

func (l *lineReporter) runEnded(s summary) error {
	if l.terminal && l.done > 0 {
		fmt.Fprint(l.w, clearLine)
	}
	return l.summary.runEnded(s)
}
