package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// waitRoutes are the fixture's API for the waiting and network pages: a 200,
// a 500, a slow answer, and one that sends its headers and then hangs until
// the page gives up on it (a 404 is any unknown path).
func waitRoutes(mux *http.ServeMux, _ *fixture) {
	mux.HandleFunc("GET /api/ok", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true}`))
	})
	mux.HandleFunc("GET /api/fail", func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "database is down", http.StatusInternalServerError)
	})
	mux.HandleFunc("GET /api/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(300 * time.Millisecond):
		case <-r.Context().Done():
		}
		_, _ = w.Write([]byte("slow"))
	})
	mux.HandleFunc("GET /api/hang", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	})
}

// gates hold the requests to /api/gate/{name} until the test opens the gate,
// so that a page changes exactly when the test says.
type gates struct {
	mu sync.Mutex
	ch map[string]chan struct{}
}

func (g *gates) gate(name string) chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ch == nil {
		g.ch = map[string]chan struct{}{}
	}
	if g.ch[name] == nil {
		g.ch[name] = make(chan struct{})
	}
	return g.ch[name]
}

func (g *gates) open(name string) { close(g.gate(name)) }

func (g *gates) routes(mux *http.ServeMux, _ *fixture) {
	mux.HandleFunc("GET /api/gate/{name}", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-g.gate(r.PathValue("name")):
			_, _ = w.Write([]byte("open"))
		case <-r.Context().Done():
		}
	})
}

// callDuring starts a tool call, waits until the server's log shows that it
// sent the browser an expression with marker (the wait is under way in the
// page), runs then, and returns the call's result.
func callDuring(t *testing.T, c *client.Client, log *lockedBuffer, marker, tool string, args map[string]any, then func()) *mcp.CallToolResult {
	t.Helper()
	before := strings.Count(log.String(), marker)
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan answer, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tool, args
		res, err := c.CallTool(ctx, req)
		done <- answer{res, err}
	}()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(30 * time.Second)
	for strings.Count(log.String(), marker) == before {
		select {
		case a := <-done:
			t.Fatalf("%s(%v) ended before it reached the page (%v): %+v", tool, args, a.err, a.res)
		case <-deadline:
			t.Fatalf("%s(%v): the server did not send %s to the browser within 30s", tool, args, marker)
		case <-tick.C:
		}
	}
	then()
	a := <-done
	if a.err != nil {
		t.Fatalf("%s(%v): protocol error: %v", tool, args, a.err)
	}
	return a.res
}

// TestWaitFor: each condition of browser_wait_for is waited for as the page
// reaches it, and a wait that cannot succeed times out with a typed error
// that says what the page showed.
func TestWaitFor(t *testing.T) {
	g := &gates{}
	f := newFixture(t, waitRoutes, g.routes)
	env, _ := serverEnv(t)
	c, log := startClientLog(t, env)
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/wait/index.html"})
	save := refOf(t, snap, "button", "Save")

	// Nothing makes the text appear yet, and Start waits for its data.
	out := mustFail(t, c, "browser_wait_for", map[string]any{"text": "Data is ready", "timeout": 0.3}, "timeout")
	mustContain(t, "timed-out wait", out, `the text "Data is ready" did not appear within 300ms`, "no visible element contains it")
	mustCall(t, c, "browser_click", map[string]any{"target": "#start"})
	out = mustFail(t, c, "browser_wait_for", map[string]any{"target": "#spinner", "state": "detached", "timeout": 0.3}, "timeout")
	mustContain(t, "timed-out state wait", out, "#spinner did not become detached", "it is visible")

	// The data arrives while the wait is under way in the page.
	res := callDuring(t, c, log, "__e2e.waitText(", "browser_wait_for", map[string]any{"text": "data is READY", "timeout": 20},
		func() { g.open("data") })
	if res.IsError {
		t.Fatalf("wait for text that appears: %s", text(res))
	}
	mustContain(t, "text wait", text(res), `the text "data is READY" is shown in paragraph`, "### Snapshot")
	out = mustCall(t, c, "browser_wait_for", map[string]any{"textGone": "Loading data", "target": "#spinner", "state": "detached"})
	mustContain(t, "gone wait", out, `the text "Loading data" is gone`, "#spinner is detached")
	out = mustCall(t, c, "browser_wait_for", map[string]any{"target": save})
	mustContain(t, "target wait", out, save+` is visible (button "Save")`)

	// The URL changes in place (pushState) once the page hears back.
	mustCall(t, c, "browser_click", map[string]any{"target": "#go"})
	res = callDuring(t, c, log, "__e2e.waitURL(", "browser_wait_for", map[string]any{"url": "**/wait/done?step=2", "timeout": 20},
		func() { g.open("url") })
	mustContain(t, "url glob wait", text(res), "/wait/done?step=2 matches **/wait/done?step=2")
	mustCall(t, c, "browser_wait_for", map[string]any{"url": "/wait/done?step=*"})
	mustCall(t, c, "browser_wait_for", map[string]any{"url": `/done\?step=\d$/`})
	out = mustFail(t, c, "browser_wait_for", map[string]any{"url": "/elsewhere", "timeout": 0.2}, "timeout")
	mustContain(t, "url timeout", out, `the URL did not match "/elsewhere"`, "it is "+f.URL+"/wait/done?step=2")

	out = mustCall(t, c, "browser_wait_for", map[string]any{"time": 0.1})
	mustContain(t, "plain wait", out, "waited 100ms")

	// The network page's requests all end (one slow, one aborted) before
	// the page counts as network-idle.
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/wait/net.html"})
	out = mustCall(t, c, "browser_wait_for", map[string]any{"loadState": "networkidle", "timeout": 20})
	mustContain(t, "networkidle wait", out, "the page reached networkidle")
	out = mustCall(t, c, "browser_network_requests", map[string]any{"filter": "/api/"})
	if strings.Contains(out, "in flight") || !strings.Contains(out, "/api/slow → 200") {
		t.Errorf("after networkidle, every request has ended:\n%s", out)
	}

	mustFail(t, c, "browser_wait_for", map[string]any{"state": "hidden"}, "invalid_input")
	mustFail(t, c, "browser_wait_for", nil, "invalid_input")
	mustFail(t, c, "browser_wait_for", map[string]any{"text": "x", "timeout": 600}, "invalid_input")
}

// TestExpect: browser_expect passes once the page gets there, and fails as
// expect_failed with what the element showed instead.
func TestExpect(t *testing.T) {
	g := &gates{}
	f := newFixture(t, g.routes)
	env, _ := serverEnv(t)
	c, log := startClientLog(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/wait/index.html"})

	out := mustFail(t, c, "browser_expect", map[string]any{"target": "#save", "check": "enabled", "timeout": 0.3}, "expect_failed")
	mustContain(t, "failed expectation", out, `FAIL: expected #save (button "Save") to be enabled; it is disabled`)
	out = mustCall(t, c, "browser_expect", map[string]any{"target": "#save", "check": "disabled"})
	mustContain(t, "passed expectation", out, `PASS: #save (button "Save") is disabled.`)

	// Start enables the button when its data arrives: expect retries until
	// then.
	mustCall(t, c, "browser_click", map[string]any{"target": "#start"})
	res := callDuring(t, c, log, "__e2e.expect(", "browser_expect", map[string]any{"target": "#save", "check": "enabled", "timeout": 20},
		func() { g.open("data") })
	if res.IsError {
		t.Fatalf("expect that comes true: %s", text(res))
	}
	mustCall(t, c, "browser_expect", map[string]any{"target": "#agree", "check": "checked"})
	mustCall(t, c, "browser_expect", map[string]any{"target": "#spinner", "check": "hidden"})
	out = mustCall(t, c, "browser_expect", map[string]any{"target": "li", "check": "count", "expected": "3"})
	mustContain(t, "count", out, "PASS: li matches 3 elements.")
	out = mustCall(t, c, "browser_expect", map[string]any{"target": "#out", "check": "text", "expected": "is ready"})
	mustContain(t, "text", out, `PASS: the text of #out (paragraph) is "Data is ready".`)
	mustCall(t, c, "browser_expect", map[string]any{"target": "#out", "check": "text", "expected": "/^data is/i"})
	mustCall(t, c, "browser_expect", map[string]any{"target": "label=Name", "check": "value", "expected": "Ada"})

	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"check": "text", "expected": "Data is late"}, `expected the text of #out (paragraph) to contain "Data is late"; it is "Data is ready"`},
		{map[string]any{"target": "label=Name", "check": "value", "expected": "Bob"}, `to be "Bob"; it is "Ada"`},
		{map[string]any{"target": "li", "check": "count", "expected": "5"}, "expected li to match 5 elements; it matches 3"},
		{map[string]any{"check": "checked"}, "it is not a checkbox, radio or switch"},
		{map[string]any{"target": "#nothing", "check": "visible"}, "expected #nothing to be visible; it is not found"},
	}
	for _, tc := range cases {
		args := map[string]any{"target": "#out", "timeout": 0.3}
		for k, v := range tc.args {
			args[k] = v
		}
		out := mustFail(t, c, "browser_expect", args, "expect_failed")
		mustContain(t, "failed expectation", out, "expect_failed: FAIL: expected ", tc.want)
	}
	mustFail(t, c, "browser_expect", map[string]any{"target": "li", "check": "visible"}, "not_unique")
	mustFail(t, c, "browser_expect", map[string]any{"target": "#out", "check": "count", "expected": "many"}, "invalid_input")
}

