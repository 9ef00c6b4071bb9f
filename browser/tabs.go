package browser

import (
	"context"
	"fmt"
	cdpbrowser "github.com/chromedp/cdproto/browser"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/eventlog"
	"github.com/e2e-mcp/e2e-mcp/browser/launcher"
	"github.com/e2e-mcp/e2e-mcp/browser/netguard"
	"github.com/e2e-mcp/e2e-mcp/browser/recording"
	"github.com/e2e-mcp/e2e-mcp/browser/storage"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"go.uber.org/zap"
)

// Tabs is what one session sees of the browser: a BrowserContext (its own
// cookies, storage and cache) with the tabs open in it, one of them current.
// Popups the pages open (window.open, target=_blank) join the list.
//
// Its methods must not be called concurrently (the session serializes
// them); the popup bookkeeping that browser events update is guarded by mu.
type Tabs struct {
	// Secrets is where a password typed into the session's pages is
	// marked (redact: every writer masks it); nil marks nothing.
	Secrets *redact.Set

	m    *Manager
	bctx context.Context // the browser's chromedp context
	id   cdp.BrowserContextID
	// lcancel ends the browser-event listener of this context.
	lcancel context.CancelFunc

	// tabs are the open tabs in the order they opened; a popup beyond the
	// first few of a burst is attached only when it is needed (lazyTab).
	tabs    []*lazyTab
	current int
	// remote is the endpoint the context lives on, nil for our own browser.
	remote *launcher.Remote
	// shared: the context is the remote browser's default one, and keep
	// the tab that was open in it, which we leave open (Options.SharedRemote).
	// id is then empty (CDP's browser-wide calls name no context for the
	// default one), and defaultID is the default context's id in target
	// infos.
	shared    bool
	keep      target.ID
	defaultID cdp.BrowserContextID
	// crashedURLs are the pages of tabs that crashed and were closed since
	// the last TakeCrashed.
	crashedURLs []string

	mu     sync.Mutex
	infos  map[target.ID]*target.Info // URL and title of every page target in the context
	popups []target.ID                // opened by a page, not attached yet
	hidden map[target.ID]bool         // tabs of ours that are no tabs of the session (hiddenTab)
	seen   int                        // page targets that appeared in the context
	newTgt chan struct{}              // closed and replaced when one appears
	closed bool
	// deathSaid is set when an error told the agent the browser died.
	deathSaid bool
	// deathWhy says how the browser went away, when we know better than
	// "it died" (the watchdog stopped it).
	deathWhy string

	guard     netguard.Context   // the request policy's state of this context, and its routes (netguard.go)
	setup     pageSetup          // what every tab is put in as it is attached (setup.go)
	downloads netguard.Downloads // what the pages downloaded (netguard.go)
	logs      eventlog.Store     // the tabs' console and network records (eventlog.go)
	// origins are those the session's documents came from (storage.go),
	// under their own lock: events note them while holding a Page's.
	origins storage.Origins
	// active is when a page target of the context last appeared or
	// changed (UnixNano): a page opening popups is busy (activeCtx).
	active atomic.Int64
	// cast is the session's screencast, which follows the current tab
	// (browser/recording); onAction is told each action's target. Under mu.
	cast     *recording.Screencast
	onAction func(recording.ActionTarget)
	// console is told the tabs' console messages as they arrive
	// (OnConsole; consolefeed.go), read without a lock from the events.
	console atomic.Pointer[consoleHook]
}

// TabInfo describes one tab for a response.
type TabInfo struct {
	Index   int    `json:"index"`
	URL     string `json:"url"`
	Title   string `json:"title"`
	Current bool   `json:"current,omitempty"`
	// Dialog is the text of a JavaScript dialog open in the tab.
	Dialog string `json:"dialog,omitempty"`
}

