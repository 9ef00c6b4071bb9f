package launcher

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
	"github.com/e2e-mcp/e2e-mcp/metrics"
	"go.uber.org/zap"
)

// Launching Chrome: the flags a test browser runs with, the profile and temp
// directories that go with it (profile.go removes them, and what a killed
// server left), and the circuit breaker that keeps a browser that will not
// start from being started on every call.

// Config is how a browser is launched or asked of a grid: what of the
// browser's options Chrome's command line carries, and where the launch
// logs.
type Config struct {
	// ExecPath is the browser executable; empty means [FindExecutable]("").
	ExecPath string
	// Headed shows browser windows instead of running headless.
	Headed bool
	// NoSandbox starts Chrome without its sandbox (as it always is as root).
	NoSandbox bool
	// IgnoreHTTPSErrors lets pages load whatever their certificate says.
	IgnoreHTTPSErrors bool
	// JavaScriptDisabled: pages' own scripts do not run.
	JavaScriptDisabled bool
	// ProfileRoot is where temporary profiles go; empty means the temp dir.
	ProfileRoot string
	// LaunchTimeout bounds starting the browser.
	LaunchTimeout time.Duration
	// WindowWidth and WindowHeight are the size of new windows; 0 means
	// Chrome's own.
	WindowWidth, WindowHeight int
	// ProxiedUDPOnly: connections go through a proxy of ours, so WebRTC's
	// UDP may use only what is proxied.
	ProxiedUDPOnly bool
	// Logger receives the launch's log lines.
	Logger *zap.Logger
	// Debugf receives chromedp's debug log of the DevTools traffic (the
	// caller masks it).
	Debugf func(string, ...any)
}

// Local is the browser this process launches, started when first asked
// for, with the circuit breaker that keeps a browser that will not start
// from being started on every call. It is not safe for concurrent use: its
// owner's lock guards it.
type Local struct {
	cfg Config
	log *zap.Logger

	bctx        context.Context // nil until launched
	bcancel     context.CancelFunc
	allocCancel context.CancelFunc
	profile     string
	tmp         string // Chrome's TMPDIR: inside the profile, or beside it
	// failures counts launches that failed in a row; nextTry is when the
	// next may be tried, lastErr why the last failed.
	failures int
	nextTry  time.Time
	lastErr  error
}

// NewLocal returns a Local that launches with cfg; it starts nothing yet.
func NewLocal(cfg Config) *Local {
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	return &Local{cfg: cfg, log: cfg.Logger}
}

// Browser returns the running browser's context, launching Chrome if none
// runs (again if the last one died: then it is cleaned up after first).
// launched says the context is a new browser's.
func (l *Local) Browser() (bctx context.Context, launched bool, err error) {
	if l.bctx != nil && l.bctx.Err() == nil {
		return l.bctx, false, nil
	}
	if l.bctx != nil {
		// The previous browser died (crash or kill): clean up after it.
		metrics.BrowserCrashed(metrics.CrashBrowser)
		l.log.Warn("browser is gone; launching a new one")
		l.Shutdown()
	}
	if l.cfg.Headed {
		// Not a launch that failed: no attempt could succeed, and what
		// Chrome would say of it is no help.
		if err := HeadedWithoutDisplay(); err != nil {
			return nil, false, err
		}
	}
	if l.failures > 0 && time.Now().Before(l.nextTry) {
		// A circuit breaker: a browser that fails to start is not started
		// again on every call; the wait doubles up to MaxBackoff.
		return nil, false, &refusal.Error{Kind: refusal.BrowserLaunchFail,
			Message: fmt.Sprintf("the browser failed to start %d time(s) in a row; the next attempt is in %s (last error: %v)",
				l.failures, time.Until(l.nextTry).Round(100*time.Millisecond), l.lastErr),
			Hint: "run 'e2e-mcp doctor' to check the browser; " + InstallHint}
	}
	b, err := l.start()
	if e, ok := refusal.As(err); ok && e.Kind == refusal.BrowserLaunchFail && e.Err != nil && l.failures == 0 {
		// Chrome exited as it started (not a launch that hung): that may
		// be passing, such as Debian's chromium script reading two lines
		// where it expects one size of /dev/shm on a busy machine, so it
		// is tried again at once before the circuit breaker counts it.
		l.log.Warn("the browser exited as it started: starting it once more", zap.Error(err))
		b, err = l.start()
	}
	if e, ok := refusal.As(err); ok && e.Kind == refusal.BrowserLaunchFail {
		l.failures++
		l.lastErr = err
		l.nextTry = time.Now().Add(min(time.Second<<min(l.failures-1, 5), MaxBackoff))
		return nil, false, err
	}
	if err != nil {
		return nil, false, err // no browser found: nothing was started
	}
	l.failures, l.lastErr = 0, nil
	return b, true, nil
}

