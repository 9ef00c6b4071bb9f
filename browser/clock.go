package browser

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
)

// The fake clock: Playwright's clock for the pages of a session. Installed,
// it replaces Date, performance.now and the timer functions of each
// document's own world (pagejs/clock.js) with ones the agent drives:
// jump ahead, run for a while, pause at a time, fix Date. The server keeps
// the clock's state (its time at a real instant, paused or not) and hands
// it to every new document of the session through a script that runs
// before the page's own, so the time goes on across navigations and tabs.

//go:embed pagejs/clock.js
var pageJS embed.FS

// clockJS is the clock's source: a function of its starting state.
var clockJS = func() string {
	b, err := pageJS.ReadFile("pagejs/clock.js")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// ClockState is where a session's fake clock is.
type ClockState struct {
	// Now is the clock's time in ms since the epoch at the real instant
	// RealAt (ms since the epoch).
	Now    float64  `json:"now"`
	RealAt float64  `json:"realAt"`
	Paused bool     `json:"paused"`
	Fixed  *float64 `json:"fixed"`
}

// Time is the clock's time.
func (c ClockState) Time() time.Time { return time.UnixMilli(int64(c.Now)).UTC() }

// Clock actions, as Playwright's clock names them.
const (
	ClockInstall       = "install"
	ClockFastForward   = "fast_forward"
	ClockRunFor        = "run_for"
	ClockPauseAt       = "pause_at"
	ClockResume        = "resume"
	ClockSetFixedTime  = "set_fixed_time"
	ClockSetSystemTime = "set_system_time"
)

// ClockActions are the actions Tabs.Clock takes.
var ClockActions = []string{ClockInstall, ClockFastForward, ClockRunFor, ClockPauseAt, ClockResume, ClockSetFixedTime, ClockSetSystemTime}

// Clock drives the session's fake clock: install it at at (its time runs
// on from there), or fast_forward / run_for by d, pause_at at, resume,
// set_fixed_time at (Date only), set_system_time at (no timer fires). It
// acts in every tab of the session and returns the clock's state as the
// current tab sees it.
func (t *Tabs) Clock(ctx context.Context, current *Page, action string, at time.Time, d time.Duration) (ClockState, error) {
	installed := t.setupOf().clock != nil
	ms := float64(at.UnixMilli())
	var call string
	switch action {
	case ClockInstall:
		st := ClockState{Now: ms, RealAt: float64(time.Now().UnixMilli())}
		b, _ := json.Marshal(st)
		call = "(" + clockJS + ")(" + string(b) + ")"
	case ClockFastForward, ClockRunFor:
		if d <= 0 {
			return ClockState{}, newError(KindInvalidInput, "give a duration such as 1h, 90s or 500ms", "%s needs a positive duration", action)
		}
		fn := "fastForward"
		if action == ClockRunFor {
			fn = "runFor"
		}
		call = fmt.Sprintf("__e2eClock.%s(%d)", fn, d.Milliseconds())
	case ClockPauseAt:
		call = fmt.Sprintf("__e2eClock.pauseAt(%d)", at.UnixMilli())
	case ClockResume:
		call = "__e2eClock.resume()"
	case ClockSetFixedTime:
		call = fmt.Sprintf("__e2eClock.setFixedTime(%d)", at.UnixMilli())
	case ClockSetSystemTime:
		call = fmt.Sprintf("__e2eClock.setSystemTime(%d)", at.UnixMilli())
	default:
		return ClockState{}, newError(KindInvalidInput, "use one of "+text.JoinOr(ClockActions), "clock action %q", action)
	}
	if action != ClockInstall && !installed {
		return ClockState{}, newError(KindInvalidInput, "install the clock first (action install, with the time to start at)", "the clock is not installed")
	}
	for _, p := range t.livePages() {
		if _, err := p.Evaluate(ctx, "() => { "+call+"; return true; }", ""); err != nil {
			return ClockState{}, err
		}
	}
	var st ClockState
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
func (p *Page) clockOnNewDocuments(ctx context.Context, st ClockState) error {
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
	b, _ := json.Marshal(st)
	res, err := chromedp.Call(cctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: "(" + clockJS + ")(" + string(b) + ");"})
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
func (p *Page) installClock(ctx context.Context, st ClockState) error {
	if err := p.clockOnNewDocuments(ctx, st); err != nil {
		return err
	}
	b, _ := json.Marshal(st)
	_, err := p.Evaluate(ctx, "() => { ("+clockJS+")("+string(b)+"); return true; }", "")
	return err
}
