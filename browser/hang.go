package browser

import (
	"context"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"go.uber.org/zap"
)

// A page whose script never yields (while (true) {}) keeps its renderer's
// main thread busy: nothing we ask of the page answers, and a navigation
// away from it cannot start, because the old document's unload never runs.
// Runtime.terminateExecution is handled outside the main thread and stops
// the running script at once, after which the page answers again. So before
// leaving a page (navigate, reload, history, closing its tab) we check, in
// one cheap round trip, that it answers, and stop its script if it does
// not; and a call that times out says whether the page stopped answering.

// hangProbe bounds the wait for a page's answer to a trivial evaluation: a
// page busy for longer is treated as hung.
const hangProbe = time.Second

// answers reports whether the page's main thread answers in time. A page
// blocked by a JavaScript dialog is not hung (the dialog says why).
func (p *Page) answers() bool {
	if p.Dialog() != nil || p.ctx.Err() != nil {
		return true
	}
	ctx, cancel := context.WithTimeout(p.ctx, hangProbe)
	defer cancel()
	_, err := callOn(ctx, p.main, runtime.Evaluate, runtime.EvaluateParams{Expression: "0"})
	return err == nil || ctx.Err() == nil
}

// unstick stops the script that keeps the page from answering, if one does;
// it reports whether it had to.
func (p *Page) unstick() bool {
	if p.answers() {
		return false
	}
	ctx, cancel := context.WithTimeout(p.ctx, hangProbe)
	defer cancel()
	_, err := callOn(ctx, p.main, runtime.TerminateExecution, cdp.Empty{})
	p.log.Info("stopped a script that kept the page from answering", zap.String("url", p.LastInfo().URL), zap.Error(err))
	return true
}

// hungError is the timeout of a call on a page that no longer answers.
func (p *Page) hungError(what string) *Error {
	return &Error{Kind: KindTimeout,
		Message: what + " timed out: the page is not answering; its main thread is busy (a script that never yields, such as an endless loop)",
		Hint:    "browser_navigate or browser_reload stops the script and loads a page (cookies are kept); browser_tabs action=close closes the tab"}
}
