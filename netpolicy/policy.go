// Package netpolicy decides which requests a session's pages may make: the
// origin rules (--allowed-origins, --blocked-origins), file:// URLs, and over
// HTTP the private-network block (a page must not reach the machine's or
// the LAN's services: SSRF), with the DNS
// lookups that last one needs. It knows nothing of CDP: the browser package
// asks it about each request the DevTools Fetch domain pauses, and every
// browser context's connections go through a forward proxy of this package
// ([Proxy]), which checks them and dials only the addresses it checked.
package netpolicy

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/redact"
)

// Config configures the request policy: which requests the pages of
// every session may make (the private-network block guards against SSRF).
// See [New].
type Config struct {
	// AllowedOrigins, when not empty, is an allowlist: a request to any
	// origin it does not match is blocked. Patterns as for BlockedOrigins.
	AllowedOrigins []string
	// BlockedOrigins are origin patterns that are always blocked:
	//
	//	[scheme://]host[:port][/]
	//
	// The scheme is http, https (or any other) or *; without one, any scheme
	// matches. The host is a name (matched case-insensitively, a trailing
	// dot ignored), an IP literal (IPv6 in brackets), *.example.com (any
	// subdomain of example.com at any depth, not example.com itself) or *
	// (any host). The port is a number or *; without one, a pattern with a
	// scheme means the scheme's default port (https://example.com is
	// https://example.com:443, as an origin), and a pattern without a scheme
	// any port (localhost matches every port of localhost).
	BlockedOrigins []string
	// AllowFileURLs lets pages and browser_navigate open file:// URLs;
	// without it they are blocked.
	AllowFileURLs bool
	// BlockPrivateNetworks blocks requests to private addresses: RFC 1918,
	// link-local (169.254.0.0/16, with the cloud metadata service at
	// 169.254.169.254; fe80::/10), unique local fc00::/7, CGNAT
	// 100.64.0.0/10, the unspecified and multicast ranges. Loopback stays
	// allowed, and so does the session's dev server (the dev parameter of [Policy.Check])
	// and every origin AllowedOrigins names. The HTTP mode default.
	BlockPrivateNetworks bool
	// Upstream, when set, is a proxy the connections go on through
	// (instead of the environment's).
	Upstream *Upstream
}

// Policy decides which requests pages may make. Its decisions cost
// O(rules), plus a DNS lookup (cached briefly) when private networks are
// blocked and a host name has to be resolved. It is safe for concurrent use.
//
// Host names are resolved, and a request is blocked when any of the
// addresses is private: an attacker cannot slip a public address past with a
// private one. Literal IPs are checked as they are (IPv4 in any of the forms
// a URL allows: 0x7f.1, 2130706433; IPv4-mapped and NAT64 IPv6 by their IPv4
// address). localhost and *.localhost are loopback without a lookup, as
// Chrome treats them. A name that does not resolve is blocked (fail
// closed). DNS rebinding: Chrome resolves the name again itself, so an
// answer that changes between the two lookups can reach a private address
// once; the address Chrome really connected to is checked when the response
// arrives (unless a *_PROXY variable is set: Chrome then connects to the
// proxy), the request is then reported as blocked, and the name is refused
// for the next 10 minutes.
type Policy struct {
	allowed, blocked []originPattern
	allowFile        bool
	blockPrivate     bool

	// lookup resolves a host name; tests replace it.
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	dns    dnsCache
	// proxied: Chrome may reach servers through a proxy (the *_PROXY
	// variables, Upstream), whose address is then what it connects to.
	proxied bool
	// upstream is Config.Upstream.
	upstream *Upstream
}

// dnsTTL is how long a lookup is trusted; poisonTTL how long a name that
// was caught rebinding to a private address stays refused.
const (
	dnsTTL    = 15 * time.Second
	poisonTTL = 10 * time.Minute
	dnsMax    = 4096
	// DNSTimeout bounds one lookup: a check may take this long.
	DNSTimeout = 3 * time.Second
)

