package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/eventlog"
	"github.com/e2e-mcp/e2e-mcp/browser/keyboard"
	"github.com/e2e-mcp/e2e-mcp/browser/selector"
	"go.uber.org/zap"
)

// settleCap is how long an action waits for the network requests it
// started; a request still running then is left to browser_wait_for.
const settleCap = 500 * time.Millisecond

// resolveIn locates target and runs try with it, following a selector into
// the iframes it crosses. It returns where the element was found.
func (p *Page) resolveIn(ctx context.Context, target string, try func(located) error) (located, error) {
	loc, err := p.locate(target)
	if err != nil {
		return loc, err
	}
	for hops := 0; ; hops++ {
		err := try(loc)
		if err == nil {
			return loc, nil
		}
		next, entered, ferr := p.enterFrame(ctx, loc, err)
		if !entered || hops > 8 {
			return loc, p.targetError(ctx, err, target, loc)
		}
		if ferr != nil {
			return loc, ferr
		}
		loc = next
	}
}

// targetError refines an error from resolving target: stale refs, and the
// candidates of a selector that matched several elements.
func (p *Page) targetError(ctx context.Context, err error, target string, loc any) error {
	l, _ := loc.(located)
	if l.sel == nil {
		return p.refError(err, target)
	}
	e, ok := AsError(err)
	if !ok || e.Reason != reasonManyMatches {
		return err
	}
	var c struct {
		List   []string `json:"list"`
		Total  int      `json:"total"`
		RefSeq int      `json:"refSeq"`
	}
	if p.evalIn(ctx, l.frame, fnCandidates.call(l.rest, p.refSeqOf(l.frame), p.prefixOf(l.frame)), &c) != nil || len(c.List) == 0 {
		return err
	}
	p.setRefSeq(l.frame, c.RefSeq)
	more := ""
	if c.Total > len(c.List) {
		more = fmt.Sprintf(", and %d more", c.Total-len(c.List))
	}
	return &Error{Kind: KindNotUnique, Message: fmt.Sprintf("%q matches %d elements: %s%s", target, c.Total, strings.Join(c.List, ", "), more),
		Hint: "use the ref of the one you mean, or make the selector more specific (e.g. add >> nth=0)"}
}

// refError refines the engine's ref_not_found: a ref this session handed out
// before belongs to a document that is gone, which makes it stale.
func (p *Page) refError(err error, target string) error {
	e, ok := AsError(err)
	if !ok || e.Kind != KindRefNotFound {
		return err
	}
	if r, ok := selector.ParseRef(target); ok {
		f, ferr := p.frameOfRef(target)
		if ferr != nil {
			return ferr
		}
		if n := r.Elem; n > 0 && n <= p.refSeqOf(f) {
			return &Error{Kind: KindRefStale, Message: fmt.Sprintf("ref %s belongs to a page that is gone (the page navigated or re-rendered)", target),
				Step: StepSnapshot}
		}
	}
	return &Error{Kind: KindRefNotFound, Message: fmt.Sprintf("ref %s is not in any snapshot of this page", target),
		Step: StepSnapshot}
}

