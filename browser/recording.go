package browser

import (
	"context"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/e2e-mcp/e2e-mcp/browser/cdpcall"
	"github.com/e2e-mcp/e2e-mcp/browser/recording"
	"go.uber.org/zap"
)

// The seam with package recording (the screencast, action targets, a
// person's demonstration): the package keeps their state and logic, and
// what it needs of a tab it gets through castTab. Every Tabs method that
// changes the current tab calls follow (TestCurrentTabFollowed).

// castTab is a Page as the screencast needs it (recording.Tab).
type castTab struct{ p *Page }

// tabOf is p as a recording.Tab; nil for no tab.
func tabOf(p *Page) recording.Tab {
	if p == nil {
		return nil
	}
	return castTab{p}
}

func (c castTab) Cast() *recording.TabCast { return &c.p.cast }
func (c castTab) ID() string               { return string(c.p.main.target) }
func (c castTab) Context() context.Context { return c.p.ctx }
func (c castTab) Log() *zap.Logger         { return c.p.log }
func (c castTab) Gone() bool               { return c.p.Gone() }
func (c castTab) CallContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return c.p.callCtx(ctx, c.p.m.opts.ActionTimeout)
}

func (c castTab) RestoreContext(ctx context.Context) (context.Context, context.CancelFunc) {
	rctx, rcancel := detached(ctx)
	cctx, cancel := c.p.callCtx(rctx, cdpcall.RestoreTimeout)
	return cctx, func() { cancel(); rcancel() }
}

func (c castTab) CallError(ctx context.Context, err error, what string) error {
	return c.p.ctxError(ctx, err, what)
}

// CastBusy says a call of the session starts (true) or ends: the
// screencast captures less while one runs (recording.Screencast.Busy).
func (t *Tabs) CastBusy(busy bool) {
	t.mu.Lock()
	c := t.cast
	t.mu.Unlock()
	if c == nil {
		return
	}
	c.Busy(busy)
}

// Cast starts a screencast of the session's current tab that follows the
// current tab as it changes, sending every frame to sink, which must not
// block (it is called on the tab's cast goroutine). One at a time: a second
// Cast replaces the first.
func (t *Tabs) Cast(ctx context.Context, o recording.CastOptions, sink func(recording.Frame)) error {
	t.StopCast(ctx)
	t.mu.Lock()
	t.cast = recording.NewScreencast(o, sink)
	t.mu.Unlock()
	return t.follow(ctx)
}

// StopCast stops the session's screencast; no frame reaches its sink once
// it returns.
func (t *Tabs) StopCast(ctx context.Context) {
	t.mu.Lock()
	c := t.cast
	t.cast = nil
	t.mu.Unlock()
	if c != nil {
		c.Stop(ctx)
	}
}

// Casting reports whether the session's screencast is on.
func (t *Tabs) Casting() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cast != nil
}

// follow moves the session's screencast to the current tab, when it casts
// and the current tab changed. Every method that changes the current tab
// calls it before it returns.
func (t *Tabs) follow(ctx context.Context) error {
	t.mu.Lock()
	c := t.cast
	t.mu.Unlock()
	cur := t.Current()
	if c == nil {
		return nil
	}
	return c.Follow(ctx, tabOf(cur))
}

// followQuietly is follow for the methods whose own work is done when it
// runs: a screencast that fails to move is logged, and the next change of
// tab tries again.
func (t *Tabs) followQuietly(ctx context.Context) {
	if err := t.follow(ctx); err != nil {
		t.m.log.Debug("move the screencast to the current tab", zap.Error(err))
	}
}

// OnAction has fn told the target of every action on the session's tabs
// that has one (nil: none), just before its input. The box comes with the
// action's last check (onElementBoxed), in the same round trip, but the
// page measures it: it is set only while something draws it (a video's
// action overlays).
func (t *Tabs) OnAction(fn func(recording.ActionTarget)) {
	t.mu.Lock()
	t.onAction = fn
	t.mu.Unlock()
}

// actionHook is the session's action hook (OnAction), nil when none.
func (p *Page) actionHook() func(recording.ActionTarget) {
	if p.tabs == nil {
		return nil
	}
	p.tabs.mu.Lock()
	defer p.tabs.mu.Unlock()
	return p.tabs.onAction
}

// viewBox is an element's box in its frame's viewport, in CSS pixels.
type viewBox struct{ X, Y, Width, Height float64 }

// noteTarget tells hook where an action's element is: box, in frame's
// viewport. Every action that acts on an element passes actionable, which
// reads the box with its last check and calls it.
func (p *Page) noteTarget(ctx context.Context, hook func(recording.ActionTarget), frame cdp.FrameID, box viewBox) {
	if frame != p.frame {
		var err error
		if box.X, box.Y, err = p.toViewport(ctx, frame, box.X, box.Y); err != nil {
			return
		}
	}
	hook(recording.ActionTarget{X: box.X, Y: box.Y, Width: box.Width, Height: box.Height, Time: time.Now()})
}

// StartDemo starts recording what a person does in the tab, in its current
// document and the next ones. Starting again keeps the recording.
func (p *Page) StartDemo(ctx context.Context) error {
	p.mu.Lock()
	on := p.demo != nil
	p.mu.Unlock()
	if on {
		return nil
	}
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	start := fnStartDemo.call(p.m.opts.TestIDAttribute, recording.DemoBinding)
	d, err := recording.AddDemo(cctx, worldName, start)
	if err != nil {
		return p.ctxError(cctx, err, "start recording")
	}
	p.mu.Lock()
	p.demo = d
	p.mu.Unlock()
	var started bool
	if err := p.evalEngine(cctx, start, &started); err != nil {
		return err
	}
	if !started {
		return newError(KindScriptError, "reload the page and start again", "the page's recorder did not start")
	}
	return nil
}

// StopDemo stops the recording and returns its steps; ok is false when
// none was being recorded.
func (p *Page) StopDemo(ctx context.Context) (steps []recording.DemoStep, ok bool, err error) {
	p.mu.Lock()
	d := p.demo
	p.mu.Unlock()
	if d == nil {
		return nil, false, nil
	}
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	rmErr := d.Remove(cctx)
	// The text the person was still typing: stopDemo hands it back.
	var last *recording.DemoStep
	evalErr := p.evalEngine(cctx, fnStopDemo.call(), &last)
	p.mu.Lock()
	p.demo = nil
	steps = d.Steps()
	p.mu.Unlock()
	if last != nil {
		steps = append(steps, *last)
	}
	if rmErr != nil {
		return steps, true, p.ctxError(cctx, rmErr, "stop recording")
	}
	return steps, true, evalErr
}

// demoEventLocked keeps a step the listeners sent; p.mu is held.
func (p *Page) demoEventLocked(e *runtime.EventBindingCalled) {
	if p.demo != nil {
		p.demo.OnBinding(e)
	}
}
