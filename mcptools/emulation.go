package mcptools

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/mark3labs/mcp-go/mcp"
)

// The emulation group (--caps emulation): what the session's pages see of
// the device, the user and their CSS media.

// EmulateMediaParams are the arguments of browser_emulate_media.
type EmulateMediaParams struct {
	Media         string `json:"media,omitempty" jsonschema:"enum=screen,enum=print"`
	ColorScheme   string `json:"colorScheme,omitempty" jsonschema:"enum=light,enum=dark,enum=no-preference"`
	ReducedMotion string `json:"reducedMotion,omitempty" jsonschema:"enum=reduce,enum=no-preference"`
	ForcedColors  string `json:"forcedColors,omitempty" jsonschema:"enum=active,enum=none"`
	Contrast      string `json:"contrast,omitempty" jsonschema:"enum=more,enum=less,enum=no-preference"`
	SessionArg
}

func emulateMediaTool(d *Deps) Tool {
	return define(d, "browser_emulate_media", ToolsetNavigation,
		"Set what CSS media queries see in every tab of the session (omitted: the browser's own): dark mode, reduced motion, print.",
		annotations{title: "Emulate media", idempotent: true},
		func(ctx context.Context, s *Session, a EmulateMediaParams) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			m := devices.Media{Type: a.Media, ColorScheme: a.ColorScheme, ReducedMotion: a.ReducedMotion, ForcedColors: a.ForcedColors, Contrast: a.Contrast}
			if err := s.tabs.SetMedia(ctx, m); err != nil {
				return nil, err
			}
			var r response
			if m == (devices.Media{}) {
				r.resultf("Media queries see the browser's own values again.")
			} else {
				r.resultf("Media queries see %s.", describeMedia(m))
			}
			r.set("media", m)
			if err := r.pageState(ctx, s, p, snapChanges, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}

// describeMedia says what is emulated, in words.
func describeMedia(m devices.Media) string {
	var parts []string
	for _, f := range [][2]string{{"media", m.Type}, {"prefers-color-scheme", m.ColorScheme},
		{"prefers-reduced-motion", m.ReducedMotion}, {"forced-colors", m.ForcedColors}, {"prefers-contrast", m.Contrast}} {
		if f[1] != "" {
			parts = append(parts, f[0]+": "+f[1])
		}
	}
	return strings.Join(parts, ", ")
}

// EmulateParams are the arguments of browser_emulate.
type EmulateParams struct {
	Device            string   `json:"device,omitempty" jsonschema:"Preset: iPhone 15, Pixel 7, Galaxy S24, iPad Pro 11, Desktop 1080p"`
	Width             int      `json:"width,omitempty"`
	Height            int      `json:"height,omitempty"`
	DeviceScaleFactor float64  `json:"deviceScaleFactor,omitempty"`
	IsMobile          bool     `json:"isMobile,omitempty"`
	HasTouch          bool     `json:"hasTouch,omitempty"`
	UserAgent         string   `json:"userAgent,omitempty"`
	Locale            string   `json:"locale,omitempty" jsonschema:"e.g. de-DE"`
	TimezoneID        string   `json:"timezoneId,omitempty" jsonschema:"e.g. Europe/Berlin"`
	Latitude          *float64 `json:"latitude,omitempty"`
	Longitude         *float64 `json:"longitude,omitempty"`
	Permissions       []string `json:"permissions,omitempty" jsonschema:"Granted: geolocation, notifications, camera..."`
	Headers           []string `json:"headers,omitempty" jsonschema:"'Name: value' sent with every request"`
	CPUThrottling     float64  `json:"cpuThrottling,omitempty" jsonschema:"Slow the CPU down this many times"`
	HTTPUsername      string   `json:"httpUsername,omitempty" jsonschema:"Answer HTTP authentication as this user"`
	HTTPPassword      string   `json:"httpPassword,omitempty"`
	HTTPOrigin        string   `json:"httpOrigin,omitempty" jsonschema:"Answer only this origin (default: the page's, else the dev server's)"`
	Reset             bool     `json:"reset,omitempty" jsonschema:"Start again from the browser's own values"`
	SessionArg
}

func emulateTool(d *Deps) Tool {
	return define(d, "browser_emulate", ToolsetNavigation,
		"Emulate a device, locale, time zone, position, permissions, headers or a slow CPU in every tab of the session.",
		annotations{title: "Emulate a device"},
		func(ctx context.Context, s *Session, a EmulateParams) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			change := devices.Emulation{Width: a.Width, Height: a.Height, DeviceScaleFactor: a.DeviceScaleFactor, Mobile: a.IsMobile,
				Touch: a.HasTouch, UserAgent: a.UserAgent, Locale: a.Locale, TimezoneID: a.TimezoneID, Permissions: a.Permissions,
				CPUThrottling: a.CPUThrottling, HTTPUser: a.HTTPUsername, HTTPPassword: a.HTTPPassword}
			if change.HTTPOrigin, err = s.credentialsOrigin(p, a); err != nil {
				return nil, err
			}
			if (a.Latitude == nil) != (a.Longitude == nil) {
				return nil, invalidInput("latitude", "give latitude and longitude together")
			}
			if a.Latitude != nil {
				change.Geolocation = &devices.Position{Latitude: *a.Latitude, Longitude: *a.Longitude}
			}
			if change.Headers, err = headerLines(a.Headers); err != nil {
				return nil, err
			}
			e, err := s.tabs.SetEmulation(ctx, change, a.Device, a.Reset)
			if err != nil {
				return nil, err
			}
			var r response
			r.resultf("%s", describeEmulation(e))
			e.Headers = shownHeaders(e.Headers)
			r.set("emulation", e)
			if err := r.pageState(ctx, s, p, snapChanges, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}

// credentialsOrigin is the origin HTTP credentials are for: the one given,
// else the page's, else the dev server's. Credentials answer only that
// origin's challenges, so that a link or a redirect to another site that
// asks for them does not get them.
func (s *Session) credentialsOrigin(p *browser.Page, a EmulateParams) (string, error) {
	switch {
	case a.HTTPUsername == "" && a.HTTPOrigin != "":
		return "", invalidInput("httpOrigin", "give it with httpUsername and httpPassword")
	case a.HTTPUsername == "":
		return "", nil
	case a.HTTPOrigin != "":
		if o := devices.HTTPOrigin(a.HTTPOrigin); o != "" {
			return o, nil
		}
		return "", invalidInput("httpOrigin", "%q: give an http(s) origin, such as https://staging.example.com", a.HTTPOrigin)
	}
	if o := devices.HTTPOrigin(p.LastInfo().URL); o != "" {
		return o, nil
	}
	if s.dev != nil {
		if o := devices.HTTPOrigin(s.dev.result.URL); o != "" {
			return o, nil
		}
	}
	return "", invalidInput("httpOrigin", "the page is not on an http(s) origin and the session has no dev server: give the origin the credentials are for, such as https://staging.example.com, or navigate there first")
}

// describeEmulation says what the session emulates, in words.
func describeEmulation(e devices.Emulation) string {
	var parts []string
	if e.Width > 0 {
		s := fmt.Sprintf("viewport %dx%d", e.Width, e.Height)
		if e.DeviceScaleFactor > 0 && e.DeviceScaleFactor != 1 {
			s += fmt.Sprintf(" @%gx", e.DeviceScaleFactor)
		}
		parts = append(parts, s)
	}
	for _, f := range []struct {
		on   bool
		text string
	}{{e.Mobile, "mobile"}, {e.Touch, "touch"}, {e.UserAgent != "", "user agent " + text.Clip(e.UserAgent, 40)},
		{e.Locale != "", "locale " + e.Locale}, {e.TimezoneID != "", "time zone " + e.TimezoneID},
		{e.Geolocation != nil, "geolocation"}, {len(e.Permissions) > 0, "permissions " + strings.Join(e.Permissions, ", ")},
		{len(e.Headers) > 0, fmt.Sprintf("%d extra header(s)", len(e.Headers))}, {e.CPUThrottling > 1, fmt.Sprintf("CPU %gx slower", e.CPUThrottling)},
		{e.HTTPUser != "", "HTTP authentication as " + e.HTTPUser + " for " + e.HTTPOrigin}} {
		if f.on {
			parts = append(parts, f.text)
		}
	}
	if e.Geolocation != nil {
		parts[slices.Index(parts, "geolocation")] = fmt.Sprintf("at %.4f, %.4f", e.Geolocation.Latitude, e.Geolocation.Longitude)
	}
	if len(parts) == 0 {
		return "The session's tabs see the browser's own device and settings."
	}
	return "Emulating in every tab: " + strings.Join(parts, "; ") + "."
}

// maxInitScript bounds an init script.
const maxInitScript = 1 << 20

// InitScriptParams are the arguments of browser_add_init_script.
type InitScriptParams struct {
	Script string `json:"script,omitempty" jsonschema:"JavaScript"`
	Path   string `json:"path,omitempty" jsonschema:"Or a file of it"`
	SessionArg
}

func initScriptTool(d *Deps) Tool {
	return define(d, "browser_add_init_script", ToolsetNavigation,
		"Run a script in every page the session loads from now on, before the page's own scripts.",
		annotations{title: "Add an init script"},
		func(ctx context.Context, s *Session, a InitScriptParams) (*mcp.CallToolResult, error) {
			src, err := d.scriptOf(ctx, a.Script, a.Path)
			if err != nil {
				return nil, err
			}
			if _, err := s.Page(ctx, d.Browser); err != nil {
				return nil, err
			}
			n, err := s.tabs.AddInitScript(ctx, src)
			if err != nil {
				return nil, err
			}
			var r response
			r.resultf("Init script %d (%d bytes) runs in every page loaded from now on; reload to run it in this one.", n, len(src))
			return r.build(), nil
		})
}

// scriptOf is an init script given inline or as a file under the read roots.
func (d *Deps) scriptOf(ctx context.Context, script, path string) (string, error) {
	switch {
	case script != "" && path != "":
		return "", invalidInput("path", "give script or path, not both")
	case path != "":
		paths, err := d.readablePaths(ctx, "path", []string{path})
		if err != nil {
			return "", err
		}
		return ReadInitScript(paths[0])
	case strings.TrimSpace(script) == "":
		return "", invalidInput("script", "empty: give the JavaScript, or path")
	case len(script) > maxInitScript:
		return "", invalidInput("script", "%d bytes, more than %d", len(script), maxInitScript)
	}
	return script, nil
}

// ReadInitScript reads an init script file (for --init-script too).
func ReadInitScript(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", invalidInput("path", "%v", err)
	}
	if fi.Size() > maxInitScript {
		return "", invalidInput("path", "%s is %d bytes, more than an init script may be (%d)", path, fi.Size(), maxInitScript)
	}
	b, err := os.ReadFile(path) //nolint:gosec // checked against the file roots, or the operator's flag
	if err != nil {
		return "", invalidInput("path", "%v", err)
	}
	return string(b), nil
}
