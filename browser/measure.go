package browser

// What browser does with browser/measure (web vitals, the accessibility
// audit, screenshots plain, held still and labelled): the package takes the
// measures and captures and draws, and what it needs of a page it gets
// through measureTab: the engine's calls, which find elements across frames
// and name them with the snapshot's refs. Its refusals come back as they
// are: AsError reads them as invalid_input errors. What is the session's
// stays here: the vitals watcher in every tab (WatchVitals) and the
// throttling around a measure (Throttled).

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/e2e-mcp/e2e-mcp/browser/measure"
)

// Screenshot captures the viewport, the full page or one element.
func (p *Page) Screenshot(ctx context.Context, o measure.ScreenshotOptions) ([]byte, error) {
	b, err := measure.Screenshot(ctx, measureTab{p}, o)
	return b, err
}

// LabelledScreenshot takes the viewport as a JPEG with every element that
// has a ref (in the main frame, on screen) boxed and labelled.
func (p *Page) LabelledScreenshot(ctx context.Context) ([]byte, []measure.LabelledBox, error) {
	b, boxes, err := measure.LabelledScreenshot(ctx, measureTab{p})
	return b, boxes, err
}

// CaptureStill takes screenshots for a visual check with the page held
// still, giving each to next (measure.CaptureStill).
func (p *Page) CaptureStill(ctx context.Context, o measure.VisualOptions, timeout time.Duration, next func(measure.VisualShot) (bool, error)) error {
	return measure.CaptureStill(ctx, measureTab{p}, o, timeout, next)
}

// AuditA11y checks the page, or the element target names, against the
// accessibility audit's rules (measure.AuditA11y).
func (p *Page) AuditA11y(ctx context.Context, target string, limit int) (*measure.A11yReport, error) {
	r, err := measure.AuditA11y(ctx, measureTab{p}, target, limit)
	return r, err
}

// Vitals reads the page's web vitals (the main frame's document).
func (p *Page) Vitals(ctx context.Context) (*measure.Vitals, error) {
	v, err := measure.ReadVitals(ctx, measureTab{p})
	return v, err
}

// EncodeBase64 is a helper for callers that send images as MCP content.
func EncodeBase64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// measureTab is a Page as the measures need it (measure.Tab).
type measureTab struct{ p *Page }

func (t measureTab) CallContext(ctx context.Context, extra time.Duration) (context.Context, context.CancelFunc) {
	return t.p.callCtx(ctx, t.p.m.opts.ActionTimeout+extra)
}

func (t measureTab) RestoreContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return detached(ctx)
}

func (t measureTab) CallError(ctx context.Context, err error, what string) error {
	return t.p.ctxError(ctx, err, what)
}

func (t measureTab) Timeout(d time.Duration) (time.Duration, error) { return t.p.timeoutOf(d) }

func (t measureTab) Vitals(ctx context.Context, out any) error {
	p := t.p
	var raw json.RawMessage
	if err := p.evalEngine(ctx, fnVitals.call(p.refSeqOf(p.frame), p.prefixOf(p.frame)), &raw); err != nil {
		return err
	}
	return p.numbered(p.frame, raw, out)
}

func (t measureTab) Audit(ctx context.Context, target string, limit int, out any) error {
	p := t.p
	var raw json.RawMessage
	call := func(f cdp.FrameID, el string) error {
		return p.evalIn(ctx, f, fnAudit.call(jsExpr(el), p.refSeqOf(f), p.prefixOf(f), limit), &raw)
	}
	frame := p.frame
	if target == "" {
		if err := call(frame, "null"); err != nil {
			return err
		}
	} else {
		loc, err := p.resolveIn(ctx, target, func(loc located) error { return call(loc.frame, loc.expr) })
		if err != nil {
			return err
		}
		frame = loc.frame
	}
	return p.numbered(frame, raw, out)
}

// numbered decodes into out raw, the answer of an engine call that named
// elements of frame f with refs, and keeps the frame's ref counter where
// the call left it (its refSeq).
func (p *Page) numbered(f cdp.FrameID, raw json.RawMessage, out any) error {
	var seq struct {
		RefSeq int `json:"refSeq"`
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return err
	}
	if err := json.Unmarshal(raw, &seq); err != nil {
		return err
	}
	p.setRefSeq(f, seq.RefSeq)
	return nil
}

func (t measureTab) HoldStill(ctx context.Context, on bool) error {
	return t.p.evalEngine(ctx, fnHoldStill.call(on), nil)
}

func (t measureTab) View(ctx context.Context, out any) error {
	return t.p.evalEngine(ctx, fnBoxes.call(nil), out)
}

func (t measureTab) DevicePixelRatio(ctx context.Context) (float64, error) {
	var dpr float64
	err := t.p.evalEngine(ctx, "devicePixelRatio", &dpr)
	return dpr, err
}

func (t measureTab) Clip(ctx context.Context, target string) (*page.Viewport, error) {
	return t.p.elementClip(ctx, target)
}

func (t measureTab) InFrame(target string) (bool, error) {
	loc, err := t.p.locate(target)
	return err == nil && loc.frame != t.p.frame, err
}

