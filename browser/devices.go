package browser

// What browser does with browser/devices: a session's Emulation applied to
// its tabs over CDP (the media, network state and clock it holds are
// applied by emulate.go, netstate.go and clock.go). The package's refusals
// come back as they are: AsError reads them as invalid_input errors.

import (
	"context"
	"fmt"
	"strings"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"go.uber.org/zap"
)

// SetEmulation lays change (and a device preset, if named) over what the
// session emulates, or with reset starts again from the browser's own, and
// applies it to every tab of the session now and to the tabs it opens
// later. It returns what is emulated now.
func (t *Tabs) SetEmulation(ctx context.Context, change devices.Emulation, device string, reset bool) (devices.Emulation, error) {
	base := t.setupOf().emulation
	if reset {
		base = devices.Emulation{}
	}
	e, err := base.Merge(change, device)
	if err != nil {
		return base, err
	}
	if err := t.applyPermissions(ctx, e); err != nil {
		return base, err
	}
	t.changeSetup(func(s *pageSetup) { s.emulation = e })
	for _, p := range t.livePages() {
		if err := p.applyEmulation(ctx, e); err != nil {
			// What a tab refused is not what the session emulates: the
			// tabs to come, and the next change, start from base again.
			t.changeSetup(func(s *pageSetup) { s.emulation = base })
			if perr := t.applyPermissions(ctx, base); perr != nil {
				t.m.log.Debug("restore the permissions after a refused emulation", zap.Error(perr))
			}
			for _, q := range t.livePages() {
				if qerr := q.applyEmulation(ctx, base); qerr != nil {
					t.m.log.Debug("restore a tab's emulation after a refused one", zap.Error(qerr))
				}
			}
			return base, err
		}
	}
	if (e.HTTPUser != "") != (base.HTTPUser != "") {
		return e, t.intercept(ctx) // authentication challenges are answered through Fetch
	}
	return e, nil
}

// Emulation is what the session emulates now.
func (t *Tabs) Emulation() devices.Emulation { return t.setupOf().emulation }

// applyPermissions grants the permissions of e (geolocation with a
// position) to every origin of the context, after revoking those granted
// before.
func (t *Tabs) applyPermissions(ctx context.Context, e devices.Emulation) error {
	cctx, cancel := t.browserCtx(ctx)
	defer cancel()
	if _, err := chromedp.CallBrowser(cctx, cdpbrowser.ResetPermissions, cdpbrowser.ResetPermissionsParams{BrowserContextID: t.id}); err != nil {
		return fmt.Errorf("reset permissions: %w", err)
	}
	for _, name := range e.Granted() {
		_, err := chromedp.CallBrowser(cctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name}, Setting: cdpbrowser.PermissionSettingGranted, BrowserContextID: t.id})
		if err != nil {
			return devices.PermissionRefused(name, err)
		}
	}
	return nil
}

// applyEmulation sets e in the page; each override is set or cleared, so
// a reset leaves nothing behind. The page sees a new size in its next
// rendering step: waited for, like a resize. The page's out-of-process
// iframes get the overrides that hold per frame (emulateFrames).
func (p *Page) applyEmulation(ctx context.Context, e devices.Emulation) error {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	run := func(what string, f func(context.Context) error) error {
		if err := p.unlessDialog(cctx, f, false); err != nil {
			if _, ok := AsError(err); ok {
				return err
			}
			return newError(KindInvalidInput, "check the value", "%s: %v", what, err)
		}
		return nil
	}
	for _, s := range emulationSteps(e, p) {
		if err := run(s.what, s.f); err != nil {
			return err
		}
	}
	p.emulateFrames(cctx, e)
	if p.Dialog() != nil || e.Width == 0 {
		return nil
	}
	// Chromium 148 fires resize with the new size before the new pixel
	// ratio: wait for both, then a frame, so that what the page does on
	// either (a resize handler, a resolution media query) is done.
	return p.evalEngine(cctx, fmt.Sprintf(`new Promise((done) => {
		const check = () => requestAnimationFrame(() => (innerWidth === %d && Math.abs(devicePixelRatio - %g) < 0.001) ? requestAnimationFrame(() => done(true)) : check());
		check(); setTimeout(() => done(true), 1000);
	})`, e.Width, e.PixelRatio()), nil)
}

// emulationStep sets or clears one override of an Emulation through the
// CDP session of the context it is given.
type emulationStep struct {
	what string
	f    func(context.Context) error
}

