package runner

import (
	"fmt"
	"io"
)

// console prints each flow's PASS, FAIL, HEALED or FLAKY as it ends, then
// the summary line: what a person reads of a run (stdout).
type console struct {
	w       io.Writer
	heal    bool // --heal: the summary counts the healed flows
	retries bool // --retries: it counts the flaky ones, and says why each flaked
}

func (c *console) flowEnded(r flowResult) { printResult(c.w, r) }

func (c *console) runEnded(s summary) error {
	passed := s.passed()
	if !c.heal {
		passed += s.healed // a merge's healed flows, when this run does not heal
	}
	line := fmt.Sprintf("%d flow(s), %d passed,", len(s.results), passed)
	if c.retries || s.flaky > 0 {
		line += fmt.Sprintf(" %d flaky,", s.flaky)
	}
	if c.heal {
		line += fmt.Sprintf(" %d healed,", s.healed)
	}
	line += fmt.Sprintf(" %d failed,", s.failed)
	if s.skipped > 0 {
		line += fmt.Sprintf(" %d skipped,", s.skipped)
	}
	fmt.Fprintf(c.w, "%s in %.1fs\n", line, s.took.Seconds())
	for _, r := range s.results {
		if r.flaky() {
			fmt.Fprintf(c.w, "flaky: %s (%s): %s\n", r.name, r.file, r.why)
		}
	}
	return nil
}

// printResult writes a flow's PASS, FAIL, HEALED or FLAKY line (and where
// its artifacts and report are, and its earlier attempts').
func printResult(w io.Writer, r flowResult) {
	if r.skipped != "" {
		fmt.Fprintf(w, "SKIP  %s (%s): not run: %s\n", r.name, r.file, r.skipped)
		return
	}
	if r.healed() {
		fmt.Fprintf(w, "HEALED  %s (%s) %.1fs: %s\n", r.name, r.file, r.allTook().Seconds(), stepsHealed(len(r.heals)))
		printEarlier(w, r)
		printHeals(w, r)
		return
	}
	if r.flaky() {
		fmt.Fprintf(w, "FLAKY  %s (%s) %.1fs: passed on retry %d\n", r.name, r.file, r.allTook().Seconds(), len(r.earlier))
		printEarlier(w, r)
		fmt.Fprintf(w, "      flaky: %s\n", r.why)
		printFiles(w, r, "      ")
		return
	}
	if !r.failed {
		fmt.Fprintf(w, "PASS  %s (%s) %.1fs\n", r.name, r.file, r.took.Seconds())
		return
	}
	fmt.Fprintf(w, "FAIL  %s (%s) %.1fs: step %d, %s: %s\n", r.name, r.file, r.allTook().Seconds(), r.failedStep, r.step, r.headline)
	if len(r.earlier) > 0 {
		fmt.Fprintf(w, "      failed all %d attempts\n", r.attempts())
		printEarlier(w, r)
	}
	if r.diagnosis != "" {
		fmt.Fprintf(w, "      diagnosis: %s\n", r.diagnosis)
	}
	printHeals(w, r)
	printFiles(w, r, "      ")
}

// printEarlier writes the attempts that failed before the last one, each
// with its files.
func printEarlier(w io.Writer, r flowResult) {
	for i, e := range r.earlier {
		fmt.Fprintf(w, "      attempt %d: step %d, %s: %s\n", i+1, e.failedStep, e.step, e.headline)
		printFiles(w, e, "        ")
	}
}

// printFiles writes where a flow's (or an attempt's) files are.
func printFiles(w io.Writer, r flowResult, indent string) {
	if r.artifacts != "" {
		fmt.Fprintf(w, "%sartifacts: %s\n", indent, r.artifacts)
	}
	if r.report != "" {
		fmt.Fprintf(w, "%sreport: %s\n", indent, r.report)
	}
	if r.video != "" {
		fmt.Fprintf(w, "%svideo: %s\n", indent, r.video)
	}
	if r.trace != "" {
		fmt.Fprintf(w, "%strace: %s (npx playwright show-trace %s)\n", indent, r.trace, r.trace)
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
