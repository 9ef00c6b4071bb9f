package httpauth

import (
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// oauthFixture is a guarded server trusting a local issuer with an RSA and an EC key.
type oauthFixture struct {
	url   string
	clock *fakeClock
	jwks  *jwksServer
	rsa   signingKey
	ec    signingKey
	guard *Guard
}

func newOAuthFixture(t *testing.T, tweak func(*OAuthOptions)) *oauthFixture {
	t.Helper()
	f := &oauthFixture{clock: newFakeClock(), rsa: newRSAKey(t, "rsa-1"), ec: newECKey(t, "ec-1")}
	f.jwks = newJWKSServer(t, f.rsa, f.ec)
	f.url = startGuarded(t, func(addr string) *Guard {
		o := OAuthOptions{
			Resource: testResource,
			Issuer:   testIssuer,
			JWKSURL:  f.jwks.URL + "/jwks",
			Scopes:   []string{"browser", "devserver"},
		}
		if tweak != nil {
			tweak(&o)
		}
		g, err := newGuard(Options{ListenAddr: addr, OAuth: &o}, f.clock.Now)
		if err != nil {
			t.Fatal(err)
		}
		f.guard = g
		return g
	})
	return f
}

// claims are valid claims for the fixture's resource, changed by edits.
func (f *oauthFixture) claims(edits ...func(jwt.MapClaims)) jwt.MapClaims {
	now := f.clock.Now()
	c := jwt.MapClaims{
		"iss":       testIssuer,
		"sub":       "agent-7",
		"aud":       testResource,
		"client_id": "claude-code",
		"scope":     "browser devserver",
		"iat":       now.Unix(),
		"nbf":       now.Unix(),
		"exp":       now.Add(time.Hour).Unix(),
	}
	for _, e := range edits {
		e(c)
	}
	return c
}

func TestOAuthAcceptsValidTokensAndPassesClaims(t *testing.T) {
	f := newOAuthFixture(t, nil)
	noKid := f.ec
	noKid.kid = ""
	for name, tok := range map[string]string{
		"RS256":                     f.rsa.sign(t, f.claims()),
		"ES256":                     f.ec.sign(t, f.claims()),
		"ES256 without kid":         noKid.sign(t, f.claims()),
		"aud as array":              f.rsa.sign(t, f.claims(func(c jwt.MapClaims) { c["aud"] = []string{"other", testResource} })),
		"expired within the leeway": f.rsa.sign(t, f.claims(func(c jwt.MapClaims) { c["exp"] = f.clock.Now().Add(-10 * time.Second).Unix() })),
		"nbf within the leeway":     f.rsa.sign(t, f.claims(func(c jwt.MapClaims) { c["nbf"] = f.clock.Now().Add(10 * time.Second).Unix() })),
	} {
		t.Run(name, func(t *testing.T) {
			r := do(t, "POST", f.url+"/mcp", bearer(tok))
			if r.status != http.StatusOK || !r.seen.Reached {
				t.Fatalf("status %d, body %s", r.status, r.body)
			}
			p := r.seen.Principal
			if p == nil || p.Method != MethodOAuth || p.Subject != "agent-7" || p.Issuer != testIssuer ||
				p.ClientID != "claude-code" || !slices.Equal(p.Scopes, []string{"browser", "devserver"}) {
				t.Fatalf("principal %+v", p)
			}
			if p.Claims["sub"] != "agent-7" || p.ExpiresAt.IsZero() {
				t.Fatalf("claims %v, expiry %v", p.Claims, p.ExpiresAt)
			}
			if r.seen.ClientKey != "oauth:"+testIssuer+"|agent-7" {
				t.Fatalf("client key %q", r.seen.ClientKey)
			}
		})
	}
	if n := f.jwks.hits.Load(); n != 1 {
		t.Fatalf("JWKS fetched %d times, want 1 (cached)", n)
	}
}

func TestOAuthAcceptsEdDSA(t *testing.T) {
	ed := newEdKey(t, "ed-1")
	f := newOAuthFixture(t, nil)
	f.jwks.setKeys(t, f.rsa, ed)
	if r := do(t, "GET", f.url+"/mcp", bearer(ed.sign(t, f.claims()))); r.status != http.StatusOK {
		t.Fatalf("status %d, body %s", r.status, r.body)
	}
}

func TestOAuthRejectsBadTokensWith401(t *testing.T) {
	f := newOAuthFixture(t, nil)
	stranger := newRSAKey(t, "rsa-1") // same kid as the issuer's key, different key: a forged signature
	unknown := newRSAKey(t, "rsa-unknown")
	ecWithRSAKid := f.ec
	ecWithRSAKid.kid = "rsa-1"

	// alg "none": header and claims with an empty signature.
	noneTok, err := jwt.NewWithClaims(jwt.SigningMethodNone, f.claims()).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	// HS256 keyed with the issuer's public key bytes (the classic algorithm confusion).
	pubBytes := f.rsa.priv.Public().(*rsa.PublicKey).N.Bytes()
	hsTok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, f.claims()).SignedString(pubBytes)
	if err != nil {
		t.Fatal(err)
	}
	valid := f.rsa.sign(t, f.claims())
	parts := strings.Split(valid, ".")
	tampered := f.rsa.sign(t, f.claims(func(c jwt.MapClaims) { c["sub"] = "admin" }))
	tampered = strings.Join([]string{strings.Split(tampered, ".")[0], strings.Split(tampered, ".")[1], parts[2]}, ".")

	cases := []struct {
		name, header, description string
	}{
		{"expired", "Bearer " + f.rsa.sign(t, f.claims(func(c jwt.MapClaims) { c["exp"] = f.clock.Now().Add(-time.Hour).Unix() })), "token expired"},
		{"not yet valid", "Bearer " + f.rsa.sign(t, f.claims(func(c jwt.MapClaims) { c["nbf"] = f.clock.Now().Add(time.Hour).Unix() })), "token not yet valid"},
		{"no expiry", "Bearer " + f.rsa.sign(t, f.claims(func(c jwt.MapClaims) { delete(c, "exp") })), "token has no expiry"},
		{"wrong audience", "Bearer " + f.rsa.sign(t, f.claims(func(c jwt.MapClaims) { c["aud"] = "https://other.example.test/mcp" })), "wrong audience: the token is not for this resource"},
		{"no audience", "Bearer " + f.rsa.sign(t, f.claims(func(c jwt.MapClaims) { delete(c, "aud") })), "wrong audience: the token is not for this resource"},
		{"wrong issuer", "Bearer " + f.rsa.sign(t, f.claims(func(c jwt.MapClaims) { c["iss"] = "https://evil.example.test" })), "wrong issuer"},
		{"bad signature (other key, known kid)", "Bearer " + stranger.sign(t, f.claims()), "invalid signature"},
		{"bad signature (tampered claims)", "Bearer " + tampered, "invalid signature"},
		{"unknown kid", "Bearer " + unknown.sign(t, f.claims()), "unknown signing key (kid)"},
		{"alg none", "Bearer " + noneTok, "signing algorithm not allowed"},
		{"HS256 with the public key", "Bearer " + hsTok, "signing algorithm not allowed"},
		{"ES256 naming an RSA kid", "Bearer " + ecWithRSAKid.sign(t, f.claims()), "the token algorithm does not match its key"},
		{"malformed", "Bearer not.a.jwt", "malformed token"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := do(t, "POST", f.url+"/mcp", map[string]string{"Authorization": c.header})
			if r.status != http.StatusUnauthorized || r.seen.Reached {
				t.Fatalf("status %d, body %s", r.status, r.body)
			}
			want := `Bearer resource_metadata="` + testMetaURL + `", scope="browser devserver", error="invalid_token", error_description="` + c.description + `"`
			if got := r.header.Get("WWW-Authenticate"); got != want {
				t.Fatalf("WWW-Authenticate\n got %s\nwant %s", got, want)
			}
			if b := errorBody(t, r); b["error"] != "invalid_token" || b["error_description"] != c.description {
				t.Fatalf("body %v", b)
			}
		})
	}

	// No credential at all: a plain challenge without an error code (RFC 6750 §3.1).
	for name, h := range map[string]map[string]string{
		"missing":      nil,
		"empty bearer": {"Authorization": "Bearer "},
		"basic auth":   {"Authorization": "Basic dXNlcjpwYXNz"},
	} {
		t.Run(name, func(t *testing.T) {
			r := do(t, "POST", f.url+"/mcp", h)
			if r.status != http.StatusUnauthorized || r.seen.Reached {
				t.Fatalf("status %d, body %s", r.status, r.body)
			}
			want := `Bearer resource_metadata="` + testMetaURL + `", scope="browser devserver"`
			if got := r.header.Get("WWW-Authenticate"); got != want {
				t.Fatalf("WWW-Authenticate\n got %s\nwant %s", got, want)
			}
			if b := errorBody(t, r); b["error"] != "unauthorized" {
				t.Fatalf("body %v", b)
			}
		})
	}
}

