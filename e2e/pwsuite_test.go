package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
)

// What running Playwright MCP's own test suite against the binary (make
// pwmcp-check) showed we did differently from it, each checked here on its
// own, the way their users' scripts do it.

// startListening runs the binary as their scripts do (no subcommand,
// their flags) and returns the URL its "Listening on" line gives.
func startListening(t *testing.T, env []string, args ...string) string {
	t.Helper()
	return startServing(t, env, listeningRE, func(u string) string { return u }, args...).base
}

// TestPlaywrightPortZero: --port 0 (their test fixtures' way to get a free
// port), PLAYWRIGHT_MCP_PORT=0 and a config file's server.port 0 serve
// HTTP on a port the system picks, which the Listening on line names; the
// server there answers. (It used to read 0 as no port and serve stdio.)
func TestPlaywrightPortZero(t *testing.T) {
	f := newFixture(t)
	env, dir := serverEnv(t)
	config := filepath.Join(dir, "config.json")
	if err := os.WriteFile(config, []byte(`{"server": {"port": 0}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  []string
		args []string
	}{
		{"flag", env, []string{"--port=0", "--headless"}},
		{"variable", append(env, "PLAYWRIGHT_MCP_PORT=0"), []string{"--headless"}},
		{"config file", env, []string{"--config", config}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := startListening(t, tc.env, tc.args...)
			c, err := client.NewStreamableHttpClient(base + "/mcp")
			if err != nil {
				t.Fatal(err)
			}
			if err := initialize(c); err != nil {
				t.Fatalf("a client at %s/mcp: %v", base, err)
			}
			t.Cleanup(func() { _ = c.Close() })
			mustContain(t, "navigate", mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"}), "- Page URL: "+f.URL+"/signup.html")
		})
	}
}

// TestPlaywrightVisionWithCaps: their old --vision adds the vision group
// to the groups --caps gives, before it or after it: both groups' tools
// are offered. (--caps used to replace what --vision set, and the reverse.)
func TestPlaywrightVisionWithCaps(t *testing.T) {
	env, _ := serverEnv(t)
	for _, args := range [][]string{{"--vision", "--caps=pdf"}, {"--caps=pdf", "--vision"}} {
		names := toolNames(t, startClientArgs(t, env, args...))
		for _, want := range []string{"browser_mouse_move_xy", "browser_pdf_save"} {
			if !slices.Contains(names, want) {
				t.Errorf("%v: no %s in tools/list %v", args, want, names)
			}
		}
	}
}

// TestPlaywrightDeviceScreens: a device Playwright's list names has the
// screen it gives it there, so that pages lay out as under Playwright MCP:
// --mobile (their Pixel 10) is 360 CSS pixels wide at a ratio of 3, and
// --device "iPhone SE" 320 at 2. (Ours were 412 at 2.625 and 375.)
func TestPlaywrightDeviceScreens(t *testing.T) {
	f := newFixture(t, pwPage("/phone.html", `<meta name="viewport" content="width=device-width"><p>A phone's page</p>`))
	env, _ := serverEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--mobile"}, "360x732 3 true"},
		{[]string{"--device", "iPhone SE"}, "320x568 2 true"},
	} {
		c := startClientArgs(t, env, tc.args...)
		mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/phone.html"})
		out := mustCall(t, c, "browser_evaluate", map[string]any{"function": `() => innerWidth + 'x' + innerHeight + ' ' + devicePixelRatio + ' ' + matchMedia('(pointer: coarse)').matches`})
		mustContain(t, strings.Join(tc.args, " "), out, tc.want)
	}
}

// TestPlaywrightContextProxy: a config file's browser.contextOptions.proxy
// (where Playwright puts a context's proxy) sends the pages through that
// proxy, and --proxy-server on the command line wins over it. (The key
// used to stop the server as unknown.)
func TestPlaywrightContextProxy(t *testing.T) {
	fromConfig, fromFlag := &upstreamProxy{}, &upstreamProxy{}
	configSrv, flagSrv := httptest.NewServer(fromConfig), httptest.NewServer(fromFlag)
	defer configSrv.Close()
	defer flagSrv.Close()
	env, dir := serverEnv(t)
	config := filepath.Join(dir, "config.json")
	if err := os.WriteFile(config, []byte(`{"browser": {"contextOptions": {"proxy": {"server": "`+configSrv.URL+`"}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}

	c := startClientArgs(t, env, "--config", config)
	mustContain(t, "through the config's proxy", mustCall(t, c, "browser_navigate", map[string]any{"url": "http://app.test/page"}), "Served by the upstream proxy")
	if got := fromConfig.got(); len(got) == 0 || !strings.HasPrefix(got[0], "GET http://app.test/page") {
		t.Errorf("the config's proxy was asked %q", got)
	}

	c = startClientArgs(t, env, "--config", config, "--proxy-server", flagSrv.URL)
	mustContain(t, "through the flag's proxy", mustCall(t, c, "browser_navigate", map[string]any{"url": "http://app.test/other"}), "Served by the upstream proxy")
	if got := fromFlag.got(); len(got) == 0 || !strings.HasPrefix(got[0], "GET http://app.test/other") {
		t.Errorf("--proxy-server's proxy was asked %q", got)
	}
	for _, a := range fromConfig.got() {
		if strings.Contains(a, "/other") {
			t.Errorf("the config's proxy was asked %q over --proxy-server", a)
		}
	}
}

// TestPlaywrightINIConfig: their config file in its INI form, written into
// config.json as their tests write it, sets what the JSON form sets: pages
// measure its viewport, and an action waits for its element as long as its
// timeouts.action says; a line the INI reader cannot read stops the server
// with the line's number. (--config used to read JSON only.)
func TestPlaywrightINIConfig(t *testing.T) {
	f := newFixture(t, pwPage("/plain.html", `<p>Nothing to click</p>`))
	env, dir := serverEnv(t)
	config := filepath.Join(dir, "config.json")
	ini := `
      ; Playwright MCP's config, as INI
      browser.contextOptions.viewport = 640x480
      [timeouts]
      action = 1500
`
	if err := os.WriteFile(config, []byte(ini), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startClientArgs(t, env, "--config", config)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/plain.html"})
	size := mustCall(t, c, "browser_evaluate", map[string]any{"function": `() => innerWidth + "x" + innerHeight`})
	mustContain(t, "the INI file's viewport", size, `"640x480"`)
	out := mustFail(t, c, "browser_click", map[string]any{"target": "#missing"}, "element_not_found")
	mustContain(t, "the INI file's action timeout", out, "(waited 1.5s)")

	if err := os.WriteFile(config, []byte(ini+"      action = 2000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config", config)
	cmd.Env = env
	msg, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() == 0 ||
		!strings.Contains(string(msg), "--config "+config+": read as INI (it is not JSON): line 6: timeouts.action is given again (first on line 5)") {
		t.Errorf("a key given twice: %v\n%s", err, msg)
	}
}

// TestPlaywrightAllowedHosts: their --allowed-hosts (its variable, their
// config file's server.allowedHosts) is the only Host the HTTP server
// accepts: a request naming the listen address is refused with 403 and the
// list, as theirs, and one naming a listed host reaches MCP. Without it,
// and with our --http-allowed-hosts (which adds to them), the listen
// address is accepted as before. (The listen address used to be accepted
// whatever the list said.)
func TestPlaywrightAllowedHosts(t *testing.T) {
	env, dir := serverEnv(t)
	config := filepath.Join(dir, "config.ini")
	if err := os.WriteFile(config, []byte("server.port = 0\nserver.allowedHosts[] = mcp.example.com\nserver.allowedHosts[] = example.com:8931\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	// post sends an initialize naming host and returns its status and body.
	post := func(base, host string) (int, string) {
		t.Helper()
		req, err := http.NewRequest("POST", base+"/mcp", strings.NewReader(initialize))
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return resp.StatusCode, string(b)
	}
	for _, tc := range []struct {
		name    string
		env     []string
		args    []string
		listed  string // a Host the list accepts
		refuses string // the list, as the refusal gives it ("": the listen address is accepted)
	}{
		{"flag", env, []string{"--port=0", "--allowed-hosts=mcp.example.com"}, "mcp.example.com", "mcp.example.com"},
		{"variable", append(env, "PLAYWRIGHT_MCP_ALLOWED_HOSTS=mcp.example.com,example.com:8931"), []string{"--port=0"},
			"example.com:8931", "mcp.example.com, example.com:8931"},
		{"config file", env, []string{"--config", config}, "mcp.example.com:443", "mcp.example.com, example.com:8931"},
		{"none", env, []string{"--port=0"}, "localhost", ""},
		{"ours adds", env, []string{"--port=0", "--http-allowed-hosts=mcp.example.com"}, "mcp.example.com", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := startListening(t, tc.env, tc.args...)
			self := strings.TrimPrefix(base, "http://")
			code, body := post(base, self)
			switch {
			case tc.refuses != "" && (code != http.StatusForbidden || !strings.Contains(body, "Access is only allowed at "+tc.refuses)):
				t.Errorf("Host %s (the listen address, not listed): %d %s, want 403 naming the list", self, code, body)
			case tc.refuses == "" && (code != http.StatusOK || !strings.Contains(body, `"serverInfo"`)):
				t.Errorf("Host %s (the listen address): %d %s, want the initialize answered", self, code, body)
			}
			if code, body := post(base, tc.listed); code != http.StatusOK || !strings.Contains(body, `"serverInfo"`) {
				t.Errorf("Host %s (listed): %d %s, want the initialize answered", tc.listed, code, body)
			}
			if code, body := post(base, "evil.example:"+strings.Split(self, ":")[1]); code != http.StatusForbidden {
				t.Errorf("Host evil.example: %d %s, want 403", code, body)
			}
		})
	}
}

// resultJSON reads an answer's ### Result section as JSON, as their tests
// read browser_get_config's (the text from the heading to the next one).
func resultJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	_, rest, ok := strings.Cut(out, "### Result\n")
	if !ok {
		t.Fatalf("no ### Result section:\n%s", out)
	}
	if i := strings.Index(rest, "\n### "); i >= 0 {
		rest = rest[:i]
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(rest)), &v); err != nil {
		t.Fatalf("the result is not a JSON object: %v\n%s", err, out)
	}
	return v
}

// configAt is the value at a dotted key of a config object, as JSON.
func configAt(cfg map[string]any, key string) string {
	var v any = cfg
	for _, p := range strings.Split(key, ".") {
		m, _ := v.(map[string]any)
		v = m[p]
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestPlaywrightGetConfig: browser_get_config's result is Playwright MCP's
// config object, which their tests JSON.parse and read by their keys: the
// INI config file's values, their variable's over the file's and a flag,
// in their types (milliseconds as numbers, booleans, the viewport as an
// object), with the settings their config has no key for under "e2e-mcp"
// by flag name and the token masked; within the answer budget. (It
// answered our settings by flag name, in a code block.)
func TestPlaywrightGetConfig(t *testing.T) {
	env, dir := serverEnv(t)
	config := filepath.Join(dir, "config.ini")
	ini := `
      capabilities[] = config
      console.level = error
      saveSession = true
      browser.launchOptions.headless = true
      browser.contextOptions.viewport = 800x600
      browser.contextOptions.bypassCSP = true
      browser.contextOptions.javaScriptEnabled = false
      [timeouts]
      action = 12345
      navigation = 30000
`
	if err := os.WriteFile(config, []byte(ini), 0o600); err != nil {
		t.Fatal(err)
	}
	// saveSession writes a trace into the first file root.
	c := startClientArgs(t, append(env, "PLAYWRIGHT_MCP_TIMEOUT_NAVIGATION=45000", "E2E_MCP_AUTH_TOKEN=tok-secret-39", "E2E_MCP_FILE_ROOTS="+dir),
		"--config", config, "--isolated", "--max-sessions", "7")
	res := call(t, c, "browser_get_config", nil)
	out := text(res)
	if res.IsError {
		t.Fatalf("browser_get_config failed:\n%s", out)
	}
	cfg := resultJSON(t, out)
	for key, want := range map[string]string{
		"console.level":                            `"error"`,
		"timeouts.action":                          `12345`,
		"timeouts.navigation":                      `45000`, // their variable over the file
		"timeouts.settle":                          `500`,   // the default
		"browser.isolated":                         `true`,  // the flag
		"browser.launchOptions.headless":           `true`,
		"browser.contextOptions.viewport":          `{"height":600,"width":800}`,
		"browser.contextOptions.bypassCSP":         `true`,
		"browser.contextOptions.javaScriptEnabled": `false`,
		"saveSession":                              `true`,
		"capabilities":                             `["config"]`,
		"e2e-mcp.max-sessions":                     `"7"`,
		"e2e-mcp.action-timeout":                   `null`, // said by timeouts.action
		"e2e-mcp.auth-token":                       `"•••"`,
		"e2e-mcp.caps-on":                          `["config"]`,
	} {
		if got := configAt(cfg, key); got != want {
			t.Errorf("browser_get_config: %s = %s, want %s", key, got, want)
		}
	}
	noneOf(t, "browser_get_config", out, "tok-secret-39")
	if len(out) > answerBudget {
		t.Errorf("browser_get_config answered %d bytes, over %d", len(out), answerBudget)
	}
}

// cspPages are a page whose Content-Security-Policy (a header) forbids its
// inline script, the same with the policy in a meta element, and a page
// holding the first in an iframe of another site (localhost beside
// 127.0.0.1: another renderer, a CDP session of its own).
func cspPages(mux *http.ServeMux, f *fixture) {
	const body = `<p id="out">blocked</p><script>document.getElementById('out').textContent = 'inline script ran'</script>`
	mux.HandleFunc("GET /csp.html", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "script-src 'none'")
		fmt.Fprint(w, `<!doctype html><title>CSP</title>`+body)
	})
	mux.HandleFunc("GET /csp-meta.html", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><meta http-equiv="Content-Security-Policy" content="script-src 'none'"><title>CSP meta</title>`+body)
	})
	mux.HandleFunc("GET /csp-frame.html", func(w http.ResponseWriter, r *http.Request) {
		_, port, _ := net.SplitHostPort(r.Host)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>CSP frame</title><iframe title="Other site" src="http://localhost:%s/csp.html"></iframe>`, port)
	})
}

// TestPlaywrightBypassCSP: a page's Content-Security-Policy (a header, or
// a meta element) keeps its inline script from running, in an iframe of
// another site too; with the config file's
// browser.contextOptions.bypassCSP (our --bypass-csp) the scripts run.
// (The key stopped the start as unknown.)
func TestPlaywrightBypassCSP(t *testing.T) {
	f := newFixture(t, cspPages)
	env, dir := serverEnv(t)
	config := filepath.Join(dir, "config.json")
	if err := os.WriteFile(config, []byte(`{"browser": {"contextOptions": {"bypassCSP": true}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"enforced", nil, "blocked"},
		{"bypassed", []string{"--config", config}, "inline script ran"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := startClientArgs(t, env, tc.args...)
			for _, page := range []string{"/csp.html", "/csp-meta.html"} {
				out := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + page})
				mustContain(t, page, out, "paragraph: "+tc.want)
			}
			mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/csp-frame.html"})
			// An iframe's document may still be loading when the
			// navigation answers.
			var out string
			waitFor(t, 10*time.Second, "the iframe's paragraph", func() bool {
				out = mustCall(t, c, "browser_snapshot", nil)
				return strings.Contains(out, "paragraph: blocked") || strings.Contains(out, "paragraph: inline script ran")
			})
			mustContain(t, "the other site's iframe", out, "paragraph: "+tc.want)
		})
	}
}

