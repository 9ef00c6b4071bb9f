package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestConsoleMessages: console messages of every level are kept, the
// current page's listed (as Playwright MCP: asked again, the same), or all
// the tab's since it opened, filtered by level; an uncaught exception comes
// with its stack, and so does an exception of browser_evaluate.
func TestConsoleMessages(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	out := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/wait/console.html"})
	mustContain(t, "navigate's page state", out, "- New console errors: 1", "error: error line {code: 7}")

	out = mustCall(t, c, "browser_console_messages", nil)
	mustContain(t, "console (info)", out, "4 console messages of the current page at level info or above",
		"- [log] log line 42 @ "+f.URL+"/wait/console.html:", "- [info] info line", "- [warning] warn line", "- [error] error line {code: 7}")
	if strings.Contains(out, "debug line") {
		t.Errorf("level info shows a debug message:\n%s", out)
	}
	out = mustCall(t, c, "browser_console_messages", nil)
	mustContain(t, "console again", out, "4 console messages of the current page", "[log] log line 42")
	out = mustCall(t, c, "browser_console_messages", map[string]any{"level": "debug"})
	mustContain(t, "console (debug)", out, "[debug] debug line", "[log] log line 42")

	// Another page: its own messages only, unless all.
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/wait/index.html"})
	mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => console.warn('second page line')"})
	out = mustCall(t, c, "browser_console_messages", nil)
	mustContain(t, "the second page's console", out, "1 console messages of the current page", "[warning] second page line")
	if strings.Contains(out, "log line 42") {
		t.Errorf("the current page's console lists the previous page's messages:\n%s", out)
	}
	out = mustCall(t, c, "browser_console_messages", map[string]any{"all": true, "level": "debug"})
	mustContain(t, "all console", out, "since the tab opened", "[debug] debug line", "[log] log line 42", "second page line")
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/wait/console.html"})

	mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=Explode]"})
	out = mustCall(t, c, "browser_console_messages", map[string]any{"level": "error"})
	mustContain(t, "exception", out, "- [exception] Error: kaboom @ "+f.URL+"/wait/console.html:",
		"at detonate ("+f.URL+"/wait/console.html:", "at explode (")
	if strings.Contains(out, "warn line") {
		t.Errorf("level error shows a warning:\n%s", out)
	}

	out = mustFail(t, c, "browser_evaluate", map[string]any{"function": "() => { function inner() { throw new TypeError('bad input') } return inner() }"}, "script_error")
	mustContain(t, "evaluate's exception", out, "TypeError: bad input", "Stack:", "at inner (")
	if res := call(t, c, "browser_console_messages", map[string]any{"level": "loud"}); !res.IsError || !strings.Contains(text(res), "level") {
		t.Errorf("an unknown level: want an isError result naming level, got:\n%s", text(res))
	}
}

// TestNetworkRequests: requests are listed with status and duration; a
// 500, a 404 and an aborted request are failures, which failedOnly keeps.
// Chrome's console line for a failed load is a console error with its URL,
// in the answer of the action that caused it and in browser_console_messages.
func TestNetworkRequests(t *testing.T) {
	f := newFixture(t, waitRoutes)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/wait/net.html"})
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "all requests done", "timeout": 20})

	out := mustCall(t, c, "browser_network_requests", nil)
	mustContain(t, "requests", out,
		"] GET "+f.URL+"/wait/net.html → 200 OK (Document, ",
		"] GET "+f.URL+"/api/ok → 200 OK (Fetch, ",
		"] GET "+f.URL+"/api/fail → 500 Internal Server Error (Fetch, ",
		"] GET "+f.URL+"/api/missing → 404 Not Found (Fetch, ",
		"] GET "+f.URL+"/api/hang → 200, then failed: net::ERR_ABORTED (Fetch, ")

	out = mustCall(t, c, "browser_network_requests", map[string]any{"failedOnly": true})
	mustContain(t, "failed requests", out, "3 failed requests", "/api/fail → 500", "/api/missing → 404", "/api/hang → 200, then failed")
	for _, ok := range []string{"/api/ok", "net.html", "/api/slow"} {
		if strings.Contains(out, ok) {
			t.Errorf("failedOnly lists %s, which succeeded:\n%s", ok, out)
		}
	}
	out = mustCall(t, c, "browser_network_requests", map[string]any{"filter": `/api/(fail|ok)$`})
	mustContain(t, "filtered requests", out, "2 requests matching", "/api/fail", "/api/ok")
	if strings.Contains(out, "missing") {
		t.Errorf("filter lets through a URL it does not match:\n%s", out)
	}
	mustFail(t, c, "browser_network_requests", map[string]any{"filter": "("}, "invalid_input")

	out = mustCall(t, c, "browser_console_messages", map[string]any{"all": true, "level": "error"})
	mustContain(t, "failed loads in the console", out,
		"Failed to load resource: the server responded with a status of 500 (Internal Server Error): "+f.URL+"/api/fail",
		"Failed to load resource: the server responded with a status of 404 (Not Found): "+f.URL+"/api/missing")
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=Save]"})
	mustContain(t, "a click whose request fails", out, "save answered 500", "- New console errors: 1",
		"error: Failed to load resource: the server responded with a status of 500 (Internal Server Error): "+f.URL+"/api/fail")
}

// TestNetworkRequestDetail: a request listed by browser_network_requests
// shows its headers, what the page posted and the body the server sent;
// the body saves to a file; a body the page never read is said to be so.
func TestNetworkRequestDetail(t *testing.T) {
	f := newFixture(t, itemsAPI)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+dir))
	seqOf := func(what, method, path string) int {
		t.Helper()
		out := mustCall(t, c, "browser_network_requests", map[string]any{"filter": path})
		m := regexp.MustCompile(`- \[(\d+)\] ` + method + ` \S+` + path + ` → 200`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%s: no numbered request in:\n%s", what, out)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}

	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/network/app.html"})
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Items: apple, pear"})
	body := filepath.Join(dir, "items.json")
	const items = `{"items":["apple","pear"],"client":"inventory"}`
	out := mustCall(t, c, "browser_network_request", map[string]any{"id": seqOf("items", "GET", "/api/items"), "filename": body})
	mustContain(t, "the API call", out, "GET "+f.URL+"/api/items → 200 OK", "Request headers:", "X-Client: inventory",
		"Response headers:", "Content-Type: application/json", fmt.Sprintf("Body (%d bytes):\n%s", len(items), items), "Saved the body to "+body)
	if b, err := os.ReadFile(body); err != nil || string(b) != items {
		t.Errorf("the saved body: %q, %v", b, err)
	}

	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	mustCall(t, c, "browser_type", map[string]any{"target": refOf(t, snap, "textbox", "Name"), "text": "Ada"})
	mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "button", "Sign up")})
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Welcome, Ada!"})
	out = mustCall(t, c, "browser_network_request", map[string]any{"id": seqOf("sign-up", "POST", "/api/signup")})
	mustContain(t, "the sign-up", out, "Post data (3 bytes):\nAda")
	// The page never reads this response's body: Chrome may hold it
	// for us, or say it has not read it (which one depends on its version
	// and on timing); the answer says which.
	if !strings.Contains(out, "Body (11 bytes):\n{\"ok\":true}") && !strings.Contains(out, "No body: the body has not been read yet") {
		t.Errorf("the sign-up's body is neither shown nor said to be unread:\n%s", out)
	}

	out = mustFail(t, c, "browser_network_request", map[string]any{"id": 9999}, "invalid_input")
	mustContain(t, "an unknown request", out, "no request 9999")
}
