package httpauth

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func startWithOptions(t *testing.T, o Options) (url, port string) {
	t.Helper()
	url = startGuarded(t, func(addr string) *Guard {
		o.ListenAddr = addr
		_, port, _ = net.SplitHostPort(addr)
		g, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		return g
	})
	return url, port
}

func TestHostCheck(t *testing.T) {
	url, port := startWithOptions(t, Options{AllowedHosts: []string{"mcp.example.test", "proxy.example.test:8443"}})
	for _, c := range []struct {
		host string
		ok   bool
	}{
		{"127.0.0.1:" + port, true},
		{"localhost:" + port, true},
		{"LOCALHOST:" + port, true},
		{"[::1]:" + port, true},
		{"localhost", true}, // no port, as some proxies forward it
		{"mcp.example.test", true},
		{"mcp.example.test:9999", true},
		{"proxy.example.test:8443", true},
		{"proxy.example.test:8444", false},
		{"localhost:1", false},
		{"evil.example.test:" + port, false}, // DNS rebinding: a foreign name resolving to 127.0.0.1
		{"127.0.0.1.nip.io:" + port, false},
		{"192.168.1.5:" + port, false},
	} {
		t.Run(c.host, func(t *testing.T) {
			r := do(t, "GET", url+"/mcp", map[string]string{"Host": c.host})
			if c.ok {
				if r.status != http.StatusOK || !r.seen.Reached {
					t.Fatalf("status %d, body %s", r.status, r.body)
				}
				return
			}
			if r.status != http.StatusForbidden || r.seen.Reached {
				t.Fatalf("status %d, body %s", r.status, r.body)
			}
			b := errorBody(t, r)
			if b["error"] != "forbidden" || !strings.Contains(b["error_description"], "Host") {
				t.Fatalf("body %v", b)
			}
		})
	}
}

// TestHostCheckOnlyAllowed: with OnlyAllowedHosts the list is the only
// Host accepted, the listen address and localhost among the refused, and
// the refusal names the list; "*" still accepts any; an empty list is a
// mistake.
func TestHostCheckOnlyAllowed(t *testing.T) {
	url, port := startWithOptions(t, Options{AllowedHosts: []string{"mcp.example.test", "localhost:8443"}, OnlyAllowedHosts: true})
	for host, ok := range map[string]bool{
		"mcp.example.test": true, "mcp.example.test:" + port: true, "localhost:8443": true,
		"127.0.0.1:" + port: false, "localhost:" + port: false, "[::1]:" + port: false, "localhost": true,
		"evil.example.test": false,
	} {
		r := do(t, "GET", url+"/mcp", map[string]string{"Host": host})
		if ok {
			if r.status != http.StatusOK || !r.seen.Reached {
				t.Errorf("Host %s: status %d, body %s", host, r.status, r.body)
			}
			continue
		}
		if r.status != http.StatusForbidden || r.seen.Reached {
			t.Errorf("Host %s: status %d, body %s", host, r.status, r.body)
			continue
		}
		if d := errorBody(t, r)["error_description"]; !strings.Contains(d, "Access is only allowed at mcp.example.test, localhost:8443") {
			t.Errorf("Host %s: the refusal does not name the list: %q", host, d)
		}
	}
	// A public path (a container's HEALTHCHECK) still answers at the listen
	// address's IP literals, which no rebinding page can send; not at a
	// name, nor on another port.
	url, port = startWithOptions(t, Options{AllowedHosts: []string{"mcp.example.test"}, OnlyAllowedHosts: true, PublicPaths: []string{"/health"}})
	for host, ok := range map[string]bool{"127.0.0.1:" + port: true, "[::1]:" + port: true, "localhost:" + port: false, "127.0.0.1:1": false} {
		if r := do(t, "GET", url+"/health", map[string]string{"Host": host}); (r.status == http.StatusOK) != ok {
			t.Errorf("/health with Host %s: status %d, want allowed %v", host, r.status, ok)
		}
		if r := do(t, "GET", url+"/mcp", map[string]string{"Host": host}); r.status != http.StatusForbidden {
			t.Errorf("/mcp with Host %s: status %d, want 403", host, r.status)
		}
	}
	url, _ = startWithOptions(t, Options{AllowedHosts: []string{"*"}, OnlyAllowedHosts: true})
	if r := do(t, "GET", url+"/mcp", map[string]string{"Host": "anything.example.test"}); r.status != http.StatusOK {
		t.Errorf("only *: status %d", r.status)
	}
	if _, err := New(Options{ListenAddr: "127.0.0.1:8931", OnlyAllowedHosts: true}); err == nil {
		t.Error("OnlyAllowedHosts with no host accepted")
	}
}

