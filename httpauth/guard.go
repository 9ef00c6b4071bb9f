// Package httpauth guards e2e-mcp's HTTP transport (e2e-mcp serve --http): it rejects requests whose Host or
// Origin header points at DNS rebinding or a foreign web page, requires a bearer credential (a static token or an
// OAuth 2.1 access token verified against the issuer's JWKS), serves the RFC 9728 protected-resource metadata,
// and provides the per-client rate limiter the tool layer uses.
//
// It is plain net/http middleware and knows nothing of MCP or the browser (docs/architecture.md §7):
//
//	g, err := httpauth.New(httpauth.Options{ListenAddr: ln.Addr().String(), Token: os.Getenv("E2E_MCP_AUTH_TOKEN")})
//	...
//	srv := &http.Server{Handler: g.Handler(mux)}
//
// Handlers behind the guard find the authenticated caller with PrincipalFromContext and a rate-limit key with
// ClientKey.
package httpauth

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/redact"
)

// Options configures a Guard. The zero value checks Host and Origin for a loopback server and requires no
// credential.
type Options struct {
	// ListenAddr is the address the server listens on, as host:port ("127.0.0.1:8931"); pass the bound address
	// (ln.Addr().String()) when the port was 0. Its host (unless it is a wildcard such as 0.0.0.0 or ::) is an
	// allowed Host name, beside localhost, 127.0.0.1 and [::1]; a Host header naming one of these must carry the
	// listen port or no port at all. With no port (or port 0) any port is accepted.
	ListenAddr string

	// AllowedHosts adds accepted Host header values for deployments behind a reverse proxy or on a public
	// address: "mcp.example.com" (any port) or "mcp.example.com:8443" (that port only). "*" turns the Host check
	// off, which gives up the DNS-rebinding protection.
	AllowedHosts []string

	// OnlyAllowedHosts makes AllowedHosts the only accepted Host values: the listen address and the loopback
	// names are not added (Playwright MCP's --allowed-hosts). A refused Host is told the list.
	OnlyAllowedHosts bool

	// AllowedOrigins lists the browser origins ("https://app.example.com", scheme://host[:port]) whose requests
	// are accepted. A request without an Origin header (a non-browser client) always passes, and so does one whose
	// Origin is the server's own (the same host and port as its accepted Host header). "*" accepts every origin.
	// Any other Origin, including "null", gets 403.
	AllowedOrigins []string

	// Token is the static bearer token (E2E_MCP_AUTH_TOKEN). When set, "Authorization: Bearer <Token>" is
	// accepted; it is compared in constant time.
	Token string

	// OAuth makes the server an OAuth 2.1 resource server that accepts JWT access tokens from one issuer. When
	// both Token and OAuth are set, either credential is accepted. With neither, no credential is required.
	OAuth *OAuthOptions

	// PublicPaths are URL paths (exact matches, such as "/health") served without a credential; Host and Origin
	// are still checked. The protected-resource metadata paths are always public.
	PublicPaths []string
}

// Guard is the middleware built from Options. It is safe for concurrent use.
type Guard struct {
	hosts       []hostRule
	anyHost     bool
	onlyHosts   []string   // OnlyAllowedHosts: the list, as given, for the refusal
	literals    []hostRule // OnlyAllowedHosts: the listen address's IP literals, for PublicPaths
	origins     map[string]bool
	anyOrigin   bool
	tokenDigest []byte // sha256 of Options.Token, nil when unset
	oauth       *verifier
	metadata    *metadataDoc
	public      map[string]bool
	now         func() time.Time
	// loopback: the server listens on a loopback address, so pages served
	// from this machine (any loopback origin, any port) may call it.
	loopback bool
}

// New validates o and builds its Guard. It does not contact the issuer: the JWKS is fetched on the first token
// that needs it.
func New(o Options) (*Guard, error) {
	return newGuard(o, time.Now)
}

