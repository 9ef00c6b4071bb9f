package netpolicy

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
)

// testPolicy is a policy whose DNS answers come from a table.
func testPolicy(t *testing.T, c Config, dns map[string][]string) (*Policy, *atomic.Int32) {
	t.Helper()
	p, err := New(c)
	if err != nil {
		t.Fatalf("New(%+v): %v", c, err)
	}
	var lookups atomic.Int32
	p.lookup = func(_ context.Context, host string) ([]netip.Addr, error) {
		lookups.Add(1)
		ips, ok := dns[host]
		if !ok {
			return nil, errors.New("no such host")
		}
		var out []netip.Addr
		for _, ip := range ips {
			out = append(out, netip.MustParseAddr(ip))
		}
		return out, nil
	}
	p.proxied = false
	return p, &lookups
}

type policyCase struct {
	url     string
	blocked bool
	rule    string // a substring of the rule, when blocked
}

func checkCases(t *testing.T, p *Policy, dev []string, cases []policyCase) {
	t.Helper()
	for _, c := range cases {
		v := p.Check(context.Background(), c.url, dev)
		if v.Blocked != c.blocked || !strings.Contains(v.Rule, c.rule) {
			t.Errorf("Check(%q) = %+v, want blocked=%v with rule containing %q", c.url, v, c.blocked, c.rule)
		}
	}
}

func TestPolicyBlockedOrigins(t *testing.T) {
	p, _ := testPolicy(t, Config{BlockedOrigins: []string{
		"https://*.evil.example", "http://localhost:3000", "tracker.example", "http://[::1]:8080", "https://pay.example:*"}}, nil)
	if !p.Intercepts() {
		t.Fatal("a policy with rules must intercept")
	}
	checkCases(t, p, nil, []policyCase{
		{"https://a.evil.example/x", true, "blocked-origins https://*.evil.example"},
		{"https://a.b.EVIL.example./x", true, "*.evil.example"},
		{"https://evil.example/", false, ""},       // the apex is not a subdomain
		{"http://a.evil.example/", false, ""},      // other scheme
		{"https://a.evil.example:444/", false, ""}, // scheme without port: its default port
		{"http://localhost:3000/api", true, "http://localhost:3000"},
		{"http://localhost:3001/api", false, ""},
		{"http://tracker.example:8080/p.gif", true, "tracker.example"}, // no scheme: any scheme and port
		{"https://tracker.example/p.gif", true, "tracker.example"},
		{"http://[0:0::1]:8080/", true, "[::1]:8080"},
		{"https://pay.example:8443/", true, "pay.example:*"},
		{"https://example.com/", false, ""},
		{"data:text/html,hi", false, ""},
		{"blob:https://a.evil.example/uuid", false, ""},
		{"about:blank", false, ""},
	})
}

func TestPolicyAllowedOrigins(t *testing.T) {
	p, lookups := testPolicy(t, Config{AllowedOrigins: []string{"http://127.0.0.1:*", "https://*.example.com"},
		BlockedOrigins: []string{"https://bad.example.com"}}, nil)
	checkCases(t, p, nil, []policyCase{
		{"http://127.0.0.1:4567/", false, ""},
		{"https://www.example.com/", false, ""},
		{"https://bad.example.com/", true, "blocked-origins"}, // a block wins over an allowance
		{"https://example.com/", true, "allowed-origins (https://example.com:443 is not listed)"},
		{"http://localhost:4567/", true, "allowed-origins"},
		{"https://other.test/", true, "allowed-origins"},
	})
	// The dev server exception: its exact origin, nothing more.
	dev := []string{"http://192.168.1.20:5173"}
	checkCases(t, p, dev, []policyCase{
		{"http://192.168.1.20:5173/src/main.ts", false, ""},
		{"http://192.168.1.20:5174/", true, "allowed-origins"},
		{"https://192.168.1.20:5173/", true, "allowed-origins"},
	})
	if n := lookups.Load(); n != 0 {
		t.Errorf("an allowlist without private blocking looked up %d names; want none", n)
	}
}

func TestPolicyFileURLs(t *testing.T) {
	p, _ := testPolicy(t, Config{}, nil)
	if p.Intercepts() {
		t.Error("a policy without rules in stdio mode must not intercept")
	}
	checkCases(t, p, nil, []policyCase{
		{"file:///etc/passwd", true, "--allow-file-urls"},
		{"FILE:///tmp/x.html", true, "file://"},
		{"http://10.0.0.1/", false, ""}, // private networks are open in stdio mode
	})
	p, _ = testPolicy(t, Config{AllowFileURLs: true}, nil)
	checkCases(t, p, nil, []policyCase{{"file:///tmp/x.html", false, ""}})
	var nilPolicy *Policy
	if nilPolicy.Intercepts() {
		t.Error("a nil policy intercepts nothing")
	}
}

