package browser

import (
	"context"
	"math"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// The mouse at coordinates, for pages an agent reads from pixels: canvas
// apps, maps, icon-only toolbars. Points are CSS pixels of the viewport, as
// a screenshot at scale 1 shows them; nothing checks what is there.

// checkPoint refuses a point outside the viewport's possible sizes.
func checkPoint(name string, x, y float64) error {
	if math.IsNaN(x) || math.IsNaN(y) || x < 0 || y < 0 || x > maxViewport || y > maxViewport {
		return newError(KindInvalidInput, "give viewport coordinates in CSS pixels, as a screenshot shows them", "%s (%g, %g) is outside the viewport", name, x, y)
	}
	return nil
}

// MouseMove moves the mouse to (x, y) and waits for what that started.
func (p *Page) MouseMove(ctx context.Context, x, y float64) error {
	if err := checkPoint("point", x, y); err != nil {
		return err
	}
	p.mu.Lock()
	held := p.pointer.buttons
	p.pointer.x, p.pointer.y = x, y
	p.mu.Unlock()
	return p.mouseAct(ctx, "move the mouse", func(cctx context.Context) error {
		return mouse(cctx, input.DispatchMouseEventTypeMouseMoved, x, y, input.MouseButtonNone, held, 0)
	})
}

// pointerState is where the vision tools last put the mouse, and the
// buttons held down there (bits: 1 left, 2 right, 4 middle), so that
// MouseDown and MouseUp press where the mouse is and a move between them
// drags.
type pointerState struct {
	x, y    float64
	buttons int64
}

// MouseDown presses button (left, right or middle) where the mouse is.
func (p *Page) MouseDown(ctx context.Context, button string) error {
	return p.mouseButton(ctx, button, true)
}

// MouseUp releases button where the mouse is.
func (p *Page) MouseUp(ctx context.Context, button string) error {
	return p.mouseButton(ctx, button, false)
}

func (p *Page) mouseButton(ctx context.Context, button string, down bool) error {
	b, bit, err := mouseButtonOf(button)
	if err != nil {
		return err
	}
	p.mu.Lock()
	x, y := p.pointer.x, p.pointer.y
	if down {
		p.pointer.buttons |= bit
	} else {
		p.pointer.buttons &^= bit
	}
	held := p.pointer.buttons
	p.mu.Unlock()
	typ, what := input.DispatchMouseEventTypeMousePressed, "press the mouse button"
	if !down {
		typ, what = input.DispatchMouseEventTypeMouseReleased, "release the mouse button"
	}
	return p.mouseAct(ctx, what, func(cctx context.Context) error {
		return mouse(cctx, typ, x, y, b, held, 1)
	})
}

// mouseButtonOf reads a button's name: left (or ""), right or middle, and
// its bit in the buttons held.
func mouseButtonOf(button string) (input.MouseButton, int64, error) {
	switch button {
	case "", "left":
		return input.MouseButtonLeft, 1, nil
	case "right":
		return input.MouseButtonRight, 2, nil
	case "middle":
		return input.MouseButtonMiddle, 4, nil
	}
	return "", 0, newError(KindInvalidInput, "use left, right or middle", "button %q", button)
}

// maxClickDelay bounds the time a click holds its button down.
const maxClickDelay = time.Minute

// MouseClick moves to (x, y) and clicks button (left, right or middle)
// count times (2: a double click), holding the button down for delay each
// time (a long press).
func (p *Page) MouseClick(ctx context.Context, x, y float64, button string, count int, delay time.Duration) error {
	if err := checkPoint("point", x, y); err != nil {
		return err
	}
	b, bits, err := mouseButtonOf(button)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.pointer.x, p.pointer.y = x, y
	p.mu.Unlock()
	if count < 1 || count > 3 {
		count = 1
	}
	if delay < 0 || delay > maxClickDelay {
		return newError(KindInvalidInput, "give 0 to 60000 milliseconds", "delay %v", delay)
	}
	// The call's bound covers the time the button is held too.
	return p.mouseActFor(ctx, "click", p.m.opts.ActionTimeout+time.Duration(count)*delay, func(cctx context.Context) error {
		if err := mouse(cctx, input.DispatchMouseEventTypeMouseMoved, x, y, input.MouseButtonNone, 0, 0); err != nil {
			return err
		}
		for c := int64(1); c <= int64(count); c++ {
			if err := mouse(cctx, input.DispatchMouseEventTypeMousePressed, x, y, b, bits, c); err != nil {
				return err
			}
			if delay > 0 {
				select {
				case <-cctx.Done():
					return cctx.Err()
				case <-time.After(delay):
				}
			}
			if err := mouse(cctx, input.DispatchMouseEventTypeMouseReleased, x, y, b, 0, c); err != nil {
				return err
			}
		}
		return nil
	})
}

// MousePosition is where the mouse tools last put the mouse (0, 0 at
// first), where a wheel without a point turns.
func (p *Page) MousePosition() (x, y float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pointer.x, p.pointer.y
}

// MouseWheel scrolls by (dx, dy) pixels with the wheel over (x, y).
func (p *Page) MouseWheel(ctx context.Context, x, y, dx, dy float64) error {
	if err := checkPoint("point", x, y); err != nil {
		return err
	}
	return p.mouseAct(ctx, "scroll", func(cctx context.Context) error {
		_, err := chromedp.Call(cctx, wheelEvent, wheelParams{Type: input.DispatchMouseEventTypeMouseWheel, X: x, Y: y, DeltaX: dx, DeltaY: dy})
		if err != nil {
			return err
		}
		// The scroll is animated: wait until the page stops moving (three
		// frames alike, at most a second), so the answer shows where it ended.
		return p.evalEngine(cctx, `new Promise((done) => {
			let last = '', same = 0; const t0 = performance.now();
			const tick = () => {
				const v = scrollX + ',' + scrollY;
				same = v === last ? same + 1 : 0; last = v;
				if (same >= 3 || performance.now() - t0 > 1000) done(true); else requestAnimationFrame(tick);
			};
			requestAnimationFrame(tick); setTimeout(() => done(true), 1500);
		})`, nil)
	})
}

// wheelParams are Input.dispatchMouseEvent's for the wheel, which needs
// both deltas even when one is 0 (cdproto's own type leaves zeros out).
type wheelParams struct {
	Type   input.DispatchMouseEventType `json:"type"`
	X      float64                      `json:"x"`
	Y      float64                      `json:"y"`
	DeltaX float64                      `json:"deltaX"`
	DeltaY float64                      `json:"deltaY"`
}

var wheelEvent = cdp.Command[wheelParams, cdp.Empty]{Method: input.CommandDispatchMouseEvent}

// DragXY drags with the left button from one point to another, in steps,
// handing an HTML5 drag to the page as Drag does.
func (p *Page) DragXY(ctx context.Context, sx, sy, tx, ty float64) (bool, error) {
	if err := checkPoint("start", sx, sy); err != nil {
		return false, err
	}
	if err := checkPoint("end", tx, ty); err != nil {
		return false, err
	}
	return p.dragBetween(ctx, sx, sy, p.frame, tx, ty)
}

// mouseAct sends mouse input and waits for what it started.
func (p *Page) mouseAct(ctx context.Context, what string, send func(context.Context) error) error {
	return p.mouseActFor(ctx, what, p.m.opts.ActionTimeout, send)
}

// mouseActFor is mouseAct with the input bounded by d.
func (p *Page) mouseActFor(ctx context.Context, what string, d time.Duration, send func(context.Context) error) error {
	before := p.mark()
	cctx, cancel := p.callCtx(ctx, d)
	defer cancel()
	if err := p.act(cctx, send); err != nil {
		return p.ctxError(cctx, err, what)
	}
	return p.settle(ctx, before)
}
