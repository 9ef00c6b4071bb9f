package httpauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/golang-jwt/jwt/v5"
)

// OAuthOptions makes the Guard an OAuth 2.1 resource server (MCP authorization, RFC 9728): it accepts JWT
// access tokens signed by Issuer's keys and issued for Resource.
type OAuthOptions struct {
	// Resource is this server's resource identifier, its public URL as clients address it
	// ("https://mcp.example.com/mcp"). It is the "resource" of the metadata and the audience tokens must carry.
	// Required.
	Resource string

	// Issuer is the authorization server's issuer identifier; a token's "iss" must equal it. Required.
	Issuer string

	// JWKSURL is where the issuer publishes its signing keys (its metadata's jwks_uri). Required.
	JWKSURL string

	// Audiences, when set, replaces Resource as the accepted "aud" values (a token needs one of them), for
	// issuers that put a configured API name in the audience.
	Audiences []string

	// AuthorizationServers is the metadata's authorization_servers; it defaults to [Issuer].
	AuthorizationServers []string

	// Scopes is the metadata's scopes_supported, also suggested in 401 challenges; omitted when empty.
	Scopes []string

	// RequiredScopes must all be granted by a token ("scope" or "scp" claim); a token lacking one gets 403
	// error="insufficient_scope". Empty requires none.
	RequiredScopes []string

	// ResourceName is the metadata's human-readable resource_name; omitted when empty.
	ResourceName string

	// Algorithms are the accepted "alg" values; the default is RS256, RS384, RS512, PS256, PS384, PS512, ES256,
	// ES384, ES512 and EdDSA. "none" and the HMAC algorithms are never accepted.
	Algorithms []string

	// Leeway is the clock skew allowed on exp and nbf; default 30s.
	Leeway time.Duration

	// HTTPClient fetches the JWKS; default a client with a 10s timeout.
	HTTPClient *http.Client

	// KeysMaxAge is how long a fetched JWKS is used before it is fetched again on the next token; default 1h.
	// A failed fetch keeps the old keys.
	KeysMaxAge time.Duration

	// MinRefreshInterval bounds JWKS fetches triggered by tokens: one whose kid is unknown refetches the JWKS
	// (that is how a rotated-in key is picked up) at most once per interval, so a flood of forged kids cannot
	// turn into a flood of requests to the issuer. Default 1m.
	MinRefreshInterval time.Duration
}

var defaultAlgorithms = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

type verifier struct {
	issuer         string
	audiences      []string
	algorithms     []string
	leeway         time.Duration
	requiredScopes []string
	keys           *jwksCache
	now            func() time.Time
}

func newVerifier(o OAuthOptions, now func() time.Time) (*verifier, error) {
	if err := checkAbsoluteURL("resource", o.Resource); err != nil {
		return nil, err
	}
	if o.Issuer == "" {
		return nil, errors.New("httpauth: OAuth issuer is required")
	}
	if err := checkAbsoluteURL("JWKS URL", o.JWKSURL); err != nil {
		return nil, err
	}
	v := &verifier{
		issuer:         o.Issuer,
		audiences:      o.Audiences,
		algorithms:     o.Algorithms,
		leeway:         o.Leeway,
		requiredScopes: o.RequiredScopes,
		now:            now,
	}
	if len(v.audiences) == 0 {
		v.audiences = []string{o.Resource}
	}
	if len(v.algorithms) == 0 {
		v.algorithms = defaultAlgorithms
	}
	for _, a := range v.algorithms {
		if !slices.Contains(defaultAlgorithms, a) {
			return nil, fmt.Errorf("httpauth: algorithm %q is not supported (use some of %v)", a, defaultAlgorithms)
		}
	}
	if v.leeway <= 0 {
		v.leeway = 30 * time.Second
	}
	v.keys = newJWKSCache(o, now)
	return v, nil
}

func checkAbsoluteURL(what, s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("httpauth: OAuth %s %q must be an absolute http(s) URL", what, redact.URL(s))
	}
	return nil
}

