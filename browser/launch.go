package browser

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/metrics"
	"go.uber.org/zap"
)

// Launching Chrome: the flags a test browser runs with, the profile and temp
// directories that go with it (profile.go removes them, and what a killed
// server left), and the circuit breaker that keeps a browser that will not
// start from being started on every call.

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
		metrics.BrowserCrashed(metrics.CrashBrowser)
		m.log.Warn("browser is gone; launching a new one")
		m.shutdownLocked()
	}
	if m.opts.Headed {
		// Not a launch that failed: no attempt could succeed, and what
		// Chrome would say of it is no help.
		if err := HeadedWithoutDisplay(); err != nil {
			return nil, err
		}
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
	if e, ok := AsError(err); ok && e.Kind == KindBrowserLaunchFail && e.Err != nil && m.failures == 0 {
		// Chrome exited as it started (not a launch that hung): that may
		// be passing, such as Debian's chromium script reading two lines
		// where it expects one size of /dev/shm on a busy machine, so it
		// is tried again at once before the circuit breaker counts it.
		m.log.Warn("the browser exited as it started: starting it once more", zap.Error(err))
		b, err = m.start()
	}
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
		// Every session opens its tabs in a BrowserContext of its own, so
		// the default context's startup tab would be a renderer nobody
		// uses, and waiting for it would delay the first navigation.
		chromedp.Flag("no-startup-window", true),
	)
	for _, f := range m.chromeFlags() {
		if f.value == "" {
			opts = append(opts, chromedp.Flag(f.name, true))
		} else {
			opts = append(opts, chromedp.Flag(f.name, f.value))
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
	if os.Getuid() == 0 || m.opts.NoSandbox {
		// Chrome refuses to start as root with its sandbox; in a container
		// without user namespaces (Docker's default seccomp profile) it
		// cannot make one, and the operator turned it off (--no-sandbox).
		opts = append(opts, chromedp.NoSandbox)
	}
	if m.opts.Headed {
		opts = append(opts, chromedp.VisibleWindow)
	}
	if m.opts.IgnoreHTTPSErrors {
		opts = append(opts, chromedp.IgnoreCertErrors)
	}
	if v := m.opts.Viewport; v.Width > 0 {
		// Windows big enough for the default viewport from the start,
		// which saves fitWindow a call for each session's window.
		opts = append(opts, chromedp.WindowSize(v.Width+windowInsets.Width, v.Height+windowInsets.Height))
	}
	if m.policy().Intercepts() {
		// Connections go through each context's policy proxy (policy.go);
		// WebRTC's UDP would not, so it may use only what is proxied.
		opts = append(opts, chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"))
	}
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(), opts...)
	sugar := m.log.Sugar()
	bctx, bcancel := chromedp.NewContext(allocCtx,
		chromedp.WithLogf(sugar.Debugf), chromedp.WithErrorf(sugar.Debugf), chromedp.WithDebugf(cdpDebugf(m.log)))

	// The first call binds the browser's lifetime to bctx, so it must not
	// carry a deadline; a timer cancels it instead if the launch hangs. It
	// is a browser-level call (a Run would wait for a startup tab to attach
	// to): turning on target discovery, which popups and titles need.
	timer := time.AfterFunc(m.opts.LaunchTimeout, bcancel)
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
			msg, cause = fmt.Sprintf("start %s: no answer within %s", path, m.opts.LaunchTimeout), nil
		}
		return nil, &Error{Kind: KindBrowserLaunchFail, Message: msg,
			Hint: "run 'e2e-mcp doctor' to check the browser; " + InstallHint, Err: cause}
	}
	metrics.BrowserLaunched(true)
	m.browserCtx, m.browserCancel, m.allocCancel, m.profile, m.chromeTmp = bctx, bcancel, allocCancel, dir, tmp
	go m.watch(bctx, func(why string) { m.hungLocal(bctx, why) })
	m.log.Info("browser launched", zap.String("path", path), zap.Int("pid", m.pidLocked()),
		zap.String("profile", dir), zap.Duration("took", time.Since(start)))
	return bctx, nil
}

// chromeFlag is a command-line switch of Chrome's: its name (no dashes)
// and value ("" for a switch without one).
type chromeFlag struct{ name, value string }

// chromeFlags are the switches of ours every browser we start gets, the one
// list both a local launch (start) and a grid's session (gridCaps) read.
func (m *Manager) chromeFlags() []chromeFlag {
	flags := []chromeFlag{
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
	if !m.opts.Headed {
		// Headless Chromium has no pointing device: the page's media
		// queries answer (pointer: none) and (hover: none), and an app
		// that asks (MUI's pickers, menus that open on hover) renders
		// its touch layout, to the agent only: a desktop browser, a
		// headed one and Playwright's headless one (which sets the same)
		// have a mouse. These are Blink's values for a fine pointer that
		// hovers.
		blink = append(blink, "primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4")
	}
	if m.opts.JavaScriptDisabled {
		// A popup's first document and a cross-site iframe's load before
		// a session of ours reaches them to disable their scripts
		// (pageSettings): the browser's own setting keeps those from
		// running too. (A browser of --cdp-endpoint has only the
		// sessions' setting.)
		blink = append(blink, "scriptEnabled=false")
	}
	if len(blink) > 0 {
		flags = append(flags, chromeFlag{"blink-settings", strings.Join(blink, ",")})
	}
	return flags
}
