package browser

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/metrics"
	"github.com/e2e-mcp/e2e-mcp/netpolicy"
	"go.uber.org/zap"
)

// Options configure a [Manager]. The zero value of a field means its default.
type Options struct {
	// ExecPath is the browser executable; empty means [FindExecutable]("").
	ExecPath string
	// Headed shows browser windows instead of running headless.
	Headed bool
	// ProfileRoot is where temporary profiles go; empty means the temp dir.
	ProfileRoot string
	// ActionTimeout bounds waiting for an element to become actionable (5s).
	ActionTimeout time.Duration
	// NavigationTimeout bounds a navigation (30s).
	NavigationTimeout time.Duration
	// TestIDAttribute is the attribute testid= selectors match (data-testid).
	TestIDAttribute string
	// LaunchTimeout bounds starting the browser (30s).
	LaunchTimeout time.Duration
	// Logger receives the browser's log lines; nil means none.
	Logger *zap.Logger
	// Endpoints are browsers elsewhere to use instead of launching one:
	// sessions are spread across them.
	Endpoints []Endpoint
	// Policy decides which requests pages may make (policy.go); nil means
	// the default: file:// blocked, nothing intercepted.
	Policy *netpolicy.Policy
	// SnapshotBudget is about how many bytes a snapshot may take before it
	// is folded (docs/architecture.md §5); 0 means never fold.
	SnapshotBudget int
}

