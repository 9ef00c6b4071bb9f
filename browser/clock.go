package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
)

// What browser does with the fake clock of browser/devices (devices.ClockState,
// the scripts of clock.js): each action run in every tab of the session, and
// the clock's state handed to every new document before the page's own
// scripts.

// Clock drives the session's fake clock: install it at at (its time runs
// on from there), or fast_forward / run_for by d, pause_at at, resume,
// set_fixed_time at (Date only), set_system_time at (no timer fires). It
// acts in every tab of the session and returns the clock's state as the
// current tab sees it.
func (t *Tabs) Clock(ctx context.Context, current *Page, action string, at time.Time, d time.Duration) (devices.ClockState, error) {
	installed := t.setupOf().clock != nil
	call, err := devices.ClockCall(action, at, d, installed, time.Now())
	if err != nil {
		return devices.ClockState{}, err
	}
	for _, p := range t.livePages() {
		if _, err := p.Evaluate(ctx, "() => { "+call+"; return true; }", ""); err != nil {
			return devices.ClockState{}, err
		}
	}
	var st devices.ClockState
	raw, err := current.Evaluate(ctx, "() => __e2eClock.state()", "")
	if err == nil {
		err = json.Unmarshal(raw, &st)
	}
	if err != nil {
		return st, fmt.Errorf("read the clock: %w", err)
	}
	t.changeSetup(func(s *pageSetup) { s.clock = &st })
	for _, p := range t.livePages() {
		if err := p.clockOnNewDocuments(ctx, st); err != nil {
			return st, err
		}
	}
	return st, nil
}

// clockOnNewDocuments makes the page's next documents start with the clock
// at st (replacing the script an earlier state left).
func (p *Page) clockOnNewDocuments(ctx context.Context, st devices.ClockState) error {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	p.mu.Lock()
	old := p.clockScript
	p.mu.Unlock()
	if old != "" {
		if _, err := chromedp.Call(cctx, page.RemoveScriptToEvaluateOnNewDocument, page.RemoveScriptToEvaluateOnNewDocumentParams{Identifier: old}); err != nil {
			return p.ctxError(cctx, err, "update the clock")
		}
	}
	res, err := chromedp.Call(cctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: devices.ClockScript(st) + ";"})
	if err != nil {
		return p.ctxError(cctx, err, "install the clock")
	}
	p.mu.Lock()
	p.clockScript = res.Identifier
	p.mu.Unlock()
	return nil
}

// installClock puts the session's clock into a tab attached after it was
// installed: its current document and its next ones.
func (p *Page) installClock(ctx context.Context, st devices.ClockState) error {
	if err := p.clockOnNewDocuments(ctx, st); err != nil {
		return err
	}
	_, err := p.Evaluate(ctx, "() => { "+devices.ClockScript(st)+"; return true; }", "")
	return err
}