// TestPlaywrightNoJavaScript: with --no-javascript (the config file's
// browser.contextOptions.javaScriptEnabled false) a page's scripts and
// its handlers do not run: on the page navigated to, in its iframe of
// another site, in the popup it opens and on the page a link leads to;
// while the server's own engine still works on it: the snapshot, a click
// (on a button, and on a link, which navigates), typing, and
// browser_evaluate. Without it the same page's script runs. (The key
// stopped the start as unknown; the first documents of a popup and of a
// cross-site iframe ran their scripts before the setting reached them.)
func TestPlaywrightNoJavaScript(t *testing.T) {
	const script = `<script>document.getElementById('out').textContent = 'script ran'</script>`
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /nojs.html", func(w http.ResponseWriter, r *http.Request) {
			_, port, _ := net.SplitHostPort(r.Host)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><title>No JS</title><p id="out">static</p>
<button onclick="document.getElementById('out').textContent = 'handler ran'">Run</button>
<input aria-label="Name"> <a href="/nojs-next.html">Next</a> <a href="/nojs-next.html" target="_blank">Popup</a>
<iframe title="Other site" src="http://localhost:%s/nojs-next.html"></iframe>`+script, port)
		})
	}, pwPage("/nojs-next.html", `<!doctype html><title>Next</title><p id="out">the next page, static</p>`+script))
	env, _ := serverEnv(t)
	plain := startClient(t, env)
	mustContain(t, "the page's script without the flag", mustCall(t, plain, "browser_navigate", map[string]any{"url": f.URL + "/nojs.html"}),
		"paragraph: script ran")

	c := startClientArgs(t, env, "--no-javascript")
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/nojs.html"})
	mustContain(t, "the page's script did not run", snap, "paragraph: static")
	// The iframe's document may still be loading when the navigation
	// answers.
	waitFor(t, 10*time.Second, "the iframe's paragraph", func() bool {
		snap = mustCall(t, c, "browser_snapshot", nil)
		return strings.Contains(snap, "paragraph: the next page") || strings.Contains(snap, "paragraph: script ran")
	})
	mustContain(t, "the other site's iframe", snap, "paragraph: the next page, static")
	out := mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "button", "Run"), "element": "Run"})
	if strings.Contains(out, "handler ran") {
		t.Errorf("the button's handler ran:\n%s", out)
	}
	mustCall(t, c, "browser_type", map[string]any{"target": refOf(t, snap, "textbox", "Name"), "element": "Name", "text": "Ada"})
	out = mustCall(t, c, "browser_evaluate", map[string]any{"function": `() => [document.getElementById('out').textContent, document.querySelector('input').value].join('|')`})
	mustContain(t, "the page as browser_evaluate reads it", out, `"static|Ada"`)

	mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "link", "Popup"), "element": "Popup"})
	out = mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 1})
	mustContain(t, "the popup", out, f.URL+"/nojs-next.html", "paragraph: the next page, static")
	mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 0})
	out = mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "link", "Next"), "element": "Next"})
	mustContain(t, "the link's navigation", out, f.URL+"/nojs-next.html", "paragraph: the next page, static")
}
