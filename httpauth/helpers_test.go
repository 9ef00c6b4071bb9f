package httpauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// fakeClock is a settable clock shared by a Guard, its JWKS cache and the tokens a test makes.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Unix(1_800_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// signingKey is a private key with its kid and JWT algorithm.
type signingKey struct {
	kid  string
	alg  jwt.SigningMethod
	priv crypto.Signer
}

func newRSAKey(t *testing.T, kid string) signingKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return signingKey{kid: kid, alg: jwt.SigningMethodRS256, priv: k}
}

func newECKey(t *testing.T, kid string) signingKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return signingKey{kid: kid, alg: jwt.SigningMethodES256, priv: k}
}

func newEdKey(t *testing.T, kid string) signingKey {
	t.Helper()
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return signingKey{kid: kid, alg: jwt.SigningMethodEdDSA, priv: k}
}

// jwk is the public JWK of k, as an issuer publishes it.
func (k signingKey) jwk(t *testing.T) map[string]any {
	t.Helper()
	enc := base64.RawURLEncoding.EncodeToString
	m := map[string]any{"kid": k.kid, "use": "sig", "alg": k.alg.Alg()}
	switch pub := k.priv.Public().(type) {
	case *rsa.PublicKey:
		m["kty"], m["n"], m["e"] = "RSA", enc(pub.N.Bytes()), enc(big.NewInt(int64(pub.E)).Bytes())
	case *ecdsa.PublicKey:
		e, err := pub.ECDH()
		if err != nil {
			t.Fatal(err)
		}
		b := e.Bytes()[1:] // uncompressed point without its 0x04 prefix
		m["kty"], m["crv"], m["x"], m["y"] = "EC", "P-256", enc(b[:len(b)/2]), enc(b[len(b)/2:])
	case ed25519.PublicKey:
		m["kty"], m["crv"], m["x"] = "OKP", "Ed25519", enc(pub)
	default:
		t.Fatalf("unexpected key type %T", pub)
	}
	return m
}

// sign makes a JWT with k's algorithm and kid (none when k.kid is "").
func (k signingKey) sign(t *testing.T, claims jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(k.alg, claims)
	if k.kid != "" {
		tok.Header["kid"] = k.kid
	}
	s, err := tok.SignedString(k.priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// jwksServer is a local issuer's JWKS endpoint whose key set the test can change.
type jwksServer struct {
	*httptest.Server
	hits atomic.Int32
	mu   sync.Mutex
	keys []map[string]any
	fail bool
}

func newJWKSServer(t *testing.T, keys ...signingKey) *jwksServer {
	t.Helper()
	s := &jwksServer{}
	s.setKeys(t, keys...)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.fail {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/jwk-set+json")
		json.NewEncoder(w).Encode(map[string]any{"keys": s.keys})
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *jwksServer) setKeys(t *testing.T, keys ...signingKey) {
	t.Helper()
	var set []map[string]any
	for _, k := range keys {
		set = append(set, k.jwk(t))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys = set
}

func (s *jwksServer) setFailing(fail bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = fail
}

const (
	testResource = "https://mcp.example.test/mcp"
	testIssuer   = "https://issuer.example.test"
	testMetaURL  = "https://mcp.example.test/.well-known/oauth-protected-resource/mcp"
)

// seen is what the protected handler reports about a request that reached it.
type seen struct {
	Reached   bool       `json:"reached"`
	Principal *Principal `json:"principal"`
	ClientKey string     `json:"clientKey"`
}

// startGuarded serves g.Handler over a protected handler that echoes the request's principal, and returns the
// server's base URL. build gets the listen address, as the real server passes its bound one.
func startGuarded(t *testing.T, build func(listenAddr string) *Guard) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	g := build(srv.Listener.Addr().String())
	srv.Config.Handler = g.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := PrincipalFromContext(r.Context())
		json.NewEncoder(w).Encode(seen{Reached: true, Principal: p, ClientKey: ClientKey(r)})
	}))
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

// response is what a test request got back.
type response struct {
	status int
	header http.Header
	body   string
	seen   seen
}

// do sends method to url with the given headers; "Host" sets the Host header.
func do(t *testing.T, method, url string, headers map[string]string) response {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := response{status: resp.StatusCode, header: resp.Header, body: string(b)}
	if resp.StatusCode == http.StatusOK && strings.Contains(r.body, `"reached"`) {
		if err := json.Unmarshal(b, &r.seen); err != nil {
			t.Fatalf("bad echo %q: %v", b, err)
		}
	}
	return r
}

func bearer(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }

// errorBody decodes a JSON error answer.
func errorBody(t *testing.T, r response) map[string]string {
	t.Helper()
	var m map[string]string
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatalf("error body %q is not JSON: %v", r.body, err)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	return m
}