func (t measureTab) Boxes(ctx context.Context, target string, out any) error {
	p := t.p
	loc, err := p.locate(target)
	if err != nil {
		return err
	}
	arg := any(loc.rest)
	if loc.sel == nil {
		arg = jsExpr(loc.expr)
	}
	if err := p.evalIn(ctx, loc.frame, fnBoxes.call(arg), out); err != nil {
		return p.targetError(ctx, err, target, loc)
	}
	return nil
}

func (t measureTab) Refs(ctx context.Context) (map[string]measure.Named, error) {
	snap, err := t.p.Snapshot(ctx, SnapshotOptions{InteractiveOnly: true})
	if err != nil {
		return nil, err
	}
	named := make(map[string]measure.Named, len(snap.Refs))
	for ref, info := range snap.Refs {
		named[ref] = measure.Named{Role: info.Role, Name: info.Name}
	}
	return named, nil
}

func (t measureTab) RefBoxes(ctx context.Context, refs []string, out any) error {
	return t.p.evalEngine(ctx, fnRefBoxes.call(refs), out)
}

// elementClip is the box of an element in document CSS pixels (scrolled
// into view first when off screen), as a screenshot's clip.
func (p *Page) elementClip(ctx context.Context, target string) (*page.Viewport, error) {
	var box struct{ X, Y, Width, Height, ScrollX, ScrollY float64 }
	loc, err := p.resolveIn(ctx, target, func(loc located) error {
		return p.evalIn(ctx, loc.frame, fnViewRect.call(jsExpr(loc.expr)), &box)
	})
	if err != nil {
		return nil, err
	}
	if box.Width <= 0 || box.Height <= 0 {
		return nil, newError(KindNotActionable, "the element has no size: pick a visible element", "%s is not visible", target)
	}
	if loc.frame != p.frame {
		if box.X, box.Y, err = p.toViewport(ctx, loc.frame, box.X, box.Y); err != nil {
			return nil, err
		}
		var main struct{ ScrollX, ScrollY float64 }
		if err := p.evalEngine(ctx, "({scrollX: window.scrollX, scrollY: window.scrollY})", &main); err != nil {
			return nil, err
		}
		box.ScrollX, box.ScrollY = main.ScrollX, main.ScrollY
	}
	return &page.Viewport{X: box.X + box.ScrollX, Y: box.Y + box.ScrollY, Width: box.Width, Height: box.Height, Scale: 1}, nil
}

// WatchVitals runs the watcher in every document the session's tabs load
// from now on (Tabs.open adds it to new tabs).
func (t *Tabs) WatchVitals(ctx context.Context) error {
	added := false
	t.changeSetup(func(s *pageSetup) { added, s.vitals = !s.vitals, true })
	if !added {
		return nil
	}
	for _, p := range t.livePages() {
		if err := p.addVitalsWatcher(ctx); err != nil {
			return err
		}
	}
	return nil
}

// addVitalsWatcher registers the watcher for the page's next documents, in
// the engine's world.
func (p *Page) addVitalsWatcher(ctx context.Context) error {
	return measure.Watch(ctx, measureTab{p}, worldName)
}

// Throttled runs fn with every tab of the session under a network state
// and a CPU slow-down (either may be zero: unchanged), then puts back what
// the session had set before, whatever fn did, even when the call was
// cancelled.
func (t *Tabs) Throttled(ctx context.Context, netState string, cpu float64, fn func() error) (err error) {
	before := t.setupOf()
	defer func() {
		rctx, cancel := detached(ctx)
		defer cancel()
		if rerr := t.unthrottle(rctx, before, netState != "", cpu != 0); err == nil {
			err = rerr
		}
	}()
	if netState != "" {
		err = t.SetNetworkState(ctx, netState)
	}
	if err == nil && cpu != 0 {
		_, err = t.SetEmulation(ctx, devices.Emulation{CPUThrottling: cpu}, "", false)
	}
	if err == nil {
		err = fn()
	}
	return err
}

// unthrottle puts the session's network state and CPU rate back to what
// they were before Throttled, in every tab.
func (t *Tabs) unthrottle(ctx context.Context, before pageSetup, network, cpu bool) error {
	t.changeSetup(func(s *pageSetup) {
		s.netState, s.emulation.CPUThrottling = before.netState, before.emulation.CPUThrottling
	})
	now := t.setupOf()
	state := now.netState
	if state == "" {
		state = "online"
	}
	for _, p := range t.livePages() {
		if network {
			if err := p.applyNetworkState(ctx, state); err != nil {
				return err
			}
		}
		if cpu {
			// The rate alone, not the whole emulation again: every other
			// command runs at the slowed rate (50x: seconds each), and the
			// restore's deadline ran out before it reached the CPU's.
			cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
			err := setCPURate(cctx, now.emulation.CPUThrottling)
			cancel()
			if err != nil {
				return p.ctxError(cctx, err, "restore the CPU rate")
			}
		}
	}
	return nil
}

// PaintMark is a token that stays the same while nothing that paints the
// page changes (js/60_paint.js), or "" when that cannot be told: equal
// marks mean a picture taken at the first still shows the page at the
// second. The first call on a document starts watching it and returns "".
func (p *Page) PaintMark(ctx context.Context) string {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	var mark string
	if err := p.evalEngine(cctx, fnPaintMark.call(), &mark); err != nil {
		return ""
	}
	return mark
}
