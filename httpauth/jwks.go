package httpauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/golang-jwt/jwt/v5"
)

// Bounds on what an issuer's JWKS may cost us.
const (
	maxJWKSBytes   = 1 << 20 // response body
	maxJWKSKeys    = 100     // usable keys kept
	jwksTimeout    = 10 * time.Second
	minRSAKeyBits  = 2048
	defaultKeysAge = time.Hour
	defaultRefresh = time.Minute
)

// jwksKey is one usable signing key of the issuer.
type jwksKey struct {
	kid string
	alg string // the JWK's "alg", "" when it does not restrict one
	key crypto.PublicKey
}

// jwksCache holds the issuer's keys. It fetches them lazily: on first use, when they are older than maxAge, and
// when a token names an unknown kid; after any attempt, the next waits at least minRefresh (so a failing issuer
// or a flood of forged kids costs one request per interval). Concurrent misses share one fetch. It starts no
// goroutine.
type jwksCache struct {
	url        string
	client     *http.Client
	maxAge     time.Duration
	minRefresh time.Duration
	now        func() time.Time

	fetchMu sync.Mutex // serializes fetches, so concurrent misses cause one request

	mu sync.Mutex
	st cacheState
}

func newJWKSCache(o OAuthOptions, now func() time.Time) *jwksCache {
	c := &jwksCache{url: o.JWKSURL, client: o.HTTPClient, maxAge: o.KeysMaxAge, minRefresh: o.MinRefreshInterval, now: now}
	if c.client == nil {
		c.client = &http.Client{Timeout: jwksTimeout}
	}
	if c.maxAge <= 0 {
		c.maxAge = defaultKeysAge
	}
	if c.minRefresh <= 0 {
		c.minRefresh = defaultRefresh
	}
	return c
}

// key returns the key that verifies a token with this kid and alg: the key with that kid, or, for a token without
// kid, every key that fits alg (as a jwt.VerificationKeySet).
func (c *jwksCache) key(ctx context.Context, kid, alg string) (any, error) {
	st := c.state()
	now := c.now()
	canRetry := st.attempts == 0 || now.Sub(st.attemptedAt) >= c.minRefresh
	if canRetry && (st.fetchedAt.IsZero() || now.Sub(st.fetchedAt) >= c.maxAge) {
		st = c.refresh(ctx, st.attempts)
		canRetry = false
	}
	found, err := pick(st.keys, kid, alg)
	if errors.Is(err, errUnknownKey) && canRetry {
		// A kid we have not seen: the issuer may have rotated a new key in.
		st = c.refresh(ctx, st.attempts)
		found, err = pick(st.keys, kid, alg)
	}
	if errors.Is(err, errUnknownKey) && st.fetchedAt.IsZero() {
		return nil, errNoKeys
	}
	return found, err
}

func pick(keys []jwksKey, kid, alg string) (any, error) {
	if kid != "" {
		for _, k := range keys {
			if k.kid == kid {
				if !fits(k, alg) {
					return nil, errKeyMismatch
				}
				return k.key, nil
			}
		}
		return nil, errUnknownKey
	}
	var set jwt.VerificationKeySet
	for _, k := range keys {
		if fits(k, alg) {
			set.Keys = append(set.Keys, k.key)
		}
	}
	if len(set.Keys) == 0 {
		return nil, errUnknownKey
	}
	return set, nil
}

// fits reports whether key k may verify a signature made with alg.
func fits(k jwksKey, alg string) bool {
	if k.alg != "" && k.alg != alg {
		return false
	}
	switch key := k.key.(type) {
	case *rsa.PublicKey:
		return strings.HasPrefix(alg, "RS") || strings.HasPrefix(alg, "PS")
	case *ecdsa.PublicKey:
		switch alg {
		case "ES256":
			return key.Curve == elliptic.P256()
		case "ES384":
			return key.Curve == elliptic.P384()
		case "ES512":
			return key.Curve == elliptic.P521()
		}
	case ed25519.PublicKey:
		return alg == "EdDSA"
	}
	return false
}

// cacheState is a consistent view of the cache.
type cacheState struct {
	keys        []jwksKey
	fetchedAt   time.Time // last successful fetch; zero before the first
	attemptedAt time.Time // last fetch attempt
	attempts    int       // fetch attempts so far; also the cache's generation
}

func (c *jwksCache) state() cacheState {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.st
}

