package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/eventlog"
	"github.com/e2e-mcp/e2e-mcp/browser/netguard"
	"github.com/e2e-mcp/e2e-mcp/browser/recording"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/metrics"
	"go.uber.org/zap"
)

// execContext is one JavaScript execution context of a frame, and the CDP
// session (host) it is reached through.
type execContext struct {
	id     runtime.ExecutionContextID
	unique string
	host   *host
}

// Page is one tab in its own BrowserContext. Its methods must not be called
// concurrently (the session serializes them); the event state they read is
// guarded by mu because CDP events arrive on another goroutine.
type Page struct {
	m    *Manager
	tabs *Tabs // the session's tabs this one belongs to
	solo bool  // made by NewPage: closing it disposes of its context
	// detached closes when the browser detaches the tab (it closed itself).
	detached <-chan struct{}
	ctx      context.Context // the chromedp tab context
	cancel   context.CancelFunc
	log      *zap.Logger
	frame    cdp.FrameID // the main frame; its ID is the target's

	// lastSecret says the last Type filled a password field.
	lastSecret bool
	// active is when the page last did something (UnixNano; activeCtx).
	active atomic.Int64

	// refSeq is the last ref number handed out in this page's session; refs
	// are never reused, not even across navigations.
	refSeq int

	// main is the tab's own session; hosts are the sessions of
	// out-of-process iframes, by target ID.
	main *host
	// guard enforces the request policy; nil when it intercepts nothing.
	guard *netguard.PageGuard

	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every state change
	worlds  map[cdp.FrameID]execContext
	mains   map[cdp.FrameID]execContext
	frames  frameTable
	load    loadState  // where the main frame's navigation is
	net     netState   // the page's requests in flight
	modal   modalState // what the page opened that waits for the agent
	end     endState   // how the tab ended, if it did
	console []eventlog.ConsoleMessage
	dropped int
	events  eventlog.Log // console and network records (eventlog.go)
	closed  bool
	shown   string // the engine's token of the last whole-page snapshot an answer showed
	// clockScript is the script that starts the fake clock in the tab's
	// next documents (clock.go).
	clockScript page.ScriptIdentifier
	// pointer is where the vision tools left the mouse and the buttons
	// they hold (mouse.go).
	pointer pointerState
	// demo is a person's demonstration being recorded (recording.go).
	demo *recording.Demo
	// cast is the tab's screencast, when the session records (browser/recording).
	cast recording.TabCast
	// waits are the tab's newest action waits (eventlog.go).
	waits eventlog.Waits
	// doc numbers the main frame's documents (ConsoleEvent.Doc).
	doc int
}

// loadState counts the main frame's navigations; an action's mark keeps
// them, and settle waits until they move on (actions.go).
type loadState struct {
	navs  int // navigations requested or started
	loads int // loads finished
	// dcls counts the main frame's DOMContentLoaded events; dclLoader and
	// loadLoader are the documents (loaders) whose DOMContentLoaded and
	// load came last, and status the HTTP status of statusLoader's.
	dcls                  int
	dclLoader, loadLoader cdp.LoaderID
	status                int64
	statusLoader          cdp.LoaderID
	stops                 int // loading stopped (with or without a new document)
}

// netState is the page's requests in flight, for settle (eventlog.go).
type netState struct {
	inflight   map[network.RequestID]time.Time // by when each started
	answered   int                             // fetches counted as done at their response
	changed    time.Time                       // when a request last started or ended (for networkidle)
	yieldFirst bool                            // the next changes snapshot lets the page's queued tasks run first
	failedRead time.Time                       // when TakeFailedRequests last looked
	routed     map[network.RequestID]string    // requests a route answered before they were recorded
}

// modalState is what the page opened that an agent answers or sees.
type modalState struct {
	dialog  *Dialog                      // the JavaScript dialog open in the page, if any
	dialogs int                          // dialogs opened so far
	popups  int                          // new windows the page asked for
	chooser *page.EventFileChooserOpened // the file chooser open in the page, if any (input.go)
}

// endState says how the tab ended.
type endState struct {
	crashed   bool // the tab's renderer died; the tab is then gone
	crashSaid bool // an error already told the agent about the crash
}

// NewPage opens a tab in a new BrowserContext of its own, launching the
// browser first if needed. Closing the page disposes of the context.
func (m *Manager) NewPage(ctx context.Context) (*Page, error) {
	t, err := m.NewTabs(ctx)
	if err != nil {
		return nil, err
	}
	p := t.Current()
	p.solo = true
	return p, nil
}

