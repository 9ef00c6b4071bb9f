package browser

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/e2e-mcp/e2e-mcp/browser/keyboard"
	"github.com/e2e-mcp/e2e-mcp/browser/netguard"
	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// TestCredentialsFor: credentials answer a server of their origin asking
// for a request to it (default ports, case and a path aside), and nothing
// else: another port, scheme or host, a proxy, a challenger of another
// origin.
func TestCredentialsFor(t *testing.T) {
	e := devices.Emulation{HTTPUser: "ada", HTTPOrigin: devices.HTTPOrigin("HTTPS://Staging.Example.com:443/app")}
	if e.HTTPOrigin != "https://staging.example.com" {
		t.Fatalf("HTTPOrigin = %q", e.HTTPOrigin)
	}
	challenge := func(url, origin string, src fetch.AuthChallengeSource) *fetch.EventAuthRequired {
		return &fetch.EventAuthRequired{Request: &network.Request{URL: url},
			AuthChallenge: &fetch.AuthChallenge{Source: src, Origin: origin, Scheme: "basic", Realm: "staging"}}
	}
	for _, tc := range []struct {
		url, origin string
		src         fetch.AuthChallengeSource
		want        bool
	}{
		{"https://staging.example.com/private/", "https://staging.example.com", fetch.AuthChallengeSourceServer, true},
		{"https://STAGING.example.com:443/x", "", fetch.AuthChallengeSourceServer, true},
		{"https://staging.example.com:8443/private/", "https://staging.example.com:8443", fetch.AuthChallengeSourceServer, false},
		{"http://staging.example.com/private/", "http://staging.example.com", fetch.AuthChallengeSourceServer, false},
		{"https://evil.example/private/", "https://evil.example", fetch.AuthChallengeSourceServer, false},
		{"https://staging.example.com/private/", "https://evil.example", fetch.AuthChallengeSourceServer, false},
		{"https://staging.example.com/private/", "http://proxy:3128", fetch.AuthChallengeSourceProxy, false},
	} {
		if got := credentialsFor(e, challenge(tc.url, tc.origin, tc.src)); got != tc.want {
			t.Errorf("credentialsFor(%s, challenger %q, %s) = %v, want %v", tc.url, tc.origin, tc.src, got, tc.want)
		}
	}
	if credentialsFor(devices.Emulation{HTTPUser: "ada"}, challenge("https://a.example/", "", fetch.AuthChallengeSourceServer)) {
		t.Error("credentials without an origin answered")
	}
}

// TestDeviceErrors: what browser/devices refuses in a change (merge, its
// checks) reaches the agent as an invalid_input error with the package's
// message and hint (AsError reads its refusal), before it reaches a tab.
func TestDeviceErrors(t *testing.T) {
	base := devices.Emulation{Locale: "de-DE", TimezoneID: "Asia/Tokyo"}
	for _, change := range []devices.Emulation{{TimezoneID: "Mars/Olympus"}, {Locale: "not a locale!!"}, {Width: 390}} {
		got, err := base.Merge(change, "")
		e, ok := AsError(err)
		if !ok || e.Kind != KindInvalidInput || e.Hint == "" {
			t.Errorf("merge(%+v) = %+v, %v: want invalid_input with a hint", change, got, err)
			continue
		}
		var d *refusal.Error
		if !errors.As(err, &d) || e.Message != d.Message || e.Hint != d.Hint || e.Error() != err.Error() {
			t.Errorf("merge(%+v): %v became %v (hint %q)", change, err, e, e.Hint)
		}
	}
	if _, err := base.Merge(devices.Emulation{}, "Nokia 3310"); err == nil {
		t.Error("an unknown device was taken")
	} else if e, ok := AsError(err); !ok || e.Kind != KindInvalidInput || !strings.Contains(e.Hint, "iPhone 15") {
		t.Errorf("unknown device: %v, want invalid_input naming the devices", err)
	}
}