// refresh fetches the JWKS unless another caller did after the caller's view (generation seen), and returns the
// state after it. A failed fetch keeps the previous keys.
func (c *jwksCache) refresh(ctx context.Context, seen int) cacheState {
	c.fetchMu.Lock()
	defer c.fetchMu.Unlock()
	if st := c.state(); st.attempts != seen { // someone fetched while we waited
		return st
	}
	// The fetch serves every waiting request, so one client going away must not cancel it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), jwksTimeout)
	defer cancel()
	start := c.now()
	keys, err := c.fetch(ctx)

	// Counted when done, so requests arriving meanwhile wait on fetchMu for this result instead of skipping it.
	c.mu.Lock()
	defer c.mu.Unlock()
	c.st.attempts++
	c.st.attemptedAt = start
	if err == nil {
		c.st.keys, c.st.fetchedAt = keys, c.now()
	}
	return c.st
}

func (c *jwksCache) fetch(ctx context.Context) ([]jwksKey, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json, application/jwk-set+json")
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, redact.Err(err) // it quotes the URL, query and all
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("JWKS %s: status %d", redact.URL(c.url), resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKSBytes+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxJWKSBytes {
		return nil, fmt.Errorf("JWKS %s: larger than %d bytes", redact.URL(c.url), maxJWKSBytes)
	}
	return parseJWKS(body)
}

// jwk holds the JSON Web Key members (RFC 7517, RFC 7518 §6, RFC 8037) we read.
type jwk struct {
	Kty string `json:"kty"`
	Use string `json:"use"`
	Kid string `json:"kid"`
	Alg string `json:"alg"`
	Crv string `json:"crv"`
	N   string `json:"n"`
	E   string `json:"e"`
	X   string `json:"x"`
	Y   string `json:"y"`
}

// parseJWKS keeps the set's usable signature keys (RSA, EC P-256/384/521, Ed25519), skipping encryption keys,
// unknown types and malformed entries, up to maxJWKSKeys.
func parseJWKS(body []byte) ([]jwksKey, error) {
	var set struct {
		Keys []jwk `json:"keys"`
	}
	if err := json.Unmarshal(body, &set); err != nil {
		return nil, fmt.Errorf("JWKS: %w", err)
	}
	var keys []jwksKey
	for _, k := range set.Keys {
		if k.Use != "" && k.Use != "sig" {
			continue
		}
		pub, err := k.publicKey()
		if err != nil {
			continue
		}
		keys = append(keys, jwksKey{kid: k.Kid, alg: k.Alg, key: pub})
		if len(keys) == maxJWKSKeys {
			break
		}
	}
	if len(keys) == 0 {
		return nil, errors.New("JWKS: no usable signing key")
	}
	return keys, nil
}

func (k jwk) publicKey() (crypto.PublicKey, error) {
	switch k.Kty {
	case "RSA":
		n, err := b64(k.N)
		if err != nil {
			return nil, err
		}
		e, err := b64(k.E)
		if err != nil {
			return nil, err
		}
		if len(e) == 0 || len(e) > 4 {
			return nil, errors.New("bad RSA exponent")
		}
		exp := new(big.Int).SetBytes(e)
		pub := &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(exp.Int64())}
		if pub.N.BitLen() < minRSAKeyBits || pub.E < 3 || pub.E%2 == 0 {
			return nil, errors.New("weak RSA key")
		}
		return pub, nil
	case "EC":
		var curve elliptic.Curve
		switch k.Crv {
		case "P-256":
			curve = elliptic.P256()
		case "P-384":
			curve = elliptic.P384()
		case "P-521":
			curve = elliptic.P521()
		default:
			return nil, fmt.Errorf("unsupported curve %q", k.Crv)
		}
		size := (curve.Params().BitSize + 7) / 8
		x, err := b64(k.X)
		if err != nil {
			return nil, err
		}
		y, err := b64(k.Y)
		if err != nil {
			return nil, err
		}
		if len(x) != size || len(y) != size {
			return nil, errors.New("bad EC coordinate length")
		}
		point := append(append([]byte{4}, x...), y...)
		return ecdsa.ParseUncompressedPublicKey(curve, point) // checks the point is on the curve
	case "OKP":
		if k.Crv != "Ed25519" {
			return nil, fmt.Errorf("unsupported curve %q", k.Crv)
		}
		x, err := b64(k.X)
		if err != nil {
			return nil, err
		}
		if len(x) != ed25519.PublicKeySize {
			return nil, errors.New("bad Ed25519 key length")
		}
		return ed25519.PublicKey(x), nil
	}
	return nil, fmt.Errorf("unsupported key type %q", k.Kty)
}

// b64 decodes base64url, with or without padding.
func b64(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}
