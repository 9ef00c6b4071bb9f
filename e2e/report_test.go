package e2e

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	stdhtml "html"
	"image/jpeg"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// The HTML report (report/, mcptools/steplog.go) is checked the way a person
// sees it: opened from its file in headless Chromium through our own server
// (file:// URLs allowed), read by its rendered text and by what its images
// decoded to, with the page's network log showing that nothing was fetched.

// reportView is what the test reads of an opened report.
type reportView struct {
	Steps []struct {
		Failed bool   `json:"failed"`
		Text   string `json:"text"`
		Images []struct {
			Alt   string `json:"alt"`
			Width int    `json:"width"`
		} `json:"images"`
	} `json:"steps"`
	Text string `json:"text"`
	CSP  string `json:"csp"`
}

// openReport opens an HTML report in session viewer, saves a screenshot of
// it as a test artifact (with the report itself, in $E2E_ARTIFACTS when
// set), and returns what it shows.
func openReport(t *testing.T, c *client.Client, path, viewer string) reportView {
	t.Helper()
	url := "file://" + path
	mustCall(t, c, "browser_navigate", map[string]any{"url": url, "sessionId": viewer})
	// Each image is awaited (decode() settles once it is decoded or broken).
	res := call(t, c, "browser_evaluate", map[string]any{"sessionId": viewer, "function": `async () => {
		await Promise.all([...document.images].map(i => i.decode().catch(() => {})));
		return {
			text: document.body.innerText,
			csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content || '',
			steps: [...document.querySelectorAll('li.step')].map(li => ({
				failed: li.classList.contains('failed'),
				text: li.innerText,
				images: [...li.querySelectorAll('img')].map(i => ({alt: i.alt, width: i.naturalWidth})),
			})),
		};
	}`})
	if res.IsError {
		t.Fatalf("reading the report: %s", text(res))
	}
	var v reportView
	sc, _ := res.StructuredContent.(map[string]any)
	b, _ := json.Marshal(sc["result"])
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("the report's reading: %v\n%s", err, b)
	}

	// Nothing but the file itself was requested (data: images are not
	// fetched from anywhere).
	net := call(t, c, "browser_network_requests", map[string]any{"sessionId": viewer})
	sc, _ = net.StructuredContent.(map[string]any)
	reqs, _ := sc["requests"].([]any)
	if len(reqs) == 0 {
		t.Errorf("the network log does not even show the file:\n%s", text(net))
	}
	for _, r := range reqs {
		m, _ := r.(map[string]any)
		if u, _ := m["url"].(string); u != url && !strings.HasPrefix(u, "data:") {
			t.Errorf("opening the report requested %s:\n%s", u, text(net))
		}
	}

	shot := call(t, c, "browser_take_screenshot", map[string]any{"sessionId": viewer, "fullPage": true, "type": "jpeg"})
	dir := os.Getenv("E2E_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if html, err := os.ReadFile(path); err == nil && os.Getenv("E2E_ARTIFACTS") != "" {
		_ = os.WriteFile(filepath.Join(dir, t.Name()+"-"+filepath.Base(path)), html, 0o644)
	}
	for _, ct := range shot.Content {
		if b64, ok := imageData(ct); ok {
			raw, err := base64.StdEncoding.DecodeString(b64)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, t.Name()+"-"+strings.TrimSuffix(filepath.Base(path), ".html")+".jpg")
			if err := os.WriteFile(name, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("the report as Chromium shows it: %s (%d KB)", name, len(raw)>>10)
		}
	}
	return v
}

