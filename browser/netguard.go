package browser

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/target"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/e2e-mcp/e2e-mcp/browser/launcher"
	"github.com/e2e-mcp/e2e-mcp/browser/netguard"
	"github.com/e2e-mcp/e2e-mcp/browser/selector"
	"github.com/e2e-mcp/e2e-mcp/netpolicy"
	"go.uber.org/zap"
)

// The seam with browser/netguard, the request policy's CDP side and the
// session's routes: what a page guard needs of its Page, and what the
// guards and downloads ask of an attached page, which frames it holds
// (pageSide); what the browser-level guard needs of the Manager
// (managerSide), a tab's CDP sessions (host, as a netguard.Session), and
// the engine's calls into the guards (interception on or off in a tab's
// sessions, routes added and removed, the blocked requests taken); what a
// session's downloads need of its Tabs (tabsSide), and a hidden tab, in
// which a remote browser's download is fetched again and a request step
// made (hiddenSide).

// defaultPolicy is the policy of a Manager configured with none.
var defaultPolicy, _ = netpolicy.New(netpolicy.Config{})

// policy is the Manager's request policy (never nil).
func (m *Manager) policy() *netpolicy.Policy {
	if m.opts.Policy != nil {
		return m.opts.Policy
	}
	return defaultPolicy
}

// CDP is the chromedp context bound to the host's target.
func (h *host) CDP() context.Context { return h.ctx }

// pageSide is a Page as its guard sees it.
type pageSide struct{ p *Page }

func (s pageSide) Policy() *netpolicy.Policy    { return s.p.m.policy() }
func (s pageSide) DevOrigins() []string         { return s.p.tabs.devOrigins() }
func (s pageSide) ActionTimeout() time.Duration { return s.p.m.opts.ActionTimeout }
func (s pageSide) Log() *zap.Logger             { return s.p.log }
func (s pageSide) MarkRouted(id network.RequestID, pattern string) {
	s.p.markRouted(id, pattern)
}

func (s pageSide) Context() *netguard.Context {
	if s.p.tabs == nil {
		return nil
	}
	return &s.p.tabs.guard
}

func (s pageSide) Credentials(e *fetch.EventAuthRequired) (user, password string, ok bool) {
	em := s.p.tabs.setupOf().emulation
	return em.HTTPUser, em.HTTPPassword, em.HTTPUser != "" && credentialsFor(em, e)
}

func (s pageSide) IsTab(id target.ID) bool {
	t := s.p.tabs
	if t == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	_, tab := t.infos[id]
	return tab
}

func (s pageSide) Host(id target.ID) (guarded, ok bool) {
	if h := s.p.hostOf(id); h != nil {
		return h.guarded.Load(), true
	}
	return false, false
}

func (s pageSide) Parent(frame cdp.FrameID) (cdp.FrameID, bool) {
	p := s.p
	p.mu.Lock()
	defer p.mu.Unlock()
	parent, ok := p.frames.parent[frame]
	return parent, ok
}

// Frame is the tab's main frame; start sets it under p.mu while the
// browser's events about the tab may already come.
func (s pageSide) Frame() cdp.FrameID {
	s.p.mu.Lock()
	defer s.p.mu.Unlock()
	return s.p.frame
}
func (s pageSide) URL() string { return s.p.LastInfo().URL }

func (s pageSide) LastMethodOf(u string) string {
	l, unlock := s.p.logs()
	defer unlock()
	return l.LastMethodOf(u)
}

func (s pageSide) ReadBlob(ctx context.Context, frame cdp.FrameID, rawURL string, max int64, out any) error {
	return s.p.evalIn(ctx, frame, fnReadBlob.call(rawURL, max), out)
}

// hiddenSide is a hidden tab of the session (Tabs.hiddenTab) as netguard
// uses it: to fetch a remote browser's download again, to make a request
// step.
type hiddenSide struct{ p *Page }

