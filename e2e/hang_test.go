package e2e

import (
	"fmt"
	"net/http"
	"testing"
)

// hangRoutes: /hang has a button whose click never returns, and sets a
// cookie.
func hangRoutes(mux *http.ServeMux, _ *fixture) {
	mux.HandleFunc("GET /hang", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		http.SetCookie(w, &http.Cookie{Name: "kept", Value: "yes", Path: "/"})
		fmt.Fprint(w, `<!doctype html><title>Hang</title><button onclick="while (true) {}">Spin</button>
`)
	})
}

// TestHungPageIsLeft: a page stuck in an endless script says so when a call
// times out, and browser_navigate, browser_reload and closing its tab still
// work, in the same browser context (cookies kept).
func TestHungPageIsLeft(t *testing.T) {
	f := newFixture(t, hangRoutes)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/hang"})
	wantError(t, call(t, c, "browser_click", map[string]any{"target": "role=button[name=Spin]"}), "timeout", "not answering", "browser_navigate")
	wantError(t, call(t, c, "browser_snapshot", nil), "timeout", "not answering")
	mustContain(t, "navigate away", mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"}), "Sign up")
	mustContain(t, "cookies kept", evalJS(t, c, "() => document.cookie"), "kept=yes")

	// A page whose timer starts the loop: reload works (it may hang again
	// after loading, and then says so), then navigating away.
	spin := map[string]any{"function": "() => { setTimeout(() => { while (true) {} }, 0); return 'started' }"}
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/hang"})
	mustCall(t, c, "browser_evaluate", spin)
	wantError(t, call(t, c, "browser_evaluate", map[string]any{"function": "() => 1"}), "timeout", "not answering")
	mustCall(t, c, "browser_reload", nil)
	mustCall(t, c, "browser_evaluate", spin)
	mustContain(t, "navigate away again", mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"}), "Sign up")

	// A hung tab closes.
	mustCall(t, c, "browser_tabs", map[string]any{"action": "new", "url": f.URL + "/hang"})
	mustCall(t, c, "browser_evaluate", spin)
	out := mustCall(t, c, "browser_tabs", map[string]any{"action": "close", "index": 1})
	mustContain(t, "after closing the hung tab", out, "Sign up")
}