// TestReport_FailingFlow: the sign-up flow fails at its click after the
// app's label changed, and its dev server logged a stack trace; the report
// of that run opens in Chromium and shows the failing step, the screenshot
// of the failure (decoded), the stack trace, a screenshot after each step
// before it, no password; the JUnit report links it.
func TestReport_FailingFlow(t *testing.T) {
	python, dir := signUpApp(t, t.TempDir())
	flowFile := filepath.Join(dir, "signup.yaml")
	flowText := fmt.Sprintf(`name: sign-up
dev:
  run: %s app.py $PORT
  cwd: .
steps:
  - navigate: /
  - type: {target: 'role=textbox[name="Name"]', text: Ada}
  - type: {target: 'role=textbox[name="Password"]', text: "${E2E_SECRET_1}"}
  - click: 'role=button[name="Sign up"]'
  - expect: {target: 'role=status', check: text, expected: 'Welcome, Ada!'}
`, python)
	if err := os.WriteFile(flowFile, []byte(flowText), 0o644); err != nil {
		t.Fatal(err)
	}
	// The app changes under the flow: the button says Register, and the
	// app logs the failed lookup of that label with its stack trace.
	if err := os.WriteFile(filepath.Join(dir, "label.txt"), []byte("Register"), 0o644); err != nil {
		t.Fatal(err)
	}
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_LOG_LEVEL=warn", "E2E_MCP_ACTION_TIMEOUT=2s", "E2E_SECRET_1=hunter2")
	reports, junit := filepath.Join(dir, "reports"), filepath.Join(dir, "junit.xml")
	// A dev server of the flow's own session, which its report shows (a
	// shared one is another session's: devshare_test.go).
	out, code := runFlows(t, env, flowFile, "--report", reports, "--junit", junit, "--dev-server-per-flow")
	if code != 1 || !strings.Contains(out, "FAIL  sign-up") {
		t.Fatalf("the changed app: exit %d:\n%s", code, out)
	}
	page := filepath.Join(reports, "sign-up.html")
	mustContain(t, "the run's summary", out, "report: "+page)
	raw, err := os.ReadFile(page)
	if err != nil {
		t.Fatalf("no report: %v\n%s", err, out)
	}
	if strings.Contains(string(raw), "hunter2") {
		t.Error("the report shows the password")
	}

	// The JUnit file links the report, relative to itself.
	suite, jb := readJUnit(t, junit)
	if len(suite.Cases) != 1 || suite.Cases[0].Failure == nil {
		t.Fatalf("JUnit report: %s", jb)
	}
	tc := suite.Cases[0]
	if !strings.Contains(tc.SystemOut, "[[ATTACHMENT|reports/sign-up.html]]") || !strings.Contains(tc.Failure.Text, "Report: reports/sign-up.html") {
		t.Errorf("the JUnit report does not link the HTML report:\n%s", jb)
	}

	viewEnv, _ := serverEnv(t)
	c := startClient(t, append(viewEnv, "E2E_MCP_ALLOW_FILE_URLS=true", "E2E_MCP_LOG_LEVEL=warn"))
	v := openReport(t, c, page, "viewer")
	if !strings.Contains(v.CSP, "default-src 'none'") {
		t.Errorf("the report's CSP does not forbid fetching: %q", v.CSP)
	}
	mustContain(t, "the report's text", v.Text, "Flow sign-up", "failed: flow step 4", "failed: #5 browser_click", "Dev server", "Console", "Network")
	var failed []int
	for i, s := range v.Steps {
		if s.Failed {
			failed = append(failed, i)
		}
	}
	// session_start, navigate, type, type, click: the click failed.
	if len(v.Steps) != 5 || len(failed) != 1 || failed[0] != 4 {
		t.Fatalf("want 5 steps, the 5th (the click) failed; got %d steps, failed %v:\n%s", len(v.Steps), failed, v.Text)
	}
	fs := v.Steps[4]
	mustContain(t, "the failing step", fs.Text, "browser_click", `role=button[name=\"Sign up\"]`, "element_not_found",
		"Screenshot at the failure: attached", "### Dev server log", "Traceback (most recent call last):", "KeyError: 'Register'")
	decoded := 0
	for _, im := range fs.Images {
		if im.Alt == "image of the failure answer" && im.Width > 0 {
			decoded++
		}
	}
	if decoded != 1 {
		t.Errorf("the failing step's screenshot did not decode: %+v", fs.Images)
	}
	if !strings.Contains(v.Text, "python3 app.py") && !strings.Contains(v.Text, "app.py $PORT") {
		t.Errorf("the dev server's command is not shown:\n%s", v.Text)
	}
	if n := strings.Count(v.Text, "KeyError: 'Register'"); n < 2 {
		t.Errorf("the dev server's log tail does not show the stack trace too (seen %d times)", n)
	}
	// A screenshot after each action that passed (navigate, type, type).
	for i := 1; i <= 3; i++ {
		s := v.Steps[i]
		if len(s.Images) != 1 || s.Images[0].Width <= 0 || s.Images[0].Width > 800 {
			t.Errorf("step %d: want one decoded screenshot at most 800 px wide, got %+v", i+1, s.Images)
		}
	}
	if strings.Contains(v.Steps[3].Text, "hunter2") || !strings.Contains(v.Steps[3].Text, "•••") {
		t.Errorf("the password step does not show its text masked:\n%s", v.Steps[3].Text)
	}
}

