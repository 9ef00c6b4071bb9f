package browser

import (
	"context"
	"math"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/cdpcall"
	"github.com/e2e-mcp/e2e-mcp/browser/keyboard"
)

// The input actions besides click and type: hover, drag, check, select,
// sliders and file upload. Each waits for its element like a click does
// (see [Page.actionable]), sends trusted input through the Input domain
// where a user would use mouse or keyboard, and waits for what it started.

// pointOf waits until target passes the engine's point check fn
// (actionPoint, hoverPoint) and returns that point in the tab's viewport,
// with the frame the element is in.
func (p *Page) pointOf(ctx context.Context, target string, fn jsFn) (x, y float64, frame cdp.FrameID, err error) {
	var pt struct{ X, Y float64 }
	if frame, err = p.actionable(ctx, target, fn, &pt, nextAction()); err != nil {
		return 0, 0, "", err
	}
	if frame != p.frame {
		cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
		defer cancel()
		if pt.X, pt.Y, err = p.toViewport(cctx, frame, pt.X, pt.Y); err != nil {
			return 0, 0, "", err
		}
	}
	return pt.X, pt.Y, frame, nil
}

// mouse sends one mouse event; buttons is the bit field of the buttons held
// after it (1 for the left one), which pointer events report.
func mouse(ctx context.Context, typ input.DispatchMouseEventType, x, y float64, button input.MouseButton, buttons, clicks int64) error {
	_, err := chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{
		Type: typ, X: x, Y: y, Button: button, Buttons: buttons, ClickCount: clicks})
	return err
}

// Hover moves the mouse over target once it is visible, stable and not
// covered (disabled elements too), then waits for what that started.
func (p *Page) Hover(ctx context.Context, target string) error {
	x, y, _, err := p.pointOf(ctx, target, fnHoverPoint)
	if err != nil {
		return err
	}
	before := p.mark()
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	if err := p.act(cctx, func(cctx context.Context) error {
		return mouse(cctx, input.DispatchMouseEventTypeMouseMoved, x, y, input.MouseButtonNone, 0, 0)
	}); err != nil {
		return p.ctxError(cctx, err, "hover")
	}
	return p.settle(ctx, before)
}

// DragSteps is how many mouse moves a drag makes on its way: pages that
// follow the pointer see it travel, not jump (dnd-kit starts a drag only
// after the pointer has moved a few pixels). A drag step exported as
// Playwright code makes as many.
const DragSteps = 10

// Drag drags from onto to with the mouse: press on from, move to to in
// steps, release. When the press starts an HTML5 drag (a draggable
// element), Chrome hands the drag to us instead of the OS, and we deliver
// it to to as dragenter, dragover and drop; otherwise the moves themselves
// are the drag, as pointer-driven pages (sortable lists, sliders) expect.
// It reports whether the drag was an HTML5 one.
func (p *Page) Drag(ctx context.Context, from, to string) (bool, error) {
	if _, _, _, err := p.pointOf(ctx, from, fnHoverPoint); err != nil {
		return false, err
	}
	tx, ty, _, err := p.pointOf(ctx, to, fnHoverPoint)
	if err != nil {
		return false, err
	}
	// Measured again: bringing the target into view may have scrolled it.
	sx, sy, sframe, err := p.pointOf(ctx, from, fnHoverPoint)
	if err != nil {
		return false, err
	}
	return p.dragBetween(ctx, sx, sy, sframe, tx, ty)
}