// newPage is a Page of tabs that start attaches to its target.
func newPage(m *Manager, t *Tabs) *Page {
	return &Page{m: m, tabs: t, log: m.log, changed: make(chan struct{}), main: &host{},
		worlds: map[cdp.FrameID]execContext{}, mains: map[cdp.FrameID]execContext{},
		net: netState{inflight: map[network.RequestID]time.Time{}}, frames: newFrameTable(), events: eventlog.New(&t.logs)}
}

// start attaches to the page's target (creating it first for a new tab) and
// injects the page engine into it.
func (p *Page) start(ctx context.Context) error {
	p.m.mu.Lock()
	if p.m.closed {
		p.m.mu.Unlock()
		return ErrClosed
	}
	p.m.pages[p] = struct{}{}
	p.m.mu.Unlock()

	// Creating the target must not run under the caller's deadline: the
	// first Do binds the tab's lifetime to its context.
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(p.ctx) }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err == nil {
		c := chromedp.FromContext(p.ctx)
		// The target's events may already come (onEvent reads these
		// under p.mu); every other reader runs after start.
		p.mu.Lock()
		p.frame = cdp.FrameID(c.Target.TargetID)
		p.main.target = c.Target.TargetID
		p.mu.Unlock()
		p.detached, _ = chromedp.Detached(p.ctx)
		cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
		err = p.prepareHost(cctx, p.main)
		if err == nil {
			err = p.interceptFileChooser(cctx)
		}
		cancel()
	}
	if err != nil {
		return fmt.Errorf("open tab: %w", err)
	}
	return nil
}

// prepareHost readies a session of the page (the tab's, or an
// out-of-process iframe's) for us: the domains we never read off, the
// browser-wide page settings (pageSettings), the request policy, the page
// engine and the timer watcher in its current and future documents
// (watch.go).
func (p *Page) prepareHost(ctx context.Context, h *host) error {
	if err := quietDomains(ctx, h); err != nil {
		return err
	}
	if err := p.pageSettings(ctx, h); err != nil {
		return err
	}
	if err := p.enableGuard(ctx, h); err != nil {
		return err
	}
	if _, err := callOn(ctx, h, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: engineJS(), WorldName: worldName, RunImmediately: new(true)}); err != nil {
		return fmt.Errorf("inject the page engine: %w", err)
	}
	return p.installWatch(ctx, h)
}

// pageSettings applies Options.BypassCSP and Options.JavaScriptDisabled to
// a session of the page. Each holds for the documents of the frames the
// session runs, the ones to come included (a navigation to another site's
// process keeps the session's settings); an out-of-process iframe is a
// session of its own, set as it is attached.
func (p *Page) pageSettings(ctx context.Context, h *host) error {
	if p.m.opts.BypassCSP {
		if _, err := callOn(ctx, h, page.SetBypassCSP, page.SetBypassCSPParams{Enabled: true}); err != nil {
			return fmt.Errorf("bypass the page's Content-Security-Policy: %w", err)
		}
	}
	if p.m.opts.JavaScriptDisabled {
		if _, err := callOn(ctx, h, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			return fmt.Errorf("disable the page's JavaScript: %w", err)
		}
	}
	return nil
}

// quietDomains turns off the DOM and CSS domains, which chromedp enables on
// every target it attaches to and we never read. DOM must be off: on each
// DOM.documentUpdated chromedp's target loop calls DOM.getDocument and waits
// for the answer, while its reader hands Runtime events to that loop through
// a 4096-slot queue; a page that logs a few thousand messages as it loads
// fills the queue, the reader blocks, the answer is never read, and the
// whole connection (every session's calls) stops. The DOM calls we make
// (describeNode, resolveNode, getFrameOwner, setFileInputFiles by object or
// backend id) work with the domain off, as they do for Puppeteer and
// Playwright, which never enable it. CSS only sends stylesheet events.
func quietDomains(ctx context.Context, h *host) error {
	if _, err := callOn(ctx, h, dom.Disable, cdp.Empty{}); err != nil {
		return fmt.Errorf("disable the DOM domain: %w", err)
	}
	if _, err := callOn(ctx, h, css.Disable, cdp.Empty{}); err != nil {
		return fmt.Errorf("disable the CSS domain: %w", err)
	}
	return nil
}

// callCtx derives a context for one call: it ends at the timeout, when the
// caller's ctx ends, or when the tab closes. It never becomes the parent of
// the tab, so ending it does not close anything.
func (p *Page) callCtx(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	cctx, cancel := context.WithTimeout(p.ctx, d)
	stop := context.AfterFunc(ctx, cancel)
	return cctx, func() { stop(); cancel() }
}