func TestPolicyPrivateNetworks(t *testing.T) {
	dns := map[string][]string{
		"public.example":   {"93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"},
		"mixed.example":    {"93.184.215.14", "10.1.2.3"}, // any private answer blocks
		"metadata.example": {"169.254.169.254"},
		"ula.example":      {"fd12:3456::1"},
		"loop.example":     {"127.0.0.1"},
	}
	p, lookups := testPolicy(t, Config{BlockPrivateNetworks: true, AllowedOrigins: nil}, dns)
	if !p.Intercepts() {
		t.Fatal("private-network blocking must intercept")
	}
	checkCases(t, p, []string{"http://10.9.9.9:3000"}, []policyCase{
		// Literal IPv4, every range.
		{"http://10.0.0.1/", true, "10.0.0.0/8"},
		{"http://172.16.5.4/", true, "172.16.0.0/12"},
		{"http://172.32.0.1/", false, ""},
		{"http://192.168.0.1:8080/", true, "192.168.0.0/16"},
		{"http://169.254.169.254/latest/meta-data/", true, "cloud metadata"},
		{"http://100.64.0.1/", true, "CGNAT"},
		{"http://100.128.0.1/", false, ""},
		{"http://0.0.0.0:8000/", true, "this network"},
		{"http://8.8.8.8/", false, ""},
		// Loopback stays allowed, also by name.
		{"http://127.0.0.1:3000/", false, ""},
		{"http://127.1.2.3/", false, ""},
		{"http://[::1]:3000/", false, ""},
		{"http://localhost:3000/", false, ""},
		{"http://app.localhost/", false, ""},
		// IPv4 in the other forms a URL allows.
		{"http://0xa000001/", true, "10.0.0.0/8"},
		{"http://167772161/", true, "10.0.0.0/8"},
		{"http://012.0.0.1/", true, "10.0.0.0/8"},
		{"http://10.1/", true, "10.0.0.0/8"},
		{"http://0xa9.254.169.254/", true, "169.254.0.0/16"},
		// IPv6.
		{"http://[fd00::1]/", true, "fc00::/7"},
		{"http://[fc00::1]:8080/", true, "fc00::/7"},
		{"http://[fe80::1]/", true, "fe80::/10"},
		{"http://[::ffff:10.0.0.1]/", true, "10.0.0.0/8"},
		{"http://[::ffff:a9fe:a9fe]/", true, "169.254.0.0/16"},
		{"http://[64:ff9b::a00:1]/", true, "10.0.0.0/8"},
		{"http://[::]/", true, "unspecified"},
		{"http://[2001:4860:4860::8888]/", false, ""},
		// Names: resolved, every address checked.
		{"https://public.example/", false, ""},
		{"https://mixed.example/", true, "(mixed.example resolves to 10.1.2.3)"},
		{"https://metadata.example/", true, "169.254.0.0/16"},
		{"https://ula.example/", true, "fc00::/7"},
		{"https://loop.example/", false, ""},
		{"https://nowhere.example/", true, "did not resolve"},
		// The session's dev server on a private address.
		{"http://10.9.9.9:3000/app.js", false, ""},
		{"http://10.9.9.9:3001/", true, "10.0.0.0/8"},
	})
	// Lookups are cached: asking again resolves nothing.
	before := lookups.Load()
	checkCases(t, p, nil, []policyCase{{"https://public.example/x", false, ""}, {"https://mixed.example/y", true, "10.0.0.0/8"}})
	if n := lookups.Load(); n != before {
		t.Errorf("cached names were looked up again (%d lookups, want %d)", n, before)
	}

	// An explicit allowance lifts the private default for what it names.
	p, _ = testPolicy(t, Config{BlockPrivateNetworks: true, AllowedOrigins: []string{"http://10.0.0.5:8080", "https://public.example"}}, dns)
	checkCases(t, p, nil, []policyCase{
		{"http://10.0.0.5:8080/", false, ""},
		{"http://10.0.0.6:8080/", true, "allowed-origins"},
	})
}

