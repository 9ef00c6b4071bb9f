package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	// The time zone database, in the binary: CheckTimezone answers the
	// same on a machine without one (a slim container image).
	_ "time/tzdata"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"go.uber.org/zap"
	"golang.org/x/text/language"
)

// Emulation is what a session's pages are made to believe about the device
// and the user: screen, touch, user agent, locale, time zone, position,
// permissions, extra request headers and a slower CPU. A zero field is the
// browser's own; Tabs.SetEmulation merges a change into what is set.
type Emulation struct {
	Width             int     `json:"width,omitempty"`
	Height            int     `json:"height,omitempty"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor,omitempty"`
	Mobile            bool    `json:"isMobile,omitempty"`
	Touch             bool    `json:"hasTouch,omitempty"`
	UserAgent         string  `json:"userAgent,omitempty"`
	Locale            string  `json:"locale,omitempty"`
	TimezoneID        string  `json:"timezoneId,omitempty"`
	// Geolocation is the position navigator.geolocation reports (its
	// permission granted with it).
	Geolocation *Position `json:"geolocation,omitempty"`
	// Permissions are granted to every origin (geolocation, notifications,
	// camera, microphone, clipboard-read, ...).
	Permissions []string          `json:"permissions,omitempty"`
	Headers     map[string]string `json:"extraHTTPHeaders,omitempty"`
	// CPUThrottling slows the CPU down this many times (1: not at all).
	CPUThrottling float64 `json:"cpuThrottling,omitempty"`
	// HTTPUser and HTTPPassword answer the HTTP authentication (Basic,
	// Digest) that HTTPOrigin asks for, and no other origin's (as
	// Playwright's httpCredentials.origin); the password is never shown.
	HTTPUser     string `json:"httpUsername,omitempty"`
	HTTPPassword string `json:"-"`
	HTTPOrigin   string `json:"httpOrigin,omitempty"`
}

// Position is a geolocation.
type Position struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
	Accuracy  float64 `json:"accuracy,omitempty"`
}