// TestReport_SessionTool: a passing session started with screenshots on
// writes its report with session_report: every call is listed, each action
// with a screenshot that decodes, the typed password masked.
func TestReport_SessionTool(t *testing.T) {
	python, dir := signUpApp(t, t.TempDir())
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn",
		"E2E_MCP_CAPS=report", "E2E_MCP_ALLOW_FILE_URLS=true")
	c := startClient(t, env)
	mustCall(t, c, "session_start", map[string]any{"run": python + " " + filepath.Join(dir, "app.py") + " $PORT", "cwd": dir})
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": "/"})
	mustCall(t, c, "browser_type", map[string]any{"target": refOf(t, snap, "textbox", "Name"), "text": "Grace"})
	mustCall(t, c, "browser_type", map[string]any{"target": refOf(t, snap, "textbox", "Password"), "text": "s3cret-pw"})
	mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "button", "Sign up")})
	mustCall(t, c, "browser_expect", map[string]any{"target": "role=status", "check": "text", "expected": "Welcome, Grace!"})
	mustCall(t, c, "browser_snapshot", map[string]any{})

	page := filepath.Join(dir, "session.html")
	out := mustCall(t, c, "session_report", map[string]any{"path": page})
	// The check after the click has its own picture, or says it is the
	// click's when nothing on the page changed since
	// (TestReport_UnchangedPictures).
	if !strings.Contains(out, "(7 steps, 5 screenshots") && !strings.Contains(out, "(7 steps, 4 screenshots") {
		t.Errorf("session_report's answer: want 7 steps and 4 or 5 screenshots:\n%s", out)
	}
	mustContain(t, "session_report's answer", out, page)
	bad := call(t, c, "session_report", map[string]any{"path": "/etc/report.html"})
	if !bad.IsError || !strings.Contains(text(bad), "not_allowed") {
		t.Errorf("a report outside the file roots: %s", text(bad))
	}
	raw, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "s3cret-pw") {
		t.Error("the report shows the typed password")
	}

	v := openReport(t, c, page, "viewer")
	tools := []string{"session_start", "browser_navigate", "browser_type", "browser_type", "browser_click", "browser_expect", "browser_snapshot"}
	if len(v.Steps) != len(tools) {
		t.Fatalf("want %d steps, got %d:\n%s", len(tools), len(v.Steps), v.Text)
	}
	action := regexp.MustCompile(`^browser_(navigate|type|click|expect)$`)
	for i, s := range v.Steps {
		if s.Failed || !strings.Contains(s.Text, tools[i]) {
			t.Errorf("step %d: want %s, passed:\n%s", i+1, tools[i], s.Text)
		}
		shots := 0
		for _, im := range s.Images {
			if im.Width > 0 {
				shots++
			}
		}
		if tools[i] == "browser_expect" && shots == 0 && strings.Contains(s.Text, "as after step 5 (nothing on the page changed)") {
			continue
		}
		if want := map[bool]int{true: 1, false: 0}[action.MatchString(tools[i])]; shots != want {
			t.Errorf("step %d (%s): %d decoded screenshot(s), want %d: %+v", i+1, tools[i], shots, want, s.Images)
		}
	}
	mustContain(t, "the report's text", v.Text, "e2e-mcp session stdio", "Welcome, Grace!", "POST", "/api/signup",
		`= role=button[name=\"Sign up\"]`)
}

