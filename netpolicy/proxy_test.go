package netpolicy

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// proxyFor starts a proxy of p and records what it refuses.
func proxyFor(t *testing.T, p *Policy, dev ...string) (*Proxy, *refusals) {
	t.Helper()
	r := &refusals{}
	x, err := p.NewProxy(func() []string { return dev }, r.add)
	if err != nil {
		t.Fatal(err)
	}
	x.upstream = func(*url.URL) (*url.URL, error) { return nil, nil } // the test's environment is not ours
	t.Cleanup(func() { _ = x.Close() })
	return x, r
}

type refusals struct {
	mu   sync.Mutex
	list []string
}

func (r *refusals) add(u, rule string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, u+" "+rule)
}

func (r *refusals) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.list, "\n")
}

// through is an HTTP client that uses the proxy for everything.
func through(x *Proxy) *http.Client {
	pu, _ := url.Parse(x.URL())
	return &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu), TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // the test servers' own certificates
}

func backend(t *testing.T, tlsOn bool) (*httptest.Server, string) {
	t.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "secret from "+r.Host) })
	var s *httptest.Server
	if tlsOn {
		s = httptest.NewTLSServer(h)
	} else {
		s = httptest.NewServer(h)
	}
	t.Cleanup(s.Close)
	u, _ := url.Parse(s.URL)
	return s, u.Port()
}

func get(t *testing.T, c *http.Client, u string) (int, string, error) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}

func TestProxyEnforcesRules(t *testing.T) {
	_, plainPort := backend(t, false)
	_, tlsPort := backend(t, true)
	_, otherPort := backend(t, false)
	p, _ := testPolicy(t, Config{BlockedOrigins: []string{"http://127.0.0.1:" + plainPort, "127.0.0.1:" + tlsPort}}, nil)
	x, refused := proxyFor(t, p)
	c := through(x)

	if code, body, err := get(t, c, "http://127.0.0.1:"+plainPort+"/"); err != nil || code != 403 || strings.Contains(body, "secret") {
		t.Errorf("blocked plain HTTP: %d %q %v", code, body, err)
	}
	if _, body, err := get(t, c, "https://127.0.0.1:"+tlsPort+"/"); err == nil || strings.Contains(body, "secret") {
		t.Errorf("blocked CONNECT went through: %q", body)
	}
	if code, body, err := get(t, c, "http://127.0.0.1:"+otherPort+"/"); err != nil || code != 200 || !strings.Contains(body, "secret") {
		t.Errorf("allowed plain HTTP: %d %q %v", code, body, err)
	}
	got := refused.String()
	if !strings.Contains(got, "127.0.0.1:"+plainPort) || !strings.Contains(got, "127.0.0.1:"+tlsPort) || !strings.Contains(got, "blocked-origins") {
		t.Errorf("refusals reported: %q", got)
	}
}

// TestProxyDialsWhatItChecked: with private networks blocked, a name is
// resolved once, checked, and dialled at the address checked: a name that
// resolves privately is refused, one that resolves to the server reaches
// it (though no real DNS knows it), and an allowlisted dev origin passes.
func TestProxyDialsWhatItChecked(t *testing.T) {
	_, port := backend(t, false)
	_, tlsPort := backend(t, true)
	p, lookups := testPolicy(t, Config{BlockPrivateNetworks: true}, map[string][]string{
		"app.test":      {"127.0.0.1"},
		"intranet.test": {"10.1.2.3"},
		"mixed.test":    {"93.184.216.34", "192.168.1.1"},
		"meta.test":     {"::ffff:169.254.169.254"},
	})
	x, refused := proxyFor(t, p)
	c := through(x)
	if code, body, err := get(t, c, "http://app.test:"+port+"/"); err != nil || code != 200 || !strings.Contains(body, "secret from app.test") {
		t.Errorf("a name resolved by the policy: %d %q %v", code, body, err)
	}
	if _, body, err := get(t, c, "https://app.test:"+tlsPort+"/"); err != nil || !strings.Contains(body, "secret") {
		t.Errorf("CONNECT to a name resolved by the policy: %q %v", body, err)
	}
	for _, u := range []string{"http://intranet.test:" + port + "/", "https://intranet.test/", "http://mixed.test/", "http://meta.test/",
		"http://10.0.0.1/", "http://[::ffff:10.0.0.1]/", "http://169.254.169.254/latest/meta-data/"} {
		code, body, err := get(t, c, u)
		if err == nil && (code != 403 || strings.Contains(body, "secret")) {
			t.Errorf("%s: %d %q", u, code, body)
		}
	}
	if got := refused.String(); strings.Count(got, "private-network") < 7 {
		t.Errorf("refusals: %s", got)
	}
	if n := lookups.Load(); n > 4 {
		t.Errorf("%d lookups for 4 names: the proxy resolves again instead of using the check's answer", n)
	}
}

