package browser

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
func (g *browserGuard) refresh(ctx context.Context) error {
	g.modeMu.Lock()
	defer g.modeMu.Unlock()
	want := fetchOff
	switch {
	case len(g.wide) > 0:
		want = fetchAll
	case g.m.policy().Intercepts():
		want = fetchDocuments
	}
	if want == g.mode {
		return nil
	}
	cctx, cancel := context.WithTimeout(g.bctx, g.m.opts.ActionTimeout)
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

// setWide says whether t needs the requests of its frames not attached yet
// (it has routes, or is offline), and changes the interception to suit.
func (g *browserGuard) setWide(ctx context.Context, t *Tabs, on bool) error {
	g.modeMu.Lock()
	if on {
		g.wide[t] = true
	} else {
		delete(g.wide, t)
	}
	g.modeMu.Unlock()
	return g.refresh(ctx)
}

// isWide reports whether the browser pauses every request for t.
func (g *browserGuard) isWide(t *Tabs) bool {
	g.modeMu.Lock()
	defer g.modeMu.Unlock()
	return g.mode == fetchAll && g.wide[t]
}

// noteTarget keeps the set of out-of-process iframes the browser announced.
func (g *browserGuard) noteTarget(info *target.Info, created bool) {
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

// isTarget reports whether a frame is a target of its own (a tab or popup,
// an out-of-process iframe), so that no session of a parent pauses its
// requests.
func (g *browserGuard) isTarget(id target.ID, pages []*Page) bool {
	g.iframesMu.Lock()
	iframe := g.iframes[id]
	g.iframesMu.Unlock()
	if iframe {
		return true
	}
	for _, p := range pages {
		if t := p.tabs; t != nil {
			t.mu.Lock()
			_, tab := t.infos[id]
			t.mu.Unlock()
			if tab {
				return true
			}
		}
	}
	return false
}

// maxFrameDepth bounds the walk up a frame's parents.
const maxFrameDepth = 32

// intercepted reports whether a session of ours pauses the frame's
// requests (the tab's, or an out-of-process iframe's, with Fetch on):
// then that session answers them. The frame's own target counts, else its
// parents' up to the first target. A frame nobody knows is left to
// whoever will.
func (m *Manager) intercepted(frame cdp.FrameID, g *browserGuard) bool {
	m.mu.Lock()
	pages := make([]*Page, 0, len(m.pages))
	for p := range m.pages {
		pages = append(pages, p)
	}
	m.mu.Unlock()
	f := frame
	for range maxFrameDepth {
		id := target.ID(f)
		for _, p := range pages {
			if h := p.hostOf(id); h != nil {
				return h.guarded.Load()
			}
		}
		if g.isTarget(id, pages) {
			return false // a popup or an iframe not attached yet
		}
		parent, ok := parentOf(pages, f)
		if !ok {
			return true
		}
		f = parent
	}
	return true
}

// hostOf is the page's session to a target: its tab's or an out-of-process
// iframe's, nil when it has none.
func (p *Page) hostOf(id target.ID) *host {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.main != nil && p.main.target == id {
		return p.main
	}
	return p.frames.hosts[id]
}

// parentOf finds the parent of a frame some page knows.
func parentOf(pages []*Page, f cdp.FrameID) (cdp.FrameID, bool) {
	for _, p := range pages {
		p.mu.Lock()
		parent, ok := p.frames.parent[f]
		p.mu.Unlock()
		if ok {
			return parent, true
		}
	}
	return "", false
}

// routeEarly answers for t a request of a frame none of its sessions
// pauses yet: as its routes say, else failed while t is offline (a route
// answers before the network, as in an attached tab).
func (g *browserGuard) routeEarly(ctx context.Context, t *Tabs, r pausedReq) error {
	id := r.e.RequestID
	rt := t.routes.take(r.e.Request.URL)
	switch {
	case rt == nil && t.offline():
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
		ctx, cancel := context.WithTimeout(g.bctx, g.m.opts.ActionTimeout)
		defer cancel()
		if err := answerRoute(ctx, r, rt); err != nil && ctx.Err() == nil {
			g.m.log.Debug("answer a delayed route", zap.String("url", r.e.Request.URL), zap.Error(err))
		}
	})
	return nil
}

// offline reports whether the session's network state is offline.
func (t *Tabs) offline() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.setup.netState == "offline"
}

// needWide tells the browser-level guard whether the session needs the
// requests of frames not attached yet.
func (t *Tabs) needWide(ctx context.Context) error {
	if t.guard.browser == nil {
		return nil
	}
	on := t.routes.any() || t.offline()
	t.mu.Lock()
	on = on && !t.closed
	t.mu.Unlock()
	return t.guard.browser.setWide(ctx, t, on)
}

// callPaused answers a paused request where it was paused: on a page's
// session, or on the browser's (h nil; ctx then from the browser's).
func callPaused[P, R any](ctx context.Context, r pausedReq, cmd cdp.Command[P, R], params P) (R, error) {
	if r.h == nil {
		return chromedp.CallBrowser(ctx, cmd, params)
	}
	return callOn(ctx, r.h, cmd, params)
}
