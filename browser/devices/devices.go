// Package devices is what a session's pages can be made to believe about
// the device and the user: the Emulation value (screen, touch, user agent,
// locale, time zone, position, permissions, extra headers, a slower CPU,
// HTTP credentials), the Devices presets, and the checks and merge of a
// change into what is emulated; a viewport's Size (ParseSize: the default
// viewport's --viewport-size); what their media queries see (Media); the
// network states, offline or throttled (NetworkState); and the fake clock
// (ClockState, and the scripts of clock.js that install and drive it in a
// document: ClockScript, ClockCall). It is values, checks and script text,
// no CDP: browser applies them to its tabs (browser/devices.go, emulate.go,
// netstate.go, clock.go) and reports this package's refusals, each a
// [*refusal.Error], as its invalid_input errors (browser.AsError). It may
// import the standard library, golang.org/x/text, internal/text and
// browser/refusal; not chromedp nor
// cdproto, and not browser, which imports it.
package devices

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	// The time zone database, in the binary: CheckTimezone answers the
	// same on a machine without one (a slim container image).
	_ "time/tzdata"

	"golang.org/x/text/language"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
)

// MaxViewport bounds a viewport's width and height in CSS pixels (an
// emulated one, browser_resize's): beyond it Chrome's surfaces fail.
const MaxViewport = 10000

// Size is a width and a height in CSS pixels.
type Size struct{ Width, Height int }

// ParseSize reads "WxH" (1280x720), each 1 to MaxViewport pixels.
func ParseSize(s string) (Size, error) {
	w, h, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	var z Size
	var err1, err2 error
	if ok {
		z.Width, err1 = strconv.Atoi(w)
		z.Height, err2 = strconv.Atoi(h)
	}
	if !ok || err1 != nil || err2 != nil || z.Width < 1 || z.Height < 1 || z.Width > MaxViewport || z.Height > MaxViewport {
		return Size{}, fmt.Errorf("%q: want WIDTHxHEIGHT in CSS pixels, 1 to %d each, e.g. 1280x720", s, MaxViewport)
	}
	return z, nil
}

// Emulation is what a session's pages are made to believe about the device
// and the user: screen, touch, user agent, locale, time zone, position,
// permissions, extra request headers and a slower CPU. A zero field is the
// browser's own; browser's Tabs.SetEmulation merges a change into what is set.
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

// Devices are the presets of browser's Tabs.SetEmulation, as the devices report
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
func DeviceNames() []string { return slices.Sorted(maps.Keys(Devices)) }

// check refuses values the browser would refuse, with what to use.
func (e Emulation) check() error {
	switch {
	case e.Width < 0 || e.Height < 0 || e.Width > MaxViewport || e.Height > MaxViewport || (e.Width == 0) != (e.Height == 0):
		return refusal.Invalid(fmt.Sprintf("give width and height together, 1 to %d pixels", MaxViewport), "viewport %dx%d", e.Width, e.Height)
	case e.DeviceScaleFactor < 0 || e.DeviceScaleFactor > 10:
		return refusal.Invalid("use a pixel ratio from 1 to 10, e.g. 2 or 3 for a phone", "deviceScaleFactor %g", e.DeviceScaleFactor)
	case e.CPUThrottling < 0 || e.CPUThrottling > 100:
		return refusal.Invalid("use 1 (none) to 100, e.g. 4 for a mid-range phone", "cpuThrottling %g", e.CPUThrottling)
	case e.HTTPUser != "" && e.HTTPOrigin == "":
		return refusal.Invalid("give the origin the credentials are for, such as https://staging.example.com", "httpOrigin %q is not an http(s) origin", e.HTTPOrigin)
	case e.Geolocation != nil && (e.Geolocation.Latitude < -90 || e.Geolocation.Latitude > 90 || e.Geolocation.Longitude < -180 || e.Geolocation.Longitude > 180):
		return refusal.Invalid("latitude is -90 to 90, longitude -180 to 180", "geolocation %g,%g", e.Geolocation.Latitude, e.Geolocation.Longitude)
	}
	if err := CheckLocale(e.Locale); err != nil {
		return err
	}
	if err := CheckTimezone(e.TimezoneID); err != nil {
		return err
	}
	for _, p := range e.Permissions {
		if err := CheckPermission(p); err != nil {
			return err
		}
	}
	return nil
}

// permissionHint is what to give for a permission refused.
const permissionHint = "use the web's permission names: geolocation, notifications, camera, microphone, clipboard-read, clipboard-write, midi"

// PermissionRefused is the refusal (a [*refusal.Error]) of a permission the
// browser would not grant, with err, the browser's reason.
func PermissionRefused(name string, err error) error {
	return refusal.Invalid(permissionHint, "permission %q: %v", name, err)
}

// Granted are the permissions e grants: its Permissions, and geolocation
// when it gives a position.
func (e Emulation) Granted() []string {
	perms := slices.Clone(e.Permissions)
	if e.Geolocation != nil && !slices.Contains(perms, "geolocation") {
		perms = append(perms, "geolocation")
	}
	return perms
}

// PixelRatio is e's device pixel ratio: DeviceScaleFactor, 1 when it
// gives none.
func (e Emulation) PixelRatio() float64 {
	if e.DeviceScaleFactor == 0 {
		return 1
	}
	return e.DeviceScaleFactor
}

// Radius is how accurate the position is said to be, in meters: its
// Accuracy, 10 when it gives none.
func (p Position) Radius() float64 {
	if p.Accuracy == 0 {
		return 10
	}
	return p.Accuracy
}

// HeldElsewhere is nil for the error of an override that another session
// of the renderer holds already (Chromium keeps one locale and one time
// zone a renderer process, and a process serves one browser context: the
// session's own value), else err.
func HeldElsewhere(err error) error {
	if err != nil && strings.Contains(err.Error(), "override is already in effect") {
		return nil
	}
	return err
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
		return refusal.Invalid("give a BCP 47 language tag, such as fr-FR, de or pt-BR", "locale %q is not a language tag", locale)
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
	return refusal.Invalid("give a name of the IANA time zone database, such as Europe/Paris, America/New_York or UTC", "timezoneId %q is not a time zone", id)
}

// CheckPermission refuses p (a [*refusal.Error]) unless it is shaped as
// a permission name: lower-case letters and dashes, a letter first. The
// browser says whether it knows the name when it is granted. Every
// permission a session or the server's flags grant is checked here.
func CheckPermission(p string) error {
	for i, r := range p {
		if (r < 'a' || r > 'z') && (r != '-' || i == 0) {
			return refusal.Invalid(permissionHint, "permission %q", p)
		}
	}
	if p == "" {
		return refusal.Invalid(permissionHint, "permission %q", p)
	}
	return nil
}

// Merge lays change over e: a device preset first, then each field given;
// it returns the result, refused (a [*refusal.Error]) if the browser would
// refuse it.
func (e Emulation) Merge(change Emulation, device string) (Emulation, error) {
	if device != "" {
		d, ok := Devices[device]
		if !ok {
			return e, refusal.Invalid("use one of "+text.JoinOr(DeviceNames())+", or give width, height and the rest", "device %q", device)
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

// IsZero says whether nothing is emulated.
func (e Emulation) IsZero() bool {
	return e.Width == 0 && e.DeviceScaleFactor == 0 && !e.Mobile && !e.Touch && e.UserAgent == "" && e.Locale == "" &&
		e.TimezoneID == "" && e.Geolocation == nil && len(e.Permissions) == 0 && len(e.Headers) == 0 && e.CPUThrottling == 0 &&
		e.HTTPUser == ""
}
