package browser

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
)

// What an action's handlers start a little later. A click whose handler
// navigates or opens a dialog from a timer (setTimeout(go, 100)) has ended
// when its events have been dispatched, and its answer would show the page
// before the timer fired. Playwright MCP waits a fixed half second after
// every action for that; here a watcher in the page's own world
// (pagejs/watch.js) notes the timers set while an action's trusted events
// are dispatched, due within the settle time, and the engine's world keeps
// when the last is due (pagejs/watch_engine.js). settle's first round trip
// reads it (it made one anyway): an action that set no such timer pays
// nothing, one that did waits until it has fired, and then for what it
// started, as for what the action started itself (docs/architecture.md §5).

//go:embed pagejs/watch.js pagejs/watch_engine.js
var watchFiles embed.FS

// watchChannel is the private name of the events that carry the notes
// from the page's world to the engine's: random for each process, so that
// a page can neither listen for it nor send it knowingly.
var watchChannel = sync.OnceValue(func() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "e2e" + hex.EncodeToString(b)
})

// watchSource reads a watcher file: a function expression, called here
// with its argument.
func watchSource(name string, arg any) string {
	b, err := watchFiles.ReadFile("pagejs/" + name)
	if err != nil {
		panic(err)
	}
	a, _ := json.Marshal(arg)
	return string(b) + "(" + string(a) + ");"
}

// watchScripts are the page-world watcher, set up for this manager's
// settle time and, for a browser we did not launch (remote), to keep
// navigator.webdriver false; and the engine-world listener.
func (m *Manager) watchScripts(remote bool) (pageWorld, engineWorld string) {
	cfg := struct {
		Channel   string  `json:"channel"`
		Max       float64 `json:"max"`
		Webdriver bool    `json:"webdriver"`
	}{watchChannel(), float64(m.opts.SettleTime) / float64(time.Millisecond), remote}
	return watchSource("watch.js", cfg), watchSource("watch_engine.js", watchChannel())
}

// installWatch runs the watcher in a session's current and next documents:
// the engine's listener first, so no note is lost.
func (p *Page) installWatch(ctx context.Context, h *host) error {
	pw, ew := p.m.watchScripts(p.tabs != nil && p.tabs.remote != nil)
	if _, err := callOn(ctx, h, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: ew, WorldName: worldName, RunImmediately: new(true)}); err != nil {
		return fmt.Errorf("watch the page's timers: %w", err)
	}
	if _, err := callOn(ctx, h, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: pw, RunImmediately: new(true)}); err != nil {
		return fmt.Errorf("watch the page's timers: %w", err)
	}
	return nil
}

// fnTakeTimers asks the engine's world how long until the last timer an
// action's handler set fires, in ms (0: none pending), and whether a
// download link was clicked, and forgets them.
const fnTakeTimers = "globalThis.__e2eWatch ? globalThis.__e2eWatch.take() : {ms: 0, download: false, frame: false}"

// started is what the watcher saw an action's handlers start.
type started struct {
	// timers is how long until the last timer they set fires (0: none).
	timers time.Duration
	// download: a click reached a download link; frame: a callback for
	// the next frame was asked for.
	download, frame bool
}

// takeTimers is settle's first round trip: it says what the action's
// handlers started that the action waits for.
func (p *Page) takeTimers(ctx context.Context) (started, error) {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	var r struct {
		MS       float64 `json:"ms"`
		Download bool    `json:"download"`
		Frame    bool    `json:"frame"`
	}
	if err := p.evalEngine(cctx, fnTakeTimers, &r); err != nil {
		return started{}, err
	}
	return started{timers: time.Duration(r.MS * float64(time.Millisecond)), download: r.Download, frame: r.Frame}, nil
}

// frameWait bounds the wait for a frame: a tab that is not shown paints
// none.
const frameWait = 100 * time.Millisecond

// waitFrame waits in the page until its next frame's callbacks have run
// (the engine's, asked for after the page's, runs after them), or
// frameWait.
func (p *Page) waitFrame(ctx context.Context) {
	p.waitInPage(ctx, fmt.Sprintf("new Promise((done) => { requestAnimationFrame(() => done()); setTimeout(done, %d); })", frameWait.Milliseconds()), frameWait)
}

// waitTimers waits in the page until the timers due within left have
// fired: the engine's own timer, due just after them, runs after theirs.
func (p *Page) waitTimers(ctx context.Context, left time.Duration) {
	p.waitInPage(ctx, fmt.Sprintf("new Promise((done) => setTimeout(done, %d))", int64(left/time.Millisecond)+1), left)
}

// waitInPage awaits a promise expression in the engine's world of the
// page's main frame, for up to took plus the action timeout. A dialog the
// page opens meanwhile ends the wait (the page is blocked until it is
// answered), and so does a navigation (the world goes with its document).
func (p *Page) waitInPage(ctx context.Context, expr string, took time.Duration) {
	cctx, cancel := p.callCtx(ctx, took+p.m.opts.ActionTimeout)
	defer cancel()
	p.mu.Lock()
	w, ok := p.worlds[p.frame]
	p.mu.Unlock()
	if !ok {
		return
	}
	_ = p.unlessDialog(cctx, func(ctx context.Context) error {
		_, err := callOn(ctx, w.host, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, UniqueContextID: w.unique, AwaitPromise: new(true)})
		return err
	}, true)
}
