package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
)

// recorder is a server that must never be reached: it records every
// request (preflights included) that gets through.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	hits []string
}

func newRecorder(t *testing.T) *recorder {
	r := &recorder{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.hits = append(r.hits, req.Method+" "+req.URL.String())
		r.mu.Unlock()
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Allow-Headers", "*")
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<title>Secret</title><p>secret</p>")
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *recorder) mustBeUntouched(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.hits) > 0 {
		t.Errorf("the blocked server was reached: %q", r.hits)
	}
}

// policyRoutes serves a page that requests url from script (a fetch with
// a custom header, so a CORS preflight too) and says how it went, and a
// redirect to url.
func policyRoutes(url string) func(mux *http.ServeMux, f *fixture) {
	return func(mux *http.ServeMux, f *fixture) {
		mux.HandleFunc("GET /policy/fetch", func(w http.ResponseWriter, r *http.Request) {
			target := r.URL.Query().Get("u")
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<title>Fetcher</title><h1>Fetcher</h1><p id="out">pending</p>
<button onclick="window.open('%s/popup')">Open popup</button>
<script>
fetch(%q, {headers: {"X-Probe": "1"}}).then(r => r.text()).then(
  t => document.getElementById("out").textContent = "fetch: ok " + t,
  e => document.getElementById("out").textContent = "fetch: failed " + e.name)
</script>`, url, target)
		})
		mux.HandleFunc("GET /policy/redirect", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Access-Control-Allow-Origin", "*")
			http.Redirect(w, r, url+"/after-redirect", http.StatusFound)
		})
	}
}

// loadAndWait opens the fetching page and waits until it shows text; it
// returns both responses: the blocked requests are reported by whichever
// comes first after the page's request was refused.
func loadAndWait(t *testing.T, c *client.Client, url, text string) string {
	t.Helper()
	out := mustCall(t, c, "browser_navigate", map[string]any{"url": url})
	return out + "\n" + mustCall(t, c, "browser_wait_for", map[string]any{"text": text})
}

// TestPolicyBlockedOrigins: with --blocked-origins, a page's request to the
// blocked origin fails (and so does a redirect into it, and a popup opened
// on it) without ever reaching it, responses report the blocked requests
// with their rule, and browser_navigate there is not_allowed; file:// is
// not_allowed by default.
func TestPolicyBlockedOrigins(t *testing.T) {
	blocked := newRecorder(t)
	f := newFixture(t, policyRoutes(blocked.URL))
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_BLOCKED_ORIGINS="+blocked.URL))
	rule := "blocked-origins " + blocked.URL

	// A page's own request.
	out := loadAndWait(t, c, f.URL+"/policy/fetch?u="+blocked.URL+"/secret", "fetch: failed")
	mustContain(t, "a page's fetch from the blocked origin", out,
		"- Blocked requests: 1", blocked.URL+"/secret: "+rule, "fetch: failed TypeError")

	// A request to the allowed origin that redirects into the blocked one.
	out = loadAndWait(t, c, f.URL+"/policy/fetch?u="+f.URL+"/policy/redirect", "fetch: failed")
	mustContain(t, "a fetch redirected into the blocked origin", out,
		"- Blocked requests: 1", blocked.URL+"/after-redirect: "+rule)

	// A navigation redirected into it is refused, naming the rule.
	out = mustFail(t, c, "browser_navigate", map[string]any{"url": f.URL + "/policy/redirect"}, "not_allowed")
	mustContain(t, "a navigation redirected into the blocked origin", out, blocked.URL+"/after-redirect is blocked", rule, "redirected there")

	// Straight there.
	out = mustFail(t, c, "browser_navigate", map[string]any{"url": blocked.URL + "/"}, "not_allowed")
	mustContain(t, "browser_navigate to the blocked origin", out, rule)

	// A popup the page opens on the blocked origin.
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/policy/fetch?u=" + f.URL + "/"})
	out = mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "button", "Open popup")})
	mustContain(t, "a popup opened on the blocked origin", out, "New tabs opened: 1", "- Blocked requests: 1", blocked.URL+"/popup: "+rule)

	// file:// without --allow-file-urls.
	out = mustFail(t, c, "browser_navigate", map[string]any{"url": "file:///etc/hostname"}, "not_allowed")
	mustContain(t, "browser_navigate to a file:// URL", out, "--allow-file-urls")

	blocked.mustBeUntouched(t)
}

// TestPolicyAllowedOrigins: with --allowed-origins, only the listed origins
// can be requested; everything else is blocked with the allowlist named.
// Without any rule, file:// is still not_allowed.
func TestPolicyAllowedOrigins(t *testing.T) {
	other := newRecorder(t)
	f := newFixture(t, policyRoutes(other.URL))
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_ALLOWED_ORIGINS="+f.URL))

	out := loadAndWait(t, c, f.URL+"/policy/fetch?u="+other.URL+"/data", "fetch: failed")
	mustContain(t, "a fetch from an unlisted origin", out, "- Blocked requests: 1", other.URL+"/data: allowed-origins (")

	// The listed origin works, for pages and their requests.
	out = loadAndWait(t, c, f.URL+"/policy/fetch?u="+f.URL+"/api-free", "fetch: ok")
	if strings.Contains(out, "Blocked requests") {
		t.Errorf("requests to the listed origin were blocked:\n%s", out)
	}

	out = mustFail(t, c, "browser_navigate", map[string]any{"url": other.URL + "/"}, "not_allowed")
	mustContain(t, "browser_navigate to an unlisted origin", out, "allowed-origins (", "is not listed")
	other.mustBeUntouched(t)

	// No rules at all: nothing is intercepted, file:// is still refused.
	env2, _ := serverEnv(t)
	c2 := startClient(t, env2)
	out = mustFail(t, c2, "browser_navigate", map[string]any{"url": "file:///etc/hostname"}, "not_allowed")
	mustContain(t, "browser_navigate to a file:// URL without rules", out, "file:// URLs are blocked")
}