func newGuard(o Options, now func() time.Time) (*Guard, error) {
	g := &Guard{origins: map[string]bool{}, public: map[string]bool{}, now: now}
	if err := g.setHosts(o.ListenAddr, o.AllowedHosts, o.OnlyAllowedHosts); err != nil {
		return nil, err
	}
	for _, s := range o.AllowedOrigins {
		if s == "*" {
			g.anyOrigin = true
			continue
		}
		origin, ok := normalizeOrigin(s)
		if !ok {
			return nil, fmt.Errorf("httpauth: allowed origin %q is not scheme://host[:port]", redact.URL(s))
		}
		g.origins[origin] = true
	}
	if o.Token != "" {
		d := sha256.Sum256([]byte(o.Token))
		g.tokenDigest = d[:]
	}
	if o.OAuth != nil {
		v, err := newVerifier(*o.OAuth, now)
		if err != nil {
			return nil, err
		}
		g.oauth = v
		g.metadata = newMetadataDoc(*o.OAuth)
	}
	for _, p := range o.PublicPaths {
		g.public[p] = true
	}
	return g, nil
}

// MetadataURL is the absolute URL of the RFC 9728 protected-resource metadata that 401 answers point at, or ""
// when OAuth is not configured.
func (g *Guard) MetadataURL() string {
	if g.metadata == nil {
		return ""
	}
	return g.metadata.url
}

// Handler wraps next. In order, a request
//   - gets 403 (JSON body {"error":"forbidden","error_description":...}) when its Host or Origin is not allowed;
//   - is answered with the protected-resource metadata on GET /.well-known/oauth-protected-resource (and the
//     RFC 9728 path-suffixed form for a resource with a path) when OAuth is configured;
//   - passes without a credential when no credential is configured, its path is in PublicPaths or (without
//     OAuth) under /.well-known/, or it is a CORS preflight (OPTIONS with Access-Control-Request-Method);
//   - otherwise needs "Authorization: Bearer ...": none gives 401 with a WWW-Authenticate challenge, a bad one
//     401 with error="invalid_token" and a description, an OAuth token lacking a RequiredScopes scope 403 with
//     error="insufficient_scope";
//   - reaches next with the caller's *Principal in its context (PrincipalFromContext).
func (g *Guard) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if why := g.checkHost(r); why != "" {
			writeForbidden(w, why)
			return
		}
		if why := g.checkOrigin(r); why != "" {
			writeForbidden(w, why)
			return
		}
		if g.metadata != nil && g.metadata.paths[r.URL.Path] {
			g.metadata.serve(w, r)
			return
		}
		// Without OAuth, the well-known paths are public too: a 401 there
		// would send a client without a credential looking for an
		// authorization server there is none of (next answers them).
		wellKnown := g.metadata == nil && strings.HasPrefix(r.URL.Path, "/.well-known/")
		if (g.tokenDigest == nil && g.oauth == nil) || g.public[r.URL.Path] || wellKnown || isPreflight(r) {
			next.ServeHTTP(w, r)
			return
		}
		p, failure := g.authenticate(r)
		if failure != nil {
			g.writeChallenge(w, failure)
			return
		}
		next.ServeHTTP(w, r.WithContext(ContextWithPrincipal(r.Context(), p)))
	})
}

func isPreflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.Header.Get("Origin") != "" &&
		r.Header.Get("Access-Control-Request-Method") != ""
}

// authFailure is why a request was refused a credential check; code is "" when no credential was presented.
type authFailure struct {
	status      int
	code        string // invalid_token, insufficient_scope or ""
	description string // RFC 6750 error_description: no quotes or backslashes
}

var errNoCredential = errors.New("no bearer credential")

func (g *Guard) authenticate(r *http.Request) (*Principal, *authFailure) {
	raw, err := bearerToken(r)
	if err != nil {
		return nil, &authFailure{status: http.StatusUnauthorized}
	}
	if g.tokenDigest != nil {
		d := sha256.Sum256([]byte(raw))
		if subtle.ConstantTimeCompare(d[:], g.tokenDigest) == 1 {
			return &Principal{Method: MethodToken}, nil
		}
	}
	if g.oauth != nil {
		p, f := g.oauth.verify(r.Context(), raw)
		if f != nil {
			return nil, f
		}
		return p, nil
	}
	return nil, &authFailure{status: http.StatusUnauthorized, code: "invalid_token", description: "the bearer token is not valid"}
}