// Close closes the tab; a page NewPage made also disposes of its own
// BrowserContext (cookies, storage). Tabs.Close disposes of a session's.
func (p *Page) Close() {
	p.mu.Lock()
	already := p.closed
	p.closed = true
	if !already {
		// Under the lock, as messages are told: none follows the close.
		p.tellConsoleLocked(ConsoleEvent{Closed: true})
	}
	p.mu.Unlock()
	if already {
		return
	}
	p.mu.Lock()
	hosts := p.frames.hosts
	p.frames.hosts = nil
	p.mu.Unlock()
	for _, h := range hosts {
		h.cancel()
	}
	if p.ctx.Err() == nil {
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		_ = chromedp.Cancel(ctx)
		cancel()
	}
	p.cancel()
	p.m.mu.Lock()
	delete(p.m.pages, p)
	p.m.mu.Unlock()
	p.events.Close() // a closed tab's logs are gone with it
	if p.solo {
		p.tabs.Close()
	}
}

// signalLocked wakes everyone waiting for a state change.
func (p *Page) signalLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// listener returns the event handler of one session: the tab's or an
// out-of-process iframe's.
func (p *Page) listener(h *host) func(ev any) {
	return func(ev any) { p.onEvent(h, ev) }
}

// onEvent records what the page does. It runs on chromedp's read loop, so it
// only updates state: no commands, no blocking.
func (p *Page) onEvent(h *host, ev any) {
	if h == p.main && p.cast.OnEvent(ev) {
		// Not activity: a page whose script hangs still paints.
		return
	}
	p.touch()
	if p.guard != nil && p.guard.OnEvent(h, ev) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.frameEventLocked(h, ev) {
		p.signalLocked()
		return
	}
	if p.recordLocked(ev) { // console and network, of the tab and its iframes (eventlog.go)
		p.signalLocked()
		return
	}
	if h != p.main {
		return // navigation and dialogs: the tab's own
	}
	switch e := ev.(type) {
	case *page.EventFrameStartedNavigating:
		// Only a new document brings a load event to wait for; fragment and
		// history.pushState navigations change the URL in place.
		if e.FrameID == p.frame && e.NavigationType != page.FrameStartedNavigatingNavigationTypeSameDocument &&
			e.NavigationType != page.FrameStartedNavigatingNavigationTypeHistorySameDocument {
			p.load.navs++
		}
	case *page.EventFrameStoppedLoading:
		// Also the end of a navigation that loads nothing (204, a download,
		// one cancelled by the page).
		if e.FrameID == p.frame {
			p.load.stops++
		}
	case *page.EventLoadEventFired:
		p.load.loads++
	case *page.EventLifecycleEvent:
		if e.FrameID == p.frame {
			switch e.Name {
			case "DOMContentLoaded":
				p.load.dcls++
				p.load.dclLoader = e.LoaderID
			case "load":
				p.load.loadLoader = e.LoaderID
			}
		}
	case *network.EventResponseReceived:
		if e.Type == network.ResourceTypeDocument && e.FrameID == p.frame && e.Response != nil {
			p.load.status, p.load.statusLoader = e.Response.Status, e.LoaderID
		}
		return
	case *page.EventJavascriptDialogOpening:
		// The page is blocked until the dialog is answered: tools report
		// it, and browser_handle_dialog answers it.
		d := Dialog{Type: string(e.Type), Message: keep(e.Message, maxConsoleText), DefaultPrompt: keep(e.DefaultPrompt, maxConsoleText),
			defaultPrompt: e.DefaultPrompt}
		p.modal.dialog = &d
		p.modal.dialogs++
	case *page.EventJavascriptDialogClosed:
		p.modal.dialog = nil
	case *page.EventWindowOpen:
		p.modal.popups++
	case *runtime.EventBindingCalled:
		p.demoEventLocked(e)
		return
	case *inspector.EventTargetCrashed:
		p.end.crashed = true
		metrics.BrowserCrashed(metrics.CrashTab)
	default:
		return
	}
	p.signalLocked()
}

// TakeEvents returns the console errors seen since the last call and
// forgets them, with the number of console errors dropped for space.
func (p *Page) TakeEvents() (console []eventlog.ConsoleMessage, dropped int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	console, dropped = p.console, p.dropped
	p.console, p.dropped = nil, 0
	return
}

