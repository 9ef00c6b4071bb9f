package mcptools

import (
	"context"

	"github.com/e2e-mcp/e2e-mcp/browser/selector"
	"github.com/e2e-mcp/e2e-mcp/drift"
	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/redact"
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
	// BestHoldsSecret says the best candidate's locator or fingerprint
	// holds a value of the session's secrets: a repaired flow must not
	// be written with it. The candidates are as the page has them,
	// unmasked (Text is masked).
	BestHoldsSecret bool
}

// DiagnoseTarget diagnoses the target (as expanded) of a flow step in
// session id's current tab (the flow runner's sessions).
func (d *Deps) DiagnoseTarget(ctx context.Context, id, target string, st flow.Step) (*TargetDiagnosis, error) {
	s, _, err := d.Sessions.acquire(ctx, id, "flow_diagnose")
	if err != nil {
		return nil, err
	}
	defer s.release()
	return d.diagnoseTarget(ctx, s, target, st)
}

// diagnoseTarget is DiagnoseTarget on a held session: one engine call.
func (d *Deps) diagnoseTarget(ctx context.Context, s *Session, target string, st flow.Step) (*TargetDiagnosis, error) {
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
	// The candidates as the page has them: a heal replays and writes the
	// locator, which a mask would break; what is said is masked.
	cands := make([]drift.Candidate, 0, len(els))
	for i := range els {
		cands = append(cands, drift.Candidate{Fingerprint: *printOf(&els[i]), Locator: els[i].Locator})
	}
	diag.Want = WantOf(target, st, d.testIDAttribute())
	diag.Ranked = drift.Rank(diag.Want, cands)
	diag.Verdict = drift.Decide(diag.Want, diag.Ranked, st.Action == "expect")
	diag.Text = s.private.String(drift.Diagnosis(diag.Want, matched, diag.Ranked, diag.Verdict))
	if b := diag.Verdict.Best; b != nil {
		diag.BestHoldsSecret = HoldsSecret(s.secrets, b.Locator, &b.Fingerprint)
	}
	return diag, nil
}

// HoldsSecret says whether a locator or a fingerprint's texts hold a value
// of set (whatever set would mask): what a repaired flow must never be
// written with.
func HoldsSecret(set *redact.Set, locator string, fp *flow.Fingerprint) bool {
	texts := []string{locator}
	if fp != nil {
		texts = append(texts, fp.Name, fp.TestID, fp.Label, fp.Placeholder, fp.Href)
		texts = append(texts, fp.Within...)
	}
	for _, t := range texts {
		if t != "" && set.String(t) != t {
			return true
		}
	}
	return false
}

// sentArgs are the arguments whose text a step types or sets into its
// target.
var sentArgs = []string{"text", "value", "values", "data"}

// stepSends says what a flow step types or sets into its target (its
// texts as the flow writes them): a secret's variable, another variable,
// or only literal texts; and the variable. An expect sends nothing.
func stepSends(st flow.Step) (drift.Sends, string) {
	kind, name := drift.SendsLiteral, ""
	if st.Action == "expect" {
		return kind, name
	}
	for _, k := range sentArgs {
		_, _ = flow.MapTexts(st.Args[k], func(t string) (any, error) {
			parts, _ := flow.Parts(t)
			for _, p := range parts {
				switch {
				case p.Var == "" || kind == drift.SendsSecret:
				case redact.IsSecretEnv(p.Var):
					kind, name = drift.SendsSecret, p.Var
				case kind == drift.SendsLiteral:
					kind, name = drift.SendsVariable, p.Var
				}
			}
			return t, nil
		})
	}
	return kind, name
}

func (d *Deps) testIDAttribute() string {
	if d.Browser == nil {
		return ""
	}
	return d.Browser.TestIDAttribute()
}

// WantOf is what a step's target asks for: the fields of its last part
// that names an element (role and name, test id, label, placeholder,
// text), the step's fingerprint, and what it types into it.
func WantOf(target string, st flow.Step, testIDAttr string) drift.Want {
	w := drift.Want{Locator: target, Print: st.Fingerprint}
	w.Sends, w.Var = stepSends(st)
	sel, err := selector.Parse(target, testIDAttr)
	if err != nil || selector.IsRef(target) {
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
