package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"go.uber.org/zap"
)

// execContext is one JavaScript execution context of a frame, and the CDP
// session (host) it is reached through.
type execContext struct {
	id     runtime.ExecutionContextID
	unique string
	host   *host
}

// ConsoleMessage is a console error or uncaught exception of the page.
type ConsoleMessage struct {
	Level string `json:"level"`
	Text  string `json:"text"`
}

// maxConsole bounds the console errors a page keeps between two reads.
const maxConsole = 50

// Page is one tab in its own BrowserContext. Its methods must not be called
// concurrently (the session serializes them); the event state they read is
// guarded by mu because CDP events arrive on another goroutine.
type Page struct {
	m      *Manager
	ctx    context.Context // the chromedp tab context
	cancel context.CancelFunc
	log    *zap.Logger
	frame  cdp.FrameID // the main frame; its ID is the target's

	// refSeq is the last ref number handed out in this page's session; refs
	// are never reused, not even across navigations.
	refSeq int

	// main is the tab's own session; hosts are the sessions of
	// out-of-process iframes, by target ID.
	main *host

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every state change
	worlds   map[cdp.FrameID]execContext
	mains    map[cdp.FrameID]execContext
	frames   frameTable
	navSeq   int // main-frame navigations requested or started
	loadSeq  int // main-frame loads finished
	stopSeq  int // main-frame loading stopped (with or without a new document)
	inflight map[network.RequestID]time.Time
	console  []ConsoleMessage
	dropped  int
	dialogs  []string
	closed   bool
}

// NewPage opens a tab in a new BrowserContext, launching the browser first if
// needed, and injects the page engine into it.
func (m *Manager) NewPage(ctx context.Context) (*Page, error) {
	m.mu.Lock()
	bctx, err := m.launch()
	if err != nil {
		m.mu.Unlock()
		return nil, err
	}
	p := &Page{m: m, log: m.log, changed: make(chan struct{}),
		worlds: map[cdp.FrameID]execContext{}, mains: map[cdp.FrameID]execContext{},
		inflight: map[network.RequestID]time.Time{}, frames: newFrameTable()}
	p.main = &host{}
	p.ctx, p.cancel = chromedp.NewContext(bctx, chromedp.WithNewBrowserContext(), chromedp.WithListener(p.listener(p.main)))
	p.main.ctx, p.main.cancel = p.ctx, p.cancel
	m.pages[p] = struct{}{}
	m.mu.Unlock()

	// Creating the target must not run under the caller's deadline: the
	// first Do binds the tab's lifetime to its context.
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(p.ctx) }()
	select {
	case err = <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err == nil {
		c := chromedp.FromContext(p.ctx)
		p.frame = cdp.FrameID(c.Target.TargetID)
		p.main.target = c.Target.TargetID
		cctx, cancel := p.callCtx(ctx, m.opts.ActionTimeout)
		_, err = chromedp.Call(cctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: engineJS, WorldName: worldName, RunImmediately: new(true)})
		cancel()
	}
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("open tab: %w", err)
	}
	return p, nil
}

// callCtx derives a context for one call: it ends at the timeout, when the
// caller's ctx ends, or when the tab closes. It never becomes the parent of
// the tab, so ending it does not close anything.
func (p *Page) callCtx(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	cctx, cancel := context.WithTimeout(p.ctx, d)
	stop := context.AfterFunc(ctx, cancel)
	return cctx, func() { stop(); cancel() }
}