func TestOAuthRequiredScopes(t *testing.T) {
	f := newOAuthFixture(t, func(o *OAuthOptions) { o.RequiredScopes = []string{"browser"} })
	ok := f.rsa.sign(t, f.claims(func(c jwt.MapClaims) { delete(c, "scope"); c["scp"] = []string{"browser"} }))
	if r := do(t, "POST", f.url+"/mcp", bearer(ok)); r.status != http.StatusOK {
		t.Fatalf("status %d, body %s", r.status, r.body)
	}
	lacking := f.rsa.sign(t, f.claims(func(c jwt.MapClaims) { c["scope"] = "devserver" }))
	r := do(t, "POST", f.url+"/mcp", bearer(lacking))
	want := `Bearer resource_metadata="` + testMetaURL + `", error="insufficient_scope", error_description="the token lacks a required scope", scope="browser"`
	if r.status != http.StatusForbidden || r.header.Get("WWW-Authenticate") != want {
		t.Fatalf("status %d, WWW-Authenticate %s", r.status, r.header.Get("WWW-Authenticate"))
	}
}

func TestOAuthAlgorithmsRestrictsAccepted(t *testing.T) {
	f := newOAuthFixture(t, func(o *OAuthOptions) { o.Algorithms = []string{"ES256"} })
	if r := do(t, "POST", f.url+"/mcp", bearer(f.ec.sign(t, f.claims()))); r.status != http.StatusOK {
		t.Fatalf("ES256: status %d, body %s", r.status, r.body)
	}
	r := do(t, "POST", f.url+"/mcp", bearer(f.rsa.sign(t, f.claims())))
	if r.status != http.StatusUnauthorized || !strings.Contains(r.header.Get("WWW-Authenticate"), `error_description="signing algorithm not allowed"`) {
		t.Fatalf("RS256: status %d, WWW-Authenticate %s", r.status, r.header.Get("WWW-Authenticate"))
	}
}