func (o *Options) setDefaults() {
	if o.ActionTimeout <= 0 {
		o.ActionTimeout = 5 * time.Second
	}
	if o.NavigationTimeout <= 0 {
		o.NavigationTimeout = 30 * time.Second
	}
	if o.LaunchTimeout <= 0 {
		o.LaunchTimeout = 30 * time.Second
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
}

// Manager owns one Chrome process, launched on first use and shared by all
// pages; every [Page] gets its own BrowserContext on it.
type Manager struct {
	opts Options
	log  *zap.Logger

	mu            sync.Mutex
	closed        bool
	browserCtx    context.Context // nil until launched
	browserCancel context.CancelFunc
	allocCancel   context.CancelFunc
	profile       string
	chromeTmp     string // Chrome's TMPDIR: inside the profile, or beside it
	pages         map[*Page]struct{}
	guards        map[context.Context]*browserGuard // the request policy at the browser level, per browser
	remotes       []*remoteBrowser                  // with Options.Endpoints: the browsers elsewhere
	// failures counts launches that failed in a row; nextTry is when the
	// next may be tried, lastErr why the last failed.
	failures int
	nextTry  time.Time
	lastErr  error
}

// NewManager returns a Manager; it starts no process until a page is needed.
func NewManager(opts Options) *Manager {
	opts.setDefaults()
	m := &Manager{opts: opts, log: opts.Logger.Named("browser"), pages: map[*Page]struct{}{}}
	for _, ep := range opts.Endpoints {
		m.remotes = append(m.remotes, &remoteBrowser{ep: ep})
	}
	return m
}

// launch starts Chrome if it is not running. It is called with m.mu held.
func (m *Manager) launch() (context.Context, error) {
	if m.closed {
		return nil, ErrClosed
	}
	if m.browserCtx != nil && m.browserCtx.Err() == nil {
		return m.browserCtx, nil
	}
	if m.browserCtx != nil {
		// The previous browser died (crash or kill): clean up after it.
		metrics.BrowserCrashes.WithLabelValues("browser").Inc()
		m.log.Warn("browser is gone; launching a new one")
		m.shutdownLocked()
	}
	if m.failures > 0 && time.Now().Before(m.nextTry) {
		// A circuit breaker: a browser that fails to start is not started
		// again on every call; the wait doubles up to maxLaunchBackoff.
		return nil, &Error{Kind: KindBrowserLaunchFail,
			Message: fmt.Sprintf("the browser failed to start %d time(s) in a row; the next attempt is in %s (last error: %v)",
				m.failures, time.Until(m.nextTry).Round(100*time.Millisecond), m.lastErr),
			Hint: "run 'e2e-mcp doctor' to check the browser; " + InstallHint}
	}
	b, err := m.start()
	if e, ok := AsError(err); ok && e.Kind == KindBrowserLaunchFail {
		m.failures++
		m.lastErr = err
		m.nextTry = time.Now().Add(min(time.Second<<min(m.failures-1, 5), maxLaunchBackoff))
		return nil, err
	}
	if err != nil {
		return nil, err // no browser found: nothing was started
	}
	m.failures, m.lastErr = 0, nil
	return b, nil
}

// maxLaunchBackoff bounds the wait between failed launches.
const maxLaunchBackoff = 30 * time.Second

// start launches Chrome. It is called with m.mu held.
func (m *Manager) start() (context.Context, error) {
	path, err := FindExecutable(m.opts.ExecPath)
	if err != nil {
		return nil, err
	}
	dir, err := newProfileDir(m.opts.ProfileRoot)
	if err != nil {
		return nil, fmt.Errorf("create browser profile: %w", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(dir),
		// What a locked-down machine needs: nothing phones home, nothing
		// updates itself, no first-run UI.
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("disable-search-engine-choice-screen", true),
		chromedp.Flag("mute-audio", true),
		// The back/forward cache keeps left pages alive in their renderers
		// (memory a test run does not need), and a page restored from it
		// fires no load event to wait for. The WebUI omnibox popups cost
		// a renderer per window, so per session (each BrowserContext has
		// a window) though nobody types in a headless omnibox: measured
		// with 4 sessions, 602 -> 420 MB PSS for the browser. After a
		// click, Chrome defers the page's other tasks (the answer of the
		// fetch the click started) until it has painted a frame, which on
		// a big page waits a frame or two; a test wants the page's answer:
		// measured on a 1,500-row table, a click's answer 37 -> 32 ms.
		chromedp.Flag("disable-features", "Translate,BlinkGenPropertyTrees,BackForwardCache,WebUIOmniboxPopup,WebUIOmniboxAimPopup,DeferRendererTasksAfterInput"),
		// Every session opens its tabs in a BrowserContext of its own, so
		// the default context's startup tab would be a renderer nobody
		// uses, and waiting for it would delay the first navigation.
		chromedp.Flag("no-startup-window", true),
	)
	// Chrome's temp files (its singleton socket's directory above all,
	// org.chromium.Chromium.*, left behind even on a clean exit) go into a
	// directory of ours that goes with the profile.
	tmp, err := chromeTempDir(dir)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("create browser temp directory: %w", err)
	}
	opts = append(opts, chromedp.Env("TMPDIR="+tmp))
	if os.Getuid() == 0 {
		// Chrome refuses to start as root with its sandbox.
		opts = append(opts, chromedp.NoSandbox)
	}
	if m.opts.Headed {
		opts = append(opts, chromedp.VisibleWindow)
	}
	if m.policy().Intercepts() {
		// Connections go through each context's policy proxy (policy.go);
		// WebRTC's UDP would not, so it may use only what is proxied.
		opts = append(opts, chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"))
	}
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(), opts...)
	sugar := m.log.Sugar()
	bctx, bcancel := chromedp.NewContext(allocCtx,
		chromedp.WithLogf(sugar.Debugf), chromedp.WithErrorf(sugar.Debugf), chromedp.WithDebugf(sugar.Debugf))

	// The first call binds the browser's lifetime to bctx, so it must not
	// carry a deadline; a timer cancels it instead if the launch hangs. It
	// is a browser-level call (a Run would wait for a startup tab to attach
	// to): turning on target discovery, which popups and titles need.
	timer := time.AfterFunc(m.opts.LaunchTimeout, bcancel)
	start := time.Now()
	_, err = chromedp.CallBrowser(bctx, target.SetDiscoverTargets, target.SetDiscoverTargetsParams{Discover: true})
	stopped := timer.Stop()
	if err != nil {
		metrics.BrowserLaunches.WithLabelValues("failed").Inc()
		bcancel()
		allocCancel()
		_ = os.RemoveAll(dir)
		_ = os.RemoveAll(tmp)
		msg := err.Error()
		if !stopped {
			msg = fmt.Sprintf("no answer within %s", m.opts.LaunchTimeout)
		}
		return nil, &Error{Kind: KindBrowserLaunchFail, Message: fmt.Sprintf("start %s: %s", path, msg),
			Hint: "run 'e2e-mcp doctor' to check the browser; " + InstallHint, Err: err}
	}
	metrics.BrowserLaunches.WithLabelValues("ok").Inc()
	m.browserCtx, m.browserCancel, m.allocCancel, m.profile, m.chromeTmp = bctx, bcancel, allocCancel, dir, tmp
	go m.watch(bctx, func(why string) { m.hungLocal(bctx, why) })
	m.log.Info("browser launched", zap.String("path", path), zap.Int("pid", m.pidLocked()),
		zap.String("profile", dir), zap.Duration("took", time.Since(start)))
	return bctx, nil
}

func (m *Manager) pidLocked() int {
	if m.browserCtx == nil {
		return 0
	}
	if c := chromedp.FromContext(m.browserCtx); c != nil && c.Browser != nil && c.Browser.Process() != nil {
		return c.Browser.Process().Pid
	}
	return 0
}

// PID is the browser's process ID, or 0 when it is not running.
func (m *Manager) PID() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.pidLocked()
}

