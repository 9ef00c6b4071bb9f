package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

func transportStderr(w io.Writer) transport.StdioOption { return transport.WithCommandStderrWriter(w) }

// Playwright MCP's command line on the real binary (issue 39): the users
// of `npx @playwright/mcp@latest ARGS` swap the command for `e2e-mcp ARGS`.

// startClientArgsLog is startClientArgs that also gives the server's
// stderr.
func startClientArgsLog(t *testing.T, env []string, args ...string) (*client.Client, *lockedBuffer) {
	t.Helper()
	stderr := &lockedBuffer{}
	c, err := client.NewStdioMCPClientWithOptions(bin, env, args, transportStderr(stderr))
	if err != nil {
		t.Fatalf("start %s %v: %v", bin, args, err)
	}
	return initialized(t, c, stderr), stderr
}

// echoAPI records what pages post to /api/echo.
type echoAPI struct {
	mu     sync.Mutex
	bodies []string
}

func (e *echoAPI) routes(mux *http.ServeMux, _ *fixture) {
	mux.HandleFunc("POST /api/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.bodies = append(e.bodies, string(b))
		e.mu.Unlock()
		fmt.Fprint(w, "ok")
	})
	mux.HandleFunc("GET /pw/form.html", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><meta name="viewport" content="width=device-width"><title>Form</title>
<label>Token <input id="token"></label>
<label>Password <input id="pw" type="password"></label>
<button onclick="fetch('/api/echo', {method: 'POST', body: token.value + '|' + pw.value}); console.log('sent ' + token.value)">Send</button>
<p>Sent texts end here.</p>`)
	})
}

func (e *echoAPI) got() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.bodies...)
}

// TestPlaywrightSecrets: --secrets FILE (a dotenv) gives a tool call
// ${NAME}, and, as Playwright MCP, NAME alone as a typed text; the page
// gets the value, which no answer, log or exported flow shows, and the
// flow records ${NAME} for CI to set.
func TestPlaywrightSecrets(t *testing.T) {
	const token, password = "tok-7f3a91c2e5", "pw-b84d20c6"
	api := &echoAPI{}
	f := newFixture(t, api.routes)
	dir := t.TempDir()
	secrets := filepath.Join(dir, "secrets.env")
	if err := os.WriteFile(secrets, []byte("API_TOKEN="+token+"\nX-PASSWORD="+password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_FILE_ROOTS="+dir)
	c, stderr := startClientArgsLog(t, env, "--secrets", secrets)

	var answers strings.Builder
	do := func(tool string, args map[string]any) string {
		out := mustCall(t, c, tool, args)
		answers.WriteString(out)
		return out
	}
	do("browser_navigate", map[string]any{"url": f.URL + "/pw/form.html"})
	do("browser_type", map[string]any{"target": "label=Token", "text": "Bearer ${API_TOKEN}"})
	do("browser_type", map[string]any{"target": "label=Password", "text": "X-PASSWORD"})
	do("browser_click", map[string]any{"target": "role=button[name=Send]"})
	do("browser_wait_for", map[string]any{"text": "Sent texts end here."})
	deadline := time.Now().Add(10 * time.Second)
	for len(api.got()) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if got := api.got(); len(got) != 1 || got[0] != "Bearer "+token+"|"+password {
		t.Fatalf("the page posted %q, want the secrets' values", got)
	}
	do("browser_console_messages", map[string]any{"all": true})
	do("browser_snapshot", nil)
	do("browser_evaluate", map[string]any{"function": "() => document.getElementById('token').value"})
	flowFile := filepath.Join(dir, "flow.yaml")
	do("session_export_flow", map[string]any{"path": flowFile, "name": "secrets"})
	flow, err := os.ReadFile(flowFile)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "the flow", string(flow), "${API_TOKEN}")
	c.Close()
	for what, out := range map[string]string{"the answers": answers.String(), "the log": stderr.String(), "the flow": string(flow)} {
		for _, v := range []string{token, password} {
			if strings.Contains(out, v) {
				t.Errorf("%s show the secret %q:\n%s", what, v, out)
			}
		}
	}
	mustContain(t, "the answers", answers.String(), "Bearer •••")
}

// TestPlaywrightUserDataDir: --user-data-dir keeps a session's cookies and
// local storage across browsers and servers, and is held, as Playwright
// MCP's profile is, only while a browser runs on it (issue 39): a second
// server on it starts, and its browser is refused (typed, naming
// --isolated) until the first closes its browser; then it opens signed in,
// and the first is refused in turn until the second's server ends. A
// server that ends saves its state for the next one.
func TestPlaywrightUserDataDir(t *testing.T) {
	f := newFixture(t, authAPI)
	profile := filepath.Join(t.TempDir(), "profile")
	env, _ := serverEnv(t)
	app := f.URL + "/auth/app.html"
	signedIn := "Signed in as Ada (theme of Ada)"

	a := startClientArgs(t, env, "--user-data-dir", profile)
	mustCall(t, a, "browser_navigate", map[string]any{"url": app})
	mustCall(t, a, "browser_wait_for", map[string]any{"text": "Signed out"})
	mustCall(t, a, "browser_type", map[string]any{"target": "label=Name", "text": "Ada", "submit": true})
	mustCall(t, a, "browser_wait_for", map[string]any{"text": signedIn})

	// A second server on the profile starts; its browser is refused while
	// the first's runs on it.
	b := startClientArgs(t, env, "--user-data-dir", profile)
	out := mustFail(t, b, "browser_navigate", map[string]any{"url": app}, "browser_launch_failed")
	mustContain(t, "the second server's browser", out, "--user-data-dir "+profile, "already in use", "--isolated", "browser_close")

	// The first closes its browser, saving its state: the second opens on
	// the profile, signed in with no login step.
	mustCall(t, a, "browser_close", nil)
	state := filepath.Join(profile, "e2e-mcp-storage-state.json")
	if fi, err := os.Stat(state); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the profile's state after browser_close: %v %v", fi, err)
	}
	mustCall(t, b, "browser_navigate", map[string]any{"url": app})
	mustCall(t, b, "browser_wait_for", map[string]any{"text": signedIn})
	mustFail(t, a, "browser_navigate", map[string]any{"url": app}, "browser_launch_failed")
	mustCall(t, b, "browser_evaluate", map[string]any{"function": "() => localStorage.setItem('theme', 'sepia')"})

	// The second's server ends (its client closes stdin), saving its
	// state: the first opens a browser on the profile again, in that state.
	_ = b.Close()
	deadline := time.Now().Add(15 * time.Second)
	for {
		res := call(t, a, "browser_navigate", map[string]any{"url": app})
		if !res.IsError {
			break
		}
		if out := text(res); !strings.Contains(out, "browser_launch_failed:") || time.Now().After(deadline) {
			t.Fatalf("the first server's browser after the second's server ended:\n%s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	mustCall(t, a, "browser_wait_for", map[string]any{"text": "Signed in as Ada (sepia)"})

	// Without it, a server starts signed out.
	c := startClientArgs(t, env, "--isolated")
	mustCall(t, c, "browser_navigate", map[string]any{"url": app})
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Signed out"})
}

// TestPlaywrightCodegen: --codegen typescript ends each action's answer
// with the Playwright Test code that did what it did; by default no answer
// has it.
func TestPlaywrightCodegen(t *testing.T) {
	api := &echoAPI{}
	f := newFixture(t, api.routes)
	env, _ := serverEnv(t)
	c := startClientArgs(t, env, "--codegen", "typescript")
	out := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/pw/form.html"})
	mustContain(t, "navigate's answer", out, "### Ran Playwright code\n```js\nawait page.goto('"+f.URL+"/pw/form.html');\n```")
	out = mustCall(t, c, "browser_type", map[string]any{"target": "label=Token", "text": "abc"})
	mustContain(t, "type's answer", out, "### Ran Playwright code", "await page.getByLabel('Token').fill('abc');")
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=Send]"})
	mustContain(t, "click's answer", out, "await page.getByRole('button', { name: 'Send', exact: true }).click();")
	if out := mustCall(t, c, "browser_snapshot", nil); strings.Contains(out, "Ran Playwright code") {
		t.Errorf("a snapshot, no action, carries code:\n%s", out)
	}

	plain := startClient(t, env)
	if out := mustCall(t, plain, "browser_navigate", map[string]any{"url": f.URL + "/pw/form.html"}); strings.Contains(out, "Ran Playwright code") {
		t.Errorf("without --codegen an answer carries code:\n%s", out)
	}
}

// TestPlaywrightSessionFlags: what their flags for every session do, seen
// by the page: --device, --grant-permissions, --block-service-workers; and
// what they do to answers: --image-responses omit, --snapshot-mode none,
// --console-level error.
func TestPlaywrightSessionFlags(t *testing.T) {
	api := &echoAPI{}
	f := newFixture(t, api.routes)
	env, _ := serverEnv(t)
	c := startClientArgs(t, env, "--device", "iPhone 15", "--grant-permissions", "geolocation", "--block-service-workers",
		"--image-responses", "omit", "--snapshot-mode", "none", "--console-level", "error", "--snapshot-boxes")
	out := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/pw/form.html"})
	if strings.Contains(out, "### Snapshot") {
		t.Errorf("--snapshot-mode none: navigate shows a snapshot:\n%s", out)
	}
	mustContain(t, "navigate's answer", out, "- Page URL: "+f.URL+"/pw/form.html")
	out = mustCall(t, c, "browser_evaluate", map[string]any{"function": `async () => {
		const geo = await navigator.permissions.query({name: 'geolocation'});
		let sw = 'registered';
		try { await navigator.serviceWorker.register('/sw.js'); } catch (e) { sw = 'refused: ' + e.message; }
		return [innerWidth, devicePixelRatio, /iPhone/.test(navigator.userAgent), geo.state, sw].join(' ');
	}`})
	mustContain(t, "the page", out, "393 3 true granted refused: service workers are blocked")
	out = mustCall(t, c, "browser_snapshot", nil)
	if !strings.Contains(out, "### Snapshot") {
		t.Errorf("--snapshot-mode none: browser_snapshot shows none:\n%s", out)
	}
	// --snapshot-boxes: the button's line says where the page has it.
	m := regexp.MustCompile(`button "Send" \[ref=\w+\] (\[box=\d+,\d+,\d+,\d+\])`).FindStringSubmatch(out)
	box := mustCall(t, c, "browser_evaluate", map[string]any{"function": `() => { const r = document.querySelector('button').getBoundingClientRect();
		return '[box=' + [r.x, r.y, r.width, r.height].map(Math.round).join(',') + ']'; }`})
	if m == nil || !strings.Contains(box, m[1]) {
		t.Errorf("--snapshot-boxes: the button's line %q, the page says %s:\n%s", m, box, out)
	}
	res := call(t, c, "browser_take_screenshot", nil)
	for _, part := range res.Content {
		if _, ok := part.(mcp.ImageContent); ok {
			t.Errorf("--image-responses omit: the screenshot's answer has an image")
		}
	}
	mustContain(t, "the screenshot's answer", text(res), "--image-responses omit")
	mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => { console.log('a log line'); console.error('an error line'); }"})
	out = mustCall(t, c, "browser_console_messages", map[string]any{"all": true})
	mustContain(t, "console messages", out, "an error line")
	if strings.Contains(out, "a log line") {
		t.Errorf("--console-level error lists a log:\n%s", out)
	}
}

// TestPlaywrightRefusals: their flags with no meaning here stop the
// binary at once with why and what to use instead; their own forms of
// ours are taken.
func TestPlaywrightRefusals(t *testing.T) {
	env, _ := serverEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--extension"}, "--cdp-endpoint"},
		{[]string{"--browser", "firefox"}, "Chromium"},
		{[]string{"--init-page", "setup.ts"}, "--init-script"},
		{[]string{"--codegen", "python"}, "TypeScript"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, bin, tc.args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		cancel()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), tc.want) {
			t.Errorf("e2e-mcp %v: %v, want exit 2 saying %q:\n%s", tc.args, err, tc.want, out)
		}
	}
	// Their syntax of ours, with their variable, serves.
	c := startClientArgs(t, append(env, "PLAYWRIGHT_MCP_TIMEOUT_ACTION=3000"), "--headless", "--isolated", "--viewport-size", "800,600",
		"--timeout-navigation", "20000", "--no-webmcp")
	out := mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => innerWidth + 'x' + innerHeight"})
	mustContain(t, "the viewport", out, "800x600")
}

// upstreamProxy is a forward proxy that serves the host app.test itself
// (a name no resolver knows: only a proxy can answer it) and counts what
// it was asked; it refuses CONNECT.
type upstreamProxy struct {
	mu    sync.Mutex
	asked []string
}

func (p *upstreamProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.asked = append(p.asked, r.Method+" "+r.URL.String()+" auth="+r.Header.Get("Proxy-Authorization"))
	p.mu.Unlock()
	if r.URL.Hostname() != "app.test" {
		http.Error(w, "this proxy serves app.test only", http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "text/html")
	fmt.Fprint(w, `<!doctype html><title>Through the proxy</title><h1>Served by the upstream proxy</h1>`)
}

func (p *upstreamProxy) got() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.asked...)
}

// TestPlaywrightProxy: --proxy-server sends the browser's requests through
// the proxy, straight from Chromium when no request policy applies and on
// from the policy's own proxy when one does (with the proxy's credentials);
// --proxy-bypass hosts are reached directly.
func TestPlaywrightProxy(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		name string
		args []string
		auth string
	}{
		{"no policy", nil, ""},
		{"under a policy", []string{"--blocked-origins", "ads.example.com"}, "Basic dTpwdy0zYTE5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			px := &upstreamProxy{}
			srv := httptest.NewServer(px)
			defer srv.Close()
			server := srv.URL
			if tc.auth != "" {
				server = strings.Replace(server, "http://", "http://u:pw-3a19@", 1)
			}
			env, _ := serverEnv(t)
			c := startClientArgs(t, env, append([]string{"--proxy-server", server, "--proxy-bypass", "direct.test"}, tc.args...)...)
			out := mustCall(t, c, "browser_navigate", map[string]any{"url": "http://app.test/page"})
			mustContain(t, "the page through the proxy", out, "Served by the upstream proxy")
			got := px.got()
			if len(got) == 0 || !strings.HasPrefix(got[0], "GET http://app.test/page auth="+tc.auth) {
				t.Errorf("the proxy was asked %q, want GET http://app.test/page with auth %q", got, tc.auth)
			}
			// A bypassed host is not asked of the proxy (it resolves nowhere,
			// so the navigation fails; the proxy must not have seen it).
			call(t, c, "browser_navigate", map[string]any{"url": "http://direct.test/"})
			for _, a := range px.got() {
				if strings.Contains(a, "direct.test") {
					t.Errorf("a --proxy-bypass host went through the proxy: %q", a)
				}
			}
			// Loopback stays direct: the fixture is reached.
			mustContain(t, "the fixture", mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/index.html"}), "Page URL: "+f.URL)
		})
	}
}

// TestPlaywrightIgnoreHTTPSErrors: a page whose certificate no one signed
// fails to load, and loads with --ignore-https-errors.
func TestPlaywrightIgnoreHTTPSErrors(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Self-signed</title><h1>Secure enough</h1>`)
	}))
	defer srv.Close()
	env, _ := serverEnv(t)
	plain := startClient(t, env)
	if res := call(t, plain, "browser_navigate", map[string]any{"url": srv.URL}); !res.IsError || strings.Contains(text(res), "Secure enough") {
		t.Errorf("a self-signed page loaded without --ignore-https-errors:\n%s", text(res))
	}
	c := startClientArgs(t, env, "--ignore-https-errors")
	mustContain(t, "the page", mustCall(t, c, "browser_navigate", map[string]any{"url": srv.URL}), "Secure enough")
}
