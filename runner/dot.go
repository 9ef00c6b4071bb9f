package runner

import (
	"fmt"
	"io"
)

// dots is run --reporter dot: a character a flow as it ends (· passed,
// F failed, ± flaky, H healed, ° skipped; 80 to a line), then each flow
// that did not simply pass in full (console's lines), then the summary.
type dots struct {
	w       io.Writer
	n       int          // characters written
	notable []flowResult // the flows printed in full at the end
	summary *console
}

// dotPerLine is how many characters the dot reporter writes to a line.
const dotPerLine = 80

// dotOf is the character of an outcome.
var dotOf = map[outcome]string{outcomePassed: "·", outcomeFailed: "F", outcomeFlaky: "±", outcomeHealed: "H", outcomeSkipped: "°"}

func (d *dots) flowEnded(r flowResult) {
	if d.n > 0 && d.n%dotPerLine == 0 {
		fmt.Fprintln(d.w)
	}
	d.n++
	fmt.Fprint(d.w, dotOf[r.outcome()])
	if o := r.outcome(); o != outcomePassed && o != outcomeSkipped {
		d.notable = append(d.notable, r)
	}
}

func (d *dots) runEnded(s summary) error {
	if d.n > 0 {
		fmt.Fprintln(d.w)
	}
	for _, r := range d.notable {
		printResult(d.w, r)
	}
	return d.summary.runEnded(s)
}
