package httpauth

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzSplitHost: any Host header splits without a panic into a lower-case
// host; a valid host joined again with its port splits the same way.
func FuzzSplitHost(f *testing.F) {
	for _, s := range []string{"localhost:8931", "[::1]:8931", "::1", "Example.COM.:80", "", ":", "[", "[::1", "a:b:c", "127.0.0.1:", "]]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		host, port := splitHost(h)
		if host != strings.ToLower(host) {
			t.Fatalf("splitHost(%q) = %q, not lower case", h, host)
		}
		if !validHost(host) {
			return
		}
		if h2, p2 := splitHost(joinHost(host, port)); h2 != host || p2 != port {
			t.Fatalf("splitHost(%q) = %q %q, and again %q %q", h, host, port, h2, p2)
		}
	})
}

// FuzzNormalizeOrigin: normalizing is idempotent, and what it accepts is
// scheme://host[:port] with http or https.
func FuzzNormalizeOrigin(f *testing.F) {
	for _, s := range []string{"https://app.example", "HTTP://Example.com:80", "http://[::1]:8080", "null", "file://", "https://a.b/path", "http://u@x", "http://x?q"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, ok := normalizeOrigin(s)
		if !ok {
			return
		}
		if !strings.HasPrefix(o, "http://") && !strings.HasPrefix(o, "https://") {
			t.Fatalf("normalizeOrigin(%q) = %q", s, o)
		}
		again, ok := normalizeOrigin(o)
		if !ok || again != o {
			t.Fatalf("normalizeOrigin(%q) = %q, and again %q (%v)", s, o, again, ok)
		}
	})
}

// FuzzGuard: any Host, Origin and Authorization headers get an answer
// from the guard without a panic; a request that reaches the handler had
// the token, and a foreign Origin never does.
func FuzzGuard(f *testing.F) {
	f.Add("127.0.0.1:8931", "", "Bearer s3cret")
	f.Add("evil.example", "https://evil.example", "Bearer s3cret")
	f.Add("localhost:8931", "http://localhost:6274", "bearer  s3cret ")
	f.Add("[::1]:8931", "null", "Basic czNjcmV0")
	f.Add("127.0.0.1:8931", "http://127.0.0.1:8931", "Bearer")
	g, err := New(Options{ListenAddr: "127.0.0.1:8931", Token: "s3cret", AllowedOrigins: []string{"https://app.example"}})
	if err != nil {
		f.Fatal(err)
	}
	reached := false
	h := g.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true }))
	f.Fuzz(func(t *testing.T, host, origin, auth string) {
		reached = false
		r := httptest.NewRequest("POST", "http://127.0.0.1:8931/mcp", nil)
		r.Host = host
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if !reached {
			return
		}
		if tok, err := bearerToken(r); err != nil || tok != "s3cret" {
			t.Fatalf("reached without the token: %q", auth)
		}
		if o := r.Header.Get("Origin"); o != "" && strings.Contains(o, "evil") && !strings.Contains(o, "localhost") && !strings.Contains(o, "127.0.0.1") {
			if n, ok := normalizeOrigin(o); ok && n != "https://app.example" && !sameOrigin(n, r.Host) {
				if u := n[strings.Index(n, "//")+2:]; !isLoopbackHost(normalizeHost(strings.Split(u, ":")[0])) {
					t.Fatalf("reached with a foreign Origin %q (Host %q)", o, host)
				}
			}
		}
	})
}