// New parses a configuration. It never returns nil: a Policy with no
// rules still blocks file:// URLs (unless allowed) for browser_navigate,
// but makes no page intercept anything ([Policy.Intercepts]).
func New(c Config) (*Policy, error) {
	p := &Policy{allowFile: c.AllowFileURLs, blockPrivate: c.BlockPrivateNetworks, lookup: lookupHost, upstream: c.Upstream}
	p.proxied = c.Upstream != nil
	for _, v := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
		p.proxied = p.proxied || os.Getenv(v) != ""
	}
	var errs []error
	for _, l := range []struct {
		name string
		raw  []string
		out  *[]originPattern
	}{{"allowed-origins", c.AllowedOrigins, &p.allowed}, {"blocked-origins", c.BlockedOrigins, &p.blocked}} {
		for _, r := range l.raw {
			if strings.TrimSpace(r) == "" {
				continue
			}
			o, err := parsePattern(r)
			if err != nil {
				errs = append(errs, fmt.Errorf("--%s %q: %w", l.name, redact.URL(r), err))
				continue
			}
			*l.out = append(*l.out, o)
		}
	}
	if err := c.Upstream.check(p.Intercepts()); err != nil {
		errs = append(errs, err)
	}
	return p, errors.Join(errs...)
}

// SplitOrigins splits a comma-separated list of origin patterns.
func SplitOrigins(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Intercepts reports whether pages must have their requests checked: some
// rule is configured or private networks are blocked. Otherwise no page
// enables request interception (no overhead): file:// is then kept out by
// the check of browser_navigate and by Chrome, which lets no web page load
// or open file:// URLs.
func (p *Policy) Intercepts() bool {
	return p != nil && (len(p.allowed) > 0 || len(p.blocked) > 0 || p.blockPrivate)
}

// AllowsAllLoopback reports whether every loopback origin (localhost and
// its subdomains, 127.0.0.0/8, ::1, on any scheme and port) is allowed: no
// allowlist, and no blocked-origins rule that could match one. Then a
// browser may reach loopback without going through the proxy, which spares
// the usual dev server a hop (a name that resolves to loopback still goes
// through it: Chrome bypasses by how a host is written).
func (p *Policy) AllowsAllLoopback() bool {
	if p == nil {
		return true
	}
	if len(p.allowed) > 0 {
		return false
	}
	for _, r := range p.blocked {
		if r.host == "*" || r.sub && (r.host == "localhost" || strings.HasSuffix(r.host, ".localhost")) || isLocalhost(r.host) {
			return false
		}
		if a, ok := parseIP(r.host); ok && embeddedIPv4(a).IsLoopback() {
			return false
		}
	}
	return true
}

// Verdict is a policy decision on one URL.
type Verdict struct {
	Blocked bool
	// Rule names what blocked it, e.g. "blocked-origins http://x:1".
	Rule string
}

// origin is a URL's scheme, host and port, normalized.
type origin struct {
	scheme, host, port string
}

func (o origin) String() string {
	h := o.host
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	return o.scheme + "://" + h + ":" + o.port
}

// OriginOf is the normalized origin (scheme://host:port) of a URL that
// reaches a server (http, https, ws, wss); ok is false for any other.
func OriginOf(rawURL string) (string, bool) {
	o, ok := parseOrigin(rawURL)
	if !ok || !networkScheme(o.scheme) {
		return "", false
	}
	return o.String(), true
}

// parseOrigin normalizes a URL's origin; ok is false for URLs without a
// host.
func parseOrigin(raw string) (origin, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return origin{}, false
	}
	o := origin{scheme: strings.ToLower(u.Scheme), host: normHost(u.Hostname()), port: u.Port()}
	if o.port == "" {
		o.port = defaultPort(o.scheme)
	}
	return o, o.host != ""
}

func defaultPort(scheme string) string {
	switch scheme {
	case "http", "ws":
		return "80"
	case "https", "wss":
		return "443"
	}
	return ""
}

// normHost lowercases a host, drops a trailing dot and writes IP literals
// in their canonical form.
func normHost(h string) string {
	h = strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
	if a, ok := parseIP(h); ok {
		return embeddedIPv4(a).String()
	}
	return h
}