// actionable calls the engine's check fn (actionPoint, prepareFill, ...) on
// the target until it passes or the action timeout ends; an element that is
// not rendered yet, hidden, covered or still animating in usually becomes
// ready by itself. args follow the element in the call.
// It returns the frame the element is in.
func (p *Page) actionable(ctx context.Context, target string, fn jsFn, out any, args ...any) (cdp.FrameID, error) {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	var last string   // the last refusal's message
	var reason Reason // and its code
	var missing error // the selector matches nothing (yet)
	var raw json.RawMessage
	// hook: a video shows the action at the element's box, read with the
	// last check (noteTarget).
	hook := p.actionHook()
	var boxed struct {
		R   json.RawMessage `json:"r"`
		Box *viewBox        `json:"box"`
	}
	// What held the action back, for a comparison of two replays.
	note := eventlog.NewWaitNote(target)
	ready := false
	defer func() { p.waitDone(note, ready) }()
	loc, err := p.resolveIn(cctx, target, func(loc located) error {
		for {
			raw = nil
			expr := onElement(loc.expr, fn, args...)
			if hook != nil {
				expr = onElementBoxed(loc.expr, fn, args...)
			}
			if err := p.evalIn(cctx, loc.frame, expr, &raw); err != nil {
				e, ok := AsError(err)
				if ok && e.Kind == KindTimeout && (last != "" || missing != nil) {
					return nil
				}
				if !ok || e.Kind != KindElementNotFound || loc.sel == nil {
					return err
				}
				// A selector can match an element the page renders later.
				missing, last = err, ""
				note.State(eventlog.WaitMissing, e.Message)
				select {
				case <-cctx.Done():
					return nil
				case <-time.After(16 * time.Millisecond):
				}
				continue
			}
			missing = nil
			if hook != nil {
				boxed.R, boxed.Box = nil, nil
				if err := json.Unmarshal(raw, &boxed); err != nil {
					return fmt.Errorf("decode engine result: %w", err)
				}
				raw = boxed.R
			}
			var check struct {
				Error string `json:"error"`
				Code  Reason `json:"code"`
				Final bool   `json:"final"`
			}
			_ = json.Unmarshal(raw, &check)
			if check.Error == "" {
				last = ""
				return nil
			}
			last, reason = check.Error, check.Code
			note.State(string(check.Code), check.Error)
			if check.Final {
				return nil // waiting cannot change the kind of element
			}
			// Poll at frame rate: the engine checks layout as it is now.
			select {
			case <-cctx.Done():
				return nil
			case <-time.After(16 * time.Millisecond):
			}
		}
	})
	if err != nil {
		return "", err
	}
	if e, ok := AsError(missing); ok {
		return "", &Error{Kind: e.Kind, Message: fmt.Sprintf("%s (waited %s)", e.Message, p.m.opts.ActionTimeout), Step: e.Step, Hint: e.Hint}
	}
	if last != "" {
		return "", &Error{Kind: KindNotActionable, Message: fmt.Sprintf("%s: %s", target, last), Reason: reason,
			Hint: "wait for the page to be ready, close what covers the element, or pick another element"}
	}
	if boxed.Box != nil {
		p.noteTarget(cctx, hook, loc.frame, *boxed.Box)
	}
	ready = true
	return loc.frame, json.Unmarshal(raw, out)
}

// ClickOptions modify a click.
type ClickOptions struct {
	Double    bool
	Button    string   // left (default), right or middle
	Modifiers []string // Alt, Control, Meta, Shift
}