// imageData is the base64 data of an image content item.
func imageData(c mcp.Content) (string, bool) {
	if ic, ok := c.(mcp.ImageContent); ok {
		return ic.Data, true
	}
	return "", false
}

// TestReport_EveryTab: the report holds the console and network logs of
// every open tab, each entry naming its tab, not only the current one's.
func TestReport_EveryTab(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_CAPS=report", "E2E_MCP_LOG_LEVEL=warn", "E2E_MCP_ALLOW_FILE_URLS=true"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/tabs/opener.html"})
	mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => console.warn('said by the opener')"})
	mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Open popup']"})
	mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 1})
	mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => fetch('history2.html').then((r) => console.warn('said by the popup', r.status))"})

	page := filepath.Join(dir, "tabs.html")
	mustCall(t, c, "session_report", map[string]any{"path": page})
	v := openReport(t, c, page, "viewer")
	mustContain(t, "the report of two tabs", v.Text, "[tab 0] warning said by the opener", "[tab 1] warning said by the popup 200",
		"[tab 0] GET "+f.URL+"/tabs/opener.html", "[tab 1] GET "+f.URL+"/tabs/history2.html", "Of the 2 open tabs")
}

// paintPage changes its text at once, 1.5 s later (after the click's
// settle time), or at once with an endless animation beside it.
const paintPage = `<!doctype html><title>paint</title>
<style>@keyframes spin { to { transform: rotate(360deg); } } .spin { display: inline-block; animation: spin 1s linear infinite; }</style>
<p id="out">start</p>
<button onclick="out.textContent = 'now'">Now</button>
<button onclick="setTimeout(() => out.textContent = 'later', 1500)">Later</button>
<button onclick="out.textContent = 'spin'; out.insertAdjacentHTML('afterend', '<span class=spin>*</span>')">Spin</button>`

// TestReport_UnchangedPictures: after a check, the report's picture is the
// one before it only when nothing that paints the page changed since (the
// paint mark, browser/js/60_paint.js); a page that changed by itself while
// the check waited, or that animates, gets a new picture.
func TestReport_UnchangedPictures(t *testing.T) {
	html := reportOfFlow(t, "paint", paintPage, `
  - click: 'role=button[name="Now"]'
  - expect: {target: '#out', check: text, expected: now}
  - expect: {target: '#out', check: visible}
  - click: 'role=button[name="Later"]'
  - expect: {target: '#out', check: text, expected: later}
  - click: 'role=button[name="Spin"]'
  - expect: {target: '#out', check: text, expected: spin}
`)
	pictured := func(step int) bool {
		return strings.Contains(html, fmt.Sprintf(`alt="screenshot after step %d"`, step))
	}
	noted := func(step, as int) bool {
		return strings.Contains(html, fmt.Sprintf("after step %d: as after step %d (nothing on the page changed)", step, as))
	}
	for step := 1; step <= 8; step++ {
		switch step {
		case 3, 4: // checks of a page that did not change since step 2's picture
			if pictured(step) || !noted(step, 2) {
				t.Errorf("step %d: want no new picture and the note that it is step 2's (pictured %v)", step, pictured(step))
			}
		default: // actions; a check that waited for a change; a check beside an animation
			if !pictured(step) || strings.Contains(html, fmt.Sprintf("after step %d: as after", step)) {
				t.Errorf("step %d: want a picture of its own", step)
			}
		}
	}
	if t.Failed() {
		t.Logf("report: %s", regexp.MustCompile(`data:image/[^"]+`).ReplaceAllString(html, "data:…"))
	}
}