func TestPolicyDNSRebinding(t *testing.T) {
	dns := map[string][]string{"rebind.example": {"93.184.215.14"}}
	p, _ := testPolicy(t, Config{BlockPrivateNetworks: true}, dns)
	checkCases(t, p, nil, []policyCase{{"https://rebind.example/", false, ""}})
	// The browser's own lookup gave a private address: caught when the
	// response arrives, and the name stays refused.
	v := p.CheckConnected("https://rebind.example/", nil, "10.0.0.7")
	if !v.Blocked || !strings.Contains(v.Rule, "DNS rebinding") {
		t.Fatalf("CheckConnected to a private address = %+v, want blocked for DNS rebinding", v)
	}
	checkCases(t, p, nil, []policyCase{{"https://rebind.example/again", true, "10.0.0.0/8"}})
	// A public connection, loopback, or a literal host checked before: fine.
	for _, c := range []struct{ url, addr string }{
		{"https://other.example/", "93.184.215.14"}, {"http://x.example/", "127.0.0.1"}, {"http://8.8.8.8/", "8.8.8.8"}, {"http://[::1]:80/", "[::1]"}} {
		if v := p.CheckConnected(c.url, nil, c.addr); v.Blocked {
			t.Errorf("CheckConnected(%s, %s) = %+v, want allowed", c.url, c.addr, v)
		}
	}
	// Without private blocking there is nothing to check.
	q, _ := testPolicy(t, Config{BlockedOrigins: []string{"x.example"}}, dns)
	if v := q.CheckConnected("https://rebind.example/", nil, "10.0.0.7"); v.Blocked {
		t.Errorf("CheckConnected without private blocking = %+v", v)
	}
}

func TestPolicyPatternErrors(t *testing.T) {
	for _, bad := range []string{"https://example.com/path", "http://", "ex*ample.com", "*.", "http://host:99999", "http://[::1", "user@host", "https://*.a.*.b"} {
		if _, err := New(Config{BlockedOrigins: []string{bad}}); err == nil {
			t.Errorf("pattern %q: want an error", bad)
		}
	}
	for _, good := range []string{"https://*.example.com", "http://localhost:3000", "localhost", "*", "http://*", "https://example.com/", "[::1]:3000", "*://x.example", "10.0.0.1"} {
		if _, err := New(Config{AllowedOrigins: []string{good}}); err != nil {
			t.Errorf("pattern %q: %v", good, err)
		}
	}
	if got := SplitOrigins(" a.example, ,https://b.example:1 "); len(got) != 2 || got[0] != "a.example" || got[1] != "https://b.example:1" {
		t.Errorf("SplitOrigins = %q", got)
	}
}

// IPv4-mapped and NAT64 IPv6 literals name IPv4 addresses: rules written
// for those addresses hold for them, both ways.
func TestPolicyEmbeddedIPv4(t *testing.T) {
	p, _ := testPolicy(t, Config{BlockedOrigins: []string{"169.254.169.254", "http://127.0.0.1:9000", "[::ffff:10.1.2.3]"}}, nil)
	checkCases(t, p, nil, []policyCase{
		{"http://[::ffff:a9fe:a9fe]/latest/meta-data", true, "169.254.169.254"},
		{"http://[::ffff:169.254.169.254]/", true, "169.254.169.254"},
		{"http://[64:ff9b::a9fe:a9fe]/", true, "169.254.169.254"},
		{"http://[64:ff9b::169.254.169.254]:8080/", true, "169.254.169.254"},
		{"http://[::FFFF:7f00:1]:9000/", true, "127.0.0.1:9000"},
		{"http://[::ffff:127.0.0.1]:9001/", false, ""},
		{"http://10.1.2.3/", true, "::ffff:10.1.2.3"},
		{"http://[::1]:9000/", false, ""}, // loopback IPv6 is not 127.0.0.1
		{"http://[2001:db8::1]/", false, ""},
	})
	a, _ := testPolicy(t, Config{AllowedOrigins: []string{"127.0.0.1"}}, nil)
	checkCases(t, a, nil, []policyCase{
		{"http://[::ffff:127.0.0.1]:3000/", false, ""},
		{"http://[64:ff9b::7f00:1]/", false, ""},
		{"http://127.0.0.2/", true, "allowed-origins"},
	})
}

func TestAllowsAllLoopback(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want bool
	}{
		{Config{}, true},
		{Config{BlockPrivateNetworks: true}, true},
		{Config{BlockedOrigins: []string{"evil.example", "10.0.0.1"}}, true},
		{Config{BlockedOrigins: []string{"http://localhost:3000"}}, false},
		{Config{BlockedOrigins: []string{"127.0.0.1"}}, false},
		{Config{BlockedOrigins: []string{"[::ffff:127.0.0.2]"}}, false},
		{Config{BlockedOrigins: []string{"*.localhost"}}, false},
		{Config{BlockedOrigins: []string{"*"}}, false},
		{Config{AllowedOrigins: []string{"localhost"}}, false},
	} {
		p, err := New(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.AllowsAllLoopback(); got != c.want {
			t.Errorf("%+v: AllowsAllLoopback = %v", c.cfg, got)
		}
	}
}
