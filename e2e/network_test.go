package e2e

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// itemsAPI serves the inventory page's API: its items, and the X-Client
// header the page sent (to see a route change it).
func itemsAPI(mux *http.ServeMux, _ *fixture) {
	mux.HandleFunc("GET /api/items", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"items":["apple","pear"],"client":%q}`, r.Header.Get("X-Client"))
	})
}

// TestRoutes: a route fulfils the page's API call with a 500 and the page
// shows its error state; requests it answered are marked; unroute brings
// the real API back; an abort makes the fetch fail; a body from a file,
// used once; changed request headers reach the server; routes hold in a
// popup; the request policy wins over a route.
func TestRoutes(t *testing.T) {
	f := newFixture(t, itemsAPI)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_CAPS=network", "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_BLOCKED_ORIGINS=http://blocked.test")
	c := startClient(t, env)

	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/network/app.html"})
	out := mustCall(t, c, "browser_wait_for", map[string]any{"text": "Items: apple, pear (client inventory)"})
	mustContain(t, "the page with the real API", out, "Items: apple, pear")
	reload := func(what string, want ...string) string {
		t.Helper()
		mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Reload items']"})
		mustCall(t, c, "browser_wait_for", map[string]any{"text": want[0], "timeout": 10})
		out := mustCall(t, c, "browser_snapshot", nil)
		mustContain(t, what, out, want...)
		return out
	}

	out = mustCall(t, c, "browser_route", map[string]any{"pattern": "**/api/items", "status": 500,
		"body": `{"error":"boom"}`, "contentType": "application/json"})
	mustContain(t, "the route's answer", out, "Added route **/api/items: fulfil 500 application/json, 16 bytes", "- **/api/items → fulfil 500")
	reload("the API failing", "Could not load items (500)")
	out = mustCall(t, c, "browser_network_requests", map[string]any{"filter": "api/items"})
	mustContain(t, "the requests", out, "GET "+f.URL+"/api/items → 500", "routed by **/api/items", "→ 200 OK")

	out = mustCall(t, c, "browser_route_list", nil)
	mustContain(t, "the route list", out, "**/api/items → fulfil 500 application/json, 16 bytes (1 answered)")
	out = mustCall(t, c, "browser_unroute", map[string]any{"pattern": "**/api/items"})
	mustContain(t, "unroute", out, "Removed 1 route(s).", "No routes")
	reload("the real API back", "Items: apple, pear")
	mustFail(t, c, "browser_unroute", map[string]any{"pattern": "**/nothing"}, "invalid_input")

	mustCall(t, c, "browser_route", map[string]any{"pattern": "/api/*", "abort": "connectionrefused"})
	reload("an aborted fetch", "Network error: TypeError")

	// Globs read as Playwright's: {a,b} is either, /**/ none or more
	// segments; a brace left open is refused.
	mustCall(t, c, "browser_unroute", nil)
	mustCall(t, c, "browser_route", map[string]any{"pattern": "**/{users,items}", "status": 418})
	reload("a route of alternatives", "Could not load items (418)")
	mustCall(t, c, "browser_unroute", nil)
	// 419 has no standard phrase, which Chrome wants with the status.
	mustCall(t, c, "browser_route", map[string]any{"pattern": f.URL + "/**/api/{items}", "status": 419})
	reload("a route whose /**/ is no segment", "Could not load items (419)")
	// A response Chrome refuses (a header name with a space) fails the
	// request instead of leaving the page waiting.
	mustCall(t, c, "browser_route", map[string]any{"pattern": "**/api/items", "status": 200, "headers": []string{"X Y: 1"}})
	reload("a response Chrome refused", "Network error: TypeError")
	out = mustFail(t, c, "browser_route", map[string]any{"pattern": "**/{items", "status": 500}, "invalid_input")
	mustContain(t, "an open brace", out, "with no '}' after it", `\{`)
	mustCall(t, c, "browser_unroute", nil)
	mustCall(t, c, "browser_route", map[string]any{"pattern": "/api/*", "abort": "connectionrefused"})

	// A body from a file, for one request; a later route of another
	// pattern goes first.
	body := filepath.Join(dir, "items.json")
	if err := os.WriteFile(body, []byte(`{"items":["mocked plum"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out = mustCall(t, c, "browser_route", map[string]any{"pattern": "**/api/items", "path": body, "contentType": "application/json", "times": 1})
	mustContain(t, "a route of one use", out, "fulfil 200 application/json, 25 bytes, 0 of 1 used", "- /api/* → abort (connectionrefused)")
	reload("the body from a file", "Items: mocked plum")
	reload("the one use spent, the abort route again", "Network error: TypeError")

	// Changed request headers reach the server.
	mustCall(t, c, "browser_unroute", nil)
	mustCall(t, c, "browser_route", map[string]any{"pattern": "**/api/items", "headers": []string{"X-Client: agent"}})
	reload("a changed request header", "Items: apple, pear (client agent)")

	// A popup's requests are routed too, its first load included.
	mustCall(t, c, "browser_route", map[string]any{"pattern": "**/api/items", "status": 503})
	mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Open a copy']"})
	out = mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 1})
	mustContain(t, "the popup", out, "copy=1")
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Could not load items (503)", "timeout": 10})
	reload("the popup's fetch", "Could not load items (503)")

	// The request policy decides first: a blocked origin stays blocked.
	mustCall(t, c, "browser_route", map[string]any{"pattern": "http://blocked.test/**", "body": "<h1>Mocked</h1>", "contentType": "text/html"})
	mustFail(t, c, "browser_navigate", map[string]any{"url": "http://blocked.test/"}, "not_allowed")

	// Bad input.
	out = mustFail(t, c, "browser_route", map[string]any{"pattern": "**", "abort": "nope"}, "invalid_input")
	mustContain(t, "an unknown abort reason", out, "connectionrefused")
	mustFail(t, c, "browser_route", map[string]any{"pattern": "**", "path": "/etc/passwd"}, "not_allowed")
	mustFail(t, c, "browser_route", map[string]any{"pattern": "**", "headers": []string{"no colon"}}, "invalid_input")
}

// earlyAPI serves the early page and the account API it calls as it
// loads, and counts the requests for each that reached the server.
func earlyAPI(docs, hits *atomic.Int32) func(mux *http.ServeMux, _ *fixture) {
	return func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /network/early.html", func(w http.ResponseWriter, r *http.Request) {
			docs.Add(1)
			b, _ := testdata.ReadFile("testdata/network/early.html")
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(b)
		})
		mux.HandleFunc("GET /api/early", func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			fmt.Fprint(w, "real")
		})
	}
}