// dragBetween drags from one viewport point (over an element of sframe) to
// another, as Drag says.
func (p *Page) dragBetween(ctx context.Context, sx, sy float64, sframe cdp.FrameID, tx, ty float64) (bool, error) {
	before := p.mark()
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	if _, err := chromedp.Call(cctx, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: true}); err != nil {
		return false, p.ctxError(cctx, err, "drag")
	}
	defer func() {
		rctx, cancel := detached(ctx)
		defer cancel()
		off, cancel2 := p.callCtx(rctx, cdpcall.RestoreTimeout)
		defer cancel2()
		_, _ = chromedp.Call(off, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: false})
	}()
	evctx, stop := context.WithCancel(cctx)
	defer stop()
	intercepted := make(chan *input.DragData, 1)
	events := chromedp.Events(evctx, input.DragIntercepted) // subscribed from here on
	go func() {
		for ev, err := range events {
			if err == nil {
				intercepted <- ev.Data
			}
			return
		}
	}()
	if err := p.evalIn(cctx, sframe, fnWatchDrag.call(), nil); err != nil {
		return false, err
	}
	var html5 bool
	err := p.act(cctx, func(cctx context.Context) error {
		if err := mouse(cctx, input.DispatchMouseEventTypeMouseMoved, sx, sy, input.MouseButtonNone, 0, 0); err != nil {
			return err
		}
		if err := mouse(cctx, input.DispatchMouseEventTypeMousePressed, sx, sy, input.MouseButtonLeft, 1, 1); err != nil {
			return err
		}
		var data *input.DragData
		started := false
		for i := 1; i <= DragSteps && data == nil; i++ {
			f := float64(i) / DragSteps
			if err := mouse(cctx, input.DispatchMouseEventTypeMouseMoved, sx+(tx-sx)*f, sy+(ty-sy)*f, input.MouseButtonLeft, 1, 0); err != nil {
				return err
			}
			if started {
				continue
			}
			// dragstart fires while the renderer handles the move that
			// passes the drag threshold, before the move is acknowledged;
			// the interception reaches us from the browser soon after.
			if err := p.evalIn(cctx, sframe, fnDragStarted.call(), &started); err != nil {
				return err
			}
			if started {
				select {
				case data = <-intercepted:
				case <-time.After(time.Second):
				case <-cctx.Done():
					return cctx.Err()
				}
			}
		}
		if data != nil {
			html5 = true
			for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter,
				input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
				if _, err := chromedp.Call(cctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: tx, Y: ty, Data: data}); err != nil {
					return err
				}
			}
		}
		return mouse(cctx, input.DispatchMouseEventTypeMouseReleased, tx, ty, input.MouseButtonLeft, 0, 1)
	})
	if err != nil {
		return false, p.ctxError(cctx, err, "drag")
	}
	return html5, p.settle(ctx, before)
}

// checkState is what the engine's checkState says of a checkable element.
type checkState struct {
	Checked any  `json:"checked"` // true, false or "mixed"
	Radio   bool `json:"radio"`
}

// SetChecked checks (want) or unchecks a checkbox, radio button or switch
// by clicking it, unless it is in that state already. It reports whether it
// clicked; a click that does not change the state is an error.
func (p *Page) SetChecked(ctx context.Context, target string, want bool) (bool, error) {
	var st checkState
	frame, err := p.actionable(ctx, target, fnCheckState, &st)
	if err != nil {
		return false, err
	}
	if st.Checked == want {
		return false, nil
	}
	if !want && st.Radio {
		return false, newError(KindInvalidInput, "check another option of its group instead", "%s is a radio button, which cannot be unchecked", target)
	}
	if err := p.Click(ctx, target, ClickOptions{}); err != nil {
		return false, err
	}
	if p.Dialog() != nil {
		return true, nil // the click opened a dialog; its answer may decide
	}
	// The element clicked, not what the target finds now: a name that says
	// the state ("... (unchecked)") finds another element after the click.
	var again struct {
		checkState
		Gone bool `json:"gone"`
	}
	if err := p.evalIn(ctx, frame, fnCheckedAgain.call(), &again); err != nil {
		return true, err
	}
	st = again.checkState
	if again.Gone {
		if _, err := p.actionable(ctx, target, fnCheckState, &st); err != nil {
			return true, err
		}
	}
	if st.Checked != want {
		verb := map[bool]string{true: "check", false: "uncheck"}[want]
		return true, newError(KindNotActionable, "the page may handle the click itself: take a snapshot, then click what it shows",
			"clicking %s did not %s it", target, verb)
	}
	return true, nil
}