// ProfileDir is the running browser's profile directory, or "".
func (m *Manager) ProfileDir() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.profile
}

// Version launches the browser if needed and returns its product string,
// such as "Chrome/156.0.8078.79".
func (m *Manager) Version(ctx context.Context) (string, error) {
	m.mu.Lock()
	var bctx context.Context
	var err error
	if len(m.remotes) > 0 {
		var rb *remoteBrowser
		if rb, err = m.remoteFor(); err == nil {
			bctx = rb.bctx
			rb.tabs-- // only looking
		}
	} else {
		bctx, err = m.launch()
	}
	m.mu.Unlock()
	if err != nil {
		return "", err
	}
	cctx, cancel := context.WithCancel(bctx)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	v, err := chromedp.CallBrowser(cctx, browser.GetVersion, cdp.Empty{})
	if err != nil {
		return "", fmt.Errorf("browser version: %w", err)
	}
	return v.Product, nil
}

// shutdownLocked stops the browser and removes its profile. It kills
// Chrome rather than asking it to close: the profile is thrown away, so
// nothing is lost, and a client that waits only a few seconds for us to
// exit (mcp-go's waits 2 s, then signals) must not see us hang on a busy
// browser.
func (m *Manager) shutdownLocked() {
	if m.browserCtx == nil {
		return
	}
	m.browserCancel() // the first context of an allocator: kills the browser
	m.allocCancel()   // waits for the process, then returns
	killProfileProcesses(m.profile)
	for _, d := range []string{m.profile, m.chromeTmp} {
		if err := os.RemoveAll(d); err != nil {
			m.log.Warn("remove browser profile", zap.String("dir", d), zap.Error(err))
		}
	}
	m.browserCtx, m.browserCancel, m.allocCancel, m.profile, m.chromeTmp = nil, nil, nil, "", ""
}

// Close closes every page and the browser and removes its profile. It is
// safe to call more than once.
func (m *Manager) Close() error {
	m.mu.Lock()
	pages := make([]*Page, 0, len(m.pages))
	for p := range m.pages {
		pages = append(pages, p)
	}
	m.closed = true
	remote := len(m.remotes) > 0
	m.mu.Unlock()
	if remote {
		// Remote browsers stay: dispose of our browser contexts in them
		// while connected, then disconnect.
		for _, p := range pages {
			if p.tabs != nil {
				p.tabs.Close()
			}
		}
		m.mu.Lock()
		m.disconnectLocked()
		m.mu.Unlock()
		return nil
	}
	m.mu.Lock()
	m.shutdownLocked()
	m.mu.Unlock()
	// The browser is gone: closing the pages only releases their contexts.
	for _, p := range pages {
		p.Close()
	}
	return nil
}