func TestHostCheckListenHostAndWildcard(t *testing.T) {
	g, err := New(Options{ListenAddr: "10.0.0.7:8931"})
	if err != nil {
		t.Fatal(err)
	}
	for host, ok := range map[string]bool{"10.0.0.7:8931": true, "localhost:8931": true, "10.0.0.7:80": false, "10.0.0.8:8931": false} {
		if g.hostAllowed(host) != ok {
			t.Errorf("%s: allowed %v", host, !ok)
		}
	}
	// A wildcard listen address is not a Host name; the deployment names its hosts.
	g, err = New(Options{ListenAddr: "0.0.0.0:8931"})
	if err != nil {
		t.Fatal(err)
	}
	if g.hostAllowed("0.0.0.0:8931") || !g.hostAllowed("127.0.0.1:8931") {
		t.Error("wildcard listen address")
	}
	url, _ := startWithOptions(t, Options{AllowedHosts: []string{"*"}})
	if r := do(t, "GET", url+"/mcp", map[string]string{"Host": "anything.example.test"}); r.status != http.StatusOK {
		t.Errorf("AllowedHosts *: status %d", r.status)
	}
	if _, err := New(Options{ListenAddr: "no-port"}); err == nil {
		t.Error("listen address without port accepted")
	}
}

func TestOriginCheck(t *testing.T) {
	url, port := startWithOptions(t, Options{AllowedOrigins: []string{"https://App.Example.test:443", "http://localhost:3000"}})
	for _, c := range []struct {
		origin string
		ok     bool
	}{
		{"", true}, // non-browser client
		{"https://app.example.test", true},
		{"http://localhost:3000", true},
		{"http://127.0.0.1:" + port, true}, // the server's own origin
		{"http://localhost:3001", true},    // a local tool on a loopback listener
		{"http://[::1]:9999", true},        // the same
		{"http://localhost.evil.example.test", false},
		{"https://evil.example.test", false},
		{"http://app.example.test", false}, // scheme matters
		{"null", false},
		{"file://", false},
	} {
		t.Run(c.origin, func(t *testing.T) {
			h := map[string]string{}
			if c.origin != "" {
				h["Origin"] = c.origin
			}
			r := do(t, "POST", url+"/mcp", h)
			if c.ok {
				if r.status != http.StatusOK {
					t.Fatalf("status %d, body %s", r.status, r.body)
				}
				return
			}
			if r.status != http.StatusForbidden || r.seen.Reached {
				t.Fatalf("status %d, body %s", r.status, r.body)
			}
			if b := errorBody(t, r); b["error"] != "forbidden" || !strings.Contains(b["error_description"], "Origin") {
				t.Fatalf("body %v", b)
			}
		})
	}
	// Another loopback name of the server itself is a loopback origin too.
	r := do(t, "POST", url+"/mcp", map[string]string{"Origin": "http://localhost:" + port, "Host": "127.0.0.1:" + port})
	if r.status != http.StatusOK {
		t.Fatalf("cross-name loopback origin: status %d", r.status)
	}
	// On a listener that is not loopback, a loopback origin is a foreign
	// page like any other.
	g, err := New(Options{ListenAddr: "10.0.0.5:8931"})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("POST", "http://10.0.0.5:8931/mcp", nil)
	req.Header.Set("Origin", "http://localhost:3000")
	if why := g.checkOrigin(req); why == "" {
		t.Fatal("a loopback origin is accepted on a non-loopback listener")
	}
	anyURL, _ := startWithOptions(t, Options{AllowedOrigins: []string{"*"}})
	if r := do(t, "POST", anyURL+"/mcp", map[string]string{"Origin": "https://evil.example.test"}); r.status != http.StatusOK {
		t.Fatalf("AllowedOrigins *: status %d", r.status)
	}
	if _, err := New(Options{AllowedOrigins: []string{"app.example.test"}}); err == nil {
		t.Fatal("origin without scheme accepted")
	}
}

