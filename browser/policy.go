package browser

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/e2e-mcp/e2e-mcp/netpolicy"
	"go.uber.org/zap"
)

// The request policy's CDP side: the DevTools Fetch domain pauses the
// requests of each session's pages (and, at the browser level, the first
// document of popups), and netpolicy decides each. What Fetch cannot see
// (workers' own requests, WebSockets, prefetches) the session's proxy
// holds to the same rules (proxy.go).

// defaultPolicy is the policy of a Manager configured with none.
var defaultPolicy, _ = netpolicy.New(netpolicy.Config{})

// BlockedRequest is a request the policy refused.
type BlockedRequest struct {
	URL  string `json:"url"`
	Rule string `json:"rule"`
	// Type is what the request was for: Document, Fetch, Image, Script...
	Type string `json:"type,omitempty"`
}

// maxBlocked bounds the blocked requests a page keeps between two looks;
// maxGuardWorkers the goroutines a page (or the browser) decides with.
const (
	maxBlocked      = 50
	maxGuardWorkers = 4
)

// policy is the Manager's request policy (never nil).
func (m *Manager) policy() *netpolicy.Policy {
	if m.opts.Policy != nil {
		return m.opts.Policy
	}
	return defaultPolicy
}

// pausedReq is a request Chrome paused for a decision, and the session
// (nil: the browser's) that must answer it.
type pausedReq struct {
	h *host
	e *fetch.EventRequestPaused
}

// guardQueue hands paused requests from chromedp's read loop (where no
// command may run) to at most maxGuardWorkers goroutines. Pushing never
// blocks; the queue holds at most what Chrome has paused.
type guardQueue struct {
	mu      sync.Mutex
	queue   []pausedReq
	workers int
	decide  func(pausedReq)
}

func (q *guardQueue) push(r pausedReq) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.queue = append(q.queue, r)
	if q.workers < maxGuardWorkers {
		q.workers++
		go q.run()
	}
}

func (q *guardQueue) run() {
	for {
		q.mu.Lock()
		if len(q.queue) == 0 {
			q.workers--
			q.mu.Unlock()
			return
		}
		r := q.queue[0]
		q.queue[0] = pausedReq{}
		q.queue = q.queue[1:]
		q.mu.Unlock()
		q.decide(r)
	}
}

// blockLog is a bounded list of blocked requests.
type blockLog struct {
	mu   sync.Mutex
	list []BlockedRequest
}

func (l *blockLog) add(b BlockedRequest) {
	b.URL, b.Rule = keepURL(b.URL), keep(b.Rule, maxURLKept)
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.list) >= maxBlocked {
		l.list = append(l.list[:0], l.list[1:]...)
	}
	l.list = append(l.list, b)
}

func (l *blockLog) take() []BlockedRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.list
	l.list = nil
	return out
}

// pageGuard enforces the policy on the requests of one tab and its
// out-of-process iframes (each session with Fetch enabled).
type pageGuard struct {
	p       *Page
	q       guardQueue
	blocked blockLog
	// blank: documents load empty and nothing else loads (a scratch tab
	// reading or writing an origin's storage, storage.go).
	blank atomic.Bool
	// lastDoc is the last document request blocked, for Navigate's error.
	mu      sync.Mutex
	lastDoc *BlockedRequest
	// authTried are the requests answered with credentials once.
	authTried map[fetch.RequestID]bool
	// take: the tab fetches a remote browser's download again, and its
	// documents' responses are paused for their bodies (remotedownload.go).
	take atomic.Pointer[bodyTake]
}

// newPageGuard is the guard of a page: the request policy's checks and the
// session's routes (route.go).
func newPageGuard(p *Page) *pageGuard {
	g := &pageGuard{p: p}
	g.q.decide = g.decide
	return g
}

// enableGuard turns request interception on in a session of the page (the
// tab's own or an out-of-process iframe's) when the policy or the
// session's routes need it.
func (p *Page) enableGuard(ctx context.Context, h *host) error {
	if p.guard == nil || !p.intercepting() {
		return nil
	}
	patterns := []*fetch.RequestPattern{{URLPattern: "*", RequestStage: fetch.RequestStageRequest}}
	if p.guard.take.Load() != nil {
		patterns = append(patterns, &fetch.RequestPattern{URLPattern: "*", ResourceType: network.ResourceTypeDocument, RequestStage: fetch.RequestStageResponse})
	}
	_, err := callOn(ctx, h, fetch.Enable, fetch.EnableParams{Patterns: patterns, HandleAuthRequests: new(p.httpUser() != "")})
	if err != nil {
		return fmt.Errorf("enable request interception: %w", err)
	}
	h.guarded.Store(true)
	return nil
}