const colourPage = `<!doctype html><title>colours</title>
<style>html, body { margin: 0; height: 100%; } button { position: fixed; top: 4px; } #out { position: fixed; bottom: 4px; }</style>
<button onclick="document.body.style.background = '#f00'; out.textContent = 'red'" style="left: 4px">Red</button>
<button onclick="document.body.style.background = '#0f0'; out.textContent = 'green'" style="left: 80px">Green</button>
<button onclick="document.body.style.background = '#00f'; out.textContent = 'blue'" style="left: 160px">Blue</button>
<p id="out">white</p>`

// TestReport_PicturesShowTheirStep: the picture after a step is taken
// while the next call runs when that call only reads the page (an
// expect), and every other call waits for it (mcptools/steplog.go
// settleShot). So each picture shows the page as its own step left it,
// never with the next click's colour, which would come in when the click
// did not wait: read from the report's decoded JPEGs.
func TestReport_PicturesShowTheirStep(t *testing.T) {
	// Each colour: click, a check that reads the page, then straight to
	// the next click.
	steps := ""
	order := []string{"Red", "Green", "Blue", "Red", "Green", "Blue"}
	for _, c := range order {
		steps += fmt.Sprintf("  - click: 'role=button[name=%q]'\n  - expect: {target: '#out', check: text, expected: %s}\n", c, strings.ToLower(c))
	}
	html := reportOfFlow(t, "colours", colourPage, steps)
	pics := map[int]string{}
	for _, m := range regexp.MustCompile(`<img src="data:image/jpeg;base64,([^"]+)" alt="screenshot after step (\d+)"`).FindAllStringSubmatch(html, -1) {
		var n int
		_, _ = fmt.Sscan(m[2], &n)
		pics[n] = stdhtml.UnescapeString(m[1])
	}
	for i, c := range order {
		step := 2 + 2*i // the click; the check after it has the same picture
		b64, ok := pics[step]
		if !ok {
			t.Errorf("step %d (click %s): no picture", step, c)
			continue
		}
		if note := fmt.Sprintf("after step %d: as after step %d", step+1, step); !strings.Contains(html, note) {
			t.Errorf("step %d: want the check's note %q", step+1, note)
		}
		img, err := jpeg.Decode(base64.NewDecoder(base64.StdEncoding, strings.NewReader(b64)))
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		b := img.Bounds()
		r, g, bl, _ := img.At(b.Min.X+b.Dx()/2, b.Min.Y+b.Dy()/2).RGBA()
		got := "?"
		switch {
		case r > 0xc000 && g < 0x4000 && bl < 0x4000:
			got = "Red"
		case g > 0xc000 && r < 0x4000 && bl < 0x4000:
			got = "Green"
		case bl > 0xc000 && r < 0x4000 && g < 0x4000:
			got = "Blue"
		}
		if got != c {
			t.Errorf("step %d: the picture after clicking %s shows %s (rgb %d %d %d)", step, c, got, r>>8, g>>8, bl>>8)
		}
	}
}

// reportOfFlow runs a flow named name (a navigation to page, served by a
// fixture, then steps) with `e2e-mcp run --report --trace`, and returns
// its HTML report.
func reportOfFlow(t *testing.T, name, page, steps string) string {
	t.Helper()
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /"+name, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, page)
		})
	})
	dir := t.TempDir()
	flowFile := filepath.Join(dir, name+".yaml")
	flowText := "name: " + name + "\nsteps:\n  - navigate: " + f.URL + "/" + name + "\n" + strings.TrimPrefix(steps, "\n")
	if err := os.WriteFile(flowFile, []byte(flowText), 0o644); err != nil {
		t.Fatal(err)
	}
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_LOG_LEVEL=warn")
	reports := filepath.Join(dir, "reports")
	out, code := runFlows(t, env, flowFile, "--report", reports, "--trace", filepath.Join(dir, "traces"))
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	raw, err := os.ReadFile(filepath.Join(reports, name+".html"))
	if err != nil {
		t.Fatalf("no report: %v\n%s", err, out)
	}
	return string(raw)
}
