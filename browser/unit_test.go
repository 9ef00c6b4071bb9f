package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"go.uber.org/zap"
)

func TestDiffSnapshot(t *testing.T) {
	prev := "- main:\n  - heading \"A\" [level=1]\n  - form:\n    - textbox \"Name\" [ref=e1]\n    - button \"Go\" [ref=e2]\n  - status"
	tests := []struct {
		name, next, want string
		changed          bool
	}{
		{"same", prev, "", false},
		{"value typed", strings.Replace(prev, `[ref=e1]`, `[ref=e1]: Ada`, 1),
			"- main:\n  - form:\n    - textbox \"Name\" [ref=e1]: Ada\n# removed 1 line(s): - textbox \"Name\" [ref=e1]", true},
		{"text appears", prev + ": Welcome", "- main:\n  - status: Welcome\n# removed 1 line(s): - status", true},
		{"added at top level", prev + "\n- dialog \"Hi\"", "- dialog \"Hi\"", true},
	}
	for _, tc := range tests {
		got, changed := DiffSnapshot(prev, tc.next)
		if changed != tc.changed || got != tc.want {
			t.Errorf("%s: DiffSnapshot = (%q, %v), want (%q, %v)", tc.name, got, changed, tc.want, tc.changed)
		}
	}
}

func TestCleanStaleProfiles(t *testing.T) {
	root := t.TempDir()
	dead := filepath.Join(root, fmt.Sprintf("%s%d-abc", profilePrefix, 1<<22+12345)) // beyond pid_max
	mine := filepath.Join(root, fmt.Sprintf("%s%d-def", profilePrefix, os.Getpid()))
	other := filepath.Join(root, "something-else")
	for _, d := range []string{dead, mine, other} {
		if err := os.MkdirAll(filepath.Join(d, "Default"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	removed := CleanStaleProfiles(root, zap.NewNop())
	if len(removed) != 1 || removed[0] != dead {
		t.Errorf("CleanStaleProfiles removed %v, want [%s]", removed, dead)
	}
	for _, d := range []string{mine, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}

func TestFindExecutable(t *testing.T) {
	_, err := FindExecutable("/nonexistent/chrome")
	e, ok := AsError(err)
	if !ok || e.Kind != KindBrowserNotFound || !strings.Contains(e.Hint, "apt-get install chromium") {
		t.Errorf("FindExecutable(missing) = %v, want browser_not_found with an install hint", err)
	}
	if p, err := FindExecutable(""); err != nil || p == "" {
		t.Errorf("FindExecutable(\"\") = %q, %v", p, err)
	}
}

func TestIsRef(t *testing.T) {
	for s, want := range map[string]bool{"e5": true, "f1e3": true, "e": false, "button": false, "e5 ": false, "#e5": false} {
		if IsRef(s) != want {
			t.Errorf("IsRef(%q) = %v, want %v", s, !want, want)
		}
	}
}

// TestSaveDataURL: a data: URL's bytes, base64 (padded or not) or
// percent-encoded text, are what a remote browser's download of it saves,
// unless there are more than the limit.
func TestSaveDataURL(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct{ url, want, err string }{
		{"data:text/csv;base64,YSxiCjEsMgo=", "a,b\n1,2\n", ""},
		{"data:text/csv;base64,YSxiCjEsMgo", "a,b\n1,2\n", ""},
		{"data:text/plain,a%2Cb%0A", "a,b\n", ""},
		{"data:,", "", ""},
		{"data:text/plain;base64,%%%", "", "base64"},
		{"data:text/plain", "", "without a comma"},
		{"data:text/plain,123456789", "", "larger than 8 bytes"},
	} {
		path := filepath.Join(dir, fmt.Sprint(i))
		n, err := saveDataURL(c.url, path, 8)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one about %s", c.url, err, c.err)
			}
			continue
		}
		b, rerr := os.ReadFile(path)
		if err != nil || rerr != nil || string(b) != c.want || n != int64(len(c.want)) {
			t.Errorf("%s: saved %q (%d bytes), %v %v; want %q", c.url, b, n, err, rerr, c.want)
		}
	}
}

// TestCredentialsFor: credentials answer a server of their origin asking
// for a request to it (default ports, case and a path aside), and nothing
// else: another port, scheme or host, a proxy, a challenger of another
// origin.
func TestCredentialsFor(t *testing.T) {
	e := Emulation{HTTPUser: "ada", HTTPOrigin: HTTPOrigin("HTTPS://Staging.Example.com:443/app")}
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
		if got := e.credentialsFor(challenge(tc.url, tc.origin, tc.src)); got != tc.want {
			t.Errorf("credentialsFor(%s, challenger %q, %s) = %v, want %v", tc.url, tc.origin, tc.src, got, tc.want)
		}
	}
	if (Emulation{HTTPUser: "ada"}).credentialsFor(challenge("https://a.example/", "", fetch.AuthChallengeSourceServer)) {
		t.Error("credentials without an origin answered")
	}
	for raw, want := range map[string]string{"http://[::1]:80/": "http://[::1]", "http://[::1]:8080": "http://[::1]:8080",
		"ws://a.example": "", "about:blank": "", "": "", "https://a.example:444": "https://a.example:444"} {
		if got := HTTPOrigin(raw); got != want {
			t.Errorf("HTTPOrigin(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestLocaleAndTimezoneChecks: a locale is a BCP 47 tag and a time zone
// an IANA name or a GMT offset; a change that gives anything else is refused by merge, typed,
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
		if e, ok := AsError(err); !ok || e.Kind != KindInvalidInput || !strings.Contains(e.Hint, "Europe/Paris") {
			t.Errorf("CheckTimezone(%q) = %v, want invalid_input saying what to give", z, err)
		}
	}
	base := Emulation{Locale: "de-DE", TimezoneID: "Asia/Tokyo"}
	for _, change := range []Emulation{{TimezoneID: "Mars/Olympus"}, {Locale: "not a locale!!"}} {
		got, err := base.merge(change, "")
		if e, ok := AsError(err); !ok || e.Kind != KindInvalidInput {
			t.Errorf("merge(%+v) = %+v, %v: want invalid_input", change, got, err)
		}
	}
}