// NewTabs creates a BrowserContext with one blank tab, launching the browser
// first if needed.
func (m *Manager) NewTabs(ctx context.Context) (*Tabs, error) {
	var bctx context.Context
	var rb *launcher.Remote
	var err error
	shared := false
	if m.pool != nil {
		rb, bctx, err = m.pool.Acquire(ctx)
		err = poolClosed(err)
		if err == nil && len(m.opts.Grids) == 0 && m.opts.SharedRemote && m.policy().Upstream() == nil {
			shared = m.pool.TakeDefault(rb)
		}
	} else {
		m.mu.Lock()
		bctx, err = m.launch()
		m.mu.Unlock()
	}
	if err != nil {
		return nil, err
	}
	t := &Tabs{m: m, bctx: bctx, remote: rb, infos: map[target.ID]*target.Info{}, newTgt: make(chan struct{})}
	if shared {
		t.shared = true
		if err := t.useDefault(ctx); err != nil {
			t.Close()
			return nil, err
		}
	} else if err := t.createContext(ctx); err != nil {
		t.Close()
		return nil, err
	}
	// The guard first: the listener below reads it.
	g, err := m.guardBrowser(ctx, bctx)
	if err != nil {
		t.Close()
		return nil, err
	}
	t.guard.Attach(g, t.offline)
	var lctx context.Context
	lctx, t.lcancel = context.WithCancel(bctx)
	if err := chromedp.ListenBrowser(lctx, t.onBrowserEvent); err != nil {
		t.Close()
		return nil, fmt.Errorf("listen to the browser: %w", err)
	}
	if err := t.enableDownloads(ctx); err != nil {
		t.Close()
		return nil, err
	}
	if t.keep != "" {
		p, err := t.open(ctx, t.keep)
		if err != nil {
			t.Close()
			return nil, err
		}
		t.tabs, t.current = []*lazyTab{{id: t.keep, page: p}}, 0
		t.followQuietly(ctx)
		return t, nil
	}
	if _, err := t.New(ctx); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// createContext creates the session's own browser context.
func (t *Tabs) createContext(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(t.bctx, t.m.opts.ActionTimeout)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	params, err := t.proxyParams()
	if err != nil {
		return err
	}
	res, err := chromedp.CallBrowser(cctx, target.CreateBrowserContext, params)
	if err != nil {
		return fmt.Errorf("create browser context: %w", err)
	}
	t.id = res.BrowserContextID
	return nil
}

// useDefault takes the remote browser's default context and the first tab
// open in it (a blank one is opened there when it has none).
func (t *Tabs) useDefault(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(t.bctx, t.m.opts.ActionTimeout)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	infos, err := chromedp.CallBrowser(cctx, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return fmt.Errorf("list the browser's tabs: %w", err)
	}
	for _, info := range infos.TargetInfos {
		if info.Type == "page" && !strings.HasPrefix(info.URL, "devtools://") {
			kept := *info
			kept.URL, kept.Title = keepURL(info.URL), keep(info.Title, maxTitleKept)
			t.defaultID, t.keep = info.BrowserContextID, info.TargetID
			t.infos[info.TargetID] = &kept
			return nil
		}
	}
	res, err := chromedp.CallBrowser(cctx, target.CreateTarget, target.CreateTargetParams{URL: "about:blank"})
	if err != nil {
		return fmt.Errorf("open a tab: %w", err)
	}
	t.keep = res.TargetID
	ti, err := chromedp.CallBrowser(cctx, target.GetTargetInfo, target.GetTargetInfoParams(res))
	if err != nil {
		return fmt.Errorf("read the new tab: %w", err)
	}
	if ti.TargetInfo == nil {
		return fmt.Errorf("the browser's new tab has no info")
	}
	kept := *ti.TargetInfo
	t.defaultID = kept.BrowserContextID
	t.infos[res.TargetID] = &kept
	return nil
}

// onBrowserEvent records the page targets of this context. It runs on
// chromedp's read loop: state updates only.
func (t *Tabs) onBrowserEvent(ev any) {
	var info *target.Info
	switch e := ev.(type) {
	case *target.EventTargetCreated:
		info = e.TargetInfo
	case *target.EventTargetInfoChanged:
		info = e.TargetInfo
	case *target.EventTargetDestroyed:
		t.mu.Lock()
		delete(t.infos, e.TargetID)
		delete(t.hidden, e.TargetID)
		t.mu.Unlock()
		return
	case *cdpbrowser.EventDownloadWillBegin, *cdpbrowser.EventDownloadProgress:
		t.onDownloadEvent(ev)
		return
	default:
		return
	}
	if info == nil || info.Type != "page" || info.BrowserContextID != t.id && (!t.shared || info.BrowserContextID != t.defaultID) {
		return
	}
	t.active.Store(time.Now().UnixNano())
	kept := *info // its URL and title as kept, not the event's
	kept.URL, kept.Title = keepURL(info.URL), keep(info.Title, maxTitleKept)
	info = &kept
	t.mu.Lock()
	_, known := t.infos[info.TargetID]
	t.infos[info.TargetID] = info
	if !known && info.URL == hiddenURL {
		// A hidden tab of ours (hiddenTab): neither a popup nor a tab.
		if t.hidden == nil {
			t.hidden = map[target.ID]bool{}
		}
		t.hidden[info.TargetID], known = true, true
	}
	t.mu.Unlock()
	if known {
		return
	}
	// Its first request may have been blocked before we knew it:
	// taken before the wait for a new tab below ends.
	t.guard.Claim(info.TargetID)
	// A new page target is a popup (window.open, target=_blank, which
	// has no opener by default), or a tab we opened: sync tells them apart.
	t.mu.Lock()
	t.popups = append(t.popups, info.TargetID)
	t.seen++
	close(t.newTgt)
	t.newTgt = make(chan struct{})
	t.mu.Unlock()
}

// open attaches a Page to a target of this context: a new tab when id is
// empty, else the existing target (a popup).
func (t *Tabs) open(ctx context.Context, id target.ID) (*Page, error) {
	p := newPage(t.m, t)
	if id != "" {
		// Known before its first event comes (start sets a new tab's).
		p.frame, p.main.target = cdp.FrameID(id), id
	}
	p.guard = newPageGuard(p)
	opts := []chromedp.ContextOption{chromedp.WithListener(p.listener(p.main))}
	if id == "" {
		opts = append(opts, chromedp.WithExistingBrowserContext(t.id))
	} else {
		opts = append(opts, chromedp.WithTargetID(id))
	}
	if id != "" && id == t.keep {
		// The tab a person had open: the session's end leaves it open.
		opts = append(opts, chromedp.WithDetachOnCancel())
	}
	p.ctx, p.cancel = chromedp.NewContext(t.bctx, opts...)
	p.main.ctx, p.main.cancel = p.ctx, p.cancel
	if err := p.start(ctx); err != nil {
		p.Close()
		return nil, err
	}
	if err := p.applySetup(ctx, t.setupOf()); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// lazyTab is a tab of the list: its target, and its Page once attached. A
// page that opens a hundred popups should not cost a hundred attachments
// (each a dozen round trips and a wait for its load) before the action that
// opened them can answer: the first few are attached at once, as an agent
// reads them next; the rest when one is selected. Until then the browser's
// own target events say their URL and title, the context's proxy holds
// their requests to the policy, and closing one closes its target.
type lazyTab struct {
	id   target.ID
	page *Page // nil until attached
}

// eagerPopups is how many popups of one burst are attached at once.
const eagerPopups = 8

// gone reports whether the tab went away: its page closed or crashed, or
// (unattached) its target was destroyed.
func (t *Tabs) gone(lt *lazyTab) bool {
	if lt.page != nil {
		return lt.page.Gone()
	}
	t.mu.Lock()
	_, alive := t.infos[lt.id]
	t.mu.Unlock()
	return !alive
}

// attach makes sure the tab has a Page, attaching to its target.
func (t *Tabs) attach(ctx context.Context, lt *lazyTab) (*Page, error) {
	if lt.page != nil {
		return lt.page, nil
	}
	p, err := t.open(ctx, lt.id)
	if err != nil {
		return nil, fmt.Errorf("attach to tab: %w", err)
	}
	p.waitLoaded(ctx, lt.id)
	lt.page = p
	return p, nil
}

// sync drops the tabs that closed themselves (window.close, a crash) and
// takes in the popups opened since the last call, attaching the first few.
// It returns how many tabs it added. The current tab stays current, and is
// brought back to the front if a popup opened over it, so that it keeps
// getting animation frames.
func (t *Tabs) sync(ctx context.Context) int {
	var cur *lazyTab
	if t.current >= 0 && t.current < len(t.tabs) {
		cur = t.tabs[t.current]
	}
	kept := t.tabs[:0]
	for _, lt := range t.tabs {
		if t.gone(lt) {
			if p := lt.page; p != nil {
				if p.crashUnsaid() {
					t.crashedURLs = append(t.crashedURLs, p.LastInfo().URL)
				}
				p.Close()
			}
			continue
		}
		kept = append(kept, lt)
	}
	clear(t.tabs[len(kept):])
	t.tabs = kept
	idx := -1
	for i, lt := range t.tabs {
		if lt == cur {
			idx = i
		}
	}
	if idx < 0 {
		idx = len(t.tabs) - 1 // the current tab closed itself: the last one
	}
	t.current = max(0, idx)
	t.mu.Lock()
	ids := t.popups
	t.popups = nil
	t.mu.Unlock()
	var fresh []*lazyTab
	for _, id := range ids {
		if t.has(id) {
			continue // a tab we opened ourselves
		}
		fresh = append(fresh, &lazyTab{id: id})
	}
	// The first few in parallel; each waits for its document to load so
	// that the answer shows it.
	var wg sync.WaitGroup
	for _, lt := range fresh[:min(len(fresh), eagerPopups)] {
		wg.Go(func() {
			if _, err := t.attach(ctx, lt); err != nil {
				t.m.log.Debug("attach popup failed", zap.String("target", string(lt.id)), zap.Error(err))
			}
		})
	}
	wg.Wait()
	t.tabs = append(t.tabs, fresh...)
	if len(fresh) > 0 {
		if c := t.Current(); c != nil {
			c.bringToFront(ctx)
		}
	}
	t.followQuietly(ctx)
	return len(fresh)
}

// has reports whether a tab of the list is the target id.
func (t *Tabs) has(id target.ID) bool {
	for _, lt := range t.tabs {
		if lt.id == id {
			return true
		}
	}
	return false
}

// TakeCrashed returns the URLs of the tabs that crashed and were closed
// since the last call.
func (t *Tabs) TakeCrashed() []string {
	c := t.crashedURLs
	t.crashedURLs = nil
	return c
}

// infoOf is a tab's URL and title as the browser last reported them.
func (t *Tabs) infoOf(id target.ID) Info {
	t.mu.Lock()
	defer t.mu.Unlock()
	if info, ok := t.infos[id]; ok {
		return Info{URL: info.URL, Title: info.Title}
	}
	return Info{}
}

// URLs are the URLs of the open tabs, as the browser last reported them.
func (t *Tabs) URLs() []string {
	var out []string
	for _, lt := range t.tabs {
		out = append(out, t.infoOf(lt.id).URL)
	}
	return out
}

// TakePopups takes in the popups opened since the last look and returns
// how many; the current tab stays current.
func (t *Tabs) TakePopups(ctx context.Context) int { return t.sync(ctx) }

// Current returns the current tab; nil when no tab is open. The current tab
// is always attached (Select attaches it).
func (t *Tabs) Current() *Page {
	if t.current < 0 || t.current >= len(t.tabs) {
		return nil
	}
	return t.tabs[t.current].page
}

// Attached returns the attached tabs that are not gone, by their index
// (a tab nobody selected or took in yet has no page to read).
func (t *Tabs) Attached() map[int]*Page {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[int]*Page{}
	for i, lt := range t.tabs {
		if lt.page != nil && !lt.page.Gone() {
			out[i] = lt.page
		}
	}
	return out
}

// Sync takes in the popups opened and the tabs closed since the last call
// and returns the current tab, opening a blank one if none is left.
func (t *Tabs) Sync(ctx context.Context) (*Page, int, error) {
	added := t.sync(ctx)
	if p := t.Current(); p != nil {
		return p, added, nil
	}
	p, err := t.New(ctx)
	return p, added, err
}

// New opens a blank tab in its own window and makes it current.
func (t *Tabs) New(ctx context.Context) (*Page, error) {
	if t.Gone() {
		return nil, &Error{Kind: KindBrowserCrashed, Message: "the browser context is gone",
			Hint: "call the tool again: a new browser context is opened; state of the old one is lost"}
	}
	p, err := t.open(ctx, "")
	if err != nil {
		return nil, err
	}
	t.tabs = append(t.tabs, &lazyTab{id: p.main.target, page: p})
	t.current = len(t.tabs) - 1
	t.followQuietly(ctx)
	return p, nil
}

// Select makes the tab at index current (attaching to it if it was not)
// and brings it to the front.
func (t *Tabs) Select(ctx context.Context, index int) (*Page, error) {
	t.sync(ctx)
	if index < 0 || index >= len(t.tabs) {
		return nil, t.indexError(index)
	}
	p, err := t.attach(ctx, t.tabs[index])
	if err != nil {
		return nil, err
	}
	t.current = index
	p.bringToFront(ctx)
	t.followQuietly(ctx)
	return p, nil
}

// CloseTab closes the tab at index; when it was current, the tab before it
// becomes current.
func (t *Tabs) CloseTab(ctx context.Context, index int) error {
	t.sync(ctx)
	if index < 0 || index >= len(t.tabs) {
		return t.indexError(index)
	}
	if p := t.tabs[index].page; p != nil {
		p.unstick() // a page that does not answer runs no unload
		p.Close()
	} else {
		cctx, cancel := context.WithTimeout(t.bctx, t.m.opts.ActionTimeout)
		stop := context.AfterFunc(ctx, cancel)
		_, err := chromedp.CallBrowser(cctx, target.CloseTarget, target.CloseTargetParams{TargetID: t.tabs[index].id})
		stop()
		cancel()
		if err != nil && !t.gone(t.tabs[index]) {
			return fmt.Errorf("close tab %d: %w", index, err)
		}
	}
	t.tabs = append(t.tabs[:index], t.tabs[index+1:]...)
	if index < t.current || t.current >= len(t.tabs) {
		t.current = max(0, t.current-1)
	}
	if len(t.tabs) > 0 {
		// The tab that is current now is attached: it may have been a
		// popup nobody looked at yet.
		if _, err := t.attach(ctx, t.tabs[t.current]); err != nil {
			return err
		}
		t.Current().bringToFront(ctx)
	}
	t.followQuietly(ctx)
	return nil
}

func (t *Tabs) indexError(index int) error {
	return stepError(KindInvalidInput, StepListTabs,
		"index: no tab %d (%d open)", index, len(t.tabs))
}

// List describes the open tabs, in the order they were opened: an
// attached tab's URL and title as its page says them now (one round trip),
// another's as the browser last reported them (none: a list of hundreds of
// popups nobody looked at is instant), and a dialog open in one.
func (t *Tabs) List(ctx context.Context) []TabInfo {
	out := make([]TabInfo, 0, len(t.tabs))
	for i, lt := range t.tabs {
		ti := TabInfo{Index: i, Current: i == t.current}
		info := t.infoOf(lt.id)
		if lt.page != nil {
			if d := lt.page.Dialog(); d != nil {
				ti.Dialog = d.String()
			} else if live, err := lt.page.Info(ctx); err == nil {
				info = live
			}
		}
		ti.URL, ti.Title = info.URL, info.Title
		out = append(out, ti)
	}
	return out
}

// waitLoaded waits, up to the action timeout, until a popup has loaded the
// document it was opened for, so that the response that reports it shows
// its URL and title.
func (p *Page) waitLoaded(ctx context.Context, id target.ID) {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	for {
		var st struct {
			URL   string `json:"url"`
			Ready string `json:"ready"`
		}
		err := p.evalEngine(cctx, "({url: location.href, ready: document.readyState})", &st)
		p.tabs.mu.Lock()
		want := ""
		if info, ok := p.tabs.infos[id]; ok {
			want = info.URL
		}
		p.tabs.mu.Unlock()
		if err != nil || st.Ready == "complete" && (st.URL != "about:blank" || want == "about:blank") {
			return
		}
		select {
		case <-cctx.Done():
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// CurrentIndex is the index of the current tab.
func (t *Tabs) CurrentIndex() int { return t.current }

// Where names the browser the context lives on: "" for the one this
// server launched, else the remote endpoint's URL (credentials masked).
func (t *Tabs) Where() string {
	if t.remote == nil {
		return ""
	}
	return t.remote.Where()
}

// Death says how the browser under the context went away.
func (t *Tabs) death() string {
	t.mu.Lock()
	why := t.deathWhy
	t.mu.Unlock()
	if why != "" {
		if w := t.Where(); w != "" {
			return "the remote browser at " + w + ": " + why
		}
		return why
	}
	if w := t.Where(); w != "" {
		return "the remote browser at " + w + " went away"
	}
	return "the browser process died"
}

// Death is [Tabs.death] for callers outside the package.
func (t *Tabs) Death() string { return t.death() }

// Len is the number of open tabs.
func (t *Tabs) Len() int { return len(t.tabs) }

// DeathSaid reports whether an error already told the agent that the
// browser under this context died.
func (t *Tabs) DeathSaid() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.deathSaid
}

// Done is closed when the browser under the context goes away: it died,
// was killed, stopped answering, or the server let it go (a remote one's
// connection closed too).
func (t *Tabs) Done() <-chan struct{} { return t.bctx.Done() }

// Gone reports whether the browser under the context has gone away.
func (t *Tabs) Gone() bool {
	t.mu.Lock()
	closed, lost := t.closed, t.deathSaid
	t.mu.Unlock()
	return closed || lost || t.bctx.Err() != nil
}

// Close closes every tab and disposes of the BrowserContext: its cookies,
// storage and cache are gone. It is safe to call more than once.
func (t *Tabs) Close() {
	t.mu.Lock()
	already := t.closed
	t.closed = true
	t.mu.Unlock()
	if already {
		return
	}
	t.StopCast(context.Background())
	for _, lt := range t.tabs {
		if lt.page != nil {
			lt.page.Close()
		}
	}
	t.tabs = nil
	if t.lcancel != nil {
		t.lcancel()
	}
	if t.guard.Attached() && t.bctx.Err() == nil {
		ctx, cancel := context.WithTimeout(t.bctx, 5*time.Second)
		if err := t.guard.SetWide(ctx, false); err != nil {
			t.m.log.Debug("stop pausing requests for the session", zap.Error(err))
		}
		cancel()
	}
	// Fetches of a remote browser's downloads end with the tabs: wait for
	// them before their directory goes.
	t.downloads.Close()
	if t.id != "" && t.bctx.Err() == nil && !t.shared {
		ctx, cancel := context.WithTimeout(t.bctx, 5*time.Second)
		_, _ = chromedp.CallBrowser(ctx, target.DisposeBrowserContext, target.DisposeBrowserContextParams{BrowserContextID: t.id})
		cancel()
	}
	if t.shared {
		t.m.pool.GiveDefault(t.remote)
	}
	if t.remote != nil {
		t.m.pool.Release(t.remote)
	}
	t.guard.CloseProxy()
}

// bringToFront makes the tab the visible one of its window: a hidden tab
// gets no animation frames, and the engine waits for them.
func (p *Page) bringToFront(ctx context.Context) {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	_, _ = chromedp.Call(cctx, page.BringToFront, cdp.Empty{})
}

// LastInfo is the page's URL and title as the browser last reported them.
// It needs no script in the page, so it works while a dialog blocks it.
func (p *Page) LastInfo() Info {
	p.tabs.mu.Lock()
	defer p.tabs.mu.Unlock()
	if info, ok := p.tabs.infos[p.main.target]; ok {
		return Info{URL: info.URL, Title: info.Title}
	}
	return Info{}
}

// seenCount is the number of page targets that appeared so far.
func (t *Tabs) seenCount() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seen
}

// waitSeen waits until n page targets have appeared in the context, or ctx
// ends.
func (t *Tabs) waitSeen(ctx context.Context, n int) {
	for {
		t.mu.Lock()
		seen, ch := t.seen, t.newTgt
		t.mu.Unlock()
		if seen >= n {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
	}
}