// TestRoutesBeforeAttach: what a popup or an out-of-process iframe loads
// before a session of ours is attached to it is routed too. A page opens
// twelve popups at once (the first eight are attached at once, the rest
// when selected) and holds a cross-site iframe; each calls its API as it
// loads. With a route on that API none of those calls reaches the server,
// and each page shows the routed answer, popups attached late too; without
// it they reach the server; offline, not even the popups' documents do.
func TestRoutesBeforeAttach(t *testing.T) {
	var docs, hits atomic.Int32
	f := newFixture(t, earlyAPI(&docs, &hits))
	// The same server under another site's name: Chrome puts its frame in
	// a process of its own.
	other := strings.Replace(f.URL, "127.0.0.1", "localhost", 1)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=network"))

	mustCall(t, c, "browser_route", map[string]any{"pattern": "**/api/early", "status": 503})
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/network/burst.html?widget=" + other})
	// until calls tool until its answer holds want n times (the pages
	// answer in their own time: the condition is polled, to a deadline).
	until := func(what, tool string, args map[string]any, want string, n int) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			out := mustCall(t, c, tool, args)
			if strings.Count(out, want) == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: want %q %d times, got:\n%s", what, want, n, out)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	until("the cross-site widget, routed as it loads", "browser_snapshot", nil, "status: Account check failed (503)", 1)
	mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Open every dashboard']"})
	// The browser reports no title a script sets in a tab nobody is
	// attached to: the route's count says when all twelve called.
	until("the popups, routed as they load", "browser_route_list", nil, "(13 answered)", 1)
	if n := hits.Load(); n != 0 {
		t.Fatalf("%d call(s) of the routed API reached the server", n)
	}
	// The last popups were not attached until now: their pages say the same.
	for i := 9; i <= 12; i++ {
		out := mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": i})
		mustContain(t, "a popup attached late", out, fmt.Sprintf("n=%d", i), "Account check failed (503)")
	}
	closePopups := func() {
		t.Helper()
		mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 0})
		for range 12 {
			mustCall(t, c, "browser_tabs", map[string]any{"action": "close", "index": 1})
		}
	}

	// Without the route the real API answers a new burst...
	closePopups()
	mustCall(t, c, "browser_unroute", nil)
	mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Open every dashboard']"})
	deadline := time.Now().Add(15 * time.Second)
	for hits.Load() < 12 {
		if time.Now().After(deadline) {
			t.Fatalf("the real API got %d calls, want 12", hits.Load())
		}
		time.Sleep(50 * time.Millisecond)
	}

	// ...and offline fails it before anyone attached, as in an attached tab.
	closePopups()
	before, docsBefore := hits.Load(), docs.Load()
	mustCall(t, c, "browser_network_state_set", map[string]any{"state": "offline"})
	mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Open every dashboard']"})
	for i := 12; i >= 1; i-- {
		out := mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": i})
		mustContain(t, "a popup offline", out, "Page URL: chrome-error://chromewebdata/")
	}
	if n := docs.Load(); n != docsBefore {
		t.Fatalf("%d document(s) loaded while offline", n-docsBefore)
	}
	if n := hits.Load(); n != before {
		t.Fatalf("%d call(s) reached the server while offline", n-before)
	}
}

