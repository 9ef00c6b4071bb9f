//go:build tracecheck

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
)

// viewerDir is the built Trace Viewer of the pinned playwright package
// (scripts/tracecheck): the files `npx playwright show-trace` serves and
// trace.playwright.dev hosts.
const viewerDir = "../scripts/tracecheck/node_modules/playwright-core/lib/vite/traceViewer"

// TestTraceViewerCheck (make trace-check; CI): a session recorded through
// the real binary (a navigation, fills, a click that fails; the page logs a
// console error and makes a request that fails and one answered 500) is
// opened in Playwright's own Trace Viewer, served from the pinned package,
// in Chromium driven by the binary itself. The viewer must list every
// action with its name, its locator and its status, show the console error,
// the requests (the 500 with its headers), and a frame of the page for the
// failing click. It fails, never skips.
func TestTraceViewerCheck(t *testing.T) {
	if _, err := os.Stat(filepath.Join(viewerDir, "index.html")); err != nil {
		t.Fatalf("the pinned Trace Viewer is not installed: run make trace-check (%v)", err)
	}
	f := profileFixture(t)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=devtools", "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_ACTION_TIMEOUT=1s"))

	path := filepath.Join(dir, "profile.zip")
	recordProfile(t, c, f, path)
	zipBytes, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	// The viewer's files and the trace, from one origin, as show-trace
	// serves them (its service worker fetches the trace).
	mux := http.NewServeMux()
	mux.HandleFunc("GET /trace.zip", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		_, _ = w.Write(zipBytes)
	})
	mux.Handle("GET /", http.FileServer(http.Dir(viewerDir)))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	const viewer = "viewer"
	v := func(args map[string]any) map[string]any { args["sessionId"] = viewer; return args }
	mustCall(t, c, "browser_navigate", v(map[string]any{"url": srv.URL + "/index.html?trace=" + url.QueryEscape(srv.URL+"/trace.zip")}))
	if res := call(t, c, "browser_wait_for", v(map[string]any{"target": ".action-title >> nth=0", "timeout": 30})); res.IsError {
		t.Fatalf("the viewer lists no action: %s\n%s", text(res), viewerText(t, c))
	}

	// Every action, with its name, locator and status.
	var entries []struct {
		Text  string `json:"text"`
		Error bool   `json:"error"`
	}
	evaluate(t, c, viewer, `() => [...document.querySelectorAll('.tree-view-entry')].map(e => ({text: e.innerText, error: e.classList.contains('error')}))`, &entries)
	want := []struct {
		title, locator string
		failed         bool
	}{
		{"Navigate", "/trace/app.html", false},
		{`Fill "Ada"`, "getByLabel('Name')", false},
		{`Fill "•••"`, "getByLabel('Password')", false},
		{"Click", "getByRole('button', { name: 'Save', exact: true })", false},
		{`browser_wait_for text="Save failed (500)"`, "", false},
		{"Click", "getByRole('button', { name: 'Delete', exact: true })", true},
	}
	if len(entries) != len(want) {
		t.Fatalf("the viewer lists %d actions, want %d: %+v", len(entries), len(want), entries)
	}
	for i, w := range want {
		e := entries[i]
		if !strings.HasPrefix(e.Text, w.title) || !strings.Contains(e.Text, w.locator) || e.Error != w.failed {
			t.Errorf("action %d: %q (failed %v), want %q with %q (failed %v)", i+1, e.Text, e.Error, w.title, w.locator, w.failed)
		}
	}

	// The failing click's frame: its screenshot in the action's pane.
	mustCall(t, c, "browser_click", v(map[string]any{"target": ".tree-view-entry >> nth=5"}))
	var shot []struct {
		Src   string `json:"src"`
		Width int    `json:"width"`
	}
	evaluate(t, c, viewer, `async () => {
		const imgs = [...document.querySelectorAll('.aria-mode-screenshot img')];
		await Promise.all(imgs.map(i => i.decode().catch(() => {})));
		return imgs.map(i => ({src: i.src, width: i.naturalWidth}));
	}`, &shot)
	if len(shot) != 1 || shot[0].Width == 0 {
		t.Errorf("the failing click shows no frame: %+v", shot)
	}

	// The console error.
	mustCall(t, c, "browser_click", v(map[string]any{"target": `button[title="Console"]`}))
	var console []struct {
		Text  string `json:"text"`
		Error bool   `json:"error"`
	}
	evaluate(t, c, viewer, `() => [...document.querySelectorAll('.console-line')].map(e => ({text: e.innerText, error: e.parentElement.classList.contains('error')}))`, &console)
	found := false
	for _, l := range console {
		found = found || (l.Error && strings.Contains(l.Text, "profile: the settings failed to load"))
	}
	if !found {
		t.Errorf("the console shows no error from the page: %+v", console)
	}

	// The requests, the failed ones marked, and one's headers.
	mustCall(t, c, "browser_click", v(map[string]any{"target": `button[title="Network"]`}))
	var network []struct {
		Text  string `json:"text"`
		Error bool   `json:"error"`
	}
	evaluate(t, c, viewer, `() => [...document.querySelectorAll('.network-list-view .list-view-entry')].map(e => ({text: e.innerText, error: e.classList.contains('error')}))`, &network)
	saved, unreachable := false, false
	for _, r := range network {
		saved = saved || (r.Error && strings.Contains(r.Text, "profile") && strings.Contains(r.Text, "POST") && strings.Contains(r.Text, "500"))
		unreachable = unreachable || (r.Error && strings.Contains(r.Text, "unreachable"))
	}
	if !saved || !unreachable {
		t.Fatalf("the network tab: the failed save %v, the unreachable request %v: %+v", saved, unreachable, network)
	}
	mustCall(t, c, "browser_click", v(map[string]any{"target": `.network-list-view .list-view-entry >> text=/profile/`}))
	if res := call(t, c, "browser_wait_for", v(map[string]any{"text": "Response Headers"})); res.IsError {
		t.Errorf("the request's details show no headers: %s\n%s", text(res), viewerText(t, c))
	}
	details := viewerText(t, c)
	mustContain(t, "the request's details", details, "application/json", "Request Headers")
	if strings.Contains(details, tracePassword) {
		t.Errorf("the viewer shows the password:\n%s", details)
	}
}

// evaluate runs fn in the viewer's session and decodes its result into out.
func evaluate(t *testing.T, c *client.Client, session, fn string, out any) {
	t.Helper()
	res := call(t, c, "browser_evaluate", map[string]any{"sessionId": session, "function": fn})
	if res.IsError {
		t.Fatalf("reading the viewer: %s", text(res))
	}
	sc, _ := res.StructuredContent.(map[string]any)
	b, _ := json.Marshal(sc["result"])
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("the viewer's reading: %v\n%s", err, b)
	}
}

// viewerText is what the viewer shows, for failure messages.
func viewerText(t *testing.T, c *client.Client) string {
	t.Helper()
	var s string
	evaluate(t, c, "viewer", `() => document.body.innerText`, &s)
	return fmt.Sprintf("the viewer shows:\n%s", s)
}