// SelectOption selects the options of a <select> whose value or label is
// one of values (none: deselect all), firing input and change as a user's
// choice does. It returns the labels of the selected options.
func (p *Page) SelectOption(ctx context.Context, target string, values []string) ([]string, error) {
	if values == nil {
		values = []string{}
	}
	var res struct {
		Labels []string `json:"labels"`
	}
	before := p.mark()
	err := p.act(ctx, func(ctx context.Context) error {
		_, err := p.actionable(ctx, target, fnSelectOptions, &res, values)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res.Labels, p.settle(ctx, before)
}

// maxSliderKeys bounds the arrow-key presses that move an ARIA slider.
const maxSliderKeys = 500

// SetSlider sets a slider to value: an <input type=range> directly (with
// input and change events), an ARIA slider with arrow keys, as a keyboard
// user moves it. It returns the value the slider ends at.
func (p *Page) SetSlider(ctx context.Context, target string, value float64) (float64, error) {
	if math.IsNaN(value) || math.IsInf(value, 0) {
		return 0, newError(KindInvalidInput, "give a number", "slider value %v", value)
	}
	var st struct {
		Native bool     `json:"native"`
		Now    *float64 `json:"now"`
	}
	before := p.mark()
	if err := p.act(ctx, func(ctx context.Context) error {
		_, err := p.actionable(ctx, target, fnSetRange, &st, value)
		return err
	}); err != nil {
		return 0, err
	}
	if st.Now == nil {
		return 0, stepError(KindNotActionable, StepClickOrKeys, "%s has no aria-valuenow to set", target)
	}
	if !st.Native {
		// setRange focused the ARIA slider: each arrow key moves it a step.
		for presses := 0; *st.Now != value; presses++ {
			prev := *st.Now
			key, _ := keyboard.Lookup("ArrowRight")
			if prev > value {
				key, _ = keyboard.Lookup("ArrowLeft")
			}
			if presses == maxSliderKeys {
				return prev, stepError(KindNotActionable, StepPressKeys, "%s is still at %v after %d key presses", target, prev, presses)
			}
			cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
			err := p.act(cctx, func(cctx context.Context) error { return p.pressKey(cctx, key) })
			cancel()
			if err != nil {
				return prev, p.ctxError(ctx, err, "move the slider")
			}
			if _, err := p.actionable(ctx, target, fnSliderState, &st, false); err != nil {
				return prev, err
			}
			switch {
			case st.Now == nil || *st.Now == prev:
				return prev, stepError(KindNotActionable, StepClickOrKeys, "%s does not move with arrow keys (stays at %v)", target, prev)
			case (prev < value) != (*st.Now < value) && *st.Now != value:
				return *st.Now, newError(KindInvalidInput, "pick a value the slider's steps reach", "%s moves in steps that skip %v (from %v to %v)", target, value, prev, *st.Now)
			}
		}
	}
	return *st.Now, p.settle(ctx, before)
}

// interceptFileChooser makes file choosers the page opens (a click on an
// <input type=file>, input.click()) into Page.fileChooserOpened events
// that [Page.UploadFiles] answers, instead of native dialogs.
func (p *Page) interceptFileChooser(ctx context.Context) error {
	if err := chromedp.Listen(p.ctx, func(ev any) {
		switch e := ev.(type) {
		case *page.EventFileChooserOpened:
			p.mu.Lock()
			p.modal.chooser = e
			p.signalLocked()
			p.mu.Unlock()
		case *page.EventFrameNavigated:
			// A new document in the tab takes an unanswered chooser with it.
			if e.Frame != nil && e.Frame.ParentID == "" {
				p.mu.Lock()
				p.modal.chooser = nil
				p.mu.Unlock()
			}
		}
	}); err != nil {
		return err
	}
	_, err := chromedp.Call(ctx, page.SetInterceptFileChooserDialog, page.SetInterceptFileChooserDialogParams{Enabled: true})
	return err
}

// FileChooserOpen reports whether the page has opened a file chooser that
// waits for files.
func (p *Page) FileChooserOpen() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.modal.chooser != nil
}

// chooserGrace is how long an upload without target waits for the file
// chooser the last action opened to be reported.
const chooserGrace = time.Second

// UploadFiles sets the files of the <input type=file> target (or of its
// label's input), which answers a file chooser the page opened, or,
// without target, answers the file chooser the last action opened. The page sees input and change events as after a user's
// choice. paths must be absolute; the caller checks that they may be read.
func (p *Page) UploadFiles(ctx context.Context, target string, paths []string) error {
	if target == "" {
		return p.answerChooser(ctx, paths)
	}
	var fi struct {
		Multiple bool `json:"multiple"`
	}
	if _, err := p.actionable(ctx, target, fnFileInputOf, &fi); err != nil {
		return err
	}
	if len(paths) > 1 && !fi.Multiple {
		return newError(KindInvalidInput, "give one path, or use an input with the multiple attribute", "%s takes one file, got %d", target, len(paths))
	}
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	// The input as a remote object of the engine's world, which
	// DOM.setFileInputFiles takes.
	var obj runtime.RemoteObjectID
	var h *host
	if _, err := p.resolveIn(cctx, target, func(loc located) error {
		w, err := p.worldOf(cctx, loc.frame)
		if err != nil {
			return p.ctxError(cctx, err, "resolve "+target)
		}
		res, err := callOn(cctx, w.host, runtime.Evaluate, runtime.EvaluateParams{Expression: fnLabelControl.call(jsExpr(loc.expr)), UniqueContextID: w.unique})
		if err != nil {
			return p.ctxError(cctx, err, "resolve "+target)
		}
		if res.ExceptionDetails != nil {
			return p.engineError(cctx, w, res.ExceptionDetails)
		}
		obj, h = res.Result.ObjectID, w.host
		return nil
	}); err != nil {
		return err
	}
	defer func() {
		rctx, cancel := detached(ctx)
		defer cancel()
		_, _ = callOn(rctx, h, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: obj})
	}()
	before := p.mark()
	if err := p.act(cctx, func(cctx context.Context) error {
		_, err := callOn(cctx, h, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: paths, ObjectID: obj})
		return err
	}); err != nil {
		return p.ctxError(cctx, err, "set the files")
	}
	// Files chosen for an input answer a file chooser the page opened:
	// other tools no longer wait for it.
	p.mu.Lock()
	p.modal.chooser = nil
	p.mu.Unlock()
	return p.settle(ctx, before)
}