// httpUser is the user the session answers HTTP authentication as, or "".
func (p *Page) httpUser() string {
	if p.tabs == nil {
		return ""
	}
	return p.tabs.setupOf().emulation.HTTPUser
}

// intercepting says whether the page's requests must be paused: for the
// request policy, or for the session's routes.
func (p *Page) intercepting() bool {
	return p.m.policy().Intercepts() || (p.tabs != nil && p.tabs.routes.any()) ||
		(p.guard != nil && (p.guard.blank.Load() || p.guard.take.Load() != nil)) || p.httpUser() != ""
}

// onEvent takes the policy's events of a session. It runs on chromedp's
// read loop: paused requests are queued for the workers; it reports whether
// ev was consumed.
func (g *pageGuard) onEvent(h *host, ev any) bool {
	switch e := ev.(type) {
	case *fetch.EventRequestPaused:
		if pausedAtResponse(e) {
			go g.atResponse(h, e) // it may read a body for minutes
			return true
		}
		g.q.push(pausedReq{h: h, e: e})
		return true
	case *fetch.EventAuthRequired:
		go g.answerAuth(h, e)
		return true
	case *network.EventResponseReceived:
		// DNS rebinding: the address Chrome really connected to.
		if r := e.Response; r != nil && r.RemoteIPAddress != "" && g.p.m.policy().Intercepts() {
			if v := g.p.m.policy().CheckConnected(r.URL, g.p.tabs.devOrigins(), r.RemoteIPAddress); v.Blocked {
				g.record(BlockedRequest{URL: r.URL, Rule: v.Rule, Type: string(e.Type)})
			}
		}
	}
	return false
}

func (g *pageGuard) record(b BlockedRequest) {
	b.URL = keepURL(b.URL)
	g.blocked.add(b)
	if b.Type == string(network.ResourceTypeDocument) {
		g.mu.Lock()
		g.lastDoc = &b
		g.mu.Unlock()
	}
}