// embeddedIPv4 is the IPv4 address an IPv6 address stands for, when it is
// IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d), else a itself:
// a rule written for 169.254.169.254 must hold for [::ffff:a9fe:a9fe].
func embeddedIPv4(a netip.Addr) netip.Addr {
	a = a.Unmap()
	if nat64.Contains(a) {
		b := a.As16()
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
	return a
}

// parseIP parses an IP literal: IPv6, or IPv4 in the forms a URL's host may
// take (WHATWG URL: 1 to 4 parts, each decimal, 0x-hex or 0-octal, the last
// filling the remaining bytes).
func parseIP(h string) (netip.Addr, bool) {
	if strings.Contains(h, ":") {
		a, err := netip.ParseAddr(h)
		return a, err == nil && a.Zone() == ""
	}
	parts := strings.Split(h, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, s := range parts {
		base := 10
		switch {
		case strings.HasPrefix(s, "0x"):
			s, base = s[2:], 16
			if s == "" {
				s = "0"
			}
		case len(s) > 1 && s[0] == '0':
			s, base = s[1:], 8
		}
		n, err := strconv.ParseUint(s, base, 64)
		if err != nil || s == "" {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	b := binary.BigEndian.AppendUint64(nil, v)
	return netip.AddrFrom4([4]byte(b[4:])), true
}

// originPattern is one parsed rule of AllowedOrigins or BlockedOrigins.
type originPattern struct {
	raw    string
	scheme string // "" matches any
	host   string // "*" any; with sub, the domain whose subdomains match
	sub    bool
	port   string // "" matches any
}

func parsePattern(raw string) (originPattern, error) {
	s := strings.TrimSuffix(strings.TrimSpace(raw), "/")
	o := originPattern{raw: strings.TrimSpace(raw)}
	if i := strings.Index(s, "://"); i >= 0 {
		o.scheme, s = strings.ToLower(s[:i]), s[i+3:]
		if o.scheme == "*" {
			o.scheme = ""
		} else if o.scheme == "" || strings.Trim(o.scheme, "abcdefghijklmnopqrstuvwxyz0123456789+.-") != "" {
			return o, errors.New("bad scheme")
		}
	}
	if s == "" || strings.ContainsAny(s, "/?#@ \t") {
		return o, errors.New("want [scheme://]host[:port], e.g. https://*.example.com or http://localhost:3000 (no path)")
	}
	host, port := s, ""
	if strings.HasPrefix(s, "[") {
		end := strings.Index(s, "]")
		if end < 0 {
			return o, errors.New("unclosed [ in an IPv6 address")
		}
		host, port = s[1:end], strings.TrimPrefix(s[end+1:], ":")
		if s[end+1:] != "" && !strings.HasPrefix(s[end+1:], ":") {
			return o, errors.New("junk after ]")
		}
		if _, err := netip.ParseAddr(host); err != nil {
			return o, fmt.Errorf("bad IPv6 address: %v", err)
		}
	} else if i := strings.LastIndex(s, ":"); i >= 0 {
		host, port = s[:i], s[i+1:]
	}
	switch {
	case port == "*":
		port = ""
	case port != "":
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return o, fmt.Errorf("bad port %q", port)
		}
	case o.scheme != "":
		port = defaultPort(o.scheme)
	}
	o.port = port
	host = strings.ToLower(host)
	switch {
	case host == "*":
	case strings.HasPrefix(host, "*."):
		o.sub, host = true, strings.TrimSuffix(host[2:], ".")
		if host == "" || strings.Contains(host, "*") {
			return o, errors.New("bad wildcard host: want *.example.com")
		}
	case strings.Contains(host, "*"):
		return o, errors.New("a * in a host must be the whole host or its first label (*.example.com)")
	default:
		host = normHost(host)
	}
	if host == "" {
		return o, errors.New("empty host")
	}
	o.host = host
	return o, nil
}

func (o originPattern) match(u origin) bool {
	if o.scheme != "" && o.scheme != u.scheme {
		return false
	}
	if o.port != "" && o.port != u.port {
		return false
	}
	switch {
	case o.host == "*":
		return true
	case o.sub:
		return strings.HasSuffix(u.host, "."+o.host)
	}
	return o.host == u.host
}

// networkScheme reports whether URLs of a scheme reach a server.
func networkScheme(s string) bool {
	switch s {
	case "http", "https", "ws", "wss", "ftp":
		return true
	}
	return false
}

// Check decides whether a page may request rawURL. dev are the origins of
// the session's dev server(s) (the dev parameter of [Policy.Check]). In order: a
// blocked-origins rule blocks; a dev-server origin is allowed; with an
// allowlist, a listed origin is allowed and anything else blocked; private
// networks (when blocked) are blocked; everything else is allowed.
// Schemes that reach no server (data:, blob:, about:, javascript:) are
// allowed; file: only with AllowFileURLs.
func (p *Policy) Check(ctx context.Context, rawURL string, dev []string) Verdict {
	return p.check(ctx, rawURL, dev, netip.Addr{})
}

// CheckConnected is [Policy.Check] for a request that Chrome sent to addr
// (the address it connected to): it catches a name that resolved to a
// public address for the policy and to a private one for Chrome (DNS
// rebinding). A name caught that way stays blocked for a while.
func (p *Policy) CheckConnected(rawURL string, dev []string, addr string) Verdict {
	a, err := netip.ParseAddr(strings.Trim(addr, "[]"))
	if err != nil || !p.blockPrivate || p.proxied {
		return Verdict{}
	}
	v := p.check(context.Background(), rawURL, dev, a.Unmap())
	if v.Blocked {
		if o, ok := parseOrigin(rawURL); ok {
			if _, lit := parseIP(o.host); !lit {
				p.dns.put(o.host, dnsEntry{addrs: []netip.Addr{a.Unmap()}, until: time.Now().Add(poisonTTL)})
			}
		}
	}
	return v
}

func (p *Policy) check(ctx context.Context, rawURL string, dev []string, connected netip.Addr) Verdict {
	scheme, _, _ := strings.Cut(rawURL, ":")
	scheme = strings.ToLower(scheme)
	if scheme == "file" {
		if p.allowFile {
			return Verdict{}
		}
		return Verdict{Blocked: true, Rule: "file:// URLs are blocked (start e2e-mcp with --allow-file-urls to allow them)"}
	}
	if !networkScheme(scheme) {
		return Verdict{} // data:, blob:, about:, javascript:, chrome-error: ...
	}
	o, ok := parseOrigin(rawURL)
	if !ok {
		return Verdict{Blocked: true, Rule: "the URL has no host"}
	}
	v, _ := p.decide(ctx, o, dev, connected)
	return v
}

// decide is the verdict on an origin. When it had to resolve the host to
// decide (private networks blocked, a name), it returns the addresses it
// checked, which are the ones a connection may then use.
func (p *Policy) decide(ctx context.Context, o origin, dev []string, connected netip.Addr) (Verdict, []netip.Addr) {
	for _, r := range p.blocked {
		if r.match(o) {
			return Verdict{Blocked: true, Rule: "blocked-origins " + r.raw}, nil
		}
	}
	for _, d := range dev {
		if do, ok := parseOrigin(d); ok && do == o {
			return Verdict{}, nil
		}
	}
	if len(p.allowed) > 0 {
		for _, r := range p.allowed {
			if r.match(o) {
				return Verdict{}, nil
			}
		}
		return Verdict{Blocked: true, Rule: "allowed-origins (" + o.String() + " is not listed)"}, nil
	}
	if !p.blockPrivate {
		return Verdict{}, nil
	}
	if connected.IsValid() {
		if _, lit := parseIP(o.host); lit || isLocalhost(o.host) {
			return Verdict{}, nil // checked before the request went out
		}
		if r := privateRange(connected); r != "" {
			return Verdict{Blocked: true, Rule: fmt.Sprintf("private-network %s (DNS rebinding: %s resolved to %s for the browser)", r, o.host, connected)}, nil
		}
		return Verdict{}, nil
	}
	if a, lit := parseIP(o.host); lit {
		if r := privateRange(a); r != "" {
			return Verdict{Blocked: true, Rule: "private-network " + r}, nil
		}
		return Verdict{}, []netip.Addr{embeddedIPv4(a)}
	}
	if isLocalhost(o.host) {
		return Verdict{}, nil
	}
	addrs, err := p.resolve(ctx, o.host)
	if err != nil {
		return Verdict{Blocked: true, Rule: fmt.Sprintf("private-network (%s did not resolve, so it could not be checked: %v)", o.host, err)}, nil
	}
	for _, a := range addrs {
		if r := privateRange(a); r != "" {
			return Verdict{Blocked: true, Rule: fmt.Sprintf("private-network %s (%s resolves to %s)", r, o.host, a)}, nil
		}
	}
	return Verdict{}, addrs
}

func isLocalhost(h string) bool { return h == "localhost" || strings.HasSuffix(h, ".localhost") }

// privateRanges are the ranges BlockPrivateNetworks blocks, with their
// names. Loopback (127.0.0.0/8, ::1) is not among them.
var privateRanges = func() []struct {
	prefix netip.Prefix
	name   string
} {
	var out []struct {
		prefix netip.Prefix
		name   string
	}
	for _, r := range [][2]string{
		{"0.0.0.0/8", "0.0.0.0/8 (this network)"},
		{"10.0.0.0/8", "10.0.0.0/8 (RFC 1918)"},
		{"100.64.0.0/10", "100.64.0.0/10 (CGNAT)"},
		{"169.254.0.0/16", "169.254.0.0/16 (link-local, cloud metadata)"},
		{"172.16.0.0/12", "172.16.0.0/12 (RFC 1918)"},
		{"192.168.0.0/16", "192.168.0.0/16 (RFC 1918)"},
		{"224.0.0.0/4", "224.0.0.0/4 (multicast)"},
		{"240.0.0.0/4", "240.0.0.0/4 (reserved, broadcast)"},
		{"::/128", "::/128 (unspecified)"},
		{"fc00::/7", "fc00::/7 (unique local)"},
		{"fe80::/10", "fe80::/10 (link-local)"},
		{"fec0::/10", "fec0::/10 (site-local)"},
		{"ff00::/8", "ff00::/8 (multicast)"},
	} {
		out = append(out, struct {
			prefix netip.Prefix
			name   string
		}{netip.MustParsePrefix(r[0]), r[1]})
	}
	return out
}()

var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// privateRange names the blocked range a holds, or "" (public or loopback).
func privateRange(a netip.Addr) string {
	a = embeddedIPv4(a)
	if a.IsLoopback() {
		return ""
	}
	for _, r := range privateRanges {
		if r.prefix.Contains(a) {
			return r.name
		}
	}
	return ""
}

// dnsCache keeps lookups for a short while.
type dnsCache struct {
	mu sync.Mutex
	m  map[string]dnsEntry
}

type dnsEntry struct {
	addrs []netip.Addr
	err   error
	until time.Time
}

func (c *dnsCache) get(host string) (dnsEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[host]
	if !ok || time.Now().After(e.until) {
		return dnsEntry{}, false
	}
	return e, true
}

func (c *dnsCache) put(host string, e dnsEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]dnsEntry{}
	}
	if old, ok := c.m[host]; ok && old.until.After(e.until) {
		return // a poisoned name stays poisoned
	}
	if len(c.m) >= dnsMax {
		now := time.Now()
		for h, x := range c.m {
			if now.After(x.until) {
				delete(c.m, h)
			}
		}
		if len(c.m) >= dnsMax {
			clear(c.m)
		}
	}
	c.m[host] = e
}

func (p *Policy) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if e, ok := p.dns.get(host); ok {
		return e.addrs, e.err
	}
	lctx, cancel := context.WithTimeout(ctx, DNSTimeout)
	defer cancel()
	addrs, err := p.lookup(lctx, host)
	if err == nil && len(addrs) == 0 {
		err = errors.New("no addresses")
	}
	if ctx.Err() == nil { // not cut short by the caller: worth keeping
		p.dns.put(host, dnsEntry{addrs: addrs, err: err, until: time.Now().Add(dnsTTL)})
	}
	return addrs, err
}

func lookupHost(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}
