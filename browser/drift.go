package browser

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Element is an element of the page as a recorded step's fingerprint
// describes its target, with the engine's role and accessible name
// (js/57_drift.js): what a replay whose target no longer finds it compares
// the page's elements with.
type Element struct {
	Role        string `json:"role"`
	Name        string `json:"name"`
	TestID      string `json:"testId,omitempty"`
	Label       string `json:"label,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	// Href is a link's href as written in the page.
	Href string `json:"href,omitempty"`
	Tag  string `json:"tag"`
	// Type is the kind of field (an input's type, textarea, select,
	// contenteditable), "" for another element; Secret says it hides
	// what is typed (a password field, -webkit-text-security).
	Type   string `json:"type,omitempty"`
	Secret bool   `json:"secret,omitempty"`
	// Within names the landmark and form ancestors, outermost first, then
	// the heading the element comes under: `form "Sign up"`.
	Within []string `json:"within,omitempty"`
	// Locator finds the element and nothing else (Elements only; "" when
	// no form of the recorder's does).
	Locator string `json:"locator,omitempty"`
}

// Fingerprint describes the element of a target (a ref or a selector that
// finds one element in the main frame) for a recorded step, or returns
// nil when there is none to describe. One engine call.
func (p *Page) Fingerprint(ctx context.Context, target string) *Element {
	_, el := p.StepTargets(ctx, nil, target)
	return el
}

// Elements lists, in document order, the visible elements of the main
// frame that a step's target could mean (controls, headings, anything with
// a test id or a placeholder), each with its fingerprint and a locator,
// and counts what target (a selector) matches there now: -1 when that
// cannot be said (a ref, a selector into an iframe). One engine call,
// however many elements.
func (p *Page) Elements(ctx context.Context, target string) (els []Element, matched int, err error) {
	var parts []Part
	if sel, err := ParseSelector(target, p.m.opts.TestIDAttribute); err == nil && !IsRef(target) {
		parts = sel.Parts
	}
	var out struct {
		Elements []Element `json:"elements"`
		Matched  int       `json:"matched"`
	}
	if err := p.evalEngine(ctx, fnPageElements.call(p.testIDAttr(), parts), &out); err != nil {
		return nil, 0, err
	}
	if parts == nil {
		out.Matched = -1
	}
	return out.Elements, out.Matched, nil
}

// testIDAttr is the attribute testid= matches, data-testid unless the
// manager was given another, as ParseSelector reads it.
func (p *Page) testIDAttr() string {
	if a := p.m.opts.TestIDAttribute; a != "" {
		return a
	}
	return "data-testid"
}

// StepTargets is what the recorder keeps of a step's targets before it
// acts, in one engine call: the stable locator of each ref in refs
// (StableLocator; none for a ref it cannot say) and the fingerprint of
// target (Fingerprint; nil for none or ""). It costs the recorded action
// one round trip, not one per question.
func (p *Page) StepTargets(ctx context.Context, refs []string, target string) (map[string]string, *Element) {
	locators := map[string]string{}
	if p.Dialog() != nil {
		return locators, nil
	}
	var b strings.Builder
	b.WriteString("(() => { const o = { l: {} };")
	asked := false
	for i, ref := range refs {
		if !IsRef(ref) {
			continue
		}
		loc, err := p.locate(ref)
		if err != nil || loc.frame != p.frame {
			continue
		}
		asked = true
		fmt.Fprintf(&b, " try { o.l[%d] = %s; } catch (e) {}", i, fnStableLocator.call(jsExpr(loc.expr), p.m.opts.TestIDAttribute))
	}
	if target != "" {
		if loc, err := p.locate(target); err == nil && loc.frame == p.frame {
			asked = true
			fmt.Fprintf(&b, " try { o.f = %s; } catch (e) {}", fnFingerprint.call(jsExpr(loc.expr), p.testIDAttr()))
		}
	}
	b.WriteString(" return o; })()")
	if !asked {
		return locators, nil
	}
	cctx, cancel := p.callCtx(ctx, time.Second)
	defer cancel()
	var out struct {
		L map[int]string `json:"l"`
		F *Element       `json:"f"`
	}
	if err := p.evalIn(cctx, p.frame, b.String(), &out); err != nil {
		return locators, nil
	}
	for i, l := range out.L {
		if l != "" && i >= 0 && i < len(refs) {
			locators[refs[i]] = l
		}
	}
	return locators, out.F
}