// TestSetupRefusals: a media value, a network state or a clock action that
// browser/devices refuses reaches the agent from Tabs.SetMedia,
// SetNetworkState and Clock as the invalid_input error it always was
// (AsError reads the refusal), before any tab is touched; so does a permission
// the browser refuses (applyPermissions).
func TestSetupRefusals(t *testing.T) {
	ctx := context.Background()
	tabs := &Tabs{}
	_, clockErr := tabs.Clock(ctx, nil, "rewind", time.Time{}, 0)
	_, notInstalled := tabs.Clock(ctx, nil, devices.ClockResume, time.Time{}, 0)
	_, noDuration := tabs.Clock(ctx, nil, devices.ClockRunFor, time.Time{}, 0)
	for _, c := range []struct {
		err        error
		text, hint string
	}{
		{tabs.SetMedia(ctx, devices.Media{ColorScheme: "sepia"}), `invalid_input: colorScheme "sepia"`, "use one of light, dark or no-preference"},
		{tabs.SetNetworkState(ctx, "3g"), `invalid_input: network state "3g"`, "use one of fast-3g, fast-4g, offline, online or slow-3g"},
		{clockErr, `invalid_input: clock action "rewind"`, "use one of install, fast_forward, run_for, pause_at, resume, set_fixed_time or set_system_time"},
		{notInstalled, "invalid_input: the clock is not installed", "install the clock first (action install, with the time to start at)"},
		{noDuration, "invalid_input: run_for needs a positive duration", "give a duration such as 1h, 90s or 500ms"},
		{devices.PermissionRefused("midi-sysex", errors.New("Unknown permission")), `invalid_input: permission "midi-sysex": Unknown permission`,
			"use the web's permission names: geolocation, notifications, camera, microphone, clipboard-read, clipboard-write, midi"},
	} {
		e, ok := AsError(c.err)
		if !ok || e.Kind != KindInvalidInput || e.Error() != c.text || e.Hint != c.hint {
			t.Errorf("%v (%#v): want %q, hint %q", c.err, c.err, c.text, c.hint)
		}
	}
}

// TestRequestErrors: a request step netguard refuses (a URL not http(s))
// reaches the agent as an invalid_input error, and one that got no answer
// as navigation_failed, each with netguard's message and hint
// (AsError reads the refusal Tabs.Request returns); the refused URL
// opens no tab.
func TestRequestErrors(t *testing.T) {
	open := func(context.Context) (netguard.HiddenTab, error) {
		t.Error("a refused request opened a tab")
		return nil, errors.New("no tab")
	}
	for _, u := range []string{"ftp://example.com/", "/api/users", "http://", "::"} {
		_, err := netguard.Request(t.Context(), open, netguard.HTTPRequest{Method: "GET", URL: u})
		e, ok := AsError(err)
		var re *refusal.Error
		if !ok || e.Kind != KindInvalidInput || !errors.As(err, &re) || e.Message != re.Message || e.Hint != re.Hint ||
			!strings.Contains(e.Message, "is not an http(s) URL") || !strings.Contains(e.Hint, "absolute http(s) URL") {
			t.Errorf("URL %q: %v became %v, want invalid_input with netguard's message and hint", u, err, e)
		}
	}
	unanswered := &refusal.Error{Kind: refusal.NavigationFailed, Message: "GET http://a.test/ got no answer: Failed to fetch", Hint: "check that the server is up"}
	if e, ok := AsError(unanswered); !ok || e.Kind != KindNavigationFailed || e.Message != unanswered.Message || e.Hint != unanswered.Hint {
		t.Errorf("no answer became %v, want navigation_failed with its message and hint", e)
	}
}

// TestKeyErrors: a key name or combination browser/keyboard does not know
// reaches the agent as an invalid_input error with the package's message
// and its hint naming keys (AsError reads the refusal PressKey returns).
func TestKeyErrors(t *testing.T) {
	for _, in := range []string{"", "Foo", "Control+Foo", "A+B"} {
		_, err := keyboard.ParseChord(in)
		e, ok := AsError(err)
		if !ok || e.Kind != KindInvalidInput || !strings.Contains(e.Hint, "Control+A") {
			t.Errorf("key %q: %v, want invalid_input naming the keys", in, err)
			continue
		}
		var k *refusal.Error
		if !errors.As(err, &k) || e.Message != k.Message || e.Hint != k.Hint || e.Error() != err.Error() {
			t.Errorf("key %q: %v became %v (hint %q)", in, err, e, e.Hint)
		}
	}
}

// TestClickRefusals: a click's unknown button or modifier is refused with
// these exact kind, message and hint before the page is touched
// (keyboard.ClickModifiers's refusal read as this package's by AsError).
func TestClickRefusals(t *testing.T) {
	tests := []struct {
		o         ClickOptions
		msg, hint string
	}{
		{ClickOptions{Button: "back"}, `button "back"`, "use left, right or middle"},
		{ClickOptions{Button: "Left"}, `button "Left"`, "use left, right or middle"},
		{ClickOptions{Modifiers: []string{"Shift", "Ctrl"}}, `modifier "Ctrl"`, "use Alt, Control, ControlOrMeta, Meta or Shift"},
		{ClickOptions{Modifiers: []string{"shift"}}, `modifier "shift"`, "use Alt, Control, ControlOrMeta, Meta or Shift"},
	}
	for _, tc := range tests {
		err := new(Page).Click(context.Background(), "e1", tc.o)
		want := &Error{Kind: KindInvalidInput, Message: tc.msg, Hint: tc.hint}
		if got, ok := AsError(err); !ok || *got != *want || err.Error() != want.Error() {
			t.Errorf("Click(%+v) = %#v, want %#v", tc.o, err, want)
		}
	}
}
