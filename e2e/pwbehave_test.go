package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// page serves an HTML page at path.
func page(path, html string) func(mux *http.ServeMux, f *fixture) {
	return func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, html)
		})
	}
}

// TestActionWaitsForLaterNavigation: a click whose handler navigates or
// opens a dialog from a timer 100 ms later answers with the new page or the
// dialog (as Playwright MCP does), not with the page before it.
func TestActionWaitsForLaterNavigation(t *testing.T) {
	f := newFixture(t,
		page("/later", `<title>Before</title>
<button onclick="setTimeout(() => { location.href = '/later-done' }, 100)">Go later</button>
<button onclick="setTimeout(() => alert('later hello'), 100)">Alert later</button>
<button onclick="setTimeout(() => { document.title = 'Renamed' }, 100)">Rename later</button>`),
		page("/later-done", `<title>Arrived</title><h1>Arrived here</h1>`))
	env, _ := serverEnv(t)
	c := startClient(t, env)
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/later"})
	out := mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "button", "Go later")})
	mustContain(t, "the navigation a handler started 100 ms later", out, "/later-done", "Arrived here")

	snap = mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/later"})
	out = mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "button", "Alert later")})
	mustContain(t, "the dialog a handler opened 100 ms later", out, "later hello")
	mustCall(t, c, "browser_handle_dialog", map[string]any{"accept": true})

	// A timer that neither navigates nor opens a dialog is waited for too:
	// the answer shows what it did.
	snap = mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/later"})
	out = mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "button", "Rename later")})
	if !strings.Contains(out, "Renamed") {
		t.Errorf("the title a handler set 100 ms later is not in the answer:\n%s", out)
	}
}

// TestActionWaitsForAFrame: a click whose handler does its work in the
// next frame (requestAnimationFrame: an editor putting its selection back,
// a menu moving focus into itself) answers with what that frame did: the
// title it set and the field it focused. Before, the answer showed the
// page before the frame.
func TestActionWaitsForAFrame(t *testing.T) {
	f := newFixture(t, page("/frame", `<title>Before</title><label>Name <input></label>
<button onclick="requestAnimationFrame(() => { document.title = 'Framed'; document.querySelector('input').focus() })">Next frame</button>`))
	env, _ := serverEnv(t)
	c := startClient(t, env)
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/frame"})
	out := mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "button", "Next frame")})
	mustContain(t, "the click's answer", out, "Framed", `textbox "Name" [active]`)
}

// neverEnds answers path with nothing until the client goes away: a
// resource that keeps a page's load event from ever firing.
func neverEnds(path string) func(mux *http.ServeMux, f *fixture) {
	return func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "image/png")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		})
	}
}

// TestNavigateWaitsForTheDOM: a page whose image never finishes loading
// (so its load event never fires) is navigated to, and back to, as soon as
// its DOM is there and a short settle has passed, as Playwright MCP does;
// before, both failed when the navigation timeout ran out.
func TestNavigateWaitsForTheDOM(t *testing.T) {
	f := newFixture(t, neverEnds("/never.png"),
		page("/slow", `<title>Slow</title><h1>Slow page</h1><img src="/never.png" alt="never">`),
		page("/next", `<title>Next</title><h1>Next page</h1>`))
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_NAVIGATION_TIMEOUT=12s"))
	out := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/slow"})
	mustContain(t, "a page whose load never ends", out, "Slow page", "/slow")
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/next"})
	out = mustCall(t, c, "browser_navigate_back", map[string]any{})
	mustContain(t, "back to a page whose load never ends", out, "Slow page", "/slow")
}

// webdriverProbe reads navigator.webdriver in the page, in its iframe and,
// with worker, in a dedicated worker.
func webdriverProbe(worker bool) string {
	w := "'no worker'"
	if worker {
		w = `await new Promise((done) => {
      const src = URL.createObjectURL(new Blob(['postMessage(String(navigator.webdriver))'], { type: 'text/javascript' }));
      const wk = new Worker(src);
      wk.onmessage = (e) => done(e.data);
    })`
	}
	return `async () => {
    const inFrame = document.querySelector('iframe').contentWindow.navigator.webdriver;
    return 'page=' + navigator.webdriver + ' frame=' + inFrame + ' worker=' + ` + w + `;
  }`
}

// TestWebdriverFalse: navigator.webdriver is false, as in a person's
// browser (and Playwright MCP's), in the page and its iframes (a worker's
// navigator has none) in the browser we launch, and in the page and its iframes in a running
// Chrome we connect to (--cdp-endpoint), which was started headless.
func TestWebdriverFalse(t *testing.T) {
	f := newFixture(t, page("/wd", `<title>WD</title><iframe srcdoc="<p>inner</p>"></iframe>`))
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/wd"})
	out := mustCall(t, c, "browser_evaluate", map[string]any{"function": webdriverProbe(true)})
	mustContain(t, "navigator.webdriver in our browser", out, "page=false frame=false worker=")
	if strings.Contains(out, "worker=true") { // a worker's navigator has no webdriver: undefined
		t.Errorf("navigator.webdriver is true in a worker:\n%s", out)
	}

	farm := startFarmBrowser(t)
	rc := startClient(t, append(env, "E2E_MCP_CDP_ENDPOINT="+farm.ws))
	mustCall(t, rc, "browser_navigate", map[string]any{"url": f.URL + "/wd"})
	out = mustCall(t, rc, "browser_evaluate", map[string]any{"function": webdriverProbe(false)})
	mustContain(t, "navigator.webdriver in a running Chrome", out, "page=false frame=false")
}