// bearerToken reads "Authorization: Bearer <token>" (RFC 6750 §2.1; tokens in the query string are refused, as
// MCP requires).
func bearerToken(r *http.Request) (string, error) {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", errNoCredential
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return "", errNoCredential
	}
	return token, nil
}

// writeChallenge answers 401 (or 403 for insufficient_scope) with a WWW-Authenticate Bearer challenge that points
// at the resource metadata when OAuth is on.
func (g *Guard) writeChallenge(w http.ResponseWriter, f *authFailure) {
	var params []string
	if g.metadata != nil {
		params = append(params, fmt.Sprintf("resource_metadata=%q", g.metadata.url))
		if len(g.metadata.doc.ScopesSupported) > 0 && f.code != "insufficient_scope" {
			params = append(params, fmt.Sprintf("scope=%q", strings.Join(g.metadata.doc.ScopesSupported, " ")))
		}
	} else {
		params = append(params, `realm="e2e-mcp"`)
	}
	if f.code != "" {
		params = append(params, fmt.Sprintf("error=%q", f.code))
		if f.description != "" {
			params = append(params, fmt.Sprintf("error_description=%q", f.description))
		}
		if f.code == "insufficient_scope" && g.oauth != nil {
			params = append(params, fmt.Sprintf("scope=%q", strings.Join(g.oauth.requiredScopes, " ")))
		}
	}
	w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(params, ", "))
	body := map[string]string{"error": f.code, "error_description": f.description}
	if f.code == "" {
		body = map[string]string{"error": "unauthorized", "error_description": "a bearer token is required"}
	}
	writeJSON(w, f.status, body)
}