// Click clicks target (a ref or selector) with trusted mouse events at its
// center, after the actionability checks, then waits for what it started.
func (p *Page) Click(ctx context.Context, target string, o ClickOptions) error {
	button, _, err := mouseButtonOf(o.Button)
	if err != nil {
		return err
	}
	mods, err := keyboard.ClickModifiers(o.Modifiers)
	if err != nil {
		return err
	}
	cctx, cancel := p.activeCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	send := func(ctx context.Context, typ input.DispatchMouseEventType, x, y float64, count int64) error {
		_, err := chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{
			Type: typ, X: x, Y: y, Button: button, ClickCount: count, Modifiers: mods})
		return err
	}
	clicks := int64(1)
	if o.Double {
		clicks = 2
	}
	action := nextAction()
	for aimed := 1; ; aimed++ {
		moved := p.moveEarly(cctx, target, func(ctx context.Context, x, y float64) error {
			return send(ctx, input.DispatchMouseEventTypeMouseMoved, x, y, 0)
		})
		var pt point
		frame, err := p.actionable(ctx, target, fnActionPoint, &pt, false, action)
		at, movedOK := moved()
		if err != nil {
			return err
		}
		before := p.mark()
		if frame != p.frame {
			if pt.X, pt.Y, err = p.toViewport(cctx, frame, pt.X, pt.Y); err != nil {
				return err
			}
		}
		err = p.act(cctx, func(cctx context.Context) error {
			if !movedOK || at != pt {
				if err := send(cctx, input.DispatchMouseEventTypeMouseMoved, pt.X, pt.Y, 0); err != nil {
					return err
				}
			}
			for c := int64(1); c <= clicks; c++ {
				if err := send(cctx, input.DispatchMouseEventTypeMousePressed, pt.X, pt.Y, c); err != nil {
					return err
				}
				if err := send(cctx, input.DispatchMouseEventTypeMouseReleased, pt.X, pt.Y, c); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return p.ctxError(cctx, err, "click")
		}
		// The engine's hit check (armHit): where the click landed. A page
		// that is gone (the click navigated it) got the click.
		var hit struct{ Missed string }
		if err := p.evalIn(cctx, frame, fnHitResult.call(), &hit); err != nil || hit.Missed == "" {
			return p.settle(ctx, before)
		}
		if aimed >= maxClickAims || cctx.Err() != nil {
			return newError(KindNotActionable, "wait until the page holds still, then click again",
				"the click on %s was aimed %d times, and each time the page moved %s under the point before it landed; the page got none of it",
				target, aimed, hit.Missed)
		}
		p.m.log.Debug("click missed its target: aimed again", zap.String("target", target), zap.String("landed on", hit.Missed))
	}
}

// maxClickAims bounds how often a click is aimed again when the page moved
// another element under its point before it landed (the engine's hit check
// kept that click from the page).
const maxClickAims = 5

// point is a position in CSS pixels.
type point struct{ X, Y float64 }

// actions numbers the pointer actions: the engine scrolls an element at
// most once in an action while the pointer rests on an ancestor of it (a
// hover-only menu), and tells the action's retries by their number.
var actions atomic.Int64

func nextAction() int64 { return actions.Add(1) }

// moveEarly starts moving the pointer to a ref's element in the main frame
// when where it is can be told at once (laid out, uncovered, no animation
// running): Chrome delivers a mouse move with the page's next frame, the
// frame that actionPoint's stability check waits for, so the two waits
// overlap instead of adding up. The returned function waits for the move
// and tells where it went; ok is false when no move was made, and then
// the caller moves as usual. What the hover starts is not the action's.
func (p *Page) moveEarly(ctx context.Context, target string, move func(ctx context.Context, x, y float64) error) func() (point, bool) {
	none := func() (point, bool) { return point{}, false }
	if !selector.IsRef(target) || p.Dialog() != nil {
		return none
	}
	loc, err := p.locate(target)
	if err != nil || loc.frame != p.frame {
		return none
	}
	var at struct {
		point
		Error string `json:"error"`
	}
	if err := p.evalIn(ctx, loc.frame, fnQuickPoint.call(jsExpr(loc.expr)), &at); err != nil || at.Error != "" {
		return none
	}
	done := make(chan error, 1)
	go func() { done <- p.act(ctx, func(ctx context.Context) error { return move(ctx, at.X, at.Y) }) }()
	return func() (point, bool) { return at.point, <-done == nil }
}

// TypeOptions modify typing.
type TypeOptions struct {
	Submit bool // press Enter afterwards
	Slowly bool // one key at a time, for pages that react to each key
}

// Type replaces the content of the editable target with text, as a user
// would: focus, select all, then insert. Slowly, it presses keys one by one
// at the caret instead, keeping the content (Playwright's
// pressSequentially): a line added to a document.
func (p *Page) Type(ctx context.Context, target, text string, o TypeOptions) error {
	var ok struct{ OK, Secret, SelectAll bool }
	p.lastSecret = false
	frame, err := p.actionable(ctx, target, fnPrepareFill, &ok, o.Slowly)
	if err != nil {
		return err
	}
	p.lastSecret = ok.Secret
	if ok.Secret && p.tabs != nil {
		// Marked before the text reaches the page, so that no writer
		// (the DevTools traffic's debug log first) sees it unmasked.
		p.tabs.Secrets.Add(text)
	}
	before := p.mark()
	// Keys pressed one by one take a few milliseconds each; inserted text
	// is one call whatever its length.
	budget := p.m.opts.ActionTimeout
	if o.Slowly {
		budget += time.Duration(utf8.RuneCountInString(text)) * 5 * time.Millisecond
	}
	cctx, cancel := p.callCtx(ctx, budget)
	defer cancel()
	err = p.act(cctx, func(cctx context.Context) error {
		var err error
		switch {
		case o.Slowly: // at the caret: nothing to type is nothing to do
			for _, r := range text {
				if err = p.pressKey(cctx, keyboard.ForRune(r)); err != nil {
					break
				}
			}
		case ok.SelectAll && !o.Slowly && !selectAll(cctx, p):
			err = fmt.Errorf("select all in %s: the keys were not sent", target)
		case text == "":
			err = p.pressKey(cctx, keyboard.Delete) // the selected content
		default:
			_, err = chromedp.Call(cctx, input.InsertText, input.InsertTextParams{Text: text})
		}
		if err == nil && (text != "" || !o.Slowly) {
			if err = p.typedInto(cctx, frame, target); err != nil {
				return err
			}
		}
		if err == nil && o.Submit {
			err = p.pressKey(cctx, keyboard.Enter)
		}
		return err
	})
	if err != nil {
		if e, ok := AsError(err); ok && e.Kind == KindNotFocused {
			return err
		}
		return p.ctxError(cctx, err, "type")
	}
	return p.settle(ctx, before)
}

// selectAll selects all of an element whose content is no DOM (an
// EditContext's: Monaco) with the keys a user presses, as text typed then
// replaces it; it says whether the keys were sent.
func selectAll(ctx context.Context, p *Page) bool {
	c, err := keyboard.ParseChord("ControlOrMeta+A")
	return err == nil && p.pressChord(ctx, c) == nil
}

// typedInto checks that the keys just typed reached the element prepareFill
// made ready (focus still in it, or its value or content changed): a page
// whose handler moved focus away, or an editor that never took it, would
// otherwise have its keys go to <body> while the answer says they were
// typed. A dialog the keys opened is an outcome, checked by act.
func (p *Page) typedInto(ctx context.Context, frame cdp.FrameID, target string) error {
	var r struct {
		OK    bool   `json:"ok"`
		Focus string `json:"focus"`
	}
	if err := p.evalIn(ctx, frame, fnTypedInto.call(), &r); err != nil {
		if p.Dialog() != nil || p.Gone() {
			return nil // the keys opened a dialog or closed the tab: they went somewhere
		}
		return err
	}
	if r.OK {
		return nil
	}
	return &Error{Kind: KindNotFocused, Message: fmt.Sprintf("%s: the keys went to %s, not to the element, and it did not change", target, r.Focus),
		Hint: "click the element first, or check what takes focus when it is focused"}
}

// pressKey is in keyboard.go, the key table in browser/keyboard.

// mark is the page's event state before an action.
type mark struct {
	nav, dcl, load, stop, dialog int
	opened, seen                 int // windows the page asked for; targets in its context
	at                           time.Time
}

func (p *Page) mark() mark {
	seen := 0
	if p.tabs != nil {
		seen = p.tabs.seenCount()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return mark{nav: p.load.navs, dcl: p.load.dcls, load: p.load.loads, stop: p.load.stops, dialog: p.modal.dialogs, opened: p.modal.popups, seen: seen, at: time.Now()}
}

// settle waits for what an action started: a navigation (until the new
// document has loaded and the engine runs in it) and the network requests
// sent since (up to Options.SettleTime). An action that started nothing returns
// after one round trip.
func (p *Page) settle(ctx context.Context, m mark) error {
	if p.Dialog() != nil || p.Gone() {
		return nil // the page waits for the answer, or closed itself; the response says so
	}
	// One round trip to the page, so that the events the action caused
	// in the renderer have reached us (the renderer sends its events
	// before the answer to a later command). A snapshot in this round
	// trip would save one when the page is quiet, and be thrown away,
	// costing its time, when the action started a request. It also says
	// whether the action's handlers set a timer due within the settle time
	// (watch.go): then we wait until it has fired, so that what it starts
	// (a navigation, a dialog, a request) is waited for below.
	st, err := p.takeTimers(ctx)
	if err != nil {
		if p.Gone() {
			return nil // the action closed the tab (window.close)
		}
		if _, ok := AsError(err); !ok {
			return err
		}
	}
	if st.timers > 0 && p.Dialog() == nil {
		p.waitTimers(ctx, st.timers)
	}
	if st.frame && p.Dialog() == nil {
		p.waitFrame(ctx)
	}
	if st.download && p.tabs != nil {
		// The browser tells of the download on its own channel, which
		// may come after the page's answer: the download begins within
		// the settle time, or the answer goes without it.
		p.tabs.waitDownloadBegun(ctx, max(p.m.opts.SettleTime, downloadBeginWait))
	}
	p.mu.Lock()
	navigated, opened := p.load.navs > m.nav, p.modal.popups-m.opened
	busy := p.modal.dialog != nil
	for _, t := range p.net.inflight {
		busy = busy || !t.Before(m.at)
	}
	p.mu.Unlock()
	if !navigated && opened == 0 && !busy {
		return nil
	}
	if opened > 0 && p.tabs != nil {
		// The action opened windows (window.open, target=_blank): wait
		// for their targets, so that the response lists them.
		cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
		p.tabs.waitSeen(cctx, m.seen+opened)
		cancel()
	}
	if navigated {
		err := p.waitDOM(ctx, m, "")
		if err != nil && ctx.Err() == nil && p.ctx.Err() == nil {
			if e := p.serverWaitError("the navigation the action started", p.m.opts.NavigationTimeout); e != nil {
				return e
			}
			return &Error{Kind: KindTimeout, Message: fmt.Sprintf("the navigation the action started did not load its document (DOMContentLoaded) within %s", p.m.opts.NavigationTimeout),
				Hint: "take a snapshot to see where the page is"}
		}
	}
	cctx, cancel := p.callCtx(ctx, p.m.opts.SettleTime)
	defer cancel()
	p.mu.Lock()
	answered := p.net.answered
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		// A fetch counted as done at its response: the page's code that
		// awaited it runs in a task queued then, which the snapshot of
		// the answer lets run first.
		p.net.yieldFirst = p.net.yieldFirst || p.net.answered != answered
		p.mu.Unlock()
	}()
	_ = p.waitFor(cctx, func() bool {
		if p.modal.dialog != nil {
			return true
		}
		for _, t := range p.net.inflight {
			if !t.Before(m.at) {
				return false
			}
		}
		return true
	})
	return nil
}

// loadGrace bounds the wait for a page's load event once its DOM is there:
// an image or a long poll that never ends holds load back for ever, and the
// page is usable without it (Playwright MCP waits as long).
const loadGrace = 5 * time.Second

// waitDOM waits until the navigation after m has its DOM (DOMContentLoaded
// of loader's document when it is known, with the engine's world up), or
// stopped loading without a new document (a 204, a download), or a dialog
// opened; it fails when that takes longer than the navigation timeout.
// Then it waits for the document's load event, up to loadGrace, and never
// fails on that.
func (p *Page) waitDOM(ctx context.Context, m mark, loader cdp.LoaderID) error {
	cctx, cancel := p.callCtx(ctx, p.m.opts.NavigationTimeout)
	err := p.waitFor(cctx, func() bool {
		_, ok := p.worlds[p.frame]
		dom := p.load.dcls > m.dcl && (loader == "" || p.load.dclLoader == loader)
		return (dom || p.load.stops > m.stop) && ok || p.modal.dialog != nil
	})
	cancel()
	if err != nil {
		return err
	}
	gctx, gcancel := p.callCtx(ctx, min(loadGrace, p.m.opts.NavigationTimeout))
	defer gcancel()
	_ = p.waitFor(gctx, func() bool {
		loaded := p.load.loads > m.load && (loader == "" || p.load.loadLoader == loader)
		return loaded || p.load.stops > m.stop || p.modal.dialog != nil
	})
	return nil
}

// act runs the input step of an action (mouse or key events, a file
// choice). A JavaScript dialog that the input opens blocks the page, and the
// input call with it, until it is answered: act then returns at once, and
// the response reports the open dialog.
func (p *Page) act(ctx context.Context, fn func(ctx context.Context) error) error {
	err := p.unlessDialog(ctx, fn, true)
	if err != nil && p.closedItself() {
		// The input closed the tab (window.close in a handler): the
		// command's answer is lost with the tab, but the action happened;
		// the response shows the tab that is current now.
		return nil
	}
	return err
}

// closedItself reports whether the tab went away by itself: detached,
// while the browser (and the tab's renderer) live on.
func (p *Page) closedItself() bool {
	return p.Gone() && !p.Crashed() && p.ctx.Err() == nil && (p.tabs == nil || !p.tabs.Gone())
}

// unlessDialog runs fn until it returns or a JavaScript dialog opens in the
// page, which blocks fn's commands until it is answered. Then fn's context
// ends (its late answer is dropped) and unlessDialog returns nil when the
// dialog is an outcome (an action opened it), else a dialog_open error.
func (p *Page) unlessDialog(ctx context.Context, fn func(ctx context.Context) error, outcome bool) error {
	p.mu.Lock()
	d, ch := p.modal.dialog, p.changed
	p.mu.Unlock()
	if d != nil {
		return dialogError(d)
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- fn(cctx) }()
	for {
		select {
		case err := <-done:
			return err
		case <-ch:
			p.mu.Lock()
			d, ch = p.modal.dialog, p.changed
			p.mu.Unlock()
			if d != nil {
				if outcome {
					return nil
				}
				return dialogError(d)
			}
		}
	}
}

// LastTypeWasSecret reports whether the last Type filled a password field:
// what was typed must not be written out (flows record an environment
// reference instead).
func (p *Page) LastTypeWasSecret() bool { return p.lastSecret }

// StableLocator returns the most robust selector that finds the element of
// a ref and nothing else (role and name, label, test id, text), or ""
// when none is unique; for an element of an iframe, its frame's locator
// comes first (`iframe[title="Pay"] >> role=button[name="Pay"]`). Flows
// record it instead of the ref.
func (p *Page) StableLocator(ctx context.Context, ref string) string {
	return p.StepTargets(ctx, StepQuery{Refs: []string{ref}}).Locators[ref]
}
