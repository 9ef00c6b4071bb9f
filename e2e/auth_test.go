package e2e

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// post sends an initialize request to /mcp with the given headers and
// returns the status and the WWW-Authenticate header.
func (s *httpServer) post(t *testing.T, headers map[string]string) (int, string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	req, _ := http.NewRequest("POST", s.base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
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
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("WWW-Authenticate")
}

// clientWith opens an MCP client that sends headers.
func (s *httpServer) clientWith(t *testing.T, headers map[string]string) (*client.Client, error) {
	c, err := client.NewStreamableHttpClient(s.base+"/mcp", transport.WithHTTPHeaders(headers))
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := initialize(c); err != nil {
		return nil, err
	}
	return c, nil
}

// TestHTTPTokenOriginHostAndRateLimit: the static token, the DNS-rebinding
// checks and the per-client rate limits of the real server.
func TestHTTPTokenOriginHostAndRateLimit(t *testing.T) {
	env, _ := serverEnv(t)
	s := startHTTP(t, append(env, "E2E_MCP_AUTH_TOKEN=s3cret", "E2E_MCP_RATE_CALLS=3"))
	if code, www := s.post(t, nil); code != 401 || !strings.HasPrefix(www, "Bearer") {
		t.Errorf("no token: %d %q, want 401 with a Bearer challenge", code, www)
	}
	if code, _ := s.post(t, map[string]string{"Authorization": "Bearer wrong"}); code != 401 {
		t.Errorf("wrong token: %d, want 401", code)
	}
	if code, _ := s.post(t, map[string]string{"Authorization": "Bearer s3cret", "Origin": "https://evil.example"}); code != 403 {
		t.Errorf("bad Origin: %d, want 403", code)
	}
	if code, _ := s.post(t, map[string]string{"Authorization": "Bearer s3cret", "Host": "evil.example:80"}); code != 403 {
		t.Errorf("bad Host: %d, want 403", code)
	}
	if code, _ := s.get(t, "/health"); code != 200 {
		t.Errorf("/health needs no token: %d", code)
	}
	c, err := s.clientWith(t, map[string]string{"Authorization": "Bearer s3cret"})
	if err != nil {
		t.Fatalf("client with the token: %v", err)
	}
	for i := range 3 {
		if res := call(t, c, "session_list", nil); res.IsError {
			t.Fatalf("call %d within the limit failed:\n%s", i+1, text(res))
		}
	}
	wantError(t, call(t, c, "session_list", nil), "rate_limited", "retry in")
}

// jwks serves an RSA key as a JWKS and signs tokens with it.
type jwks struct {
	*httptest.Server
	key *rsa.PrivateKey
}

func newJWKS(t *testing.T) *jwks {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	j := &jwks{key: key}
	j.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		b64 := base64.RawURLEncoding.EncodeToString
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
			"kty": "RSA", "kid": "k1", "alg": "RS256", "use": "sig",
			"n": b64(key.N.Bytes()), "e": b64(big.NewInt(int64(key.E)).Bytes())}}})
	}))
	t.Cleanup(j.Close)
	return j
}

func (j *jwks) token(t *testing.T, iss, aud string, exp time.Time) string {
	t.Helper()
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{"iss": iss, "aud": aud, "sub": "agent-1", "exp": exp.Unix(), "iat": time.Now().Unix()})
	tok.Header["kid"] = "k1"
	s, err := tok.SignedString(j.key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHTTPOAuth: the server as an OAuth 2.1 resource server, against a
// local JWKS with a key made here: a valid token works; expired, wrong
// audience and wrong issuer get 401 pointing at the RFC 9728 metadata.
func TestHTTPOAuth(t *testing.T) {
	j := newJWKS(t)
	env, _ := serverEnv(t)
	iss, resource := "https://issuer.test", "http://mcp.test/mcp"
	s := startHTTP(t, append(env, "E2E_MCP_OAUTH_ISSUER="+iss, "E2E_MCP_OAUTH_JWKS_URL="+j.URL, "E2E_MCP_OAUTH_RESOURCE="+resource))
	code, www := s.post(t, nil)
	if code != 401 || !strings.Contains(www, `resource_metadata="`) {
		t.Errorf("no token: %d %q", code, www)
	}
	code, body := s.get(t, "/.well-known/oauth-protected-resource")
	if code != 200 || !strings.Contains(body, `"resource":"`+resource+`"`) || !strings.Contains(body, iss) {
		t.Errorf("metadata: %d %s", code, body)
	}
	for name, tok := range map[string]string{
		"expired":        j.token(t, iss, resource, time.Now().Add(-time.Hour)),
		"wrong audience": j.token(t, iss, "http://other/mcp", time.Now().Add(time.Hour)),
		"wrong issuer":   j.token(t, "https://evil.test", resource, time.Now().Add(time.Hour)),
	} {
		if code, www := s.post(t, map[string]string{"Authorization": "Bearer " + tok}); code != 401 || !strings.Contains(www, `error="invalid_token"`) {
			t.Errorf("%s token: %d %q, want 401 invalid_token", name, code, www)
		}
	}
	c, err := s.clientWith(t, map[string]string{"Authorization": "Bearer " + j.token(t, iss, resource, time.Now().Add(time.Hour))})
	if err != nil {
		t.Fatalf("client with a valid token: %v", err)
	}
	mustCall(t, c, "session_list", nil)
}

// TestHTTPRefusalsSayWhatToSet: a server with a static token and no OAuth
// says which flag allows a refused Host or Origin (not the Go field behind
// it); answers 404 at the OAuth metadata paths, so that a client without
// the token is not sent looking for an authorization server; and keeps
// /metrics behind the token.
func TestHTTPRefusalsSayWhatToSet(t *testing.T) {
	env, _ := serverEnv(t)
	s := startHTTP(t, append(env, "E2E_MCP_AUTH_TOKEN=s3cret"))
	refused := func(header, value string) string {
		t.Helper()
		req, _ := http.NewRequest("POST", s.base+"/mcp", strings.NewReader(`{}`))
		req.Header.Set("Authorization", "Bearer s3cret")
		if header == "Host" {
			req.Host = value
		} else {
			req.Header.Set(header, value)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 403 {
			t.Errorf("%s %s: %d, want 403", header, value, resp.StatusCode)
		}
		return string(b)
	}
	origin := refused("Origin", "https://evil.example")
	if !strings.Contains(origin, "--http-allowed-origins") || strings.Contains(origin, "AllowedOrigins") {
		t.Errorf("a refused Origin does not name the flag that allows it: %s", origin)
	}
	host := refused("Host", "evil.example:80")
	if !strings.Contains(host, "--http-allowed-hosts") || strings.Contains(host, "AllowedHosts") {
		t.Errorf("a refused Host does not name the flag that allows it: %s", host)
	}
	for _, p := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server"} {
		if code, body := s.get(t, p); code != http.StatusNotFound {
			t.Errorf("GET %s without OAuth configured: %d %s, want 404", p, code, body)
		}
	}
	if code, _ := s.get(t, "/metrics"); code != http.StatusUnauthorized {
		t.Errorf("/metrics without the token: %d, want 401", code)
	}
	s.token = "s3cret"
	if code, _ := s.get(t, "/metrics"); code != http.StatusOK {
		t.Errorf("/metrics with the token: %d, want 200", code)
	}
}
