package devices

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// TestLocaleAndTimezoneChecks: a locale is a BCP 47 tag and a time zone
// an IANA name or a GMT offset; a change that gives anything else is refused by Merge, typed,
// before it reaches a tab (browser_emulate and the server's settings alike).
func TestLocaleAndTimezoneChecks(t *testing.T) {
	for _, l := range []string{"", "fr-FR", "de", "pt-BR", "zh-Hans-CN", "en-US-u-ca-buddhist", "xx-QQ"} {
		if err := CheckLocale(l); err != nil {
			t.Errorf("CheckLocale(%q) = %v", l, err)
		}
	}
	for _, l := range []string{"French", "not a locale!!", "en_US", "fr-FR,de", "fr-FR;q=1", "x", "fr-"} {
		if err := CheckLocale(l); err == nil {
			t.Errorf("CheckLocale(%q) took it", l)
		}
	}
	for _, z := range []string{"", "Europe/Paris", "America/New_York", "UTC", "Asia/Kolkata", "Etc/GMT+5", "GMT+05:00", "GMT-3"} {
		if err := CheckTimezone(z); err != nil {
			t.Errorf("CheckTimezone(%q) = %v", z, err)
		}
	}
	for _, z := range []string{"Mars/Olympus", "Local", "europe/paris", "/etc/localtime", "../zoneinfo/UTC", "Paris", "GMT+5:0"} {
		err := CheckTimezone(z)
		var e *refusal.Error
		if !errors.As(err, &e) || !strings.Contains(e.Hint, "Europe/Paris") {
			t.Errorf("CheckTimezone(%q) = %v, want a refusal saying what to give", z, err)
		}
	}
	base := Emulation{Locale: "de-DE", TimezoneID: "Asia/Tokyo"}
	for _, change := range []Emulation{{TimezoneID: "Mars/Olympus"}, {Locale: "not a locale!!"}} {
		got, err := base.Merge(change, "")
		var e *refusal.Error
		if !errors.As(err, &e) || e.Hint == "" {
			t.Errorf("Merge(%+v) = %+v, %v: want a refusal with a hint", change, got, err)
		}
	}
}

// TestHTTPOrigin: an origin is scheme://host[:port] of an http(s) URL,
// without the scheme's default port, IPv6 hosts bracketed; "" for
// anything else.
func TestHTTPOrigin(t *testing.T) {
	for raw, want := range map[string]string{"http://[::1]:80/": "http://[::1]", "http://[::1]:8080": "http://[::1]:8080",
		"ws://a.example": "", "about:blank": "", "": "", "https://a.example:444": "https://a.example:444",
		"HTTPS://Staging.Example.com:443/app": "https://staging.example.com"} {
		if got := HTTPOrigin(raw); got != want {
			t.Errorf("HTTPOrigin(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestEmulationDefaults: what a tab is given for what e leaves out: a
// pixel ratio of 1, a position accurate to 10 m, geolocation granted with
// a position (once); and an override another session holds is no error.
func TestEmulationDefaults(t *testing.T) {
	if r := (Emulation{}).PixelRatio(); r != 1 {
		t.Errorf("PixelRatio of none = %g", r)
	}
	if r := (Emulation{DeviceScaleFactor: 2.625}).PixelRatio(); r != 2.625 {
		t.Errorf("PixelRatio = %g", r)
	}
	if r := (Position{}).Radius(); r != 10 {
		t.Errorf("Radius of none = %g", r)
	}
	if r := (Position{Accuracy: 50}).Radius(); r != 50 {
		t.Errorf("Radius = %g", r)
	}
	e := Emulation{Permissions: []string{"notifications"}, Geolocation: &Position{Latitude: 48.85, Longitude: 2.35}}
	if got := e.Granted(); strings.Join(got, ",") != "notifications,geolocation" || len(e.Permissions) != 1 {
		t.Errorf("Granted = %v (Permissions now %v)", got, e.Permissions)
	}
	e.Permissions = []string{"geolocation"}
	if got := e.Granted(); strings.Join(got, ",") != "geolocation" {
		t.Errorf("Granted with geolocation given = %v", got)
	}
	if got := (Emulation{}).Granted(); len(got) != 0 {
		t.Errorf("Granted of none = %v", got)
	}
	held := errors.New("Timezone override is already in effect")
	other := errors.New("Invalid timezone ID")
	if HeldElsewhere(held) != nil || HeldElsewhere(other) != other || HeldElsewhere(nil) != nil {
		t.Errorf("HeldElsewhere: %v, %v, %v", HeldElsewhere(held), HeldElsewhere(other), HeldElsewhere(nil))
	}
	var d *refusal.Error
	if err := PermissionRefused("midi-sysex", other); !errors.As(err, &d) || d.Message != `permission "midi-sysex": Invalid timezone ID` || !strings.Contains(d.Hint, "clipboard-read") {
		t.Errorf("PermissionRefused = %#v", err)
	}
}

// TestParseSize: WIDTHxHEIGHT, each 1 to MaxViewport, spaces and case
// aside; anything else is refused saying the form.
func TestParseSize(t *testing.T) {
	for in, want := range map[string]Size{"1280x720": {1280, 720}, " 390X844 ": {390, 844}, "10000x1": {10000, 1}} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "1280", "1280x", "0x720", "10001x10", "-5x5", "1280*720", "axb"} {
		if _, err := ParseSize(in); err == nil || !strings.Contains(err.Error(), "want WIDTHxHEIGHT in CSS pixels, 1 to 10000 each") {
			t.Errorf("ParseSize(%q) = %v", in, err)
		}
	}
}

// TestCheckPermission: a permission name is lower-case letters and dashes,
// a letter first, for a session's emulation and the server's
// --grant-permissions alike (the browser then says whether it knows it).
func TestCheckPermission(t *testing.T) {
	for p, ok := range map[string]bool{"geolocation": true, "clipboard-read": true, "midi": true,
		"": false, "-geo": false, "Geolocation": false, "camera ": false, "clipboard_read": false} {
		err := CheckPermission(p)
		if ok != (err == nil) {
			t.Errorf("CheckPermission(%q) = %v, want ok %v", p, err, ok)
			continue
		}
		if e, isRefusal := refusal.As(err); !ok && (!isRefusal || e.Kind != refusal.InvalidInput || e.Message != fmt.Sprintf("permission %q", p) || e.Hint != permissionHint) {
			t.Errorf("CheckPermission(%q) = %#v, want invalid_input naming it", p, err)
		}
	}
}