func TestOAuthKeyRotationIsPickedUpAfterRefresh(t *testing.T) {
	f := newOAuthFixture(t, func(o *OAuthOptions) { o.MinRefreshInterval = time.Minute })
	if r := do(t, "POST", f.url+"/mcp", bearer(f.rsa.sign(t, f.claims()))); r.status != http.StatusOK {
		t.Fatalf("status %d, body %s", r.status, r.body)
	}
	// The issuer rotates: a new key appears and the old one is gone.
	rotated := newRSAKey(t, "rsa-2")
	f.jwks.setKeys(t, rotated, f.ec)
	tok := rotated.sign(t, f.claims())

	// Within MinRefreshInterval of the last fetch the unknown kid does not refetch: bounded load on the issuer.
	r := do(t, "POST", f.url+"/mcp", bearer(tok))
	if r.status != http.StatusUnauthorized || !strings.Contains(r.header.Get("WWW-Authenticate"), `error_description="unknown signing key (kid)"`) {
		t.Fatalf("status %d, WWW-Authenticate %s", r.status, r.header.Get("WWW-Authenticate"))
	}
	if n := f.jwks.hits.Load(); n != 1 {
		t.Fatalf("JWKS fetched %d times, want 1", n)
	}

	f.clock.Advance(time.Minute)
	r = do(t, "POST", f.url+"/mcp", bearer(tok))
	if r.status != http.StatusOK || r.seen.Principal.Subject != "agent-7" {
		t.Fatalf("after refresh: status %d, body %s", r.status, r.body)
	}
	if n := f.jwks.hits.Load(); n != 2 {
		t.Fatalf("JWKS fetched %d times, want 2", n)
	}
	// The old key was rotated out.
	if r := do(t, "POST", f.url+"/mcp", bearer(f.rsa.sign(t, f.claims()))); r.status != http.StatusUnauthorized {
		t.Fatalf("retired key: status %d", r.status)
	}
}

