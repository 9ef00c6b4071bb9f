package netpolicy

import (
	"context"
	"net/netip"
	"strings"
	"testing"
)

// FuzzParsePattern: any pattern is parsed or refused, never a panic; a
// pattern that parses matches its own origin when it names one exactly.
func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{"https://*.example.com", "http://localhost:3000", "localhost", "*", "[::1]:8080",
		"http://[::ffff:a9fe:a9fe]", "ws://x:*", "*://a.b", "http://a:0", "[", "*.", "a*b", "http://[::1", "://x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		p, err := parsePattern(raw)
		if err != nil {
			return
		}
		if p.scheme == "" || p.port == "" || p.sub || p.host == "*" || !networkScheme(p.scheme) {
			return
		}
		o := origin{scheme: p.scheme, host: p.host, port: p.port}
		if !p.match(o) {
			t.Fatalf("pattern %q does not match its own origin %s", raw, o)
		}
	})
}

// FuzzParseIP: any host parses as an IP literal or does not, never a
// panic; an IPv4 literal blocked by a rule stays blocked in its IPv4-mapped
// and NAT64 IPv6 forms.
func FuzzParseIP(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "0x7f.1", "2130706433", "017700000001", "::ffff:a9fe:a9fe", "64:ff9b::1.2.3.4",
		"1.2.3", "256.1.1.1", "0x", "1..1", "::", "fe80::1%eth0", "4294967296"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		a, ok := parseIP(h)
		if !ok || !a.Is4() {
			return
		}
		p, err := New(Config{BlockedOrigins: []string{a.String()}})
		if err != nil {
			t.Fatalf("a parsed IPv4 %s is not a valid pattern: %v", a, err)
		}
		b := a.As4()
		mapped := netip.AddrFrom16([16]byte{10: 0xff, 11: 0xff, 12: b[0], 13: b[1], 14: b[2], 15: b[3]})
		nat := netip.AddrFrom16([16]byte{0: 0, 1: 0x64, 2: 0xff, 3: 0x9b, 12: b[0], 13: b[1], 14: b[2], 15: b[3]})
		for _, u := range []string{"http://" + h + "/", "http://[" + mapped.String() + "]/", "http://[" + nat.String() + "]/"} {
			if v := p.Check(context.Background(), u, nil); !v.Blocked {
				t.Fatalf("%s is not blocked by the rule %s", u, a)
			}
		}
	})
}

// FuzzCheck: any URL gets a verdict, never a panic; a blocked one names
// its rule.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"http://a.example/", "https://[::1]:1/x", "file:///etc/passwd", "data:text/html,x", "http://%zz/",
		"ws://10.0.0.1:80", "http://[64:ff9b::a9fe:a9fe]/", "HTTP://EXAMPLE.COM.:80/", "javascript:alert(1)", "http://0x7f.1/"} {
		f.Add(s)
	}
	p, err := New(Config{BlockedOrigins: []string{"*.evil.example", "10.0.0.1"}, AllowedOrigins: []string{"http://a.example", "127.0.0.1"}, BlockPrivateNetworks: true})
	if err != nil {
		f.Fatal(err)
	}
	p.lookup = func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
	}
	f.Fuzz(func(t *testing.T, u string) {
		v := p.Check(context.Background(), u, []string{"http://localhost:3000"})
		if v.Blocked && strings.TrimSpace(v.Rule) == "" {
			t.Fatalf("%q blocked without a rule", u)
		}
	})
}