func TestHostAndOriginCheckedBeforeAuth(t *testing.T) {
	url, _ := startWithOptions(t, Options{Token: "s3cret"})
	r := do(t, "POST", url+"/mcp", map[string]string{"Host": "evil.example.test", "Authorization": "Bearer s3cret"})
	if r.status != http.StatusForbidden {
		t.Fatalf("bad Host with a good token: status %d", r.status)
	}
	r = do(t, "POST", url+"/mcp", map[string]string{"Origin": "https://evil.example.test"})
	if r.status != http.StatusForbidden {
		t.Fatalf("bad Origin without a token: status %d", r.status)
	}
}

func TestStaticToken(t *testing.T) {
	url, _ := startWithOptions(t, Options{Token: "s3cret-token", PublicPaths: []string{"/health"}})
	for name, c := range map[string]struct {
		headers map[string]string
		status  int
		auth    string
	}{
		"right token":           {bearer("s3cret-token"), http.StatusOK, ""},
		"lowercase scheme":      {map[string]string{"Authorization": "bearer s3cret-token"}, http.StatusOK, ""},
		"wrong token":           {bearer("s3cret-tokem"), http.StatusUnauthorized, `Bearer realm="e2e-mcp", error="invalid_token", error_description="the bearer token is not valid"`},
		"prefix of the token":   {bearer("s3cret"), http.StatusUnauthorized, `Bearer realm="e2e-mcp", error="invalid_token", error_description="the bearer token is not valid"`},
		"missing":               {nil, http.StatusUnauthorized, `Bearer realm="e2e-mcp"`},
		"token as basic auth":   {map[string]string{"Authorization": "Basic s3cret-token"}, http.StatusUnauthorized, `Bearer realm="e2e-mcp"`},
		"token in custom field": {map[string]string{"X-Token": "s3cret-token"}, http.StatusUnauthorized, `Bearer realm="e2e-mcp"`},
	} {
		t.Run(name, func(t *testing.T) {
			r := do(t, "POST", url+"/mcp", c.headers)
			if r.status != c.status || r.header.Get("WWW-Authenticate") != c.auth {
				t.Fatalf("status %d, WWW-Authenticate %q, body %s", r.status, r.header.Get("WWW-Authenticate"), r.body)
			}
			if c.status == http.StatusOK {
				if p := r.seen.Principal; p == nil || p.Method != MethodToken {
					t.Fatalf("principal %+v", p)
				}
				if !strings.HasPrefix(r.seen.ClientKey, "ip:127.0.0.1") {
					t.Fatalf("client key %q", r.seen.ClientKey)
				}
			}
		})
	}
	// Public paths and CORS preflights pass without a token, and without a principal.
	if r := do(t, "GET", url+"/health", nil); r.status != http.StatusOK || r.seen.Principal != nil {
		t.Fatalf("public path: status %d, body %s", r.status, r.body)
	}
	port := strings.TrimPrefix(url, "http://127.0.0.1")
	preflight := map[string]string{"Origin": "http://127.0.0.1" + port, "Access-Control-Request-Method": "POST"}
	if r := do(t, "OPTIONS", url+"/mcp", preflight); r.status != http.StatusOK {
		t.Fatalf("preflight: status %d", r.status)
	}
	if r := do(t, "OPTIONS", url+"/mcp", nil); r.status != http.StatusUnauthorized {
		t.Fatalf("plain OPTIONS: status %d", r.status)
	}
}