func TestOAuthUnknownKidFloodFetchesOncePerInterval(t *testing.T) {
	f := newOAuthFixture(t, nil)
	if r := do(t, "POST", f.url+"/mcp", bearer(f.ec.sign(t, f.claims()))); r.status != http.StatusOK {
		t.Fatalf("status %d, body %s", r.status, r.body)
	}
	f.clock.Advance(defaultRefresh)
	for i := range 20 {
		forged := newECKey(t, "forged-"+string(rune('a'+i)))
		if r := do(t, "POST", f.url+"/mcp", bearer(forged.sign(t, f.claims()))); r.status != http.StatusUnauthorized {
			t.Fatalf("forged kid %d: status %d", i, r.status)
		}
	}
	if n := f.jwks.hits.Load(); n != 2 {
		t.Fatalf("JWKS fetched %d times for 20 unknown kids, want 2 (initial + one refresh)", n)
	}
}

func TestOAuthConcurrentFirstRequestsShareOneFetch(t *testing.T) {
	f := newOAuthFixture(t, nil)
	tok := f.rsa.sign(t, f.claims())
	var wg sync.WaitGroup
	statuses := make([]int, 16)
	for i := range statuses {
		wg.Go(func() { statuses[i] = do(t, "POST", f.url+"/mcp", bearer(tok)).status })
	}
	wg.Wait()
	for i, s := range statuses {
		if s != http.StatusOK {
			t.Fatalf("request %d: status %d", i, s)
		}
	}
	if n := f.jwks.hits.Load(); n != 1 {
		t.Fatalf("JWKS fetched %d times, want 1", n)
	}
}

func TestOAuthKeysMaxAgeAndIssuerOutage(t *testing.T) {
	f := newOAuthFixture(t, func(o *OAuthOptions) { o.KeysMaxAge = time.Hour })
	tok := func() string { return f.rsa.sign(t, f.claims()) }
	if r := do(t, "POST", f.url+"/mcp", bearer(tok())); r.status != http.StatusOK {
		t.Fatalf("status %d", r.status)
	}
	// The keys age out while the issuer is down: the old keys keep working.
	f.jwks.setFailing(true)
	f.clock.Advance(time.Hour)
	if r := do(t, "POST", f.url+"/mcp", bearer(tok())); r.status != http.StatusOK {
		t.Fatalf("during outage: status %d, body %s", r.status, r.body)
	}
	if n := f.jwks.hits.Load(); n != 2 {
		t.Fatalf("JWKS fetched %d times, want 2", n)
	}
	// Back up; the next refetch (after MinRefreshInterval) succeeds and then the keys are fresh again.
	f.jwks.setFailing(false)
	f.clock.Advance(defaultRefresh)
	do(t, "POST", f.url+"/mcp", bearer(tok()))
	do(t, "POST", f.url+"/mcp", bearer(tok()))
	if n := f.jwks.hits.Load(); n != 3 {
		t.Fatalf("JWKS fetched %d times, want 3", n)
	}
}

func TestOAuthIssuerUnreachableAtFirst(t *testing.T) {
	f := newOAuthFixture(t, nil)
	f.jwks.setFailing(true)
	r := do(t, "POST", f.url+"/mcp", bearer(f.rsa.sign(t, f.claims())))
	if r.status != http.StatusUnauthorized || !strings.Contains(r.header.Get("WWW-Authenticate"), `error_description="the issuer keys are unavailable"`) {
		t.Fatalf("status %d, WWW-Authenticate %s", r.status, r.header.Get("WWW-Authenticate"))
	}
	f.jwks.setFailing(false)
	f.clock.Advance(defaultRefresh)
	if r := do(t, "POST", f.url+"/mcp", bearer(f.rsa.sign(t, f.claims()))); r.status != http.StatusOK {
		t.Fatalf("after recovery: status %d", r.status)
	}
}