// decide answers one paused request: fail it as blocked by the client and
// record why, or hand it to the session's routes.
func (g *pageGuard) decide(r pausedReq) {
	p := g.p
	ctx, cancel := context.WithTimeout(r.h.ctx, netpolicy.DNSTimeout+p.m.opts.ActionTimeout)
	defer cancel()
	u := r.e.Request.URL
	var v netpolicy.Verdict
	if pol := p.m.policy(); pol.Intercepts() {
		v = pol.Check(ctx, u, p.tabs.devOrigins())
	}
	var err error
	if v.Blocked {
		g.record(BlockedRequest{URL: u, Rule: v.Rule, Type: string(r.e.ResourceType)})
		_, err = callOn(ctx, r.h, fetch.FailRequest, fetch.FailRequestParams{RequestID: r.e.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
	} else {
		err = g.routeRequest(ctx, r)
	}
	if err != nil && ctx.Err() == nil {
		p.log.Debug("answer a paused request", zap.String("url", u), zap.Error(err))
	}
}

// answerAuth answers an HTTP authentication challenge with the session's
// credentials, once per request, when the request and the challenger are
// of the origin they were given for: any other site's challenge (a link, a
// redirect, a proxy's) is cancelled, as is a second one for the same
// request (the credentials were refused), so the page gets the 401.
func (g *pageGuard) answerAuth(h *host, e *fetch.EventAuthRequired) {
	ctx, cancel := context.WithTimeout(h.ctx, g.p.m.opts.ActionTimeout)
	defer cancel()
	resp := &fetch.AuthChallengeResponse{Response: fetch.AuthChallengeResponseResponseCancelAuth}
	em := g.p.tabs.setupOf().emulation
	g.mu.Lock()
	if g.authTried == nil {
		g.authTried = map[fetch.RequestID]bool{}
	}
	first := !g.authTried[e.RequestID]
	g.authTried[e.RequestID] = true
	if len(g.authTried) > maxBlocked {
		clear(g.authTried)
	}
	g.mu.Unlock()
	if em.HTTPUser != "" && first && credentialsFor(em, e) {
		resp = &fetch.AuthChallengeResponse{Response: fetch.AuthChallengeResponseResponseProvideCredentials, Username: em.HTTPUser, Password: em.HTTPPassword}
	}
	if _, err := callOn(ctx, h, fetch.ContinueWithAuth, fetch.ContinueWithAuthParams{RequestID: e.RequestID, AuthChallengeResponse: resp}); err != nil && ctx.Err() == nil {
		g.p.log.Debug("answer an authentication challenge", zap.Error(err))
	}
}

// credentialsFor says whether the session's credentials answer a
// challenge: one a server (not a proxy) of their origin makes for a
// request to that origin.
func credentialsFor(e devices.Emulation, ev *fetch.EventAuthRequired) bool {
	c := ev.AuthChallenge
	if e.HTTPOrigin == "" || ev.Request == nil || c == nil || c.Source == fetch.AuthChallengeSourceProxy {
		return false
	}
	return devices.HTTPOrigin(ev.Request.URL) == e.HTTPOrigin && (c.Origin == "" || devices.HTTPOrigin(c.Origin) == e.HTTPOrigin)
}

// TakeBlocked returns the requests the policy blocked since the last call
// (this tab's, its iframes', and those of popups blocked before they were
// attached), oldest first, at most the last 50 of each.
func (p *Page) TakeBlocked() []BlockedRequest {
	var out []BlockedRequest
	if p.tabs != nil {
		out = p.tabs.guard.blocked.take()
	}
	if p.guard != nil {
		out = append(out, p.guard.blocked.take()...)
	}
	return out
}

// takeBlockedDoc returns (and forgets) the last document request the policy
// blocked in this tab.
func (p *Page) takeBlockedDoc() *BlockedRequest {
	if p.guard == nil {
		return nil
	}
	p.guard.mu.Lock()
	defer p.guard.mu.Unlock()
	b := p.guard.lastDoc
	p.guard.lastDoc = nil
	return b
}

// notAllowed is the error of a navigation the policy refuses.
func notAllowed(url, rule string) *Error {
	return &Error{Kind: KindNotAllowed, Message: fmt.Sprintf("%s is blocked by the request policy: %s", url, rule),
		Hint: "the server's --allowed-origins, --blocked-origins, --allow-file-urls (and over HTTP the private-network default) decide what pages may load: use an allowed URL, or ask the operator"}
}

// tabsGuard is what the policy keeps per browser context: the origins
// allowed at run time (the session's dev server), and requests of popups
// blocked before a Page was attached to them.
type tabsGuard struct {
	mu      sync.Mutex
	dev     []string
	blocked blockLog
	// browser is the browser-level guard (nil when the policy intercepts
	// nothing), which keeps the blocks it could not place yet.
	browser *browserGuard
	// proxy is the forward proxy every connection of the context goes
	// through (nil when the policy intercepts nothing, or the browser is
	// remote and could not reach it).
	proxy *netpolicy.Proxy
}

// proxyParams starts the context's proxy when the policy has rules and the
// browser is ours, and returns the parameters that create the context with
// it. "<-loopback>" drops Chrome's implicit bypass rules, which cover not
// only loopback but link-local addresses too (169.254.169.254, the cloud
// metadata service, would go direct); loopback is then bypassed explicitly
// when no rule could refuse any of it, which spares a dev server on
// loopback a hop. A remote
// browser (--cdp-endpoint) cannot reach a proxy on our loopback: its
// contexts keep the Fetch domain's checks only.
func (t *Tabs) proxyParams() (target.CreateBrowserContextParams, error) {
	var params target.CreateBrowserContextParams
	pol := t.m.policy()
	up := pol.Upstream()
	if t.remote != nil || (!pol.Intercepts() && (up == nil || up.URL.Scheme == "socks5")) {
		// A remote browser reaches the upstream proxy itself, and so does
		// ours when nothing is checked and the proxy takes no credentials
		// from us (SOCKS: netpolicy refuses it under a policy).
		if up != nil {
			params.ProxyServer, params.ProxyBypassList = up.ChromeProxy()
		}
		return params, nil
	}
	px, err := pol.NewProxy(t.devOrigins, func(u, rule string) {
		t.guard.blocked.add(BlockedRequest{URL: u, Rule: rule, Type: "Connection"})
	})
	if err != nil {
		return params, err
	}
	t.guard.proxy = px
	params.ProxyServer, params.ProxyBypassList = px.URL(), "<-loopback>"
	if pol.AllowsAllLoopback() {
		params.ProxyBypassList += ";localhost;*.localhost;127.0.0.0/8;[::1]"
	}
	return params, nil
}

// AllowOrigin allows the origin of rawURL (the session's dev server) for
// this browser context's pages, whatever the allowlist and the private
// network default say; a blocked-origins rule still wins.
func (t *Tabs) AllowOrigin(rawURL string) error {
	o, ok := netpolicy.OriginOf(rawURL)
	if !ok {
		return fmt.Errorf("allow origin: %q is not an http(s) URL", rawURL)
	}
	t.guard.mu.Lock()
	defer t.guard.mu.Unlock()
	for _, d := range t.guard.dev {
		if d == o {
			return nil
		}
	}
	t.guard.dev = append(t.guard.dev, o)
	return nil
}

func (t *Tabs) devOrigins() []string {
	t.guard.mu.Lock()
	defer t.guard.mu.Unlock()
	return t.guard.dev
}

// browserGuard enforces the policy on document requests at the browser
// level, for the tabs that pages open (window.open, target=_blank): their
// first navigation starts before a session of ours is attached to them.
// Each request goes by its frame to the browser context it belongs to.
type browserGuard struct {
	m    *Manager
	bctx context.Context
	q    guardQueue
	once sync.Once
	err  error

	// What the browser-level interception covers (earlyroute.go): nothing,
	// documents (the policy), or every request while a session has routes
	// or is offline (wide), for the frames no session of ours intercepts
	// yet.
	modeMu sync.Mutex
	mode   fetchMode
	wide   map[*Tabs]bool
	// iframes are the out-of-process iframe targets the browser announced.
	iframesMu sync.Mutex
	iframes   map[target.ID]bool

	// unplaced are blocks in frames no browser context knew yet: a popup's
	// first request can be paused before its target is announced. The
	// context that learns the target takes them (claim).
	unplacedMu sync.Mutex
	unplaced   []unplacedBlock
}

// unplacedBlock is a blocked request waiting for its browser context.
type unplacedBlock struct {
	frame cdp.FrameID
	b     BlockedRequest
}

// maxUnplaced bounds the blocks kept for contexts that never claim them.
const maxUnplaced = 64

// place records b for the browser context of frame, or keeps it until that
// context learns the frame's target (claim). No lock is held while looking
// for the owner: after keeping b, place looks again, so an owner that
// appeared in between takes it here, and one that appears later takes it
// from claim (which runs after the context knows the target).
func (g *browserGuard) place(frame cdp.FrameID, b BlockedRequest) {
	if t, ok := g.m.ownerOf(frame); ok {
		t.guard.blocked.add(b)
		return
	}
	b.URL = keepURL(b.URL)
	g.unplacedMu.Lock()
	if len(g.unplaced) == maxUnplaced {
		g.unplaced = g.unplaced[1:]
	}
	g.unplaced = append(g.unplaced, unplacedBlock{frame: frame, b: b})
	g.unplacedMu.Unlock()
	if t, ok := g.m.ownerOf(frame); ok {
		g.claim(t, target.ID(frame))
	}
}

// claim gives t the blocks kept for its new target id.
func (g *browserGuard) claim(t *Tabs, id target.ID) {
	g.unplacedMu.Lock()
	defer g.unplacedMu.Unlock()
	kept := g.unplaced[:0]
	for _, u := range g.unplaced {
		if u.frame == cdp.FrameID(id) {
			t.guard.blocked.add(u.b)
			continue
		}
		kept = append(kept, u)
	}
	g.unplaced = kept
}

// guardBrowser returns the browser-level guard of a browser, made once:
// it listens to the browser at once, and pauses document requests for the
// policy when the policy has rules (more when a session needs it:
// setWide).
func (m *Manager) guardBrowser(ctx, bctx context.Context) (*browserGuard, error) {
	m.mu.Lock()
	if m.guards == nil {
		m.guards = map[context.Context]*browserGuard{}
	}
	for c := range m.guards {
		if c.Err() != nil {
			delete(m.guards, c) // a browser that is gone
		}
	}
	g := m.guards[bctx]
	if g == nil {
		g = &browserGuard{m: m, bctx: bctx, wide: map[*Tabs]bool{}, iframes: map[target.ID]bool{}}
		g.q.decide = g.decide
		m.guards[bctx] = g
	}
	m.mu.Unlock()
	g.once.Do(func() {
		if g.err = chromedp.ListenBrowser(bctx, g.onEvent); g.err != nil {
			return
		}
		g.err = g.refresh(ctx)
	})
	if g.err != nil {
		m.mu.Lock()
		if m.guards[bctx] == g {
			delete(m.guards, bctx) // the next browser context tries again
		}
		m.mu.Unlock()
		return nil, fmt.Errorf("enable the request policy: %w", g.err)
	}
	return g, nil
}

func (g *browserGuard) onEvent(ev any) {
	switch e := ev.(type) {
	case *fetch.EventRequestPaused:
		g.q.push(pausedReq{e: e})
	case *target.EventTargetCreated:
		g.noteTarget(e.TargetInfo, true)
	case *target.EventTargetDestroyed:
		g.noteTarget(&target.Info{TargetID: e.TargetID, Type: "iframe"}, false)
	}
}

// ownerOf finds the browser context a frame is in: a page target of it
// (a tab or a popup), or a frame one of its tabs knows. ok is false when
// none does.
func (m *Manager) ownerOf(frame cdp.FrameID) (*Tabs, bool) {
	m.mu.Lock()
	pages := make([]*Page, 0, len(m.pages))
	for p := range m.pages {
		pages = append(pages, p)
	}
	m.mu.Unlock()
	for _, p := range pages {
		t := p.tabs
		if t == nil {
			continue
		}
		t.mu.Lock()
		_, isTab := t.infos[target.ID(frame)]
		t.mu.Unlock()
		if isTab {
			return t, true
		}
		p.mu.Lock()
		_, known := p.frames.parent[frame]
		p.mu.Unlock()
		if known || p.frame == frame {
			return t, true
		}
	}
	return nil, false
}

// decide answers a request paused at the browser level: a document the
// policy refuses is failed (and recorded for its session); a request of a
// frame no session of ours intercepts yet, while its session has routes or
// is offline, goes to that session (routeEarly); the rest go on.
func (g *browserGuard) decide(r pausedReq) {
	m := g.m
	ctx, cancel := context.WithTimeout(g.bctx, netpolicy.DNSTimeout+m.opts.ActionTimeout)
	defer cancel()
	t, ok := m.ownerOf(r.e.FrameID)
	u := r.e.Request.URL
	var err error
	switch {
	case r.e.ResourceType == network.ResourceTypeDocument && m.policy().Intercepts() && g.blocks(ctx, r, t, ok):
		_, err = chromedp.CallBrowser(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: r.e.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
	case ok && g.isWide(t) && !m.intercepted(r.e.FrameID, g):
		err = g.routeEarly(ctx, t, r)
	default:
		_, err = chromedp.CallBrowser(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: r.e.RequestID})
	}
	if err != nil && ctx.Err() == nil {
		m.log.Debug("answer a paused request", zap.String("url", u), zap.Error(err))
	}
}

// blocks checks a document request against the policy, and records it for
// its session (t, when ok) when it is refused.
func (g *browserGuard) blocks(ctx context.Context, r pausedReq, t *Tabs, ok bool) bool {
	m := g.m
	var dev []string
	if ok {
		dev = t.devOrigins()
	} else {
		// A frame no context knows yet: any session's dev server may be it.
		m.mu.Lock()
		for p := range m.pages {
			if p.tabs != nil {
				dev = append(dev, p.tabs.devOrigins()...)
			}
		}
		m.mu.Unlock()
	}
	u := r.e.Request.URL
	v := m.policy().Check(ctx, u, dev)
	if !v.Blocked {
		return false
	}
	b := BlockedRequest{URL: u, Rule: v.Rule, Type: string(r.e.ResourceType)}
	if ok {
		t.guard.blocked.add(b)
	} else {
		g.place(r.e.FrameID, b)
	}
	return true
}
