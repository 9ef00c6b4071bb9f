package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// When a step's target finds nothing, or more than one element, on a page
// that changed under the flow, the runner diagnoses it (mcptools'
// DiagnoseTarget: the likely same element, its ready-to-paste locator and
// the evidence) and says so in the failure. With --heal it replays the
// step on that element when the diagnosis allows it (package drift:
// a score over the bar, no close second, the same role, a field of the
// same kind, an expect's name unchanged), marks the step HEALED, and
// writes the repaired flow: the file's own bytes with the healed steps'
// targets and fingerprints changed (flow.Retarget), never masked, and
// never with a locator that holds a secret's value.

// HealMode is --heal: off, beside (FLOW.healed.yaml) or write (in place).
type HealMode string

// The values of HealMode.
const (
	HealOff    HealMode = ""       // no healing: a drifted step fails, diagnosed
	HealBeside HealMode = "beside" // the repaired flow goes to FLOW.healed.yaml
	HealWrite  HealMode = "write"  // the repaired flow goes over FLOW.yaml
)

// String is the mode as --heal takes it.
func (h *HealMode) String() string { return string(*h) }

// Set reads --heal (beside), --heal=write, --heal=false.
func (h *HealMode) Set(v string) error {
	switch v {
	case "true", "beside":
		*h = HealBeside
	case "write":
		*h = HealWrite
	case "false", "":
		*h = HealOff
	default:
		return fmt.Errorf("--heal takes no value, or =write (got %q)", v)
	}
	return nil
}

// IsBoolFlag lets --heal stand alone.
func (h *HealMode) IsBoolFlag() bool { return true }

// heal is one step the run replayed on another element.
type heal struct {
	step     int // 1-based
	action   string
	from, to string // the target as the flow had it, and as it is now
	why      string // the evidence, in words
	print    *flow.Fingerprint
	// holdsSecret says the new locator or fingerprint holds a value of
	// the session's secrets: the step is not written.
	holdsSecret bool
}

// drifted says whether a failed step's target is worth a diagnosis: it
// names an element (a step's target) and the failure is about finding it,
// or an expect that did not hold (whose element may be gone).
func drifted(errType string) bool {
	switch errType {
	case string(mcptools.ErrElementNotFound), "not_unique", "expect_failed", "timeout", "not_actionable":
		return true
	}
	return false
}

// diagnose looks for what a failed step's target meant. It returns nil
// when there is nothing to say (the target matches one element: the step
// failed for another reason).
func (r *replay) diagnose(st flow.Step, target string) *mcptools.TargetDiagnosis {
	d, err := r.deps.DiagnoseTarget(r.ctx, r.session(), target, st)
	if err != nil || d.Text == "" {
		return nil
	}
	return d
}

// tryHeal replays a step with its target replaced by the diagnosis's
// element. It returns the answer, and the heal when the step passed.
func (r *replay) tryHeal(i int, st flow.Step, tool string, args map[string]any, d *mcptools.TargetDiagnosis) (mcptools.Answer, *heal, error) {
	best := d.Verdict.Best
	healed := make(map[string]any, len(args))
	for k, v := range args {
		healed[k] = v
	}
	healed["target"] = best.Locator
	ans, err := r.call(tool, healed)
	if err != nil || ans.Err != nil {
		return ans, nil, err
	}
	from, _ := st.Args["target"].(string)
	fp := best.Fingerprint
	return ans, &heal{step: i + 1, action: st.Action, from: from, to: best.Locator,
		why: strings.Join(best.Evidence, ", "), print: &fp, holdsSecret: d.BestHoldsSecret}, nil
}

// healWriter writes the repaired flow of a flow that had steps healed
// (run --heal): beside it, or over it with --heal=write.
type healWriter struct {
	mode    HealMode
	secrets *redact.Set
}