func TestStaticTokenOrOAuth(t *testing.T) {
	f := &oauthFixture{clock: newFakeClock(), rsa: newRSAKey(t, "rsa-1")}
	f.jwks = newJWKSServer(t, f.rsa)
	url := startGuarded(t, func(addr string) *Guard {
		g, err := newGuard(Options{ListenAddr: addr, Token: "s3cret", OAuth: &OAuthOptions{
			Resource: testResource, Issuer: testIssuer, JWKSURL: f.jwks.URL,
		}}, f.clock.Now)
		if err != nil {
			t.Fatal(err)
		}
		return g
	})
	if r := do(t, "POST", url+"/mcp", bearer("s3cret")); r.status != http.StatusOK || r.seen.Principal.Method != MethodToken {
		t.Fatalf("static token: status %d, body %s", r.status, r.body)
	}
	if r := do(t, "POST", url+"/mcp", bearer(f.rsa.sign(t, f.claims()))); r.status != http.StatusOK || r.seen.Principal.Method != MethodOAuth {
		t.Fatalf("JWT: status %d, body %s", r.status, r.body)
	}
	r := do(t, "POST", url+"/mcp", bearer("wrong"))
	if r.status != http.StatusUnauthorized || !strings.HasPrefix(r.header.Get("WWW-Authenticate"), `Bearer resource_metadata="`+testMetaURL+`", error="invalid_token"`) {
		t.Fatalf("wrong: status %d, WWW-Authenticate %s", r.status, r.header.Get("WWW-Authenticate"))
	}
}

func TestNoCredentialConfigured(t *testing.T) {
	url, _ := startWithOptions(t, Options{})
	r := do(t, "POST", url+"/mcp", nil)
	if r.status != http.StatusOK || r.seen.Principal != nil || !strings.HasPrefix(r.seen.ClientKey, "ip:127.0.0.1") {
		t.Fatalf("status %d, body %s", r.status, r.body)
	}
	if r := do(t, "GET", url+WellKnownPath, nil); r.status != http.StatusOK || !r.seen.Reached {
		t.Fatalf("without OAuth the well-known path is the inner handler's: status %d", r.status)
	}
	// With a static token but no OAuth, too, and without the token: a 401
	// there would start a client's OAuth discovery.
	url, _ = startWithOptions(t, Options{Token: "s3cret"})
	for _, p := range []string{WellKnownPath, WellKnownPath + "/mcp", "/.well-known/oauth-authorization-server"} {
		if r := do(t, "GET", url+p, nil); r.status != http.StatusOK || !r.seen.Reached {
			t.Errorf("with a token and no OAuth, %s is the inner handler's without the token: status %d", p, r.status)
		}
	}
	if r := do(t, "POST", url+"/mcp", nil); r.status != http.StatusUnauthorized {
		t.Errorf("/mcp without the token: status %d", r.status)
	}
}

func TestPrincipalKeyAndClientKey(t *testing.T) {
	req := httptest.NewRequest("GET", "/mcp", nil)
	req.RemoteAddr = "[2001:db8::1]:5555"
	if k := ClientKey(req); k != "ip:2001:db8::1" {
		t.Fatalf("no principal: %q", k)
	}
	for _, c := range []struct {
		p    *Principal
		want string
	}{
		{&Principal{Method: MethodOAuth, Issuer: "iss", Subject: "sub", ClientID: "cid"}, "oauth:iss|sub"},
		{&Principal{Method: MethodOAuth, Issuer: "iss", ClientID: "cid"}, "oauth:iss|cid"},
		{&Principal{Method: MethodOAuth, Issuer: "iss"}, "ip:2001:db8::1"},
		{&Principal{Method: MethodToken}, "ip:2001:db8::1"},
	} {
		r := req.WithContext(ContextWithPrincipal(context.Background(), c.p))
		if k := ClientKey(r); k != c.want {
			t.Errorf("%+v: key %q, want %q", c.p, k, c.want)
		}
	}
	if _, ok := PrincipalFromContext(context.Background()); ok {
		t.Fatal("principal in an empty context")
	}
}