// TestProxyThroughUpstream: with a proxy in the environment, tunnels and
// requests go on through it (names are still checked).
func TestProxyThroughUpstream(t *testing.T) {
	_, tlsPort := backend(t, true)
	_, plainPort := backend(t, false)
	up, _ := testPolicy(t, Config{}, nil)
	upstream, _ := proxyFor(t, up)
	var hits sync.Map
	counting := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Store(r.Method+" "+r.Host, true)
		upstream.ServeHTTP(w, r)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = counting.Serve(ln) }()
	t.Cleanup(func() { _ = counting.Close() })

	p, _ := testPolicy(t, Config{BlockedOrigins: []string{"blocked.test"}}, nil)
	x, _ := proxyFor(t, p)
	x.upstream = func(*url.URL) (*url.URL, error) { return url.Parse("http://" + ln.Addr().String()) }
	c := through(x)
	if _, body, err := get(t, c, "https://127.0.0.1:"+tlsPort+"/"); err != nil || !strings.Contains(body, "secret") {
		t.Errorf("tunnel through the upstream: %q %v", body, err)
	}
	if _, body, err := get(t, c, "http://127.0.0.1:"+plainPort+"/"); err != nil || !strings.Contains(body, "secret") {
		t.Errorf("request through the upstream: %q %v", body, err)
	}
	if _, ok := hits.Load("CONNECT 127.0.0.1:" + tlsPort); !ok {
		t.Error("the tunnel did not go through the upstream proxy")
	}
	if _, ok := hits.Load("GET 127.0.0.1:" + plainPort); !ok {
		t.Error("the request did not go through the upstream proxy")
	}
	if code, _, err := get(t, c, "http://blocked.test/"); err != nil || code != 403 {
		t.Errorf("a blocked name through the upstream: %d %v", code, err)
	}
}

// TestProxyCloseCutsTunnels: Close ends the tunnels going through.
func TestProxyCloseCutsTunnels(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(io.Discard, c) }()
		}
	}()
	p, _ := testPolicy(t, Config{}, nil)
	x, _ := proxyFor(t, p)
	conn, err := net.Dial("tcp", strings.TrimPrefix(x.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, "CONNECT "+ln.Addr().String()+" HTTP/1.1\r\nHost: "+ln.Addr().String()+"\r\n\r\n")
	buf := make([]byte, 64)
	if n, err := conn.Read(buf); err != nil || !strings.Contains(string(buf[:n]), "200") {
		t.Fatalf("CONNECT: %q %v", buf[:n], err)
	}
	_ = x.Close()
	if _, err := conn.Read(buf); !errors.Is(err, io.EOF) && err == nil {
		t.Errorf("the tunnel is still open after Close")
	}
}

// TestProxyNamesTheSchemeItReports: a CONNECT refused by an allowlist is
// reported as https://host:port, with the allowlist's rule for https, not
// for the last scheme a tunnel could carry (it said "ws://... is not
// listed" beside an https URL).
func TestProxyNamesTheSchemeItReports(t *testing.T) {
	_, tlsPort := backend(t, true)
	p, _ := testPolicy(t, Config{AllowedOrigins: []string{"http://allowed.test"}}, nil)
	x, refused := proxyFor(t, p)
	if _, body, err := get(t, through(x), "https://127.0.0.1:"+tlsPort+"/"); err == nil || strings.Contains(body, "secret") {
		t.Fatalf("a CONNECT outside the allowlist went through: %q", body)
	}
	got := refused.String()
	if !strings.Contains(got, "https://127.0.0.1:"+tlsPort+" allowed-origins (https://127.0.0.1:"+tlsPort+" is not listed)") {
		t.Errorf("refusal reported as %q", got)
	}
}