func TestProtectedResourceMetadata(t *testing.T) {
	f := newOAuthFixture(t, func(o *OAuthOptions) { o.ResourceName = "e2e-mcp" })
	want := map[string]any{
		"resource":                 testResource,
		"authorization_servers":    []any{testIssuer},
		"bearer_methods_supported": []any{"header"},
		"scopes_supported":         []any{"browser", "devserver"},
		"resource_name":            "e2e-mcp",
	}
	for _, path := range []string{WellKnownPath, WellKnownPath + "/mcp"} {
		r := do(t, "GET", f.url+path, nil) // public: no credential needed
		if r.status != http.StatusOK || r.header.Get("Content-Type") != "application/json" {
			t.Fatalf("%s: status %d, type %s", path, r.status, r.header.Get("Content-Type"))
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(r.body), &got); err != nil {
			t.Fatal(err)
		}
		if g, w := mustJSON(t, got), mustJSON(t, want); g != w {
			t.Fatalf("%s:\n got %s\nwant %s", path, g, w)
		}
	}
	if f.guard.MetadataURL() != testMetaURL {
		t.Fatalf("MetadataURL %q", f.guard.MetadataURL())
	}
	if r := do(t, "POST", f.url+WellKnownPath, nil); r.status != http.StatusMethodNotAllowed {
		t.Fatalf("POST metadata: status %d", r.status)
	}
}

func TestMetadataMinimalAndRootResource(t *testing.T) {
	f := newOAuthFixture(t, func(o *OAuthOptions) {
		o.Resource, o.Scopes, o.Audiences = "https://mcp.example.test", nil, []string{"api://e2e"}
		o.AuthorizationServers = []string{"https://as.example.test"}
	})
	r := do(t, "GET", f.url+WellKnownPath, nil)
	want := `{"resource":"https://mcp.example.test","authorization_servers":["https://as.example.test"],"bearer_methods_supported":["header"]}` + "\n"
	if r.body != want {
		t.Fatalf("body %s", r.body)
	}
	r = do(t, "POST", f.url+"/mcp", nil)
	if got := r.header.Get("WWW-Authenticate"); got != `Bearer resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource"` {
		t.Fatalf("WWW-Authenticate %s", got)
	}
	// Audiences replaces the resource as the accepted audience.
	if r := do(t, "POST", f.url+"/mcp", bearer(f.rsa.sign(t, f.claims(func(c jwt.MapClaims) { c["aud"] = "api://e2e" })))); r.status != http.StatusOK {
		t.Fatalf("configured audience: status %d, body %s", r.status, r.body)
	}
	if r := do(t, "POST", f.url+"/mcp", bearer(f.rsa.sign(t, f.claims(func(c jwt.MapClaims) { c["aud"] = "https://mcp.example.test" })))); r.status != http.StatusUnauthorized {
		t.Fatalf("resource as audience when Audiences is set: status %d", r.status)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestNewValidatesOAuthOptions(t *testing.T) {
	good := OAuthOptions{Resource: testResource, Issuer: testIssuer, JWKSURL: "https://issuer.example.test/jwks"}
	for name, edit := range map[string]func(*OAuthOptions){
		"no resource":       func(o *OAuthOptions) { o.Resource = "" },
		"relative resource": func(o *OAuthOptions) { o.Resource = "/mcp" },
		"no issuer":         func(o *OAuthOptions) { o.Issuer = "" },
		"no JWKS URL":       func(o *OAuthOptions) { o.JWKSURL = "" },
		"HS256":             func(o *OAuthOptions) { o.Algorithms = []string{"HS256"} },
		"none":              func(o *OAuthOptions) { o.Algorithms = []string{"none"} },
	} {
		o := good
		edit(&o)
		if _, err := New(Options{OAuth: &o}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := New(Options{OAuth: &good}); err != nil {
		t.Fatal(err)
	}
}

func TestParseJWKSSkipsUnusableKeys(t *testing.T) {
	good := newECKey(t, "ok").jwk(t)
	enc := newRSAKey(t, "enc").jwk(t)
	enc["use"] = "enc"
	weak := map[string]any{"kty": "RSA", "kid": "weak", "n": "AQAB", "e": "AQAB"}
	offCurve := newECKey(t, "off").jwk(t)
	offCurve["y"] = offCurve["x"]
	body, _ := json.Marshal(map[string]any{"keys": []any{enc, weak, offCurve, map[string]any{"kty": "oct", "k": "c2VjcmV0"}, good}})
	keys, err := parseJWKS(body)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 1 || keys[0].kid != "ok" {
		t.Fatalf("keys %+v", keys)
	}
	if _, err := parseJWKS([]byte(`{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}`)); err == nil {
		t.Fatal("a set without a usable key parsed")
	}
}