func (s hiddenSide) Guard() *netguard.PageGuard            { return s.p.guard }
func (s hiddenSide) Session() netguard.Session             { return s.p.main }
func (s hiddenSide) EnableGuard(ctx context.Context) error { return s.p.enableGuard(ctx, s.p.main) }
func (s hiddenSide) Close()                                { s.p.Close() }

func (s hiddenSide) OpenBlank(ctx context.Context, origin string) error {
	return s.p.openBlank(ctx, origin)
}

func (s hiddenSide) Eval(ctx context.Context, expr string, out any) error {
	return s.p.evalEngine(ctx, expr, out)
}

// openHidden opens a hidden tab of the session for netguard.
func (t *Tabs) openHidden(ctx context.Context) (netguard.HiddenTab, error) {
	p, _, err := t.hiddenTab(ctx)
	if err != nil {
		return nil, err
	}
	return hiddenSide{p}, nil
}

// newPageGuard is the guard of a page: the request policy's checks and the
// session's routes.
func newPageGuard(p *Page) *netguard.PageGuard { return netguard.NewPageGuard(pageSide{p}) }

// enableGuard turns request interception on in a session of the page (the
// tab's own or an out-of-process iframe's) when the policy or the
// session's routes need it.
func (p *Page) enableGuard(ctx context.Context, h *host) error {
	if p.guard == nil || !p.intercepting() {
		return nil
	}
	_, err := callOn(ctx, h, fetch.Enable, fetch.EnableParams{Patterns: p.guard.Patterns(), HandleAuthRequests: new(p.httpUser() != "")})
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
	return p.m.policy().Intercepts() || (p.tabs != nil && p.tabs.guard.HasRoutes()) ||
		(p.guard != nil && p.guard.Intercepts()) || p.httpUser() != ""
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
func (p *Page) TakeBlocked() []netguard.BlockedRequest {
	var out []netguard.BlockedRequest
	if p.tabs != nil {
		out = p.tabs.guard.TakeBlocked()
	}
	if p.guard != nil {
		out = append(out, p.guard.TakeBlocked()...)
	}
	return out
}

// takeBlockedDoc returns (and forgets) the last document request the policy
// blocked in this tab.
func (p *Page) takeBlockedDoc() *netguard.BlockedRequest {
	if p.guard == nil {
		return nil
	}
	return p.guard.TakeBlockedDoc()
}

// notAllowed is the error of a navigation the policy refuses.
func notAllowed(url, rule string) *Error {
	return &Error{Kind: KindNotAllowed, Message: fmt.Sprintf("%s is blocked by the request policy: %s", url, rule),
		Hint: "the server's --allowed-origins, --blocked-origins, --allow-file-urls (and over HTTP the private-network default) decide what pages may load: use an allowed URL, or ask the operator"}
}

// proxyParams starts the context's proxy when the policy has rules and the
// browser is ours (netguard.Context.ProxyParams).
func (t *Tabs) proxyParams() (target.CreateBrowserContextParams, error) {
	return t.guard.ProxyParams(t.m.policy(), t.remote != nil)
}

// AllowOrigin allows the origin of rawURL (the session's dev server) for
// this browser context's pages, whatever the allowlist and the private
// network default say; a blocked-origins rule still wins.
func (t *Tabs) AllowOrigin(rawURL string) error { return t.guard.AllowOrigin(rawURL) }

func (t *Tabs) devOrigins() []string { return t.guard.DevOrigins() }

// managerSide is the Manager as the browser-level guard sees it.
type managerSide struct{ m *Manager }

func (s managerSide) Policy() *netpolicy.Policy    { return s.m.policy() }
func (s managerSide) ActionTimeout() time.Duration { return s.m.opts.ActionTimeout }
func (s managerSide) Log() *zap.Logger             { return s.m.log }

func (s managerSide) Pages() []netguard.Page {
	m := s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	pages := make([]netguard.Page, 0, len(m.pages))
	for p := range m.pages {
		pages = append(pages, pageSide{p})
	}
	return pages
}

func (s managerSide) DevOrigins() []string {
	m := s.m
	var dev []string
	m.mu.Lock()
	for p := range m.pages {
		if p.tabs != nil {
			dev = append(dev, p.tabs.devOrigins()...)
		}
	}
	m.mu.Unlock()
	return dev
}

// guardBrowser returns the browser-level guard of a browser, made once:
// it listens to the browser at once, and pauses document requests for the
// policy when the policy has rules (more when a session needs it:
// netguard.Context.SetWide).
func (m *Manager) guardBrowser(ctx, bctx context.Context) (*netguard.Browser, error) {
	return m.guards.Guard(ctx, bctx, managerSide{m})
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

// compileRoute checks a route and reads its pattern (a URL glob or a
// /regex/flags, as browser_wait_for's url).
func compileRoute(r *netguard.Route) error {
	if strings.TrimSpace(r.Pattern) == "" {
		return newError(KindInvalidInput, "give a URL glob such as **/api/* or a /regex/", "pattern is empty")
	}
	m, err := selector.ParseURLPattern(r.Pattern)
	if err != nil {
		return err
	}
	return r.Compile(m.Source, m.Flags, m.Rel)
}

// Request makes req from the session's browser context, in a hidden tab
// (netguard.Request).
func (t *Tabs) Request(ctx context.Context, req netguard.HTTPRequest) (*netguard.HTTPResponse, error) {
	return netguard.Request(ctx, t.openHidden, req)
}

// Routes lists the session's routes, newest first.
func (t *Tabs) Routes() []netguard.RouteInfo { return t.guard.Routes() }

// AddRoute adds a route for every page of the session, replacing one of
// the same pattern; it reports whether it replaced one. Interception starts
// in every tab and iframe when the first route is added.
func (t *Tabs) AddRoute(ctx context.Context, r netguard.Route) (bool, error) {
	if err := compileRoute(&r); err != nil {
		return false, err
	}
	replaced, err := t.guard.AddRoute(ctx, r, t.followRoutes)
	return replaced, err
}

// RemoveRoutes removes the routes of pattern ("": all of them) and says how
// many it removed.
func (t *Tabs) RemoveRoutes(ctx context.Context, pattern string) (int, error) {
	return t.guard.RemoveRoutes(ctx, pattern, t.followRoutes)
}

// followRoutes has the session's tabs and the browser-level guard follow
// the session's routes, the first added or the last removed.
func (t *Tabs) followRoutes(ctx context.Context) error {
	if err := t.intercept(ctx); err != nil {
		return err
	}
	return t.needWide(ctx)
}

// intercept turns request interception on or off, as Page.intercepting
// says, in every attached tab and its out-of-process iframes. (A popup
// attached later turns it on as it starts.)
func (t *Tabs) intercept(ctx context.Context) error {
	for _, p := range t.livePages() {
		for _, h := range p.hosts() {
			var err error
			if p.intercepting() {
				err = p.enableGuard(ctx, h)
			} else {
				h.guarded.Store(false)
				_, err = callOn(ctx, h, fetch.Disable, cdp.Empty{})
			}
			if err != nil {
				return p.ctxError(ctx, err, "turn request interception on or off")
			}
		}
	}
	return nil
}

// livePages are the session's attached tabs that are not gone.
func (t *Tabs) livePages() []*Page {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []*Page
	for _, lt := range t.tabs {
		if lt.page != nil && !lt.page.Gone() {
			out = append(out, lt.page)
		}
	}
	return out
}

// hosts are the page's sessions: the tab's own, then its out-of-process
// iframes'.
func (p *Page) hosts() []*host {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := []*host{p.main}
	for _, h := range p.frames.hosts {
		out = append(out, h)
	}
	return out
}

// offline reports whether the session's network state is offline.
func (t *Tabs) offline() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.setup.netState == "offline"
}

// needWide tells the browser-level guard whether the session needs the
// requests of frames not attached yet (netguard.Context.NeedWide).
func (t *Tabs) needWide(ctx context.Context) error {
	t.mu.Lock()
	closed := t.closed
	t.mu.Unlock()
	return t.guard.NeedWide(ctx, closed)
}

// tabsSide is a session's Tabs as its downloads see them.
type tabsSide struct{ t *Tabs }

func (s tabsSide) FrameTab(frame cdp.FrameID) (tab, hidden bool) {
	t := s.t
	t.mu.Lock()
	_, tab = t.infos[target.ID(frame)]
	hidden = t.hidden[target.ID(frame)]
	t.mu.Unlock()
	return tab, hidden
}

func (s tabsSide) MaxBytes() int64                        { return s.t.m.opts.MaxDownloadBytes }
func (s tabsSide) Context() *netguard.Context             { return &s.t.guard }
func (s tabsSide) BrowserContextID() cdp.BrowserContextID { return s.t.id }
func (s tabsSide) Log() *zap.Logger                       { return s.t.m.log }

func (s tabsSide) Browser(ctx context.Context) (context.Context, context.CancelFunc) {
	return s.t.browserCtx(ctx)
}

func (s tabsSide) Pages() []netguard.Page {
	live := s.t.livePages()
	pages := make([]netguard.Page, len(live))
	for i, p := range live {
		pages[i] = pageSide{p}
	}
	return pages
}

func (s tabsSide) OpenHidden(ctx context.Context) (netguard.HiddenTab, error) {
	return s.t.openHidden(ctx)
}

// onDownloadEvent records the downloads of this context's tabs. It runs on
// the browser's read loop: state only.
func (t *Tabs) onDownloadEvent(ev any) { t.downloads.OnEvent(tabsSide{t}, ev) }

// TakeDownloads returns the downloads not taken yet that have ended,
// waiting up to wait for those still going (they are taken later if they
// outlast it). With atLeastOne it also waits, within wait, for one to
// begin and end.
func (t *Tabs) TakeDownloads(ctx context.Context, wait time.Duration, atLeastOne bool) []netguard.Download {
	return t.downloads.Take(ctx, tabsSide{t}, wait, atLeastOne)
}

// DownloadsBegun says whether a download has begun that was not taken.
func (t *Tabs) DownloadsBegun() bool { return t.downloads.Begun(tabsSide{t}) }

// downloadBeginWait bounds how long an action that clicked a download
// link waits for the browser to say the download began.
const downloadBeginWait = 2 * time.Second

// waitDownloadBegun waits, up to wait, until a download not taken yet has
// begun (downloads not allowed in the session: at once).
func (t *Tabs) waitDownloadBegun(ctx context.Context, wait time.Duration) {
	t.downloads.WaitBegun(ctx, wait)
}

// enableDownloads has Chrome save the context's downloads in a directory
// of their own and report them: in our browser's profile, or for the
// browser of a grid on this machine (a chromedriver of ours) in a
// directory named like a profile of this process (so that a later server
// removes it should this one be killed). A remote browser saves on its own
// machine, where we cannot read: it denies them, and the session fetches
// each one itself (netguard's remotedownload.go).
func (t *Tabs) enableDownloads(ctx context.Context) error {
	var dir string
	var err error
	switch profile := t.m.ProfileDir(); {
	case t.remote != nil:
		dir, err = launcher.NewProfileDir(t.m.opts.ProfileRoot)
	case profile == "":
		return nil
	default:
		dir, err = os.MkdirTemp(profile, "downloads-")
	}
	if err != nil {
		return fmt.Errorf("downloads directory: %w", err)
	}
	return t.downloads.Enable(ctx, tabsSide{t}, dir, t.remote != nil && !t.remote.LocalGrid())
}
