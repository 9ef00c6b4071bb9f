package netpolicy

import (
	"net/url"
	"strings"
	"testing"
)

// TestUpstreamBypass: --proxy-bypass's forms (a name and its subdomains,
// .name, *.name, an address, a range, *) decide which hosts skip the
// upstream proxy.
func TestUpstreamBypass(t *testing.T) {
	u := &Upstream{URL: &url.URL{Scheme: "http", Host: "proxy:3128"},
		Bypass: []string{"example.com", ".corp.test", "*.dev.test", "10.0.0.0/8", "[::1]", "localhost:8080"}}
	for host, want := range map[string]bool{
		"example.com": true, "www.example.com": true, "notexample.com": false,
		"corp.test": true, "a.corp.test": true, "a.dev.test": true, "dev.test": false,
		"10.1.2.3": true, "11.1.2.3": false, "::1": true, "localhost": true, "app.test": false,
	} {
		if got := u.bypassed(host); got != want {
			t.Errorf("bypassed(%q) = %v, want %v", host, got, want)
		}
	}
	if (&Upstream{URL: u.URL, Bypass: []string{"*"}}).forURL(&url.URL{Host: "any.test"}) != nil {
		t.Error("* bypasses nothing")
	}
	if got := u.forURL(&url.URL{Scheme: "http", Host: "app.test:80"}); got != u.URL {
		t.Errorf("forURL(app.test) = %v, want the proxy", got)
	}
}

// TestUpstreamChecks: a SOCKS proxy cannot follow the policy's proxy, and
// takes no credentials; an HTTP one shows no credentials to Chromium.
func TestUpstreamChecks(t *testing.T) {
	socks := &Upstream{URL: &url.URL{Scheme: "socks5", Host: "h:1080"}}
	if _, err := New(Config{BlockedOrigins: []string{"ads.example.com"}, Upstream: socks}); err == nil || !strings.Contains(err.Error(), "SOCKS") {
		t.Errorf("socks under a policy: %v", err)
	}
	if _, err := New(Config{Upstream: socks}); err != nil {
		t.Errorf("socks with no policy: %v", err)
	}
	withUser := &Upstream{URL: &url.URL{Scheme: "socks5", Host: "h:1080", User: url.UserPassword("u", "p")}}
	if _, err := New(Config{Upstream: withUser}); err == nil {
		t.Error("socks with credentials: no error")
	}
	h := &Upstream{URL: &url.URL{Scheme: "http", Host: "h:3128", User: url.UserPassword("u", "s3cret")}, Bypass: []string{"a", "b"}}
	if server, bypass := h.ChromeProxy(); server != "http://h:3128" || bypass != "a;b" {
		t.Errorf("ChromeProxy = %q, %q", server, bypass)
	}
}
