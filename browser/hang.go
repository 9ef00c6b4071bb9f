package browser

import (
	"context"
	"fmt"
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

// awaitingServer reports the URL of the tab's document request that is in
// flight with no response yet (a navigation waiting for its server), if
// one is.
func (p *Page) awaitingServer() (string, bool) {
	l, unlock := p.logs()
	defer unlock()
	for _, r := range l.OpenDocuments(string(p.frame)) {
		if r.Status == 0 && !r.Done {
			return r.URL, true
		}
	}
	return "", false
}

// serverWaitError is the timeout of what, when the tab's navigation is
// still waiting for its server's response (then the page answers, and it
// is not its main thread that is busy); nil otherwise.
func (p *Page) serverWaitError(what string, after time.Duration) *Error {
	url, ok := p.awaitingServer()
	if !ok {
		return nil
	}
	return &Error{Kind: KindTimeout,
		Message: fmt.Sprintf("%s timed out after %s: the navigation is waiting for the server's response (%s has not answered)", what, after, url),
		Hint:    "check that the server is up and answers that URL (see its log); the tab still shows the page before"}
}

// hungError is the timeout of a call on a page that no longer answers.
func (p *Page) hungError(what string) *Error {
	return &Error{Kind: KindTimeout,
		Message: what + " timed out: the page is not answering; its main thread is busy (a script that never yields, such as an endless loop)",
		Step:    StepLeaveHungPage}
}

// An input event is answered when the page's handlers have run. A handler
// may run long and still be working: one that opens two hundred popups
// took 7 s here, and the click had happened. So the dispatch of an input
// gets the action timeout, and more while the page shows it is busy
// (events keep coming: targets it opens, requests, console lines), up to
// the navigation timeout; a page that goes quiet for activeQuiet past the
// action timeout is not answering.

// activeQuiet is how long a page may stay silent once an input's action
// timeout has passed before the input is given up on.
const activeQuiet = time.Second

// touch notes that the page did something (an event of any of its
// sessions, or a target it opened).
func (p *Page) touch() { p.active.Store(time.Now().UnixNano()) }

// lastActive is when the page last did something.
func (p *Page) lastActive() time.Time {
	n := p.active.Load()
	if p.tabs != nil {
		n = max(n, p.tabs.active.Load())
	}
	return time.Unix(0, n)
}

// activeCtx is a context for dispatching input: it ends after base unless
// the page keeps showing activity, and at the navigation timeout (or base,
// if longer) at the latest. Its end counts as a deadline (context.Cause).
func (p *Page) activeCtx(ctx context.Context, base time.Duration) (context.Context, context.CancelFunc) {
	cctx, cancel := context.WithCancelCause(p.ctx)
	stop := context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
	limit := max(p.m.opts.NavigationTimeout, base)
	start := time.Now()
	go func() {
		t := time.NewTimer(base)
		defer t.Stop()
		for {
			select {
			case <-cctx.Done():
				return
			case <-t.C:
			}
			idle := time.Since(p.lastActive())
			if idle < activeQuiet && time.Since(start) < limit {
				t.Reset(activeQuiet - idle)
				continue
			}
			cancel(context.DeadlineExceeded)
			return
		}
	}()
	return cctx, func() { stop(); cancel(context.Canceled) }
}
