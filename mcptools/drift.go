package mcptools

import (
	"context"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/drift"
	"github.com/e2e-mcp/e2e-mcp/flow"
)

// A flow step whose target finds nothing, or more than one element, on a
// page that changed under the flow is diagnosed: the page's elements are
// scored against the step's locator and fingerprint (package drift), and
// the answer names the ready-to-paste locator of the likely same element.
// `e2e-mcp run` (and --heal) and flow_check both diagnose here.

// TargetDiagnosis is what a step's target matches on the page now, and,
// when that is not one element, which element it likely meant.
type TargetDiagnosis struct {
	// Matched counts the elements the target matches now (-1: unknown,
	// a target into an iframe).
	Matched int
	Want    drift.Want
	Ranked  []drift.Match
	Verdict drift.Verdict
	// Text says it in a paragraph, masked; "" when the target matches one
	// element (the step failed for another reason) or cannot be counted.
	Text string
}

// DiagnoseTarget diagnoses the target of a flow step in session id's
// current tab (the flow runner's sessions). checks says the step is an
// expect, whose names are texts it checks.
func (d *Deps) DiagnoseTarget(ctx context.Context, id, target string, fp *flow.Fingerprint, checks bool) (*TargetDiagnosis, error) {
	s, _, err := d.Sessions.acquire(ctx, id, "flow_diagnose")
	if err != nil {
		return nil, err
	}
	defer s.release()
	return d.diagnoseTarget(ctx, s, target, fp, checks)
}

// diagnoseTarget is DiagnoseTarget on a held session: one engine call.
func (d *Deps) diagnoseTarget(ctx context.Context, s *Session, target string, fp *flow.Fingerprint, checks bool) (*TargetDiagnosis, error) {
	diag := &TargetDiagnosis{Matched: -1}
	if s.tabs == nil || s.tabs.Gone() {
		return diag, nil
	}
	p := s.tabs.Current()
	if p == nil || p.Gone() {
		return diag, nil
	}
	els, matched, err := p.Elements(ctx, target)
	if err != nil {
		return nil, err
	}
	diag.Matched = matched
	if matched == 1 || matched < 0 {
		return diag, nil
	}
	cands := make([]drift.Candidate, 0, len(els))
	for i := range els {
		cands = append(cands, drift.Candidate{Fingerprint: *s.fingerprintOf(&els[i]), Locator: s.private.String(els[i].Locator)})
	}
	diag.Want = WantOf(target, fp, d.testIDAttribute())
	diag.Ranked = drift.Rank(diag.Want, cands)
	diag.Verdict = drift.Decide(diag.Want, diag.Ranked, checks)
	diag.Text = s.private.String(drift.Diagnosis(diag.Want, matched, diag.Ranked, diag.Verdict))
	return diag, nil
}

func (d *Deps) testIDAttribute() string {
	if d.Browser == nil {
		return ""
	}
	return d.Browser.TestIDAttribute()
}

// WantOf is what a step's target asks for: the fields of its last part
// that names an element (role and name, test id, label, placeholder,
// text), and the step's fingerprint.
func WantOf(target string, fp *flow.Fingerprint, testIDAttr string) drift.Want {
	w := drift.Want{Locator: target, Print: fp}
	sel, err := browser.ParseSelector(target, testIDAttr)
	if err != nil || browser.IsRef(target) {
		return w
	}
	if testIDAttr == "" {
		testIDAttr = "data-testid"
	}
	for i := len(sel.Parts) - 1; i >= 0; i-- {
		p := sel.Parts[i]
		text := ""
		if p.Text != nil && p.Text.Mode != "regex" {
			text = p.Text.Value
		}
		switch p.Engine {
		case "nth", "visible":
			continue
		case "role":
			w.Role = p.Role
			for _, a := range p.Attrs {
				if a.Name == "name" && a.Text != nil && a.Text.Mode != "regex" {
					w.Name = a.Text.Value
				}
			}
		case "attr":
			if p.Attr == testIDAttr {
				w.TestID = p.Value
			}
		case "label":
			w.Label = text
		case "placeholder":
			w.Placeholder = text
		case "text":
			w.Text = text
		}
		return w
	}
	return w
}
