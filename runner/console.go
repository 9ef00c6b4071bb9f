package runner

import (
	"fmt"
	"io"
)

// printResult writes a flow's PASS or FAIL line (and where its artifacts
// and report are).
func printResult(w io.Writer, r flowResult) {
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
