package httpauth

import (
	"context"
	"net"
	"net/http"
	"time"
)

// How a Principal authenticated.
const (
	// MethodToken: the static bearer token (E2E_MCP_AUTH_TOKEN). Everyone holding it is the same principal.
	MethodToken = "token"
	// MethodOAuth: a verified OAuth access token (JWT).
	MethodOAuth = "oauth"
)

// Principal is the authenticated caller of a request that passed the Guard.
type Principal struct {
	// Method is MethodToken or MethodOAuth.
	Method string
	// Subject is the token's "sub" claim (OAuth only).
	Subject string
	// Issuer is the token's "iss" claim (OAuth only).
	Issuer string
	// ClientID is the token's "client_id" claim, or "azp" when that is absent (OAuth only).
	ClientID string
	// Scopes are the token's "scope" (space-separated) or "scp" claim values (OAuth only).
	Scopes []string
	// ExpiresAt is the token's expiry (OAuth only).
	ExpiresAt time.Time
	// Claims holds every claim of the verified token (OAuth only). Treat it as read-only.
	Claims map[string]any
}

// Key identifies the principal for per-client limits: "oauth:<iss>|<sub>" (the client id stands in for a missing
// subject). It is "" for the static token and for a token with neither subject nor client id, whose holders
// cannot be told apart by credential; ClientKey then falls back to the remote address.
func (p *Principal) Key() string {
	if p == nil || p.Method != MethodOAuth {
		return ""
	}
	id := p.Subject
	if id == "" {
		id = p.ClientID
	}
	if id == "" {
		return ""
	}
	return "oauth:" + p.Issuer + "|" + id
}

type principalKey struct{}

// ContextWithPrincipal returns ctx carrying p. The Guard does this for every authenticated request; tests and
// in-process callers can use it too.
func ContextWithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFromContext returns the principal the Guard put in a request's context (mcp-go hands tool handlers
// the request's context, so it works there as well). ok is false when the request was not authenticated: no
// credential configured, a PublicPaths path, or a CORS preflight.
func PrincipalFromContext(ctx context.Context) (p *Principal, ok bool) {
	p, ok = ctx.Value(principalKey{}).(*Principal)
	return p, ok && p != nil
}

// ClientKey is the rate-limit key for r: the OAuth principal's Key when there is one, else "ip:<remote address>"
// (the static token and unauthenticated requests). Behind a reverse proxy the remote address is the proxy's, so
// all clients share one key there unless they use OAuth.
func ClientKey(r *http.Request) string {
	if p, ok := PrincipalFromContext(r.Context()); ok {
		if k := p.Key(); k != "" {
			return k
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return "ip:" + host
}