// TestWaitForTextInFrames: browser_wait_for text looks in the page's
// iframes too, a cross-site one included, as the snapshot shows them: it
// waits for text that shows in an iframe later and names the frame; text
// gone from every frame counts as gone; text in no frame still times out.
func TestWaitForTextInFrames(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /wait/hold", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			w.Header().Set("Access-Control-Allow-Origin", "*")
			fmt.Fprint(w, "ok")
		})
	})
	env, _ := serverEnv(t)
	c, log := startClientLog(t, env)
	other := strings.Replace(f.URL, "127.0.0.1", "localhost", 1)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/wait/frames.html?other=" + other})
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Loading payment form"})

	out := mustFail(t, c, "browser_wait_for", map[string]any{"text": "Card accepted", "timeout": 1}, "timeout")
	mustContain(t, "text not shown yet", out, `the text "Card accepted" did not appear`)
	res := callDuring(t, c, log, "__e2e.waitText(", "browser_wait_for", map[string]any{"text": "Card accepted", "timeout": 20},
		func() { once.Do(func() { close(release) }) })
	if res.IsError {
		t.Fatalf("the wait for the payment frame's text failed:\n%s", text(res))
	}
	mustContain(t, "text shown in a cross-site iframe", text(res), `the text "Card accepted" is shown in `, " in frame f")
	out = mustCall(t, c, "browser_wait_for", map[string]any{"text": "Invoice ready"})
	mustContain(t, "text shown in a same-site iframe", out, `the text "Invoice ready" is shown in `, " in frame f")
	out = mustCall(t, c, "browser_wait_for", map[string]any{"textGone": "Loading payment form"})
	mustContain(t, "text gone from every frame", out, `the text "Loading payment form" is gone`)
	out = mustFail(t, c, "browser_wait_for", map[string]any{"textGone": "Invoice ready", "timeout": 1}, "timeout")
	mustContain(t, "text still in an iframe", out, `the text "Invoice ready" did not go away`, " in frame f")
}
