package mcptools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/measure"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/mark3labs/mcp-go/mcp"
)

// The audit group (--caps audit): the page checked against an accessibility
// rule set of our own, and its Core Web Vitals measured. docs/audit.md
// documents both; a test holds its table of rules to a11yRules.

// a11yRule is a rule of the accessibility audit; the engine finds the
// elements that break it (browser/js/60_audit.js).
type a11yRule struct {
	ID        string
	Criterion string // the WCAG 2.2 success criterion
	Level     string // A or AA
	// Advisory rules are listed but never fail an audit (failOn): a lower
	// severity, or a practice rather than a failure of the criterion.
	Advisory bool
	Fix      string
}

// a11yRules are the rules, in the order answers list them.
var a11yRules = []a11yRule{
	{"control-name", "4.1.2 Name, Role, Value", "A", false, "give it a name: visible text, aria-label, or aria-labelledby (an icon-only button needs aria-label)"},
	{"img-alt", "1.1.1 Non-text Content", "A", false, `add alt text that says what the image shows, or alt="" if it is decorative`},
	{"field-label", "3.3.2 Labels or Instructions", "A", false, "add a <label for> (or aria-label/aria-labelledby): a placeholder is not a label"},
	{"duplicate-id", "4.1.2 Name, Role, Value", "A", false, "make the id unique, so the label or description points at one element"},
	{"heading-order", "1.3.1 Info and Relationships", "A", false, "use the next level down (h1, then h2) or restyle the heading instead of skipping a level"},
	{"focusable-hidden", "4.1.2 Name, Role, Value", "A", false, `remove aria-hidden="true" from around it, or take it out of the tab order (tabindex="-1", inert)`},
	{"landmark-main", "2.4.1 Bypass Blocks", "A", false, "wrap the page's main content in <main>"},
	{"contrast", "1.4.3 Contrast (Minimum)", "AA", false, "darken the text or lighten its background to 4.5:1 (3:1 for large text)"},
	{"page-h1", "1.3.1 Info and Relationships", "A", true, "give the page one <h1> that says what it is"},
	{"region", "1.3.1 Info and Relationships", "A", true, "put the content in a landmark (header, nav, main, aside, footer)"},
}

// a11yRuleOf is the rule of an id.
func a11yRuleOf(id string) (a11yRule, bool) {
	i := slices.IndexFunc(a11yRules, func(r a11yRule) bool { return r.ID == id })
	if i < 0 {
		return a11yRule{}, false
	}
	return a11yRules[i], true
}

// atLevel says whether a finding of rule r fails an audit that fails on
// level (A: only level-A findings; AA: A and AA).
func (r a11yRule) atLevel(level string) bool {
	return !r.Advisory && (level == "AA" || r.Level == level)
}

// maxPerRule caps the elements an answer lists for each rule.
const maxPerRule = 8

// AuditA11yParams are the arguments of browser_audit_accessibility.
type AuditA11yParams struct {
	Target string `json:"target,omitempty" jsonschema:"Only this element (ref or selector)"`
	FailOn string `json:"failOn,omitempty" jsonschema:"Fail (expect_failed) on findings of this level: A, or AA (A and AA),enum=A,enum=AA"`
	SessionArg
}

func auditA11yTool(d *Deps) Tool {
	return define(d, "browser_audit_accessibility", ToolsetReading,
		"Check the page or an element for accessibility problems (names, alt, labels, ids, headings, contrast, aria-hidden, landmarks): WCAG rule, ref, fix.",
		annotations{title: "Accessibility audit", readOnly: true, idempotent: true},
		func(ctx context.Context, s *Session, a AuditA11yParams) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			rep, err := p.AuditA11y(ctx, a.Target, maxPerRule)
			if err != nil {
				return nil, err
			}
			refs := map[string]browser.RefInfo{}
			for _, f := range rep.Findings {
				refs[f.Ref] = browser.RefInfo{Role: f.Role, Name: f.Name}
			}
			s.rememberRefs(refs, false)
			what := "the page"
			if a.Target != "" {
				what = a.Target
			}
			var r response
			failing := writeA11yReport(&r, what, rep, a.FailOn)
			r.set("findings", rep.Findings)
			r.set("totals", rep.Totals)
			if a.FailOn != "" && failing > 0 {
				return nil, &ToolError{Type: ErrExpectFailed,
					Message:    fmt.Sprintf("%d accessibility finding(s) at level %s in %s:\n%s", failing, a.FailOn, what, strings.TrimSpace(r.result.String())),
					Suggestion: "fix each element as its rule's Fix says, then run the audit again"}
			}
			return r.build(), nil
		})
}

// writeA11yReport writes the findings grouped by rule, each rule with its
// criterion, level and fix, at most maxPerRule elements listed. It returns
// how many findings fail an audit at level failOn.
func writeA11yReport(r *response, what string, rep *measure.A11yReport, failOn string) int {
	total, failing, advisory := 0, 0, 0
	for _, rule := range a11yRules {
		n := rep.Totals[rule.ID]
		total += n
		if rule.Advisory {
			advisory += n
		}
		if failOn != "" && rule.atLevel(failOn) {
			failing += n
		}
	}
	if total == 0 {
		r.resultf("Accessibility audit of %s: no findings (%d rules).", what, len(a11yRules))
	} else {
		adv := ""
		if advisory > 0 {
			adv = fmt.Sprintf(", %d of them advisory", advisory)
		}
		r.resultf("Accessibility audit of %s: %d finding(s)%s.", what, total, adv)
	}
	for _, rule := range a11yRules {
		n := rep.Totals[rule.ID]
		if n == 0 {
			continue
		}
		tag := rule.Level
		if rule.Advisory {
			tag += ", advisory"
		}
		r.resultf("%s: WCAG %s (%s), %d. Fix: %s.", rule.ID, rule.Criterion, tag, n, rule.Fix)
		shown := 0
		for _, f := range rep.Findings {
			if f.Rule == rule.ID {
				shown++
				r.resultf("- %s: %s", f.Ref, text.Clip(f.What, 160))
			}
		}
		if n > shown {
			r.resultf("- (and %d more)", n-shown)
		}
	}
	if rep.UnknownContrast > 0 {
		r.resultf("Contrast not checked for %d text element(s) over a background image or gradient.", rep.UnknownContrast)
	}
	if failOn != "" && failing == 0 {
		r.resultf("PASS: no findings at level %s.", failOn)
	}
	return failing
}