// Key lookup failures, reported to the client as invalid_token with a description.
var (
	errUnknownKey  = errors.New("no key of the issuer matches the token's kid")
	errKeyMismatch = errors.New("the token's alg does not fit the key its kid names")
	errNoKeys      = errors.New("the issuer's keys could not be fetched")
)

// verify checks a raw JWT and returns its principal, or why it is refused.
func (v *verifier) verify(ctx context.Context, raw string) (*Principal, *authFailure) {
	claims := jwt.MapClaims{}
	keyfunc := func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		return v.keys.key(ctx, kid, t.Method.Alg())
	}
	tok, err := jwt.ParseWithClaims(raw, claims, keyfunc,
		jwt.WithValidMethods(v.algorithms),
		jwt.WithLeeway(v.leeway),
		jwt.WithIssuer(v.issuer),
		jwt.WithAudience(v.audiences...),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(v.now),
	)
	if err != nil {
		desc := describe(err, claims)
		if tok != nil && tok.Method != nil && !slices.Contains(v.algorithms, tok.Method.Alg()) {
			desc = "signing algorithm not allowed" // alg none, HMAC, or one left out of Algorithms
		}
		return nil, &authFailure{status: http.StatusUnauthorized, code: "invalid_token", description: desc}
	}
	p := &Principal{Method: MethodOAuth, Claims: claims}
	p.Subject, _ = claims["sub"].(string)
	p.Issuer, _ = claims["iss"].(string)
	p.ClientID, _ = claims["client_id"].(string)
	if p.ClientID == "" {
		p.ClientID, _ = claims["azp"].(string)
	}
	if exp, err := claims.GetExpirationTime(); err == nil && exp != nil {
		p.ExpiresAt = exp.Time
	}
	p.Scopes = scopesOf(claims)
	for _, s := range v.requiredScopes {
		if !slices.Contains(p.Scopes, s) {
			return nil, &authFailure{status: http.StatusForbidden, code: "insufficient_scope",
				description: "the token lacks a required scope"}
		}
	}
	return p, nil
}

// describe turns a jwt error into an RFC 6750 error_description (no quotes or backslashes). Signature and key
// problems come first: claims are only checked on a verified token, and a missing required claim is named by
// what it fails (an absent aud is a wrong audience).
func describe(err error, claims jwt.MapClaims) string {
	missing := func(name string) bool {
		_, ok := claims[name]
		return !ok && (errors.Is(err, jwt.ErrTokenRequiredClaimMissing) || errors.Is(err, jwt.ErrInvalidType))
	}
	switch {
	case errors.Is(err, errUnknownKey):
		return "unknown signing key (kid)"
	case errors.Is(err, errKeyMismatch):
		return "the token algorithm does not match its key"
	case errors.Is(err, errNoKeys):
		return "the issuer keys are unavailable"
	case errors.Is(err, jwt.ErrTokenMalformed):
		return "malformed token"
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		return "invalid signature"
	case errors.Is(err, jwt.ErrTokenUnverifiable):
		return "token cannot be verified"
	case errors.Is(err, jwt.ErrTokenExpired):
		return "token expired"
	case errors.Is(err, jwt.ErrTokenNotValidYet):
		return "token not yet valid"
	case errors.Is(err, jwt.ErrTokenInvalidIssuer) || missing("iss"):
		return "wrong issuer"
	case errors.Is(err, jwt.ErrTokenInvalidAudience) || missing("aud"):
		return "wrong audience: the token is not for this resource"
	case missing("exp"):
		return "token has no expiry"
	default:
		return "invalid token"
	}
}

// scopesOf reads "scope" (RFC 9068, space-separated) or "scp" (string or array, as some issuers send).
func scopesOf(c jwt.MapClaims) []string {
	if s, ok := c["scope"].(string); ok {
		return strings.Fields(s)
	}
	switch v := c["scp"].(type) {
	case string:
		return strings.Fields(v)
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