// CancelFileChooser answers the file chooser the page opened with no
// files, as a person's Cancel: the input keeps what it had and gets a
// cancel event. It reports whether a chooser was open.
func (p *Page) CancelFileChooser(ctx context.Context) (bool, error) {
	p.mu.Lock()
	ch := p.modal.chooser
	p.modal.chooser = nil
	p.mu.Unlock()
	if ch == nil {
		return false, nil
	}
	if ch.BackendNodeID == 0 {
		return true, nil
	}
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	before := p.mark()
	err := p.act(cctx, func(cctx context.Context) error {
		res, err := chromedp.Call(cctx, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: ch.BackendNodeID})
		if err != nil || res.Object == nil {
			return nil //nolint:nilerr // the input is gone: nothing hears the cancel
		}
		defer func() {
			rctx, cancel := detached(cctx)
			defer cancel()
			_, _ = chromedp.Call(rctx, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: res.Object.ObjectID})
		}()
		_, err = chromedp.Call(cctx, runtime.CallFunctionOn, runtime.CallFunctionOnParams{ObjectID: res.Object.ObjectID,
			FunctionDeclaration: "function() { this.dispatchEvent(new Event('cancel')); }"})
		return err
	})
	if err != nil {
		return true, p.ctxError(cctx, err, "cancel the file chooser")
	}
	return true, p.settle(ctx, before)
}

// answerChooser gives paths to the file chooser the page opened.
func (p *Page) answerChooser(ctx context.Context, paths []string) error {
	wctx, cancel := p.callCtx(ctx, min(chooserGrace, p.m.opts.ActionTimeout))
	var ch *page.EventFileChooserOpened
	err := p.waitFor(wctx, func() bool { ch = p.modal.chooser; return ch != nil })
	cancel()
	if err != nil {
		return stepError(KindInvalidInput, StepOpenChooser, "paths: no file chooser is open")
	}
	if ch.Mode == page.FileChooserOpenedModeSelectSingle && len(paths) > 1 {
		return newError(KindInvalidInput, "give one path", "the file chooser takes one file, got %d", len(paths))
	}
	if ch.BackendNodeID == 0 {
		return newError(KindNotActionable, "give target: the <input type=file> of the page, if it has one",
			"the page opened a file chooser without a file input (showOpenFilePicker), which cannot be answered")
	}
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	before := p.mark()
	if err := p.act(cctx, func(cctx context.Context) error {
		_, err := chromedp.Call(cctx, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: paths, BackendNodeID: ch.BackendNodeID})
		return err
	}); err != nil {
		if e, ok := AsError(p.ctxError(cctx, err, "set the files")); ok {
			return e
		}
		return newError(KindNotActionable, "click what opens the file chooser again", "the file chooser's input is gone (%v)", err)
	}
	p.mu.Lock()
	if p.modal.chooser == ch {
		p.modal.chooser = nil
	}
	p.mu.Unlock()
	return p.settle(ctx, before)
}