// Devices are the presets of SetEmulation, as the devices report
// themselves (screen in CSS pixels, pixel ratio, browser's user agent).
var Devices = map[string]Emulation{
	"iPhone 15": {Width: 393, Height: 659, DeviceScaleFactor: 3, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"},
	"Pixel 7": {Width: 412, Height: 839, DeviceScaleFactor: 2.625, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"},
	"Galaxy S24": {Width: 360, Height: 780, DeviceScaleFactor: 3, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"},
	"iPad Pro 11": {Width: 834, Height: 1194, DeviceScaleFactor: 2, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"},
	"Desktop 1080p": {Width: 1920, Height: 1080, DeviceScaleFactor: 1},
	// Names Playwright's device list has too (its --device takes them),
	// with the viewport and pixel ratio it gives each: a user's --device
	// "Pixel 10" lays pages out as under Playwright MCP (make pwmcp-check
	// runs their test of --mobile's width).
	"iPhone 17": {Width: 402, Height: 681, DeviceScaleFactor: 3, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1"},
	"iPhone 15 Pro": {Width: 393, Height: 659, DeviceScaleFactor: 3, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"},
	"iPhone 15 Pro Max": {Width: 430, Height: 739, DeviceScaleFactor: 3, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"},
	"iPhone 14": {Width: 390, Height: 664, DeviceScaleFactor: 3, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1"},
	"iPhone 13": {Width: 390, Height: 664, DeviceScaleFactor: 3, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 15_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.7 Mobile/15E148 Safari/604.1"},
	"iPhone 12": {Width: 390, Height: 664, DeviceScaleFactor: 3, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 14_8 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1 Mobile/15E148 Safari/604.1"},
	"iPhone SE": {Width: 320, Height: 568, DeviceScaleFactor: 2, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 15_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.7 Mobile/15E148 Safari/604.1"},
	"Pixel 10": {Width: 360, Height: 732, DeviceScaleFactor: 3, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (Linux; Android 16; Pixel 10) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Mobile Safari/537.36"},
	"Pixel 8": {Width: 412, Height: 839, DeviceScaleFactor: 2.625, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"},
	"Pixel 5": {Width: 393, Height: 727, DeviceScaleFactor: 2.75, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (Linux; Android 11; Pixel 5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"},
	"Galaxy S9+": {Width: 320, Height: 658, DeviceScaleFactor: 4.5, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (Linux; Android 10; SM-G965U) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"},
	"iPad Mini": {Width: 768, Height: 1024, DeviceScaleFactor: 2, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"},
	"iPad (gen 7)": {Width: 810, Height: 1080, DeviceScaleFactor: 2, Mobile: true, Touch: true,
		UserAgent: "Mozilla/5.0 (iPad; CPU OS 13_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1 Mobile/15E148 Safari/604.1"},
	"Desktop Chrome": {Width: 1280, Height: 720, DeviceScaleFactor: 1,
		UserAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"},
	"Desktop Chrome HiDPI": {Width: 1280, Height: 720, DeviceScaleFactor: 2,
		UserAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"},
	"Desktop Edge": {Width: 1280, Height: 720, DeviceScaleFactor: 1,
		UserAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0"},
}

// DeviceNames are the presets, sorted.
func DeviceNames() []string { return sortedKeys(Devices) }

// check refuses values the browser would refuse, with what to use.
func (e Emulation) check() error {
	switch {
	case e.Width < 0 || e.Height < 0 || e.Width > maxViewport || e.Height > maxViewport || (e.Width == 0) != (e.Height == 0):
		return newError(KindInvalidInput, fmt.Sprintf("give width and height together, 1 to %d pixels", maxViewport), "viewport %dx%d", e.Width, e.Height)
	case e.DeviceScaleFactor < 0 || e.DeviceScaleFactor > 10:
		return newError(KindInvalidInput, "use a pixel ratio from 1 to 10, e.g. 2 or 3 for a phone", "deviceScaleFactor %g", e.DeviceScaleFactor)
	case e.CPUThrottling < 0 || e.CPUThrottling > 100:
		return newError(KindInvalidInput, "use 1 (none) to 100, e.g. 4 for a mid-range phone", "cpuThrottling %g", e.CPUThrottling)
	case e.HTTPUser != "" && e.HTTPOrigin == "":
		return newError(KindInvalidInput, "give the origin the credentials are for, such as https://staging.example.com", "httpOrigin %q is not an http(s) origin", e.HTTPOrigin)
	case e.Geolocation != nil && (e.Geolocation.Latitude < -90 || e.Geolocation.Latitude > 90 || e.Geolocation.Longitude < -180 || e.Geolocation.Longitude > 180):
		return newError(KindInvalidInput, "latitude is -90 to 90, longitude -180 to 180", "geolocation %g,%g", e.Geolocation.Latitude, e.Geolocation.Longitude)
	}
	if err := CheckLocale(e.Locale); err != nil {
		return err
	}
	if err := CheckTimezone(e.TimezoneID); err != nil {
		return err
	}
	for _, p := range e.Permissions {
		if !permissionRE(p) {
			return newError(KindInvalidInput, "use the web's permission names: geolocation, notifications, camera, microphone, clipboard-read, clipboard-write, midi", "permission %q", p)
		}
	}
	return nil
}

// CheckLocale refuses a locale that is not a BCP 47 language tag (fr-FR,
// de, zh-Hans-CN): what navigator.language, Intl and the Accept-Language
// header would be told. "" is none. Every locale emulated goes through it
// (Emulation.check), and so do the server's settings that give one.
func CheckLocale(locale string) error {
	if locale == "" {
		return nil
	}
	_, err := language.Parse(locale)
	var unknown language.ValueError // well formed, a subtag not in the tables: the browser takes it
	if (err != nil && !errors.As(err, &unknown)) || strings.ContainsAny(locale, "_ ,;") {
		return newError(KindInvalidInput, "give a BCP 47 language tag, such as fr-FR, de or pt-BR", "locale %q is not a language tag", locale)
	}
	return nil
}

// gmtOffsetRE is a time zone the browser's ICU reads as a fixed offset
// from GMT (GMT+05:00, GMT-3), which the IANA database does not name.
var gmtOffsetRE = regexp.MustCompile(`^GMT[+-]\d{1,2}(:?\d{2})?$`)

// CheckTimezone refuses a time zone that is not a name of the IANA time
// zone database (Europe/Paris, America/New_York, UTC) nor a GMT offset
// (GMT+05:00). "" is none. It is this server's check, not the browser's,
// so that a setting can be refused at start, before any browser runs; it
// may refuse a legacy alias the browser would take (PST), never the other
// way round. Every time zone emulated goes through it (Emulation.check).
func CheckTimezone(id string) error {
	if id == "" || gmtOffsetRE.MatchString(id) {
		return nil
	}
	if id != "Local" && !strings.HasPrefix(id, "/") && !strings.Contains(id, "..") {
		if _, err := time.LoadLocation(id); err == nil {
			return nil
		}
	}
	return newError(KindInvalidInput, "give a name of the IANA time zone database, such as Europe/Paris, America/New_York or UTC", "timezoneId %q is not a time zone", id)
}

func permissionRE(p string) bool {
	if p == "" {
		return false
	}
	for _, r := range p {
		if (r < 'a' || r > 'z') && r != '-' {
			return false
		}
	}
	return true
}

// merge lays change over e: a device preset first, then each field given.
func (e Emulation) merge(change Emulation, device string) (Emulation, error) {
	if device != "" {
		d, ok := Devices[device]
		if !ok {
			return e, newError(KindInvalidInput, "use one of "+joinOr(DeviceNames())+", or give width, height and the rest", "device %q", device)
		}
		e.Width, e.Height, e.DeviceScaleFactor, e.Mobile, e.Touch, e.UserAgent = d.Width, d.Height, d.DeviceScaleFactor, d.Mobile, d.Touch, d.UserAgent
	}
	if change.Width != 0 || change.Height != 0 {
		e.Width, e.Height = change.Width, change.Height
	}
	if change.DeviceScaleFactor != 0 {
		e.DeviceScaleFactor = change.DeviceScaleFactor
	}
	e.Mobile = e.Mobile || change.Mobile
	e.Touch = e.Touch || change.Touch
	for _, s := range []struct{ to, from *string }{{&e.UserAgent, &change.UserAgent}, {&e.Locale, &change.Locale}, {&e.TimezoneID, &change.TimezoneID}} {
		if *s.from != "" {
			*s.to = *s.from
		}
	}
	if change.Geolocation != nil {
		e.Geolocation = change.Geolocation
	}
	for _, p := range change.Permissions {
		if !slices.Contains(e.Permissions, p) {
			e.Permissions = append(e.Permissions, p)
		}
	}
	for k, v := range change.Headers {
		if e.Headers == nil {
			e.Headers = map[string]string{}
		}
		e.Headers[k] = v
	}
	if change.CPUThrottling != 0 {
		e.CPUThrottling = change.CPUThrottling
	}
	if change.HTTPUser != "" {
		e.HTTPUser, e.HTTPPassword, e.HTTPOrigin = change.HTTPUser, change.HTTPPassword, HTTPOrigin(change.HTTPOrigin)
	}
	return e, e.check()
}

// HTTPOrigin is the origin of an http(s) URL as credentials are scoped to
// it: scheme://host[:port], lower case, without the scheme's default port;
// "" for anything else.
func HTTPOrigin(rawURL string) string {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || u.Hostname() == "" {
		return ""
	}
	scheme, port := strings.ToLower(u.Scheme), u.Port()
	switch {
	case scheme == "http" && port == "80", scheme == "https" && port == "443":
		port = ""
	case scheme != "http" && scheme != "https":
		return ""
	}
	host := strings.ToLower(u.Hostname())
	if port != "" {
		return scheme + "://" + net.JoinHostPort(host, port)
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host
}

// SetEmulation lays change (and a device preset, if named) over what the
// session emulates, or with reset starts again from the browser's own, and
// applies it to every tab of the session now and to the tabs it opens
// later. It returns what is emulated now.
func (t *Tabs) SetEmulation(ctx context.Context, change Emulation, device string, reset bool) (Emulation, error) {
	base := t.setupOf().emulation
	if reset {
		base = Emulation{}
	}
	e, err := base.merge(change, device)
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
func (t *Tabs) Emulation() Emulation { return t.setupOf().emulation }

// applyPermissions grants the permissions of e (geolocation with a
// position) to every origin of the context, after revoking those granted
// before.
func (t *Tabs) applyPermissions(ctx context.Context, e Emulation) error {
	cctx, cancel := t.browserCtx(ctx)
	defer cancel()
	if _, err := chromedp.CallBrowser(cctx, cdpbrowser.ResetPermissions, cdpbrowser.ResetPermissionsParams{BrowserContextID: t.id}); err != nil {
		return fmt.Errorf("reset permissions: %w", err)
	}
	perms := slices.Clone(e.Permissions)
	if e.Geolocation != nil && !slices.Contains(perms, "geolocation") {
		perms = append(perms, "geolocation")
	}
	for _, name := range perms {
		_, err := chromedp.CallBrowser(cctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name}, Setting: cdpbrowser.PermissionSettingGranted, BrowserContextID: t.id})
		if err != nil {
			return newError(KindInvalidInput, "use the web's permission names: geolocation, notifications, camera, microphone, clipboard-read, clipboard-write, midi", "permission %q: %v", name, err)
		}
	}
	return nil
}

// applyEmulation sets e in the page; each override is set or cleared, so
// a reset leaves nothing behind. The page sees a new size in its next
// rendering step: waited for, like a resize. The page's out-of-process
// iframes get the overrides that hold per frame (emulateFrames).
func (p *Page) applyEmulation(ctx context.Context, e Emulation) error {
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
	dsf := e.DeviceScaleFactor
	if dsf == 0 {
		dsf = 1
	}
	return p.evalEngine(cctx, fmt.Sprintf(`new Promise((done) => {
		const check = () => requestAnimationFrame(() => (innerWidth === %d && Math.abs(devicePixelRatio - %g) < 0.001) ? requestAnimationFrame(() => done(true)) : check());
		check(); setTimeout(() => done(true), 1000);
	})`, e.Width, dsf), nil)
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
func emulationSteps(e Emulation, tab *Page) []emulationStep {
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
				return heldElsewhere(err)
			}
			_, err := chromedp.Call(c, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: strings.ReplaceAll(e.Locale, "-", "_")})
			return heldElsewhere(err)
		}},
		{"timezoneId", func(c context.Context) error {
			_, err := chromedp.Call(c, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: e.TimezoneID})
			return heldElsewhere(err)
		}},
		{"geolocation", func(c context.Context) error {
			if e.Geolocation == nil {
				_, err := chromedp.Call(c, emulation.ClearGeolocationOverride, cdp.Empty{})
				return err
			}
			acc := e.Geolocation.Accuracy
			if acc == 0 {
				acc = 10
			}
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

// heldElsewhere is nil for the error of an override that another session
// of the renderer holds already (Chromium keeps one locale and one time
// zone a renderer process, and a process serves one browser context: the
// session's own value).
func heldElsewhere(err error) error {
	if err != nil && strings.Contains(err.Error(), "override is already in effect") {
		return nil
	}
	return err
}

// emulateFrames sets the per-frame overrides of e (emulationSteps) in the
// page's out-of-process iframes, whose sessions the tab's overrides do not
// reach. An iframe may go at any time: what fails is logged, not the call.
func (p *Page) emulateFrames(ctx context.Context, e Emulation) {
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
func (p *Page) emulateFrame(ctx context.Context, h *host, e Emulation) {
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
func (p *Page) setViewport(c context.Context, e Emulation) error {
	w, h := e.Width, e.Height
	if w == 0 {
		w, h = p.m.opts.Viewport.Width, p.m.opts.Viewport.Height
	}
	if w == 0 {
		_, err := chromedp.Call(c, emulation.ClearDeviceMetricsOverride, cdp.Empty{})
		return err
	}
	dsf := e.DeviceScaleFactor
	if dsf == 0 {
		dsf = 1
	}
	params := emulation.SetDeviceMetricsOverrideParams{Width: int64(w), Height: int64(h), DeviceScaleFactor: dsf, Mobile: e.Mobile}
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
var windowInsets = Size{Width: 32, Height: 128}

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

// IsZero says whether nothing is emulated.
func (e Emulation) IsZero() bool {
	return e.Width == 0 && e.DeviceScaleFactor == 0 && !e.Mobile && !e.Touch && e.UserAgent == "" && e.Locale == "" &&
		e.TimezoneID == "" && e.Geolocation == nil && len(e.Permissions) == 0 && len(e.Headers) == 0 && e.CPUThrottling == 0 &&
		e.HTTPUser == ""
}

// setCPURate sets the tab's CPU slowdown (0 or 1: none).
func setCPURate(c context.Context, rate float64) error {
	if rate == 0 {
		rate = 1
	}
	_, err := chromedp.Call(c, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate})
	return err
}
