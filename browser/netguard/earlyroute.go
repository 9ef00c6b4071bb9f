package netguard

import (
	"context"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"go.uber.org/zap"
)

// Requests before we attach. A popup's first document, and what it and an
// out-of-process iframe load before our session to them has Fetch on, are
// made while no page guard of ours can pause them: a route would miss the
// popup's first API call. While a session has routes or is offline, the
// browser-level guard pauses every request of the browser, and answers
// those of frames no session of ours intercepts for the session they
// belong to; the rest go on at once, to be paused again by their page's
// guard. This costs every page of the browser a round trip a request, so
// it is on only while some session needs it.

// fetchMode is what the browser-level interception pauses.
type fetchMode int

const (
	fetchOff       fetchMode = iota
	fetchDocuments           // documents, for the request policy
	fetchAll                 // every request, for routes before attach
)

// refresh turns the browser-level interception to what the policy and the
// sessions need now.
func (g *Browser) refresh(ctx context.Context) error {
	g.modeMu.Lock()
	defer g.modeMu.Unlock()
	want := fetchOff
	switch {
	case len(g.wide) > 0:
		want = fetchAll
	case g.engine.Policy().Intercepts():
		want = fetchDocuments
	}
	if want == g.mode {
		return nil
	}
	cctx, cancel := context.WithTimeout(g.bctx, g.engine.ActionTimeout())
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	var err error
	switch want {
	case fetchOff:
		_, err = chromedp.CallBrowser(cctx, fetch.Disable, cdp.Empty{})
	case fetchDocuments:
		_, err = chromedp.CallBrowser(cctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{
			{URLPattern: "*", ResourceType: network.ResourceTypeDocument, RequestStage: fetch.RequestStageRequest}}})
	case fetchAll:
		_, err = chromedp.CallBrowser(cctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{
			{URLPattern: "*", RequestStage: fetch.RequestStageRequest}}})
	}
	if err != nil {
		return err
	}
	g.mode = want
	return nil
}

// setWide says whether c needs the requests of its frames not attached yet
// (it has routes, or is offline), and changes the interception to suit.
func (g *Browser) setWide(ctx context.Context, c *Context, on bool) error {
	g.modeMu.Lock()
	if on {
		g.wide[c] = true
	} else {
		delete(g.wide, c)
	}
	g.modeMu.Unlock()
	return g.refresh(ctx)
}

// isWide reports whether the browser pauses every request for c.
func (g *Browser) isWide(c *Context) bool {
	g.modeMu.Lock()
	defer g.modeMu.Unlock()
	return g.mode == fetchAll && g.wide[c]
}

// noteTarget keeps the set of out-of-process iframes the browser announced.
func (g *Browser) noteTarget(info *target.Info, created bool) {
	if info == nil || info.Type != "iframe" {
		return
	}
	g.iframesMu.Lock()
	defer g.iframesMu.Unlock()
	if created {
		g.iframes[info.TargetID] = true
	} else {
		delete(g.iframes, info.TargetID)
	}
}

// isIframe reports whether a target is an out-of-process iframe the
// browser announced.
func (g *Browser) isIframe(id target.ID) bool {
	g.iframesMu.Lock()
	defer g.iframesMu.Unlock()
	return g.iframes[id]
}

// routeEarly answers for c a request of a frame none of its sessions
// pauses yet: as its routes say, else failed while c is offline (a route
// answers before the network, as in an attached tab).
func (g *Browser) routeEarly(ctx context.Context, c *Context, r pausedReq) error {
	id := r.e.RequestID
	rt := c.routes.take(r.e.Request.URL)
	switch {
	case rt == nil && c.offline != nil && c.offline():
		_, err := chromedp.CallBrowser(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: id, ErrorReason: network.ErrorReasonInternetDisconnected})
		return err
	case rt == nil:
		_, err := chromedp.CallBrowser(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
		return err
	}
	if rt.Delay <= 0 {
		return answerRoute(ctx, r, rt)
	}
	time.AfterFunc(rt.Delay, func() {
		ctx, cancel := context.WithTimeout(g.bctx, g.engine.ActionTimeout())
		defer cancel()
		if err := answerRoute(ctx, r, rt); err != nil && ctx.Err() == nil {
			g.engine.Log().Debug("answer a delayed route", zap.String("url", r.e.Request.URL), zap.Error(err))
		}
	})
	return nil
}

// SetWide tells the browser-level guard whether the session needs the
// requests of frames not attached yet (it has routes, or is offline); a
// context without one needs nothing.
func (c *Context) SetWide(ctx context.Context, on bool) error {
	if c.browser == nil {
		return nil
	}
	return c.browser.setWide(ctx, c, on)
}

// callPaused answers a paused request where it was paused: on a page's
// session, or on the browser's (h nil; ctx then from the browser's).
func callPaused[P, R any](ctx context.Context, r pausedReq, cmd cdp.Command[P, R], params P) (R, error) {
	if r.h == nil {
		return chromedp.CallBrowser(ctx, cmd, params)
	}
	return callOn(ctx, r.h, cmd, params)
}