// TakeFailedRequests returns the requests that failed (no response, or an
// HTTP status of 400 or more) and ended since the last call, oldest first.
func (p *Page) TakeFailedRequests() []eventlog.NetworkRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	since := p.net.failedRead
	p.net.failedRead = time.Now()
	l, unlock := p.logs()
	defer unlock()
	return l.FailedSince(since)
}

// crashUnsaid reports whether the tab crashed and no error said so yet.
func (p *Page) crashUnsaid() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.end.crashed && !p.end.crashSaid
}

// Crashed reports whether the tab's renderer crashed.
func (p *Page) Crashed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.end.crashed
}

// errTabClosed ends a wait on a tab that closed.
var errTabClosed = errors.New("the tab closed")

// waitFor waits until cond (called with mu held) is true or ctx ends.
func (p *Page) waitFor(ctx context.Context, cond func() bool) error {
	for {
		p.mu.Lock()
		if cond() {
			p.mu.Unlock()
			return nil
		}
		ch := p.changed
		p.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		case <-p.detached:
			return errTabClosed
		}
	}
}

// world returns the engine's execution context in the main frame, waiting
// for it while a new document is being set up.
func (p *Page) world(ctx context.Context) (execContext, error) { return p.worldOf(ctx, p.frame) }

// worldOf returns the engine's execution context in a frame, waiting for it
// while the frame's document (or its out-of-process session) is set up.
func (p *Page) worldOf(ctx context.Context, frame cdp.FrameID) (execContext, error) {
	var w execContext
	err := p.waitFor(ctx, func() bool {
		var ok bool
		w, ok = p.worlds[frame]
		return ok
	})
	return w, err
}

// pageWorldOf returns the page's own execution context in a frame.
func (p *Page) pageWorldOf(ctx context.Context, frame cdp.FrameID) (execContext, error) {
	var w execContext
	err := p.waitFor(ctx, func() bool {
		var ok bool
		w, ok = p.mains[frame]
		return ok
	})
	return w, err
}

// contextGoneRE matches Chrome's answers for an execution context that a
// navigation destroyed while a call was on its way.
var contextGoneRE = regexp.MustCompile(`(?i)cannot find (default )?(execution )?context|execution context was destroyed|inspected target navigated|uniquecontextid not found`)

// evalEngine evaluates expr in the engine's world and decodes its JSON value
// into out. A navigation that destroys the world in the middle is retried on
// the new document.
func (p *Page) evalEngine(ctx context.Context, expr string, out any) error {
	return p.evalIn(ctx, p.frame, expr, out)
}

// evalIn is evalEngine in the engine's world of a frame.
func (p *Page) evalIn(ctx context.Context, frame cdp.FrameID, expr string, out any) error {
	// Calls must run on the tab's context; the caller's ctx only bounds them
	// (and decides whether a cut-off call timed out).
	outer := ctx
	ctx, cancel := p.callCtx(ctx, p.m.opts.NavigationTimeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		w, err := p.worldOf(ctx, frame)
		if err != nil {
			return p.ctxError(outer, err, "the page engine did not start in the page")
		}
		var res runtime.EvaluateResult
		err = p.unlessDialog(ctx, func(ctx context.Context) error {
			var err error
			res, err = callOn(ctx, w.host, runtime.Evaluate, runtime.EvaluateParams{
				Expression: expr, UniqueContextID: w.unique, ReturnByValue: new(true), AwaitPromise: new(true)})
			return err
		}, false)
		if _, ok := AsError(err); ok {
			return err // a dialog blocks the page
		}
		if err != nil {
			if attempt < 3 && contextGoneRE.MatchString(err.Error()) && ctx.Err() == nil {
				p.forgetWorld(w)
				continue
			}
			if outer.Err() != nil {
				ctx = outer
			}
			return p.ctxError(ctx, err, "evaluating in the page")
		}
		if res.ExceptionDetails != nil {
			return p.engineError(ctx, w, res.ExceptionDetails)
		}
		if out == nil || res.Result == nil || len(res.Result.Value) == 0 {
			return nil
		}
		if err := json.Unmarshal(res.Result.Value, out); err != nil {
			return fmt.Errorf("decode engine result: %w", err)
		}
		return nil
	}
}

// forgetWorld drops a context that CDP says is gone, so the next look waits
// for its successor.
func (p *Page) forgetWorld(w execContext) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for f, c := range p.worlds {
		if c.unique == w.unique {
			delete(p.worlds, f)
		}
	}
	for f, c := range p.mains {
		if c.unique == w.unique {
			delete(p.mains, f)
		}
	}
}