// TestNavigateToADownload: navigating to a URL that the browser downloads
// (Content-Disposition: attachment) answers with the download, as a click
// on its link does, not with net::ERR_ABORTED.
func TestNavigateToADownload(t *testing.T) {
	f := newFixture(t, filesAPI)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+dir))
	out := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/files/export.json"})
	saved := filepath.Join(dir, "e2e-mcp-downloads", "export.json")
	mustContain(t, "navigate's answer", out, "the browser downloaded it", "### Downloads", "- export.json: 12 bytes, saved to "+saved)
	if b, err := os.ReadFile(saved); err != nil || string(b) != `{"orders":2}` {
		t.Errorf("the saved file: %q, %v", b, err)
	}
}

// TestServerThatNeverAnswers: a navigation to a server that accepts the
// request and never answers times out saying so (the navigation waits for
// the server's response), not that the page's main thread is busy; so does
// a click on a link to it.
func TestServerThatNeverAnswers(t *testing.T) {
	f := newFixture(t, silent("/hang-forever"), silent("/silent"), page("/to-silent", `<title>Links</title><a href="/silent">Silent</a>`))
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_NAVIGATION_TIMEOUT=4s"))
	out := mustFail(t, c, "browser_navigate", map[string]any{"url": f.URL + "/hang-forever"}, "timeout")
	mustContain(t, "navigate to a silent server", out, "waiting for the server's response", f.URL+"/hang-forever")
	if strings.Contains(out, "main thread") {
		t.Errorf("a silent server is diagnosed as a busy page:\n%s", out)
	}
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/to-silent"})
	out = mustFail(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "link", "Silent")}, "timeout")
	mustContain(t, "a click to a silent server", out, "waiting for the server's response", f.URL+"/silent")
	if strings.Contains(out, "main thread") {
		t.Errorf("a silent server is diagnosed as a busy page:\n%s", out)
	}
}

// silent accepts requests for path and never answers them, not even with
// headers, until the client goes away.
func silent(path string) func(mux *http.ServeMux, f *fixture) {
	return func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET "+path, func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	}
}

// farmTargets lists the remote browser's page targets: id and URL.
func farmTargets(t *testing.T, port string) map[string]string {
	t.Helper()
	resp, err := http.Get("http://127.0.0.1:" + port + "/json/list")
	if err != nil {
		t.Fatalf("list the remote browser's targets: %v", err)
	}
	defer resp.Body.Close()
	var targets []struct{ ID, Type, URL string }
	if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, tg := range targets {
		if tg.Type == "page" {
			out[tg.ID] = tg.URL
		}
	}
	return out
}

// TestCDPEndpointUsesTheOpenTab: with --cdp-endpoint the first session
// works in the running browser's default context, on the tab a person had
// open there (its page, its cookies), as Playwright MCP does, and leaves it
// open at its end; a second session gets a context of its own; with
// --isolated the first does too.
func TestCDPEndpointUsesTheOpenTab(t *testing.T) {
	f := newFixture(t, page("/signed", `<title>Signed in</title><h1>Welcome back</h1><script>document.cookie = 'who=ada; path=/'</script>`),
		page("/plain", `<title>Plain</title>`))
	farm := startFarmBrowser(t)
	// The person's tab: the browser's only one, on the signed-in page.
	before := farmTargets(t, farm.port)
	req, _ := http.NewRequest(http.MethodPut, "http://127.0.0.1:"+farm.port+"/json/new?"+f.URL+"/signed", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for id := range before {
		r, err := http.Get("http://127.0.0.1:" + farm.port + "/json/close/" + id)
		if err == nil {
			r.Body.Close()
		}
	}
	waitFor(t, 20*time.Second, "the person's tab alone", func() bool {
		tg := farmTargets(t, farm.port)
		return len(tg) == 1 && countWith(mapValues(tg), "/signed") == 1
	})

	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CDP_ENDPOINT="+farm.ws))
	out := mustCall(t, c, "browser_snapshot", nil)
	mustContain(t, "the first session's page", out, f.URL+"/signed", "Welcome back")
	out = mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => document.cookie"})
	mustContain(t, "the person's cookie", out, "who=ada")
	out = mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => location.href", "sessionId": "s2"})
	mustContain(t, "a second session's tab", out, "about:blank")
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/plain", "sessionId": "s2"})
	out = mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => 'cookie=' + document.cookie", "sessionId": "s2"})
	if strings.Contains(out, "who=ada") {
		t.Errorf("a second session shares the person's context:\n%s", out)
	}
	_ = c.Close()
	waitFor(t, 20*time.Second, "the second session's tab to close", func() bool { return len(farmTargets(t, farm.port)) == 1 })
	if n := countWith(mapValues(farmTargets(t, farm.port)), "/signed"); n != 1 {
		t.Errorf("the person's tab did not stay open: %v", farmTargets(t, farm.port))
	}

	ic := startClient(t, append(env, "E2E_MCP_CDP_ENDPOINT="+farm.ws, "E2E_MCP_ISOLATED=true"))
	out = mustCall(t, ic, "browser_evaluate", map[string]any{"function": "() => location.href"})
	mustContain(t, "an isolated first session", out, "about:blank")
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
