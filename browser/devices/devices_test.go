package devices

import (
	"errors"
	"strings"
	"testing"
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
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Hint, "Europe/Paris") {
			t.Errorf("CheckTimezone(%q) = %v, want a refusal saying what to give", z, err)
		}
	}
	base := Emulation{Locale: "de-DE", TimezoneID: "Asia/Tokyo"}
	for _, change := range []Emulation{{TimezoneID: "Mars/Olympus"}, {Locale: "not a locale!!"}} {
		got, err := base.Merge(change, "")
		var e *Error
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
