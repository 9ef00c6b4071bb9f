package e2e

import (
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"
)

// popupRoutes: /popups?n=N has a button that opens N popups on /pop?i=K.
func popupRoutes(mux *http.ServeMux, _ *fixture) {
	mux.HandleFunc("GET /popups", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>Opener</title><button onclick="for (let i = 0; i < %s; i++) window.open('/pop?i=' + i)">Open many</button>`, r.URL.Query().Get("n"))
	})
	mux.HandleFunc("GET /pop", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>Popup %s</title><h1>Popup %s</h1>`, r.URL.Query().Get("i"), r.URL.Query().Get("i"))
	})
}

var popupLineRE = regexp.MustCompile(`\(http[^)]*/pop\?i=\d+\)`)

// TestManyPopups: a click that opens 200 popups succeeds and says so; the
// tabs can be listed, selected and closed, all of them, promptly enough to
// be used.
func TestManyPopups(t *testing.T) {
	f := newFixture(t, popupRoutes)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/popups?n=200"})
	start := time.Now()
	out := mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=\"Open many\"]"})
	t.Logf("click: %s", time.Since(start))
	mustContain(t, "the click's answer", out, "200")
	if len(out) > 16<<10 {
		t.Errorf("the click's answer is %d bytes", len(out))
	}
	start = time.Now()
	list := mustCall(t, c, "browser_tabs", map[string]any{"action": "list"})
	t.Logf("list: %s", time.Since(start))
	if n := len(popupLineRE.FindAllString(list, -1)); n != 200 {
		t.Errorf("list shows %d popups, want 200:\n%.2000s", n, list)
	}
	sel := mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 150})
	mustContain(t, "a selected popup", sel, "Popup")
	start = time.Now()
	for i := 200; i >= 1; i-- {
		mustCall(t, c, "browser_tabs", map[string]any{"action": "close", "index": i})
	}
	t.Logf("closing 200: %s", time.Since(start))
	mustContain(t, "the opener", mustCall(t, c, "browser_tabs", map[string]any{"action": "list"}), "Opener")
}