// engineFailure is what the engine's lastFailure() says about the
// EngineError it threw last (js/00_prologue.js).
type engineFailure struct {
	Code    Kind   `json:"code"`
	Message string `json:"message"`
	Part    int    `json:"part"`
	Reason  Reason `json:"reason"`
}

// engineError turns an exception thrown in the engine's world w into an
// error. The engine's own failures are EngineErrors: their code and message
// are read from the engine, never parsed out of the exception's text.
func (p *Page) engineError(ctx context.Context, w execContext, d *runtime.ExceptionDetails) error {
	msg := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		msg = text.FirstLine(d.Exception.Description)
	}
	if d.Exception == nil || d.Exception.ClassName != "EngineError" {
		return &Error{Kind: KindScriptError, Message: msg}
	}
	// The failure is read even when the call's own time just ran out (the
	// last poll of a wait threw at its deadline): it is one short call.
	fctx, cancel := detached(ctx)
	defer cancel()
	var f engineFailure
	res, err := callOn(fctx, w.host, runtime.Evaluate, runtime.EvaluateParams{Expression: fnLastFailure.call(),
		UniqueContextID: w.unique, ReturnByValue: new(true)})
	if err != nil || res.ExceptionDetails != nil || res.Result == nil || json.Unmarshal(res.Result.Value, &f) != nil || f.Code == "" {
		return &Error{Kind: KindScriptError, Message: msg}
	}
	switch f.Code {
	case KindRefNotFound, KindRefStale:
		return &Error{Kind: f.Code, Message: f.Message, Step: StepSnapshot}
	case KindElementNotFound:
		return &Error{Kind: f.Code, Message: f.Message, Hint: "check the selector, or take a snapshot and use a ref"}
	case KindNotUnique:
		return &Error{Kind: f.Code, Message: f.Message, Reason: f.Reason, Hint: "use one of the refs listed, or a more specific selector"}
	case kindEnterFrame:
		return &Error{Kind: f.Code, Message: f.Message, framePart: f.Part}
	}
	return &Error{Kind: f.Code, Message: f.Message}
}

// ctxError classifies a failed CDP call: the browser gone, a timeout, or
// something else.
func (p *Page) ctxError(ctx context.Context, err error, what string) error {
	switch {
	case p.Crashed():
		p.mu.Lock()
		p.end.crashSaid = true // the next call need not say it again
		p.mu.Unlock()
		return &Error{Kind: KindBrowserCrashed, Message: fmt.Sprintf("the tab showing %s crashed (its renderer died) while it was %s; cookies and storage are kept", p.LastInfo().URL, what),
			Step: StepCrashedTab}
	case p.Gone() && p.ctx.Err() == nil:
		return &Error{Kind: KindBrowserCrashed, Message: "the tab is closed: the page closed itself (" + what + ")",
			Step: StepTabClosed, Err: err}
	case p.tabs != nil && (p.tabs.Gone() || strings.Contains(err.Error(), "lost the connection to the browser")):
		p.tabs.mu.Lock()
		p.tabs.deathSaid = true // the next call need not say it again
		p.tabs.mu.Unlock()
		if p.tabs.remote != nil {
			p.m.pool.MarkLost(p.tabs.remote)
		}
		return &Error{Kind: KindBrowserCrashed, Message: fmt.Sprintf("%s while it was %s; the session lost its tabs (%s), cookies and storage", p.tabs.death(), what, strings.Join(p.tabs.URLs(), ", ")),
			Hint: "call again: a new browser is started; navigate to where you were (log in again if needed)"}
	case p.ctx.Err() != nil:
		return &Error{Kind: KindBrowserCrashed, Message: "the browser tab is gone (" + what + ")",
			Hint: "call the tool again: a new tab is opened; state of the old one is lost", Err: err}
	case errors.Is(context.Cause(ctx), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		if !p.answers() {
			return p.hungError(what)
		}
		return &Error{Kind: KindTimeout, Message: what + " timed out", Err: err}
	}
	return fmt.Errorf("%s: %w", what, err)
}

// ID names the tab for as long as it lives (its target's ID), so that a
// trace tells a session's tabs apart.
func (p *Page) ID() string { return string(p.frame) }

// Gone reports whether the tab or the whole browser has gone away (the
// page closed itself, crashed, or the browser died).
func (p *Page) Gone() bool {
	if p.ctx.Err() != nil || p.Crashed() {
		return true
	}
	select {
	case <-p.detached:
		return true
	default:
		return false
	}
}