// flowDone writes the repaired flow and notes where, its diff and what it
// does not hold. The file is written as it is; what is shown of it is
// masked.
func (hw *healWriter) flowDone(_ context.Context, t test, res *flowResult) {
	if len(res.heals) == 0 {
		return
	}
	path, diff, notes, err := writeHealed(t.file, res.heals, hw.mode, hw.secrets)
	for _, n := range notes {
		res.healNotes = append(res.healNotes, hw.secrets.String(n))
	}
	if err != nil {
		res.healDiff = hw.secrets.String(fmt.Sprintf("      (the repaired flow could not be written: %v)\n", err))
	} else {
		res.healedFile, res.healDiff = path, hw.secrets.String(diff)
	}
}

// healedPath is where the repaired flow of file goes: beside it as
// FLOW.healed.yaml, or over it with --heal=write.
func healedPath(file string, mode HealMode) string {
	if mode == HealWrite {
		return file
	}
	ext := filepath.Ext(file)
	return strings.TrimSuffix(file, ext) + ".healed" + ext
}

// writeHealed writes the repaired flow: the file as it is, every byte
// kept but the healed steps' targets and fingerprints (flow.Retarget). It
// returns its path ("" when no step could be written), a diff of it
// against the file, and what was not written and why: a step whose new
// locator or fingerprint holds a secret's value (of secrets, or of its
// session's: heal.holdsSecret), a step the file does not let be edited
// alone. Nothing written is masked: the file holds ${VARS}, never values,
// and a mask would break what it hid.
func writeHealed(file string, heals []heal, mode HealMode, secrets *redact.Set) (path, diff string, notes []string, err error) {
	old, err := os.ReadFile(file) //nolint:gosec // the flow file the user named to run
	if err != nil {
		return "", "", nil, err
	}
	var edits []flow.TargetEdit
	for _, h := range heals {
		if h.holdsSecret || mcptools.HoldsSecret(secrets, h.to, h.print) {
			notes = append(notes, fmt.Sprintf("step %d was not written: its new locator or fingerprint holds a secret's value; set its target by hand", h.step))
			continue
		}
		// The locator as flow text: a $ in it is not a variable.
		edits = append(edits, flow.TargetEdit{Step: h.step - 1, Target: flow.Escape(h.to), Print: h.print})
	}
	b, errs := flow.Retarget(old, edits)
	for _, e := range errs {
		note := e.Error()
		var ee *flow.EditError
		if errors.As(e, &ee) {
			for _, h := range heals {
				if h.step == ee.Step+1 {
					note += "; this run's element: " + h.to
				}
			}
		}
		notes = append(notes, note+"; set its target by hand")
	}
	if len(errs) == len(edits) {
		return "", "", notes, nil
	}
	path = healedPath(file, mode)
	if err := mcptools.WriteUserFile(filepath.Dir(path), filepath.Base(path), b); err != nil {
		return "", "", notes, err
	}
	return path, lineDiff(file, path, string(old), string(b)), notes, nil
}

// stepsHealed is "1 step healed", "4 steps healed".
func stepsHealed(n int) string {
	if n == 1 {
		return "1 step healed"
	}
	return fmt.Sprintf("%d steps healed", n)
}

// lineDiff is a unified diff of two short texts (flows), every changed
// line with one line of context; "" when they are the same.
func lineDiff(fromName, toName, a, b string) string {
	x, y := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	// The longest common subsequence, by lengths from the end.
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var lines []line
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			lines = append(lines, line{' ', x[i]})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', x[i]})
			i++
		default:
			lines = append(lines, line{'+', y[j]})
			j++
		}
	}
	var out strings.Builder
	changed, last := false, -1
	for k, l := range lines {
		near := l.op != ' ' || (k > 0 && lines[k-1].op != ' ') || (k+1 < len(lines) && lines[k+1].op != ' ')
		if !near || l.text == "" {
			continue
		}
		if last >= 0 && k > last+1 {
			out.WriteString("      ...\n")
		}
		changed, last = changed || l.op != ' ', k
		t := l.text
		if !strings.HasSuffix(t, "\n") {
			t += "\n"
		}
		out.WriteString("      " + string(l.op) + " " + t)
	}
	if !changed {
		return ""
	}
	return fmt.Sprintf("      --- %s\n      +++ %s\n%s", fromName, toName, out.String())
}