// Current is the context of the browser launched last, or nil when none
// was or it was shut down; it may have died since.
func (l *Local) Current() context.Context { return l.bctx }

// Failures says how many launches failed in a row and why the last did.
func (l *Local) Failures() (int, error) { return l.failures, l.lastErr }

// PID is the launched browser's process ID, or 0 when it is not running.
func (l *Local) PID() int {
	if l.bctx == nil {
		return 0
	}
	if c := chromedp.FromContext(l.bctx); c != nil && c.Browser != nil && c.Browser.Process() != nil {
		return c.Browser.Process().Pid
	}
	return 0
}

// Profile is the launched browser's profile directory, or "".
func (l *Local) Profile() string { return l.profile }

// Shutdown stops the browser and removes its profile. It kills Chrome
// rather than asking it to close: the profile is thrown away, so nothing is
// lost, and a client that waits only a few seconds for us to exit (mcp-go's
// waits 2 s, then signals) must not see us hang on a busy browser.
func (l *Local) Shutdown() {
	if l.bctx == nil {
		return
	}
	l.bcancel()     // the first context of an allocator: kills the browser
	l.allocCancel() // waits for the process, then returns
	killProfileProcesses(l.profile)
	for _, d := range []string{l.profile, l.tmp} {
		if err := os.RemoveAll(d); err != nil {
			l.log.Warn("remove browser profile", zap.String("dir", d), zap.Error(err))
		}
	}
	l.bctx, l.bcancel, l.allocCancel, l.profile, l.tmp = nil, nil, nil, "", ""
}

// disabledFeatures are the Chrome features a test browser runs without
// (start says why); a grid's browsers are asked for the same (grid.go).
const disabledFeatures = "Translate,BlinkGenPropertyTrees,BackForwardCache,WebUIOmniboxPopup,WebUIOmniboxAimPopup,DeferRendererTasksAfterInput," +
	// Chrome's own traffic, which --disable-background-networking does not
	// stop, from inside each browser context, so through its request
	// policy, which reported it as the page's: Chromium 148 asks
	// www.google.com whether AI Mode is offered (AimEnabled) from every new
	// context; others preconnect to the search engine, fetch autofill and
	// optimization hints, look for cast devices, check the time.
	"AimEnabled,PreconnectToSearch,SearchEnginePreconnect2,AutofillServerCommunication,OptimizationHints," +
	"OptimizationGuideModelDownloading,MediaRouter,DialMediaRouteProvider,CertificateTransparencyComponentUpdater," +
	"NetworkTimeServiceQuerying,InterestFeedContentSuggestions"

// MaxBackoff bounds the wait between failed launches, and between failed
// connections to an endpoint.
const MaxBackoff = 30 * time.Second