func writeForbidden(w http.ResponseWriter, why string) {
	writeJSON(w, http.StatusForbidden, map[string]string{"error": "forbidden", "error_description": why})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// hostRule accepts a Host name on one port, or on any port when port is "".
type hostRule struct {
	host string
	port string
}

func (g *Guard) setHosts(listenAddr string, allowed []string, only bool) error {
	var listenHost, listenPort string
	if listenAddr != "" {
		h, p, err := net.SplitHostPort(listenAddr)
		if err != nil {
			return fmt.Errorf("httpauth: listen address %q: %w", listenAddr, err)
		}
		listenHost, listenPort = normalizeHost(h), p
		if listenPort == "0" {
			listenPort = ""
		}
	}
	g.loopback = isLoopbackHost(listenHost)
	names := []string{"localhost", "127.0.0.1", "::1"}
	if ip := net.ParseIP(listenHost); listenHost != "" && (ip == nil || !ip.IsUnspecified()) {
		names = append(names, listenHost)
	}
	if only {
		if len(allowed) == 0 {
			return fmt.Errorf("httpauth: OnlyAllowedHosts with no allowed host would refuse every request")
		}
		// The listen address's IP literals still reach the public paths
		// (/health): a rebinding page cannot send an IP literal as its
		// Host, and a container's HEALTHCHECK (e2e-mcp healthcheck)
		// knows no other name of its server.
		for _, n := range names {
			if net.ParseIP(n) != nil {
				g.literals = append(g.literals, hostRule{host: n, port: listenPort})
			}
		}
		names, g.onlyHosts = nil, allowed
	}
	for _, n := range names {
		g.hosts = append(g.hosts, hostRule{host: n, port: listenPort})
	}
	for _, a := range allowed {
		if a == "*" {
			g.anyHost = true
			continue
		}
		h, p := splitHost(a)
		if h == "" {
			return fmt.Errorf("httpauth: allowed host %q has no host name", a)
		}
		g.hosts = append(g.hosts, hostRule{host: h, port: p})
	}
	return nil
}

// checkHost returns why r's Host header is refused, or "".
func (g *Guard) checkHost(r *http.Request) string {
	if g.anyHost {
		return ""
	}
	if g.hostAllowed(r.Host) || (g.public[r.URL.Path] && matchHost(g.literals, r.Host)) {
		return ""
	}
	if r.Host == "" {
		return "the request has no Host header"
	}
	if g.onlyHosts != nil {
		return fmt.Sprintf("Host %q is not allowed (DNS rebinding protection). Access is only allowed at %s: add it to --allowed-hosts (E2E_MCP_ALLOWED_HOSTS)",
			r.Host, strings.Join(g.onlyHosts, ", "))
	}
	return fmt.Sprintf("Host %q is not allowed (DNS rebinding protection): allow it with --http-allowed-hosts (E2E_MCP_HTTP_ALLOWED_HOSTS)", r.Host)
}

func (g *Guard) hostAllowed(hostport string) bool { return matchHost(g.hosts, hostport) }

// matchHost says whether a Host header's value matches one of rules.
func matchHost(rules []hostRule, hostport string) bool {
	h, p := splitHost(hostport)
	if h == "" {
		return false
	}
	for _, rule := range rules {
		if rule.host == h && (rule.port == "" || p == "" || p == rule.port) {
			return true
		}
	}
	return false
}

// checkOrigin returns why r's Origin header is refused, or "".
func (g *Guard) checkOrigin(r *http.Request) string {
	raw := r.Header.Get("Origin")
	if raw == "" || g.anyOrigin {
		return ""
	}
	origin, ok := normalizeOrigin(raw)
	if ok && g.origins[origin] {
		return ""
	}
	if ok && sameOrigin(origin, r.Host) {
		return ""
	}
	if ok && g.loopback {
		// A tool on this machine (an MCP inspector on another port) is no
		// DNS-rebinding page: its origin names a loopback host.
		if u, err := url.Parse(origin); err == nil && isLoopbackHost(normalizeHost(u.Hostname())) {
			return ""
		}
	}
	return fmt.Sprintf("Origin %q is not allowed: allow it with --http-allowed-origins (E2E_MCP_HTTP_ALLOWED_ORIGINS)", raw)
}

// sameOrigin reports whether a normalized origin names the host (and port, when the Host header has one) the
// request was sent to; the Host header has already passed checkHost.
func sameOrigin(origin, reqHost string) bool {
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	oh, op := splitHost(u.Host)
	if op == "" {
		op = defaultPort(u.Scheme)
	}
	rh, rp := splitHost(reqHost)
	return oh == rh && (rp == "" || rp == op)
}

// normalizeOrigin lowercases scheme and host and drops a default port: "HTTP://Example.com:80" is
// "http://example.com". It refuses anything that is not scheme://host[:port], including "null".
func normalizeOrigin(s string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", false
	}
	h, p := splitHost(u.Host)
	if !validHost(h) {
		return "", false
	}
	if p == defaultPort(scheme) {
		p = ""
	}
	return scheme + "://" + joinHost(h, p), true
}

func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// splitHost splits a Host header value ("Example.com:80", "[::1]:8931", "::1", "localhost") into a normalized host
// name (lowercase, no brackets, no trailing dot) and a port ("" when absent).
func splitHost(hostport string) (host, port string) {
	hostport = strings.TrimSpace(hostport)
	if hostport == "" {
		return "", ""
	}
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		return normalizeHost(h), p
	}
	return normalizeHost(hostport), ""
}

func normalizeHost(h string) string {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if ip := net.ParseIP(h); ip != nil {
		return ip.String()
	}
	return h
}

func joinHost(h, p string) string {
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	if p == "" {
		return h
	}
	return h + ":" + p
}

// isLoopbackHost reports localhost names and loopback addresses.
func isLoopbackHost(h string) bool {
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// validHost reports an IP address or a DNS name (letters, digits, '-' and
// '_' in dot-separated labels): what an origin's host can be.
func validHost(h string) bool {
	if h == "" {
		return false
	}
	if net.ParseIP(h) != nil {
		return true
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for _, c := range label {
			letter, digit := c >= 'a' && c <= 'z', c >= '0' && c <= '9'
			if !letter && !digit && c != '-' && c != '_' {
				return false
			}
		}
	}
	return true
}