// Close closes the tab and disposes its BrowserContext (cookies, storage).
func (p *Page) Close() {
	p.mu.Lock()
	already := p.closed
	p.closed = true
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
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.frameEventLocked(h, ev) {
		p.signalLocked()
		return
	}
	if h != p.main {
		return // navigation, network and console: the tab's own, for now
	}
	switch e := ev.(type) {
	case *page.EventFrameStartedNavigating:
		// Only a new document brings a load event to wait for; fragment and
		// history.pushState navigations change the URL in place.
		if e.FrameID == p.frame && e.NavigationType != page.FrameStartedNavigatingNavigationTypeSameDocument &&
			e.NavigationType != page.FrameStartedNavigatingNavigationTypeHistorySameDocument {
			p.navSeq++
		}
	case *page.EventFrameStoppedLoading:
		// Also the end of a navigation that loads nothing (204, a download,
		// one cancelled by the page).
		if e.FrameID == p.frame {
			p.stopSeq++
		}
	case *page.EventLoadEventFired:
		p.loadSeq++
	case *network.EventRequestWillBeSent:
		p.inflight[e.RequestID] = time.Now()
	case *network.EventLoadingFinished:
		delete(p.inflight, e.RequestID)
	case *network.EventLoadingFailed:
		delete(p.inflight, e.RequestID)
	case *runtime.EventConsoleAPICalled:
		if e.Type != runtime.ConsoleAPICalledTypeError && e.Type != runtime.ConsoleAPICalledTypeAssert {
			return
		}
		var parts []string
		for _, a := range e.Args {
			parts = append(parts, remoteText(a))
		}
		p.addConsoleLocked(ConsoleMessage{Level: "error", Text: strings.Join(parts, " ")})
	case *runtime.EventExceptionThrown:
		text := e.ExceptionDetails.Text
		if ex := e.ExceptionDetails.Exception; ex != nil && ex.Description != "" {
			text = firstLine(ex.Description)
		}
		p.addConsoleLocked(ConsoleMessage{Level: "exception", Text: text})
	case *page.EventJavascriptDialogOpening:
		// Until the dialog tools exist, answer dialogs at once so that the
		// page never stalls, and report them in the next response.
		p.dialogs = append(p.dialogs, fmt.Sprintf("%s: %s", e.Type, e.Message))
		accept := e.Type == page.DialogTypeAlert || e.Type == page.DialogTypeBeforeunload
		go func() {
			ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
			defer cancel()
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: accept})
		}()
	default:
		return
	}
	p.signalLocked()
}

func (p *Page) addConsoleLocked(m ConsoleMessage) {
	if len(p.console) >= maxConsole {
		p.console = p.console[1:]
		p.dropped++
	}
	p.console = append(p.console, m)
}

// TakeEvents returns the console errors and dialogs seen since the last call
// and forgets them, with the number of console errors dropped for space.
func (p *Page) TakeEvents() (console []ConsoleMessage, dropped int, dialogs []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	console, dropped, dialogs = p.console, p.dropped, p.dialogs
	p.console, p.dropped, p.dialogs = nil, 0, nil
	return
}

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
var contextGoneRE = regexp.MustCompile(`(?i)cannot find (default )?(execution )?context|execution context was destroyed|inspected target navigated`)

// engineErrRE matches the typed errors the engine throws, "kind: message".
var engineErrRE = regexp.MustCompile(`^(?:Error: )?(ref_not_found|ref_stale|element_not_found|not_unique|invalid_input|enter_frame): (.*)`)

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
		res, err := callOn(ctx, w.host, runtime.Evaluate, runtime.EvaluateParams{
			Expression: expr, UniqueContextID: w.unique, ReturnByValue: new(true), AwaitPromise: new(true)})
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
			return p.engineError(res.ExceptionDetails)
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
}

// engineError turns an exception thrown in the engine's world into an error.
func (p *Page) engineError(d *runtime.ExceptionDetails) error {
	msg := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		msg = firstLine(d.Exception.Description)
	}
	if m := engineErrRE.FindStringSubmatch(msg); m != nil {
		kind := Kind(m[1])
		switch kind {
		case KindRefNotFound, KindRefStale:
			return &Error{Kind: kind, Message: m[2], Hint: "take a new snapshot (browser_snapshot) and use a ref from it"}
		case KindElementNotFound:
			return &Error{Kind: kind, Message: m[2], Hint: "check the selector, or take a snapshot and use a ref"}
		case KindNotUnique:
			return &Error{Kind: kind, Message: m[2], Hint: "use one of the refs listed, or a more specific selector"}
		default:
			return &Error{Kind: kind, Message: m[2]}
		}
	}
	return &Error{Kind: KindScriptError, Message: msg}
}

// ctxError classifies a failed CDP call: the browser gone, a timeout, or
// something else.
func (p *Page) ctxError(ctx context.Context, err error, what string) error {
	switch {
	case p.ctx.Err() != nil:
		return &Error{Kind: KindBrowserCrashed, Message: "the browser tab is gone (" + what + ")",
			Hint: "call the tool again: a new tab is opened; state of the old one is lost", Err: err}
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return &Error{Kind: KindTimeout, Message: what + " timed out", Err: err}
	}
	return fmt.Errorf("%s: %w", what, err)
}

// Gone reports whether the tab or the whole browser has gone away.
func (p *Page) Gone() bool { return p.ctx.Err() != nil }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// remoteText renders a console argument as the console would, briefly.
func remoteText(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	if len(o.Value) > 0 {
		var s string
		if json.Unmarshal(o.Value, &s) == nil {
			return s
		}
		return string(o.Value)
	}
	if o.UnserializableValue != "" {
		return string(o.UnserializableValue)
	}
	return o.Description
}