// start launches Chrome.
func (l *Local) start() (context.Context, error) {
	path, err := FindExecutable(l.cfg.ExecPath)
	if err != nil {
		return nil, err
	}
	dir, err := NewProfileDir(l.cfg.ProfileRoot)
	if err != nil {
		return nil, fmt.Errorf("create browser profile: %w", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(dir),
		// Every session opens its tabs in a BrowserContext of its own, so
		// the default context's startup tab would be a renderer nobody
		// uses, and waiting for it would delay the first navigation.
		chromedp.Flag("no-startup-window", true),
	)
	for _, f := range l.cfg.Flags() {
		if f.Value == "" {
			opts = append(opts, chromedp.Flag(f.Name, true))
		} else {
			opts = append(opts, chromedp.Flag(f.Name, f.Value))
		}
	}
	// Chrome's temp files (its singleton socket's directory above all,
	// org.chromium.Chromium.*, left behind even on a clean exit) go into a
	// directory of ours that goes with the profile.
	tmp, err := chromeTempDir(dir)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("create browser temp directory: %w", err)
	}
	opts = append(opts, chromedp.Env("TMPDIR="+tmp))
	if os.Getuid() == 0 || l.cfg.NoSandbox {
		// Chrome refuses to start as root with its sandbox; in a container
		// without user namespaces (Docker's default seccomp profile) it
		// cannot make one, and the operator turned it off (--no-sandbox).
		opts = append(opts, chromedp.NoSandbox)
	}
	if l.cfg.Headed {
		opts = append(opts, chromedp.VisibleWindow)
	}
	if l.cfg.IgnoreHTTPSErrors {
		opts = append(opts, chromedp.IgnoreCertErrors)
	}
	if l.cfg.WindowWidth > 0 {
		// Windows big enough for the default viewport from the start,
		// which saves fitWindow a call for each session's window.
		opts = append(opts, chromedp.WindowSize(l.cfg.WindowWidth, l.cfg.WindowHeight))
	}
	if l.cfg.ProxiedUDPOnly {
		// Connections go through each context's policy proxy (policy.go);
		// WebRTC's UDP would not, so it may use only what is proxied.
		opts = append(opts, chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"))
	}
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(), opts...)
	sugar := l.log.Sugar()
	bctx, bcancel := chromedp.NewContext(allocCtx,
		chromedp.WithLogf(sugar.Debugf), chromedp.WithErrorf(sugar.Debugf), chromedp.WithDebugf(l.cfg.debugf()))

	// The first call binds the browser's lifetime to bctx, so it must not
	// carry a deadline; a timer cancels it instead if the launch hangs. It
	// is a browser-level call (a Run would wait for a startup tab to attach
	// to): turning on target discovery, which popups and titles need.
	timer := time.AfterFunc(l.cfg.LaunchTimeout, bcancel)
	start := time.Now()
	_, err = chromedp.CallBrowser(bctx, target.SetDiscoverTargets, target.SetDiscoverTargetsParams{Discover: true})
	stopped := timer.Stop()
	if err != nil {
		metrics.BrowserLaunched(false)
		bcancel()
		allocCancel()
		_ = os.RemoveAll(dir)
		_ = os.RemoveAll(tmp)
		// The cause is said once: as Err (the agent's answer puts it
		// after the message, in brackets), or as the timeout it was.
		msg, cause := "start "+path, err
		if !stopped {
			msg, cause = fmt.Sprintf("start %s: no answer within %s", path, l.cfg.LaunchTimeout), nil
		}
		return nil, &refusal.Error{Kind: refusal.BrowserLaunchFail, Message: msg,
			Hint: "run 'e2e-mcp doctor' to check the browser; " + InstallHint, Err: cause}
	}
	metrics.BrowserLaunched(true)
	l.bctx, l.bcancel, l.allocCancel, l.profile, l.tmp = bctx, bcancel, allocCancel, dir, tmp
	l.log.Info("browser launched", zap.String("path", path), zap.Int("pid", l.PID()),
		zap.String("profile", dir), zap.Duration("took", time.Since(start)))
	return bctx, nil
}

// Flag is a command-line switch of Chrome's: its name (no dashes) and
// value ("" for a switch without one).
type Flag struct{ Name, Value string }

// Flags are the switches of ours every browser we start gets, the one list
// both a local launch (start) and a grid's session (GridCaps) read.
func (c Config) Flags() []Flag {
	flags := []Flag{
		// What a locked-down machine needs: nothing phones home, nothing
		// updates itself, no first-run UI.
		{"disable-component-update", ""},
		{"disable-domain-reliability", ""},
		{"disable-quic", ""},
		{"no-pings", ""},
		{"disable-search-engine-choice-screen", ""},
		// Field trials turn on features the flags here turn off (and
		// change from one run to the next); services do not start by
		// themselves.
		{"disable-field-trial-config", ""},
		{"no-service-autorun", ""},
		{"mute-audio", ""},
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
		{"disable-features", disabledFeatures},
		// navigator.webdriver stays false, as in a person's browser (and
		// Playwright's): sites that check it for bots behave as they do
		// for people.
		{"disable-blink-features", "AutomationControlled"},
	}
	var blink []string
	if !c.Headed {
		// Headless Chromium has no pointing device: the page's media
		// queries answer (pointer: none) and (hover: none), and an app
		// that asks (MUI's pickers, menus that open on hover) renders
		// its touch layout, to the agent only: a desktop browser, a
		// headed one and Playwright's headless one (which sets the same)
		// have a mouse. These are Blink's values for a fine pointer that
		// hovers.
		blink = append(blink, "primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4")
	}
	if c.JavaScriptDisabled {
		// A popup's first document and a cross-site iframe's load before
		// a session of ours reaches them to disable their scripts
		// (pageSettings): the browser's own setting keeps those from
		// running too. (A browser of --cdp-endpoint has only the
		// sessions' setting.)
		blink = append(blink, "scriptEnabled=false")
	}
	if len(blink) > 0 {
		flags = append(flags, Flag{"blink-settings", strings.Join(blink, ",")})
	}
	return flags
}

// debugf is where chromedp's debug log goes: Debugf, or nowhere.
func (c Config) debugf() func(string, ...any) {
	if c.Debugf == nil {
		return func(string, ...any) {}
	}
	return c.Debugf
}

// logger is where the launch logs: Logger, or nowhere.
func (c Config) logger() *zap.Logger {
	if c.Logger == nil {
		return zap.NewNop()
	}
	return c.Logger
}
