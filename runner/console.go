package runner

import (
	"fmt"
	"io"
)

// console prints each flow's PASS, FAIL or HEALED as it ends, then the
// summary line: what a person reads of a run (stdout).
type console struct {
	w    io.Writer
	heal bool // --heal: the summary counts the healed flows
}

func (c *console) flowEnded(r flowResult) { printResult(c.w, r) }

func (c *console) runEnded(s summary) error {
	notRun := ""
	if s.notRun > 0 {
		notRun = fmt.Sprintf(", %d not run", s.notRun)
	}
	if c.heal {
		fmt.Fprintf(c.w, "%d flow(s), %d passed, %d healed, %d failed%s, in %.1fs\n", len(s.results), s.passed(), s.healed, s.failed, notRun, s.took.Seconds())
	} else {
		fmt.Fprintf(c.w, "%d flow(s), %d passed, %d failed%s, in %.1fs\n", len(s.results), len(s.results)-s.failed-s.notRun, s.failed, notRun, s.took.Seconds())
	}
	return nil
}

// printResult writes a flow's PASS or FAIL line (and where its artifacts
// and report are).
func printResult(w io.Writer, r flowResult) {
	if r.notRun != "" {
		fmt.Fprintf(w, "SKIP  %s (%s): not run: %s\n", r.name, r.file, r.notRun)
		return
	}
	if r.healed() {
		fmt.Fprintf(w, "HEALED  %s (%s) %.1fs: %s\n", r.name, r.file, r.took.Seconds(), stepsHealed(len(r.heals)))
		printHeals(w, r)
		return
	}
	if !r.failed {
		fmt.Fprintf(w, "PASS  %s (%s) %.1fs\n", r.name, r.file, r.took.Seconds())
		return
	}
	fmt.Fprintf(w, "FAIL  %s (%s) %.1fs: step %d, %s: %s\n", r.name, r.file, r.took.Seconds(), r.failedStep, r.step, r.headline)
	if r.diagnosis != "" {
		fmt.Fprintf(w, "      diagnosis: %s\n", r.diagnosis)
	}
	printHeals(w, r)
	if r.artifacts != "" {
		fmt.Fprintf(w, "      artifacts: %s\n", r.artifacts)
	}
	if r.report != "" {
		fmt.Fprintf(w, "      report: %s\n", r.report)
	}
	if r.video != "" {
		fmt.Fprintf(w, "      video: %s\n", r.video)
	}
	if r.trace != "" {
		fmt.Fprintf(w, "      trace: %s (npx playwright show-trace %s)\n", r.trace, r.trace)
	}
}

// printHeals writes the healed steps of a flow, where the repaired flow
// is, and its diff.
func printHeals(w io.Writer, r flowResult) {
	for _, h := range r.heals {
		fmt.Fprintf(w, "      HEALED step %d, %s: %s -> %s (%s)\n", h.step, h.action, h.from, h.to, h.why)
	}
	if r.healedFile != "" {
		fmt.Fprintf(w, "      repaired flow: %s\n", r.healedFile)
	}
	for _, n := range r.healNotes {
		fmt.Fprintf(w, "      (the repaired flow: %s)\n", n)
	}
	if r.healDiff != "" {
		fmt.Fprint(w, r.healDiff)
	}
}
