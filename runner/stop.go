package runner

import (
	"fmt"
	"sync/atomic"
)

// --max-failures N (and -x, N=1), as Playwright's: once N flows failed,
// no flow starts; those that run at that moment (--parallel) end as they
// do, and every one not started is reported as not run (SKIP, JUnit's
// skipped), which fails the run as its failures do.

// stopper counts the failures of a run and says when to start no more.
type stopper struct {
	max    int // 0: never stop
	failed atomic.Int32
}

func newStopper(maxFailures int) *stopper { return &stopper{max: maxFailures} }

// run runs a test (replay) unless the run has stopped, and counts its
// failure.
func (s *stopper) run(t test, replay func() flowResult) flowResult {
	if s.max > 0 && int(s.failed.Load()) >= s.max {
		return flowResult{file: t.file, name: t.name,
			skipped: fmt.Sprintf("the run stopped after %s (--max-failures %d)", count(s.max, "failure"), s.max)}
	}
	r := replay()
	if r.failed {
		s.failed.Add(1)
	}
	return r
}