// TestRouteFakeOrigin: a route answers a whole document of an origin that
// does not exist, and its page's requests.
func TestRouteFakeOrigin(t *testing.T) {
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=network"))
	mustCall(t, c, "browser_route", map[string]any{"pattern": "http://shop.test/", "contentType": "text/html",
		"body": `<h1>Mocked shop</h1><p id=p>…</p><script>fetch('/api/price').then(r => r.text()).then(t => p.textContent = 'Price: ' + t)</script>`})
	mustCall(t, c, "browser_route", map[string]any{"pattern": "/api/price", "body": "42 EUR"})
	out := mustCall(t, c, "browser_navigate", map[string]any{"url": "http://shop.test/"})
	mustContain(t, "the mocked shop", out, "Mocked shop")
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Price: 42 EUR", "timeout": 10})
}

// TestNetworkState: offline makes navigator.onLine false (the page hears
// the offline event) and the page's fetches fail; online brings both back.
func TestNetworkState(t *testing.T) {
	f := newFixture(t, itemsAPI)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=network"))
	out := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/network/app.html"})
	mustContain(t, "online at first", out, "Connection: online")
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Items: apple, pear"})

	out = mustCall(t, c, "browser_network_state_set", map[string]any{"state": "offline"})
	mustContain(t, "offline", out, "The network is offline")
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Connection: offline", "timeout": 10})
	mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Reload items']"})
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Network error: TypeError", "timeout": 10})

	mustCall(t, c, "browser_network_state_set", map[string]any{"state": "online"})
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Connection: online", "timeout": 10})
	mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Reload items']"})
	out = mustCall(t, c, "browser_wait_for", map[string]any{"text": "Items: apple, pear", "timeout": 10})
	if strings.Contains(out, "Network error") {
		t.Errorf("still failing online:\n%s", out)
	}
	mustFail(t, c, "browser_network_state_set", map[string]any{"state": "dial-up"}, "invalid_input")
}

// TestNetworkFlow: routes and the network state are flow steps: a session
// that mocked its API into an error and went offline replays green.
func TestNetworkFlow(t *testing.T) {
	f := newFixture(t, itemsAPI)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_CAPS=network", "E2E_MCP_FILE_ROOTS="+dir)
	c := startClient(t, env)
	mustCall(t, c, "browser_route", map[string]any{"pattern": "**/api/items", "status": 500, "delay": 0.2})
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/network/app.html"})
	mustCall(t, c, "browser_expect", map[string]any{"target": "text=Could not load items (500)", "check": "visible"})
	mustCall(t, c, "browser_unroute", map[string]any{"pattern": "**/api/items"})
	mustCall(t, c, "browser_network_state_set", map[string]any{"state": "offline"})
	mustCall(t, c, "browser_expect", map[string]any{"target": "role=status", "check": "text", "expected": "Connection: offline"})
	_, flow := exportAndReplay(t, c, env, dir, "api-down")
	mustContain(t, "the flow", flow, "route:", "pattern: '**/api/items'", "status: 500", "unroute: '**/api/items'", "network_state: offline")
}
