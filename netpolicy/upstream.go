package netpolicy

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/redact"
)

// Upstream is a proxy the browser's connections go on through (Playwright
// MCP's --proxy-server and --proxy-bypass), after the policy's checks.
type Upstream struct {
	// URL is the proxy: http://, https:// or socks5://host:port, with
	// user:password@ for an HTTP proxy that asks for them.
	URL *url.URL
	// Bypass are the hosts connected to directly: a name (example.com,
	// which takes its subdomains too), .example.com (its subdomains, and
	// it), *.example.com, localhost, an IP address or a CIDR range
	// (10.0.0.0/8), or * (every host).
	Bypass []string
}

// check refuses an upstream the policy cannot send connections through.
func (u *Upstream) check(intercepts bool) error {
	if u == nil {
		return nil
	}
	if u.URL.Scheme == "socks5" && intercepts {
		return fmt.Errorf("--proxy-server %s: a SOCKS proxy cannot follow the request policy's proxy (origin rules, or serving over HTTP): give an HTTP proxy", redact.URL(u.URL.String()))
	}
	if u.URL.Scheme == "socks5" && u.URL.User != nil {
		return fmt.Errorf("--proxy-server %s: Chromium sends no credentials to a SOCKS proxy", redact.URL(u.URL.String()))
	}
	return nil
}

// bypassed says whether host (a name or an IP literal, without its port)
// is connected to directly.
func (u *Upstream) bypassed(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	addr, aerr := netip.ParseAddr(host)
	isAddr := aerr == nil
	for _, b := range u.Bypass {
		b = strings.ToLower(strings.TrimSpace(b))
		if h, _, err := net.SplitHostPort(b); err == nil {
			b = h
		}
		b = strings.Trim(b, "[]")
		switch {
		case b == "*":
			return true
		case strings.Contains(b, "/"):
			pfx, perr := netip.ParsePrefix(b)
			if perr == nil && isAddr && pfx.Contains(addr) {
				return true
			}
		case strings.HasPrefix(b, "*."):
			if strings.HasSuffix(host, b[1:]) {
				return true
			}
		case strings.HasPrefix(b, "."):
			if host == b[1:] || strings.HasSuffix(host, b) {
				return true
			}
		case host == b || strings.HasSuffix(host, "."+b):
			return true
		}
	}
	return false
}

// forURL is the upstream proxy for a request to u, or nil to go direct.
func (u *Upstream) forURL(target *url.URL) *url.URL {
	if u == nil || u.bypassed(target.Hostname()) {
		return nil
	}
	return u.URL
}

// Upstream is the proxy the browser's connections go on through, or nil.
func (p *Policy) Upstream() *Upstream { return p.upstream }

// ChromeProxy is the upstream as Chromium's proxy settings take it (no
// credentials), for a browser context whose connections skip our proxy.
func (u *Upstream) ChromeProxy() (server, bypass string) {
	v := *u.URL
	v.User = nil
	return v.String(), strings.Join(u.Bypass, ";")
}
