package netguard

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/cdpcall"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/netpolicy"
	"go.uber.org/zap"
)

// The request policy's CDP side: the DevTools Fetch domain pauses the
// requests of each session's pages (and, at the browser level, the first
// document of popups), and netpolicy decides each. What Fetch cannot see
// (workers' own requests, WebSockets, prefetches) the session's proxy
// holds to the same rules (netpolicy's proxy.go).

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

// maxURLKept bounds a URL kept, as browser/eventlog's bounds.go does.
const maxURLKept = 8 << 10

// keepURL is what a store keeps of a URL.
func keepURL(u string) string { return text.Keep(u, maxURLKept) }

// Session is one CDP session of a tab: the tab's own, or an out-of-process
// iframe's.
type Session interface {
	// CDP is the chromedp context bound to the session's target, read
	// when a command is sent on it.
	CDP() context.Context
}

// callOn runs a CDP command on a session, bounded by ctx (cdpcall.On).
func callOn[P, R any](ctx context.Context, s Session, cmd cdp.Command[P, R], params P) (R, error) {
	return cdpcall.On(ctx, s.CDP(), cmd, params)
}

// pausedReq is a request Chrome paused for a decision, and the session
// (nil: the browser's) that must answer it.
type pausedReq struct {
	h Session
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
	b.URL, b.Rule = keepURL(b.URL), text.Keep(b.Rule, maxURLKept)
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

// Tab is what a page guard needs of its tab (browser's Page).
type Tab interface {
	// Policy is the request policy (never nil).
	Policy() *netpolicy.Policy
	// DevOrigins are the origins the session allows at run time.
	DevOrigins() []string
	// Context is the guard's state of the tab's session; nil when the tab
	// has none.
	Context() *Context
	// MarkRouted notes that a route answered the request.
	MarkRouted(id network.RequestID, pattern string)
	// Credentials are the user and password the session answers HTTP
	// authentication with, and whether they answer this challenge.
	Credentials(e *fetch.EventAuthRequired) (user, password string, ok bool)
	// ActionTimeout bounds one answer to the browser.
	ActionTimeout() time.Duration
	// Log is the tab's logger.
	Log() *zap.Logger
}

// PageGuard enforces the policy on the requests of one tab and its
// out-of-process iframes (each session with Fetch enabled).
type PageGuard struct {
	tab     Tab
	q       guardQueue
	blocked blockLog
	// blank: documents load empty and nothing else loads (a scratch tab
	// reading or writing an origin's storage, browser's storage.go).
	blank atomic.Bool
	// lastDoc is the last document request blocked, for Navigate's error.
	mu      sync.Mutex
	lastDoc *BlockedRequest
	// authTried are the requests answered with credentials once.
	authTried map[fetch.RequestID]bool
	// take: the tab fetches a remote browser's download again, and its
	// documents' responses are paused for their bodies (body.go).
	take atomic.Pointer[bodyTake]
}

// NewPageGuard is the guard of a page: the request policy's checks and the
// session's routes (route.go).
func NewPageGuard(tab Tab) *PageGuard {
	g := &PageGuard{tab: tab}
	g.q.decide = g.decide
	return g
}

// SetBlank says whether documents load empty and nothing else loads.
func (g *PageGuard) SetBlank(on bool) { g.blank.Store(on) }

// Intercepts says whether the guard itself needs the tab's requests
// paused: blank, or taking a body.
func (g *PageGuard) Intercepts() bool { return g.blank.Load() || g.take.Load() != nil }

// Patterns are the Fetch patterns of the tab's sessions: every request,
// and documents' responses while a body is being taken.
func (g *PageGuard) Patterns() []*fetch.RequestPattern {
	patterns := []*fetch.RequestPattern{{URLPattern: "*", RequestStage: fetch.RequestStageRequest}}
	if g.take.Load() != nil {
		patterns = append(patterns, &fetch.RequestPattern{URLPattern: "*", ResourceType: network.ResourceTypeDocument, RequestStage: fetch.RequestStageResponse})
	}
	return patterns
}

// OnEvent takes the policy's events of a session. It runs on chromedp's
// read loop: paused requests are queued for the workers; it reports whether
// ev was consumed.
func (g *PageGuard) OnEvent(h Session, ev any) bool {
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
		if r := e.Response; r != nil && r.RemoteIPAddress != "" && g.tab.Policy().Intercepts() {
			if v := g.tab.Policy().CheckConnected(r.URL, g.tab.DevOrigins(), r.RemoteIPAddress); v.Blocked {
				g.record(BlockedRequest{URL: r.URL, Rule: v.Rule, Type: string(e.Type)})
			}
		}
	}
	return false
}