// emulationSteps are the overrides of e, in the order they are set: all of
// them for a tab (given), or, with tab nil, those that each frame's
// session holds for its own documents (an out-of-process iframe: touch,
// user agent and Accept-Language, locale, time zone, position, extra
// headers), not the tab's screen and CPU.
func emulationSteps(e devices.Emulation, tab *Page) []emulationStep {
	var steps []emulationStep
	if tab != nil {
		steps = append(steps, emulationStep{"viewport", func(c context.Context) error { return tab.setViewport(c, e) }})
	}
	steps = append(steps, []emulationStep{
		{"touch", func(c context.Context) error {
			_, err := chromedp.Call(c, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: e.Touch, MaxTouchPoints: 5})
			return err
		}},
		{"userAgent", func(c context.Context) error {
			ua := e.UserAgent
			if ua == "" && e.Locale != "" {
				// The language alone: the browser's own agent with it.
				v, err := chromedp.Call(c, cdpbrowser.GetVersion, cdp.Empty{})
				if err != nil {
					return err
				}
				ua = v.UserAgent
			}
			_, err := chromedp.Call(c, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: e.Locale})
			return err
		}},
		{"locale", func(c context.Context) error {
			// One override at a time: clear, then set. A renderer holds one
			// for all its frames: another session of the same context (a
			// same-site iframe, a tab sharing the process) may hold it
			// already, with the same value.
			if _, err := chromedp.Call(c, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{}); err != nil || e.Locale == "" {
				return devices.HeldElsewhere(err)
			}
			_, err := chromedp.Call(c, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: strings.ReplaceAll(e.Locale, "-", "_")})
			return devices.HeldElsewhere(err)
		}},
		{"timezoneId", func(c context.Context) error {
			_, err := chromedp.Call(c, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: e.TimezoneID})
			return devices.HeldElsewhere(err)
		}},
		{"geolocation", func(c context.Context) error {
			if e.Geolocation == nil {
				_, err := chromedp.Call(c, emulation.ClearGeolocationOverride, cdp.Empty{})
				return err
			}
			acc := e.Geolocation.Radius()
			_, err := chromedp.Call(c, emulation.SetGeolocationOverride, emulation.SetGeolocationOverrideParams{
				Latitude: &e.Geolocation.Latitude, Longitude: &e.Geolocation.Longitude, Accuracy: &acc})
			return err
		}},
		{"extraHTTPHeaders", func(c context.Context) error {
			h := network.Headers{}
			for k, v := range e.Headers {
				h[k] = v
			}
			_, err := chromedp.Call(c, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: h})
			return err
		}},
	}...)
	if tab != nil {
		steps = append(steps, emulationStep{"cpuThrottling", func(c context.Context) error { return setCPURate(c, e.CPUThrottling) }})
	}
	return steps
}

// emulateFrames sets the per-frame overrides of e (emulationSteps) in the
// page's out-of-process iframes, whose sessions the tab's overrides do not
// reach. An iframe may go at any time: what fails is logged, not the call.
func (p *Page) emulateFrames(ctx context.Context, e devices.Emulation) {
	p.mu.Lock()
	var hosts []*host
	for _, h := range p.frames.hosts {
		if h.ctx != nil {
			hosts = append(hosts, h)
		}
	}
	p.mu.Unlock()
	for _, h := range hosts {
		p.emulateFrame(ctx, h, e)
	}
}

// emulateFrame sets the per-frame overrides of e in one out-of-process
// iframe's session.
func (p *Page) emulateFrame(ctx context.Context, h *host, e devices.Emulation) {
	hc, cancel := context.WithCancel(h.ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	for _, s := range emulationSteps(e, nil) {
		if err := s.f(hc); err != nil {
			p.log.Debug("emulate in an out-of-process iframe", zap.String("what", s.what), zap.Error(err))
			return
		}
	}
}

// setViewport sets the viewport of e, or the session's default size
// (Options.Viewport) when e gives none, or the browser's own when neither
// does.
func (p *Page) setViewport(c context.Context, e devices.Emulation) error {
	w, h := e.Width, e.Height
	if w == 0 {
		w, h = p.m.opts.Viewport.Width, p.m.opts.Viewport.Height
	}
	if w == 0 {
		_, err := chromedp.Call(c, emulation.ClearDeviceMetricsOverride, cdp.Empty{})
		return err
	}
	params := emulation.SetDeviceMetricsOverrideParams{Width: int64(w), Height: int64(h), DeviceScaleFactor: e.PixelRatio(), Mobile: e.Mobile}
	if e.Width != 0 {
		// A device's screen is as big as its viewport; the default size
		// leaves the screen the window's, as Playwright does.
		params.ScreenWidth, params.ScreenHeight = int64(w), int64(h)
	}
	if _, err := chromedp.Call(c, emulation.SetDeviceMetricsOverride, params); err != nil {
		return err
	}
	p.fitWindow(c, w, h)
	return nil
}

// windowInsets is more than a window's frame and toolbars take (headless
// Chrome's 800x600 window shows a 780x493 page).
var windowInsets = devices.Size{Width: 32, Height: 128}

// fitWindow makes the tab's window at least big enough for a w by h
// viewport. An emulated viewport bigger than the window's page area is laid
// out, but the part beyond it is not presented: a click there runs the
// page's handler, but the page never learns when its result was shown
// (Event Timing, so INP, reports nothing). Best effort: a remote browser may
// keep its window as it is (maximized, or its own).
func (p *Page) fitWindow(c context.Context, w, h int) {
	win, err := chromedp.Call(c, cdpbrowser.GetWindowForTarget, cdpbrowser.GetWindowForTargetParams{})
	if err != nil || win.Bounds == nil {
		return
	}
	b := win.Bounds
	want := cdpbrowser.Bounds{Width: max(b.Width, int64(w+windowInsets.Width)), Height: max(b.Height, int64(h+windowInsets.Height))}
	if (b.WindowState != "" && b.WindowState != cdpbrowser.WindowStateNormal) || (want.Width == b.Width && want.Height == b.Height) {
		return
	}
	if _, err := chromedp.Call(c, cdpbrowser.SetWindowBounds, cdpbrowser.SetWindowBoundsParams{WindowID: win.WindowID, Bounds: &want}); err != nil {
		p.log.Debug("fit the window to the viewport", zap.Error(err))
	}
}

// setCPURate sets the tab's CPU slowdown (0 or 1: none).
func setCPURate(c context.Context, rate float64) error {
	if rate == 0 {
		rate = 1
	}
	_, err := chromedp.Call(c, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate})
	return err
}
