package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/e2e-mcp/e2e-mcp/browser/selector"
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
	return p.StepTargets(ctx, StepQuery{Target: target}).Element
}

// Elements lists, in document order, the visible elements of the main
// frame that a step's target could mean (controls, headings, anything with
// a test id or a placeholder), each with its fingerprint and a locator,
// and counts what target (a selector) matches there now: -1 when that
// cannot be said (a ref, a selector into an iframe). One engine call,
// however many elements.
func (p *Page) Elements(ctx context.Context, target string) (els []Element, matched int, err error) {
	var parts []selector.Part
	if sel, err := ParseSelector(target, p.m.opts.TestIDAttribute); err == nil && !selector.IsRef(target) {
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

// StepQuery is what the recorder asks of the page before an action, in
// one engine call per frame it involves (StepTargets).
type StepQuery struct {
	// Refs are the refs whose stable locators to find.
	Refs []string
	// Target is the target whose fingerprint to read ("": none).
	Target string
	// Shown are selectors (of the main frame) to check: does each find
	// one element, and is it visible?
	Shown []string
}

// StepAnswer is what StepTargets found.
type StepAnswer struct {
	// Locators are the stable locators of the refs it could say: one of
	// the main frame finds its element alone (stableLocator); one of an
	// iframe is its frame's locator, then the element's in the frame's
	// document (`iframe[title="Pay"] >> role=button[name="Pay"]`).
	Locators map[string]string
	// Element is the target's fingerprint (nil for none).
	Element *Element
	// Shown says, for each of StepQuery.Shown, whether it finds one
	// visible element.
	Shown []bool
}

// StepTargets is what the recorder keeps of a step's targets before it
// acts: each ref's stable locator, the target's fingerprint, and which of
// the texts the agent read are still shown. The main frame takes one
// engine call; a ref or target in an iframe one more in its frame, and
// the frame's own locator (frameLocators) one per frame up to the page.
func (p *Page) StepTargets(ctx context.Context, q StepQuery) StepAnswer {
	ans := StepAnswer{Locators: map[string]string{}, Shown: make([]bool, len(q.Shown))}
	if p.Dialog() != nil {
		return ans
	}
	// What each frame is asked: its refs (by index in q.Refs), and
	// whether the target is its.
	type ask struct {
		refs   []int
		exprs  []string
		target string
	}
	asks := map[cdp.FrameID]*ask{}
	var order []cdp.FrameID
	askOf := func(f cdp.FrameID) *ask {
		a, ok := asks[f]
		if !ok {
			a = &ask{}
			asks[f] = a
			order = append(order, f)
		}
		return a
	}
	for i, ref := range q.Refs {
		if !selector.IsRef(ref) {
			continue
		}
		if loc, err := p.locate(ref); err == nil {
			a := askOf(loc.frame)
			a.refs, a.exprs = append(a.refs, i), append(a.exprs, loc.expr)
		}
	}
	if q.Target != "" {
		// Of the main frame only: a heal looks for the element in the
		// main frame's document (Elements).
		if loc, err := p.locate(q.Target); err == nil && loc.frame == p.frame {
			askOf(loc.frame).target = loc.expr
		}
	}
	var shown [][]selector.Part
	for _, sel := range q.Shown {
		parsed, err := ParseSelector(sel, p.m.opts.TestIDAttribute)
		if err != nil {
			shown = append(shown, nil)
			continue
		}
		shown = append(shown, parsed.Parts)
	}
	if len(q.Shown) > 0 {
		askOf(p.frame)
	}
	cctx, cancel := p.callCtx(ctx, time.Second)
	defer cancel()
	for _, f := range order {
		a := asks[f]
		locate := fnStableLocator
		if f != p.frame {
			locate = fnFrameStep
		}
		var b strings.Builder
		b.WriteString("(() => { const o = { l: {} };")
		for j, expr := range a.exprs {
			fmt.Fprintf(&b, " try { o.l[%d] = %s; } catch (e) {}", a.refs[j], locate.call(jsExpr(expr), p.m.opts.TestIDAttribute))
		}
		if a.target != "" {
			fmt.Fprintf(&b, " try { o.f = %s; } catch (e) {}", fnFingerprint.call(jsExpr(a.target), p.testIDAttr()))
		}
		if f == p.frame && len(shown) > 0 {
			fmt.Fprintf(&b, " try { o.s = %s; } catch (e) {}", fnShownOnce.call(shown))
		}
		b.WriteString(" return o; })()")
		var out struct {
			L map[int]string `json:"l"`
			F *Element       `json:"f"`
			S []bool         `json:"s"`
		}
		if err := p.evalIn(cctx, f, b.String(), &out); err != nil {
			continue
		}
		prefix := ""
		if f != p.frame && len(out.L) > 0 {
			var err error
			if prefix, err = p.frameLocators(cctx, f); err != nil {
				// A locator without its frame finds nothing: none.
				out.L = nil
			}
		}
		for i, l := range out.L {
			if l == "" || i < 0 || i >= len(q.Refs) {
				continue
			}
			if prefix != "" {
				l = prefix + " >> " + l
			}
			ans.Locators[q.Refs[i]] = l
		}
		if out.F != nil {
			ans.Element = out.F
		}
		for i := range out.S {
			if i < len(ans.Shown) && shown[i] != nil {
				ans.Shown[i] = out.S[i]
			}
		}
	}
	return ans
}

// frameLocators is the locator of a frame's owner element in each frame
// from the page down to f, joined by >> (`iframe[name="outer"] >>
// iframe[title="Pay"]`): what a recorded step's locator starts with for an
// element of f. One call per frame on the way, in its parent's world
// (another process's for a cross-site iframe).
func (p *Page) frameLocators(ctx context.Context, f cdp.FrameID) (string, error) {
	var chain []string
	for f != p.frame {
		if len(chain) > 8 {
			return "", fmt.Errorf("frame %s: nested too deep", f)
		}
		p.mu.Lock()
		parent, ok := p.frames.parent[f]
		p.mu.Unlock()
		if !ok {
			return "", fmt.Errorf("frame %s has no known parent", f)
		}
		pw, err := p.worldOf(ctx, parent)
		if err != nil {
			return "", err
		}
		owner, err := callOn(ctx, pw.host, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: f})
		if err != nil {
			return "", err
		}
		obj, err := callOn(ctx, pw.host, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: owner.BackendNodeID, ExecutionContextID: pw.id})
		if err != nil || obj.Object == nil {
			return "", fmt.Errorf("the iframe of frame %s: %v", f, err)
		}
		res, err := callOn(ctx, pw.host, runtime.CallFunctionOn, runtime.CallFunctionOnParams{ObjectID: obj.Object.ObjectID,
			FunctionDeclaration: "function() { return " + fnFrameLocator.call(jsExpr("this"), p.m.opts.TestIDAttribute) + " }", ReturnByValue: new(true)})
		_, _ = callOn(ctx, pw.host, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: obj.Object.ObjectID})
		if err != nil {
			return "", err
		}
		var loc string
		if res.ExceptionDetails != nil || res.Result == nil || json.Unmarshal(res.Result.Value, &loc) != nil || loc == "" {
			return "", fmt.Errorf("no locator for the iframe of frame %s", f)
		}
		chain = append(chain, loc)
		f = parent
	}
	slices.Reverse(chain)
	return strings.Join(chain, " >> "), nil
}