func (g *PageGuard) record(b BlockedRequest) {
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
func (g *PageGuard) decide(r pausedReq) {
	ctx, cancel := context.WithTimeout(r.h.CDP(), netpolicy.DNSTimeout+g.tab.ActionTimeout())
	defer cancel()
	u := r.e.Request.URL
	var v netpolicy.Verdict
	if pol := g.tab.Policy(); pol.Intercepts() {
		v = pol.Check(ctx, u, g.tab.DevOrigins())
	}
	var err error
	if v.Blocked {
		g.record(BlockedRequest{URL: u, Rule: v.Rule, Type: string(r.e.ResourceType)})
		_, err = callOn(ctx, r.h, fetch.FailRequest, fetch.FailRequestParams{RequestID: r.e.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
	} else {
		err = g.routeRequest(ctx, r)
	}
	if err != nil && ctx.Err() == nil {
		g.tab.Log().Debug("answer a paused request", zap.String("url", u), zap.Error(err))
	}
}

// answerAuth answers an HTTP authentication challenge with the session's
// credentials, once per request, when the request and the challenger are
// of the origin they were given for: any other site's challenge (a link, a
// redirect, a proxy's) is cancelled, as is a second one for the same
// request (the credentials were refused), so the page gets the 401.
func (g *PageGuard) answerAuth(h Session, e *fetch.EventAuthRequired) {
	ctx, cancel := context.WithTimeout(h.CDP(), g.tab.ActionTimeout())
	defer cancel()
	resp := &fetch.AuthChallengeResponse{Response: fetch.AuthChallengeResponseResponseCancelAuth}
	user, password, ok := g.tab.Credentials(e)
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
	if user != "" && first && ok {
		resp = &fetch.AuthChallengeResponse{Response: fetch.AuthChallengeResponseResponseProvideCredentials, Username: user, Password: password}
	}
	if _, err := callOn(ctx, h, fetch.ContinueWithAuth, fetch.ContinueWithAuthParams{RequestID: e.RequestID, AuthChallengeResponse: resp}); err != nil && ctx.Err() == nil {
		g.tab.Log().Debug("answer an authentication challenge", zap.Error(err))
	}
}

// TakeBlocked returns the requests the policy blocked in the tab since the
// last call, oldest first, at most the last 50.
func (g *PageGuard) TakeBlocked() []BlockedRequest { return g.blocked.take() }

// TakeBlockedDoc returns (and forgets) the last document request the
// policy blocked in this tab.
func (g *PageGuard) TakeBlockedDoc() *BlockedRequest {
	g.mu.Lock()
	defer g.mu.Unlock()
	b := g.lastDoc
	g.lastDoc = nil
	return b
}

// Context is what the policy keeps per browser context: the origins
// allowed at run time (the session's dev server), requests of popups
// blocked before a Page was attached to them, and the session's routes.
type Context struct {
	mu      sync.Mutex
	dev     []string
	blocked blockLog
	// browser is the browser-level guard (nil when the policy intercepts
	// nothing), which keeps the blocks it could not place yet.
	browser *Browser
	// offline reports whether the session's network state is offline.
	offline func() bool
	// proxy is the forward proxy every connection of the context goes
	// through (nil when the policy intercepts nothing, or the browser is
	// remote and could not reach it).
	proxy *netpolicy.Proxy
	// routes are the session's routes (route.go).
	routes routeTable
}

// Attach gives the context the browser-level guard of its browser, and
// how it tells whether the session is offline.
func (c *Context) Attach(b *Browser, offline func() bool) {
	c.browser, c.offline = b, offline
}

// Attached reports whether the context has a browser-level guard.
func (c *Context) Attached() bool { return c.browser != nil }

// Claim takes the blocks the browser-level guard kept for the context's
// new target id.
func (c *Context) Claim(id target.ID) {
	if c.browser != nil {
		c.browser.claim(c, id)
	}
}

// Block records a request the policy refused for the session.
func (c *Context) Block(b BlockedRequest) { c.blocked.add(b) }

// TakeBlocked returns (and forgets) the requests blocked for the session
// outside its tabs' guards, oldest first.
func (c *Context) TakeBlocked() []BlockedRequest { return c.blocked.take() }

// ProxyParams starts the context's proxy when the policy has rules and the
// browser is ours, and returns the parameters that create the context with
// it. "<-loopback>" drops Chrome's implicit bypass rules, which cover not
// only loopback but link-local addresses too (169.254.169.254, the cloud
// metadata service, would go direct); loopback is then bypassed explicitly
// when no rule could refuse any of it, which spares a dev server on
// loopback a hop. A remote
// browser (--cdp-endpoint) cannot reach a proxy on our loopback: its
// contexts keep the Fetch domain's checks only.
func (c *Context) ProxyParams(pol *netpolicy.Policy, remote bool) (target.CreateBrowserContextParams, error) {
	var params target.CreateBrowserContextParams
	up := pol.Upstream()
	if remote || (!pol.Intercepts() && (up == nil || up.URL.Scheme == "socks5")) {
		// A remote browser reaches the upstream proxy itself, and so does
		// ours when nothing is checked and the proxy takes no credentials
		// from us (SOCKS: netpolicy refuses it under a policy).
		if up != nil {
			params.ProxyServer, params.ProxyBypassList = up.ChromeProxy()
		}
		return params, nil
	}
	px, err := pol.NewProxy(c.DevOrigins, func(u, rule string) {
		c.blocked.add(BlockedRequest{URL: u, Rule: rule, Type: "Connection"})
	})
	if err != nil {
		return params, err
	}
	c.proxy = px
	params.ProxyServer, params.ProxyBypassList = px.URL(), "<-loopback>"
	if pol.AllowsAllLoopback() {
		params.ProxyBypassList += ";localhost;*.localhost;127.0.0.0/8;[::1]"
	}
	return params, nil
}

// CloseProxy stops the context's proxy, if it has one.
func (c *Context) CloseProxy() {
	if c.proxy != nil {
		_ = c.proxy.Close()
	}
}

// AllowOrigin allows the origin of rawURL (the session's dev server) for
// this browser context's pages, whatever the allowlist and the private
// network default say; a blocked-origins rule still wins.
func (c *Context) AllowOrigin(rawURL string) error {
	o, ok := netpolicy.OriginOf(rawURL)
	if !ok {
		return fmt.Errorf("allow origin: %q is not an http(s) URL", rawURL)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, d := range c.dev {
		if d == o {
			return nil
		}
	}
	c.dev = append(c.dev, o)
	return nil
}

// DevOrigins are the origins allowed at run time.
func (c *Context) DevOrigins() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dev
}

// Engine is what the browser-level guard needs of the engine (browser's
// Manager): the policy, and its pages (which session a frame belongs to).
type Engine interface {
	// Policy is the request policy (never nil).
	Policy() *netpolicy.Policy
	// ActionTimeout bounds one answer to the browser.
	ActionTimeout() time.Duration
	// Log is the server's logger.
	Log() *zap.Logger
	// Pages are the browser's attached pages, every session's: which
	// browser context a frame is in, and whether a session of ours pauses
	// its requests, are asked of them.
	Pages() []Page
	// DevOrigins are every session's dev-server origins.
	DevOrigins() []string
}

// Browser enforces the policy on document requests at the browser
// level, for the tabs that pages open (window.open, target=_blank): their
// first navigation starts before a session of ours is attached to them.
// Each request goes by its frame to the browser context it belongs to.
type Browser struct {
	engine Engine
	bctx   context.Context
	q      guardQueue
	once   sync.Once
	err    error

	// What the browser-level interception covers (earlyroute.go): nothing,
	// documents (the policy), or every request while a session has routes
	// or is offline (wide), for the frames no session of ours intercepts
	// yet.
	modeMu sync.Mutex
	mode   fetchMode
	wide   map[*Context]bool
	// iframes are the out-of-process iframe targets the browser announced.
	iframesMu sync.Mutex
	iframes   map[target.ID]bool

	// unplaced are blocks in frames no browser context knew yet: a popup's
	// first request can be paused before its target is announced. The
	// context that learns the target takes them (claim).
	unplacedMu sync.Mutex
	unplaced   []unplacedBlock
}

// NewBrowser is the browser-level guard of the browser bctx is bound to;
// Start starts it.
func NewBrowser(e Engine, bctx context.Context) *Browser {
	g := &Browser{engine: e, bctx: bctx, wide: map[*Context]bool{}, iframes: map[target.ID]bool{}}
	g.q.decide = g.decide
	return g
}

// Browsers are the browser-level guards of the engine's browsers, one a
// browser, each made as the first session of its browser needs it.
type Browsers struct {
	mu sync.Mutex
	m  map[context.Context]*Browser
}

// Guard returns the guard of the browser bctx is bound to, made once and
// started: it listens to the browser at once, and pauses document
// requests for the policy when the policy has rules (more when a session
// needs it: [Context.SetWide]). One that fails to start is forgotten.
func (bs *Browsers) Guard(ctx, bctx context.Context, e Engine) (*Browser, error) {
	bs.mu.Lock()
	if bs.m == nil {
		bs.m = map[context.Context]*Browser{}
	}
	for c := range bs.m {
		if c.Err() != nil {
			delete(bs.m, c) // a browser that is gone
		}
	}
	g := bs.m[bctx]
	if g == nil {
		g = NewBrowser(e, bctx)
		bs.m[bctx] = g
	}
	bs.mu.Unlock()
	if err := g.Start(ctx); err != nil {
		bs.mu.Lock()
		if bs.m[bctx] == g {
			delete(bs.m, bctx) // the next browser context tries again
		}
		bs.mu.Unlock()
		return nil, fmt.Errorf("enable the request policy: %w", err)
	}
	return g, nil
}

// Start listens to the browser and pauses document requests for the
// policy when the policy has rules (more when a session needs it:
// SetWide), once; later calls return the first one's error.
func (g *Browser) Start(ctx context.Context) error {
	g.once.Do(func() {
		if g.err = chromedp.ListenBrowser(g.bctx, g.onEvent); g.err != nil {
			return
		}
		g.err = g.refresh(ctx)
	})
	return g.err
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
func (g *Browser) place(frame cdp.FrameID, b BlockedRequest) {
	if c, ok := ownerOf(g.engine.Pages(), frame); ok {
		c.blocked.add(b)
		return
	}
	b.URL = keepURL(b.URL)
	g.unplacedMu.Lock()
	if len(g.unplaced) == maxUnplaced {
		g.unplaced = g.unplaced[1:]
	}
	g.unplaced = append(g.unplaced, unplacedBlock{frame: frame, b: b})
	g.unplacedMu.Unlock()
	if c, ok := ownerOf(g.engine.Pages(), frame); ok {
		g.claim(c, target.ID(frame))
	}
}

// claim gives c the blocks kept for its new target id.
func (g *Browser) claim(c *Context, id target.ID) {
	g.unplacedMu.Lock()
	defer g.unplacedMu.Unlock()
	kept := g.unplaced[:0]
	for _, u := range g.unplaced {
		if u.frame == cdp.FrameID(id) {
			c.blocked.add(u.b)
			continue
		}
		kept = append(kept, u)
	}
	g.unplaced = kept
}

func (g *Browser) onEvent(ev any) {
	switch e := ev.(type) {
	case *fetch.EventRequestPaused:
		g.q.push(pausedReq{e: e})
	case *target.EventTargetCreated:
		g.noteTarget(e.TargetInfo, true)
	case *target.EventTargetDestroyed:
		g.noteTarget(&target.Info{TargetID: e.TargetID, Type: "iframe"}, false)
	}
}

// decide answers a request paused at the browser level: a document the
// policy refuses is failed (and recorded for its session); a request of a
// frame no session of ours intercepts yet, while its session has routes or
// is offline, goes to that session (routeEarly); the rest go on.
func (g *Browser) decide(r pausedReq) {
	m := g.engine
	ctx, cancel := context.WithTimeout(g.bctx, netpolicy.DNSTimeout+m.ActionTimeout())
	defer cancel()
	c, ok := ownerOf(m.Pages(), r.e.FrameID)
	u := r.e.Request.URL
	var err error
	switch {
	case r.e.ResourceType == network.ResourceTypeDocument && m.Policy().Intercepts() && g.blocks(ctx, r, c, ok):
		_, err = chromedp.CallBrowser(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: r.e.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
	case ok && g.isWide(c) && !intercepted(m.Pages(), r.e.FrameID, g.isIframe):
		err = g.routeEarly(ctx, c, r)
	default:
		_, err = chromedp.CallBrowser(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: r.e.RequestID})
	}
	if err != nil && ctx.Err() == nil {
		m.Log().Debug("answer a paused request", zap.String("url", u), zap.Error(err))
	}
}

// blocks checks a document request against the policy, and records it for
// its session (c, when ok) when it is refused.
func (g *Browser) blocks(ctx context.Context, r pausedReq, c *Context, ok bool) bool {
	m := g.engine
	var dev []string
	if ok {
		dev = c.DevOrigins()
	} else {
		// A frame no context knows yet: any session's dev server may be it.
		dev = m.DevOrigins()
	}
	u := r.e.Request.URL
	v := m.Policy().Check(ctx, u, dev)
	if !v.Blocked {
		return false
	}
	b := BlockedRequest{URL: u, Rule: v.Rule, Type: string(r.e.ResourceType)}
	if ok {
		c.blocked.add(b)
	} else {
		g.place(r.e.FrameID, b)
	}
	return true
}
