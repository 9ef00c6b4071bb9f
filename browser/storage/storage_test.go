package storage

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// TestCookieChecks: a cookie an agent or a state file gives is refused,
// typed, with the message and hint the agent has always been told, before
// it reaches the browser; one it takes becomes the browser's cookie with a
// URL or a domain, "/" for no path, and the SameSite it names in any case.
func TestCookieChecks(t *testing.T) {
	refused := []struct {
		cookies   []Cookie
		msg, hint string
	}{
		{[]Cookie{{Name: "a", Domain: "app.test"}, {Value: "x", Domain: "app.test"}},
			"cookie 2 has no name", "give each cookie a name"},
		{[]Cookie{{Name: "sid"}},
			`cookie "sid" has no domain`, "give the cookie's domain (app.test) or a URL (https://app.test/)"},
		{[]Cookie{{Name: "sid", Domain: "app.test", SameSite: "sometimes"}},
			`cookie "sid": sameSite "sometimes"`, "use Strict, Lax or None"},
	}
	for _, r := range refused {
		params, err := Params(r.cookies)
		var e *refusal.Error
		if !errors.As(err, &e) || e.Message != r.msg || e.Hint != r.hint || err.Error() != "invalid_input: "+r.msg {
			t.Errorf("Params(%+v) = %v, %v: want %q (hint %q)", r.cookies, params, err, r.msg, r.hint)
		}
	}
	params, err := Params([]Cookie{
		{Name: "a", Value: "1", Domain: "https://app.test/x/", SameSite: "lax", Expires: 1.9e9, Secure: true},
		{Name: "b", Value: "2", Domain: ".app.test", SameSite: "None", Expires: -1, HTTPOnly: true},
		{Name: "c", Domain: "app.test", Path: "/admin", SameSite: "STRICT"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []network.CookieParam{
		{Name: "a", Value: "1", URL: "https://app.test/x/", SameSite: network.CookieSameSiteLax, Expires: cdp.TimeSinceEpoch(1.9e9), Secure: true},
		{Name: "b", Value: "2", Domain: ".app.test", Path: "/", SameSite: network.CookieSameSiteNone, HTTPOnly: true},
		{Name: "c", Domain: "app.test", Path: "/admin", SameSite: network.CookieSameSiteStrict},
	}
	if len(params) != len(want) {
		t.Fatalf("Params gave %d cookies, want %d", len(params), len(want))
	}
	for i, p := range params {
		if fmt.Sprintf("%+v", *p) != fmt.Sprintf("%+v", want[i]) {
			t.Errorf("cookie %d: %+v, want %+v", i+1, *p, want[i])
		}
	}
	if params, err := Params(nil); err != nil || len(params) != 0 {
		t.Errorf("Params(nil) = %v, %v", params, err)
	}
}

// TestFromCDP: a session cookie of the browser's expires at -1, as
// Playwright writes it; the rest is carried over.
func TestFromCDP(t *testing.T) {
	got := FromCDP(&network.Cookie{Name: "sid", Value: "v", Domain: "app.test", Path: "/", Expires: 12, Session: true,
		HTTPOnly: true, SameSite: network.CookieSameSiteLax})
	want := Cookie{Name: "sid", Value: "v", Domain: "app.test", Path: "/", Expires: -1, HTTPOnly: true, SameSite: "Lax"}
	if got != want {
		t.Errorf("session cookie: %+v, want %+v", got, want)
	}
	if got := FromCDP(&network.Cookie{Name: "k", Expires: 1.9e9, Secure: true}); got.Expires != 1.9e9 || !got.Secure || got.SameSite != "" {
		t.Errorf("lasting cookie: %+v", got)
	}
}

// TestCheckOrigins: a state's origins are http(s) origins, a trailing
// slash taken; anything else is refused with its origin named.
func TestCheckOrigins(t *testing.T) {
	for _, o := range []string{"http://localhost:3000", "https://app.test/", "http://[::1]:8080"} {
		st := &State{Origins: []OriginState{{Origin: o}}}
		if err := st.CheckOrigins(); err != nil {
			t.Errorf("origin %q refused: %v", o, err)
		}
	}
	for _, o := range []string{"", "localhost:3000", "file:///tmp", "https://app.test/path", "http://app.test//", "about:blank"} {
		st := &State{Origins: []OriginState{{Origin: "http://ok.test"}, {Origin: o}}}
		err := st.CheckOrigins()
		var e *refusal.Error
		if !errors.As(err, &e) || e.Message != fmt.Sprintf("origin %q", o) || e.Hint != "an origin is scheme://host[:port], as http://localhost:3000" {
			t.Errorf("origin %q: %v", o, err)
		}
	}
}

// TestOrigins: the origins noted are those of http(s) URLs, each once,
// listed sorted, and no more than maxOrigins.
func TestOrigins(t *testing.T) {
	var o Origins
	if got := o.List(); len(got) != 0 {
		t.Errorf("empty: %v", got)
	}
	for _, u := range []string{"https://b.test/x?y", "http://a.test:8080/", "https://b.test/other", "about:blank", "data:text/html,x", "file:///etc"} {
		o.Note(u)
	}
	if got := strings.Join(o.List(), " "); got != "http://a.test:8080 https://b.test" {
		t.Errorf("origins: %s", got)
	}
	for i := range 2 * maxOrigins {
		o.Note(fmt.Sprintf("http://h%d.test/", i))
	}
	if n := len(o.List()); n != maxOrigins {
		t.Errorf("%d origins kept, want %d", n, maxOrigins)
	}
}

// TestScripts: what the agent gives reaches the page's expression as a
// JavaScript string, whatever it holds, and the area named is the one
// used.
func TestScripts(t *testing.T) {
	key := "k'\"\\\n</script>"
	s := StepScript(true, "get", key, "v`${x}`")
	if !strings.Contains(s, "const s = sessionStorage, a = \"get\", k = \"k'\\\"\\\\\\n\\u003c/script\\u003e\", v = \"v`${x}`\";") {
		t.Errorf("step script: %s", s)
	}
	if s := StepScript(false, "list", "", ""); !strings.Contains(s, "const s = localStorage,") {
		t.Errorf("local storage script: %s", s)
	}
	f := FillScript("localStorage", []NameValue{{Name: "a", Value: "1"}})
	if !strings.Contains(f, `const s = localStorage; s.clear(); for (const it of [{"name":"a","value":"1"}])`) {
		t.Errorf("fill script: %s", f)
	}
}
