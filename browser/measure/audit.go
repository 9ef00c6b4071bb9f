package measure

import "context"

// A11yFinding is one element that breaks a rule of the accessibility
// audit (docs/audit.md; the engine's browser/js/60_audit.js).
type A11yFinding struct {
	Rule string `json:"rule"`
	// Ref names the element as snapshot refs do, so an agent can act on it.
	Ref  string `json:"ref"`
	Role string `json:"role"`
	Name string `json:"name,omitempty"`
	// What says what is wrong, in a few words (with the numbers of a
	// contrast).
	What string `json:"what"`
}

// A11yReport is what the audit found: at most the limit asked for of each
// rule's elements, and each rule's count.
type A11yReport struct {
	Findings []A11yFinding  `json:"findings"`
	Totals   map[string]int `json:"totals"`
	// UnknownContrast counts the text elements over a background image or
	// gradient, whose contrast cannot be told from styles.
	UnknownContrast int `json:"unknownContrast"`
}

// AuditA11y checks the page, or the element target names, against the
// audit's rules, listing at most limit elements of each rule. The page-wide
// rules (a main landmark, a level-1 heading) apply only to the whole page.
// It reads the main frame's document (its open shadow roots included).
func AuditA11y(ctx context.Context, t Tab, target string, limit int) (*A11yReport, error) {
	cctx, cancel := t.CallContext(ctx, 0)
	defer cancel()
	var res A11yReport
	if err := t.Audit(cctx, target, limit, &res); err != nil {
		return nil, err
	}
	if res.Findings == nil {
		res.Findings = []A11yFinding{}
	}
	return &res, nil
}
