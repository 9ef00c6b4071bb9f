package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
)

// runFlows runs `e2e-mcp run` and returns its output and exit code.
func runFlows(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"run"}, args...)...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), 0
}

// appProcesses lists live processes running the flow app from dir.
func appProcesses(dir string) []string {
	ps := proctest.MustFind(proctest.CmdlineContains(filepath.Join(dir, "app.py")))
	var out []string
	for _, p := range ps {
		out = append(out, "/proc/"+strconv.Itoa(p.PID)+"/cmdline")
	}
	return out
}

// signUpApp copies the sign-up app (testdata/flowapp/app.py) into dir and
// returns python3's path and dir.
func signUpApp(t *testing.T, dir string) (python, _ string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for this test: %v", err)
	}
	app, err := os.ReadFile("testdata/flowapp/app.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "app.py"), app, 0o644); err != nil {
		t.Fatal(err)
	}
	return python, dir
}

// TestFlowExportAndRun: sign up through MCP and check the welcome text;
// export the session as a flow; `e2e-mcp run` replays it green with a
// fresh dev server; with the button's label changed the run fails at that
// step, with artifacts and a JUnit report; --parallel 4 over 8 copies
// passes and leaves no process.
func TestFlowExportAndRun(t *testing.T) {
	python, dir := signUpApp(t, t.TempDir())
	env, tmp := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn")

	c := startClient(t, env)
	mustCall(t, c, "session_start", map[string]any{"run": python + " " + filepath.Join(dir, "app.py") + " $PORT", "cwd": dir})
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": "/"})
	mustCall(t, c, "browser_type", map[string]any{"target": refOf(t, snap, "textbox", "Name"), "text": "Ada"})
	mustCall(t, c, "browser_type", map[string]any{"target": refOf(t, snap, "textbox", "Password"), "text": "hunter2"})
	mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "button", "Sign up")})
	mustCall(t, c, "browser_expect", map[string]any{"target": "role=status", "check": "text", "expected": "Welcome, Ada!"})
	flowFile := filepath.Join(dir, "signup.yaml")
	out := mustCall(t, c, "session_export_flow", map[string]any{"path": flowFile, "name": "sign-up"})
	mustContain(t, "export", out, "Wrote flow sign-up (5 steps)", "set E2E_SECRET_1 in the environment")
	_ = c.Close()
	b, err := os.ReadFile(flowFile)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	t.Logf("the exported flow:\n%s", text)
	mustContain(t, "the flow file", text, "name: sign-up", "run: "+python, "navigate: /",
		`role=textbox[name="Name"]`, `role=button[name="Sign up"]`, "expect:", "Welcome, Ada!")
	if regexp.MustCompile(`\be\d+\b`).MatchString(text) {
		t.Errorf("the flow holds a snapshot ref:\n%s", text)
	}
	if strings.Contains(text, "hunter2") || !strings.Contains(text, "${E2E_SECRET_1}") {
		t.Errorf("the password is written out, or not as an environment reference:\n%s", text)
	}
	env = append(env, "E2E_SECRET_1=hunter2")

	out, code := runFlows(t, env, flowFile)
	if code != 0 || !strings.Contains(out, "PASS  sign-up") {
		t.Fatalf("the exported flow does not replay green (exit %d):\n%s", code, out)
	}

	// The app changes under the flow: the run fails at the click.
	if err := os.WriteFile(filepath.Join(dir, "label.txt"), []byte("Register"), 0o644); err != nil {
		t.Fatal(err)
	}
	art, report := filepath.Join(dir, "artifacts"), filepath.Join(dir, "report.xml")
	out, code = runFlows(t, env, flowFile, "--junit", report, "--artifacts", art)
	if code != 1 || !strings.Contains(out, `FAIL  sign-up`) || !strings.Contains(out, `step 4, click role=button[name="Sign up"]`) {
		t.Fatalf("the changed app: exit %d:\n%s", code, out)
	}
	md, err := os.ReadFile(filepath.Join(art, "sign-up", "step-4.md"))
	if err != nil {
		t.Fatalf("no artifact of the failing step: %v\n%s", err, out)
	}
	mustContain(t, "the failure artifact", string(md), "element_not_found", "### Dev server log")
	if fi, err := os.Stat(filepath.Join(art, "sign-up", "step-4.jpg")); err != nil || fi.Size() < 1000 {
		t.Errorf("no screenshot of the failing step: %v", err)
	}
	if suite, rb := readJUnit(t, report); suite.Tests != 1 || suite.Failures != 1 || len(suite.Cases) != 1 ||
		suite.Cases[0].Failure == nil || !strings.Contains(suite.Cases[0].Failure.Message, "step 4") {
		t.Errorf("JUnit report: %+v\n%s", suite, rb)
	}

	// Eight copies, four at a time, each in its own session with its own
	// dev server: no cross-talk, nothing left.
	_ = os.Remove(filepath.Join(dir, "label.txt"))
	var files []string
	for i := range 8 {
		f := filepath.Join(dir, fmt.Sprintf("copy%d.yaml", i))
		copyText := strings.Replace(text, "name: sign-up", fmt.Sprintf("name: sign-up-%d", i), 1)
		copyText = strings.Replace(copyText, "text: Ada", fmt.Sprintf("text: Ada%d", i), 1)
		copyText = strings.Replace(copyText, "Welcome, Ada!", fmt.Sprintf("Welcome, Ada%d!", i), 1)
		if err := os.WriteFile(f, []byte(copyText), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	start := time.Now()
	out, code = runFlows(t, env, append(files, "--parallel", "4")...)
	if code != 0 || strings.Count(out, "PASS  sign-up-") != 8 {
		t.Fatalf("8 copies, 4 at a time: exit %d:\n%s", code, out)
	}
	t.Logf("8 flows, 4 at a time: %s", time.Since(start).Round(time.Millisecond))
	requireNoChrome(t, tmp, 10*time.Second)
	if left := appProcesses(dir); len(left) > 0 {
		t.Errorf("dev servers left: %v", left)
	}
}

// What the agent types in the echo page's fields (textareas, so line breaks
// stay): each must reach the page as it was typed, in the session and in
// every replay, whatever it holds: $ and ${...} that look like environment
// variables, the flow format's own escape, quotes, backslashes, line breaks,
// what ends a comment or a script, and Unicode.
var hostileTexts = []string{
	"PROMO-$AWS_SECRET_ACCESS_KEY",
	"${HOME} and $HOME and ${E2E_SECRET_1}",
	"$100, $$, $${HOME}, $$$x, $",
	"${",
	"${NOT A NAME} ${} ${1x} $-x ${x",
	`it's "quoted" \ back\\slash \n \u0041 \${x}`,
	"line one\nline two\n\ttab",
	"*/ </script><script>alert(1)</script> <!-- `${x}`",
	"Grüße 日本語 😀 \u2028 ∑ \ufeff",
}

// What browser_fill_form fills (fields 10 and 11): the same care inside the
// step's list of fields.
var hostileForm = []string{"$AWS_SECRET_ACCESS_KEY", "${HOME}x$$"}

// hostilePassword is typed into the password field: recorded as
// ${E2E_SECRET_1}, whose value is read as it is (not expanded again).
const hostilePassword = "pa$$word-${HOME}-$x"

// hostileQuery is the query of the URL the agent navigates to.
const hostileQuery = "ref=$AWS_SECRET_ACCESS_KEY&home=${HOME}&cost=$100&esc=$$"

// hostileEnv sets the variables the hostile texts name to values that must
// never reach the page, and E2E_SECRET_1 to the password typed.
func hostileEnv() []string {
	return []string{"AWS_SECRET_ACCESS_KEY=LEAKED-aws", "HOME=" + os.Getenv("HOME"), "x=LEAKED-x",
		"E2E_SECRET_1=" + hostilePassword}
}

// echoPost is what the echo page posts: its fields, the password and what
// /api/greeting answered (a route's body).
type echoPost struct {
	Fields   []string `json:"fields"`
	Password string   `json:"password"`
	Greeting string   `json:"greeting"`
}

// echoSite is the fixture of the echo page: each load's query, each post.
type echoSite struct {
	*fixture
	mu      sync.Mutex
	queries []string
	posts   []echoPost
}

// hostileGreeting is the body the recorded route answers /api/greeting with.
const hostileGreeting = "Hi $USER, ${HOME} costs $5$$"

func newEchoSite(t *testing.T) *echoSite {
	t.Helper()
	s := &echoSite{}
	n := len(hostileTexts) + len(hostileForm)
	page := "<!doctype html>\n<title>Echo</title>\n<h1>Echo</h1>\n"
	for i := range n {
		page += fmt.Sprintf("<label>Field %d <textarea></textarea></label>\n", i+1)
	}
	page += `<label>Password <input type="password"></label>
<button>Send</button>
<p role="status"></p>
<script>
let sent = 0;
document.querySelector('button').onclick = async () => {
  const greeting = await (await fetch('/api/greeting')).text();
  const fields = [...document.querySelectorAll('textarea')].map((t) => t.value);
  const password = document.querySelector('input[type=password]').value;
  await fetch('/api/observe', {method: 'POST', body: JSON.stringify({fields, password, greeting})});
  document.querySelector('[role=status]').textContent = 'Received ' + (++sent);
};
</script>
`
	s.fixture = newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /echo.html", func(w http.ResponseWriter, r *http.Request) {
			s.mu.Lock()
			s.queries = append(s.queries, r.URL.RawQuery)
			s.mu.Unlock()
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, page)
		})
		mux.HandleFunc("GET /api/greeting", func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, "not routed")
		})
		mux.HandleFunc("POST /api/observe", func(w http.ResponseWriter, r *http.Request) {
			var p echoPost
			if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			s.mu.Lock()
			s.posts = append(s.posts, p)
			s.mu.Unlock()
		})
	})
	return s
}

// seen returns the queries and posts so far.
func (s *echoSite) seen() ([]string, []echoPost) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string{}, s.queries...), append([]echoPost{}, s.posts...)
}

// check says what the last post and load got wrong: every field as typed,
// the password, the route's body, the query as the session's own load saw it.
func (s *echoSite) check(t *testing.T, what string, password string) {
	t.Helper()
	queries, posts := s.seen()
	if len(posts) == 0 || len(queries) == 0 {
		t.Fatalf("%s: the page was not loaded or posted nothing (loads %q, posts %d)", what, queries, len(posts))
	}
	p := posts[len(posts)-1]
	want := append(append([]string{}, hostileTexts...), hostileForm...)
	if len(p.Fields) != len(want) {
		t.Fatalf("%s: %d fields posted, want %d", what, len(p.Fields), len(want))
	}
	for i, w := range want {
		if p.Fields[i] != w {
			t.Errorf("%s: field %d reached the page as\n%q\nwant\n%q", what, i+1, p.Fields[i], w)
		}
	}
	if p.Password != password {
		t.Errorf("%s: the password reached the page as %q, want %q", what, p.Password, password)
	}
	if p.Greeting != hostileGreeting {
		t.Errorf("%s: the route answered %q, want %q", what, p.Greeting, hostileGreeting)
	}
	if q := queries[len(queries)-1]; q != queries[0] || strings.Contains(q, "LEAKED") || !strings.Contains(q, "$AWS_SECRET_ACCESS_KEY") {
		t.Errorf("%s: the page was loaded with the query %q; the session loaded it with %q", what, q, queries[0])
	}
}

// hostileSession types the hostile texts into the echo page through MCP
// (browser_type, browser_fill_form, a password, a route whose pattern is a
// regular expression of Go's syntax and whose body holds $), sends them, and
// returns a way to call tools on the session; its file roots are dir.
func hostileSession(t *testing.T, dir string) (*echoSite, func(tool string, args map[string]any) string) {
	t.Helper()
	site := newEchoSite(t)
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn", "E2E_MCP_CAPS=network")
	c := startClient(t, env)
	must := func(tool string, args map[string]any) string { return mustCall(t, c, tool, args) }
	// (?i) is Go's syntax, not JavaScript's: the Playwright export translates it.
	must("browser_route", map[string]any{"pattern": "/(?i)/API/greeting$/", "body": hostileGreeting, "contentType": "text/plain"})
	snap := must("browser_navigate", map[string]any{"url": site.URL + "/echo.html?" + hostileQuery})
	for i, s := range hostileTexts {
		must("browser_type", map[string]any{"target": refOf(t, snap, "textbox", fmt.Sprintf("Field %d", i+1)), "text": s})
	}
	var fields []any
	for i, s := range hostileForm {
		n := len(hostileTexts) + i + 1
		fields = append(fields, map[string]any{"target": refOf(t, snap, "textbox", fmt.Sprintf("Field %d", n)), "type": "textbox", "value": s})
	}
	must("browser_fill_form", map[string]any{"fields": fields})
	must("browser_type", map[string]any{"target": refOf(t, snap, "textbox", "Password"), "text": hostilePassword})
	must("browser_click", map[string]any{"target": refOf(t, snap, "button", "Send")})
	must("browser_expect", map[string]any{"target": "role=status", "check": "text", "expected": "Received 1"})
	site.check(t, "the session", hostilePassword)
	return site, must
}

// TestFlowReplaysTextExactly: what an agent typed or navigated to replays
// byte for byte under `e2e-mcp run`, even with the variables its $ and ${...}
// name set in the environment; only the recorder's ${E2E_SECRET_1} reads
// the environment. A variable the flow reads that is not set fails the flow
// before its first step, naming it (stdout and JUnit); set but empty, it is
// read as empty.
func TestFlowReplaysTextExactly(t *testing.T) {
	dir := t.TempDir()
	site, must := hostileSession(t, dir)
	flowFile := filepath.Join(dir, "echo.yaml")
	must("session_export_flow", map[string]any{"path": flowFile, "name": "echo"})
	b, err := os.ReadFile(flowFile)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the exported flow:\n%s", b)
	if strings.Contains(string(b), hostilePassword) {
		t.Errorf("the password is written out:\n%s", b)
	}

	env, tmp := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_LOG_LEVEL=warn")
	out, code := runFlows(t, append(env, hostileEnv()...), flowFile)
	if code != 0 || !strings.Contains(out, "PASS  echo") {
		t.Fatalf("the flow does not replay green (exit %d):\n%s", code, out)
	}
	site.check(t, "e2e-mcp run", hostilePassword)

	// E2E_SECRET_1 unset: the flow fails before its first step, naming it.
	var unset []string
	for _, kv := range append(env, hostileEnv()...) {
		if !strings.HasPrefix(kv, "E2E_SECRET_1=") {
			unset = append(unset, kv)
		}
	}
	loads, _ := site.seen()
	junit := filepath.Join(dir, "junit.xml")
	out, code = runFlows(t, unset, flowFile, "--junit", junit)
	if code != 1 || !strings.Contains(out, "FAIL  echo") || !strings.Contains(out, "E2E_SECRET_1") {
		t.Fatalf("E2E_SECRET_1 unset: exit %d, want a failure naming it:\n%s", code, out)
	}
	if now, _ := site.seen(); len(now) != len(loads) {
		t.Errorf("E2E_SECRET_1 unset: the flow loaded the page (a step ran):\n%s", out)
	}
	jb, err := os.ReadFile(junit)
	if err != nil || !strings.Contains(string(jb), "E2E_SECRET_1") || !strings.Contains(string(jb), "<failure") {
		t.Errorf("the JUnit report does not name the variable (%v):\n%s", err, jb)
	}
	t.Logf("unset: %s", out)

	// Set but empty: read as empty.
	out, code = runFlows(t, append(unset, "E2E_SECRET_1="), flowFile)
	if code != 0 {
		t.Fatalf("E2E_SECRET_1 empty: exit %d:\n%s", code, out)
	}
	site.check(t, "e2e-mcp run, E2E_SECRET_1 empty", "")
	requireNoChrome(t, tmp, 10*time.Second)
}

// gatedSite serves /open (a page) and /gate, a page whose answer waits
// until release is called (or the browser gives up on it).
type gatedSite struct {
	*httptest.Server
	once    sync.Once
	release chan struct{}
}

func newGatedSite(t *testing.T) *gatedSite {
	t.Helper()
	g := &gatedSite{release: make(chan struct{})}
	g.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/gate" {
			select {
			case <-g.release:
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<!doctype html><title>%s</title><p>%s</p>", r.URL.Path, r.URL.Path)
	}))
	t.Cleanup(g.Close)
	return g
}

func (g *gatedSite) open() { g.once.Do(func() { close(g.release) }) }

// writeFlow writes a flow that navigates to url, in dir, and returns its
// file.
func writeFlow(t *testing.T, dir, name, url string) string {
	t.Helper()
	f := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(f, []byte("name: "+name+"\nsteps:\n  - navigate: "+url+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// runStreaming runs `e2e-mcp run`, calls onLine with each line of its
// stdout as it comes, and returns its stdout lines, stderr and exit code.
func runStreaming(t *testing.T, env []string, onLine func(string), args ...string) ([]string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"run"}, args...)...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		onLine(sc.Text())
	}
	code := 0
	if err := cmd.Wait(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	return lines, stderr.String(), code
}

// TestRunPrintsEachResult: `e2e-mcp run` prints each flow's result as it
// ends, not at the end of the run: a flow that waits for a page that
// answers only once the test has read the previous flow's PASS line passes.
// One at a time, flows run and print in the order given; with --parallel
// they print as they finish, each line naming its flow. The summary line
// stays last. A CI job's output is results, not INFO logs, unless
// --log-level asks for them.
func TestRunPrintsEachResult(t *testing.T) {
	dir := t.TempDir()
	base, _ := serverEnv(t)
	env := append(withoutEnv(base, "E2E_MCP_LOG_LEVEL", "E2E_MCP_LOG_FORMAT"), "E2E_MCP_NAVIGATION_TIMEOUT=20s")
	results := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			if strings.HasPrefix(l, "PASS") || strings.HasPrefix(l, "FAIL") {
				out = append(out, strings.Join(strings.Fields(l)[:2], " "))
			}
		}
		return out
	}

	// One at a time: first, gated (opens once first's PASS is read), third.
	g := newGatedSite(t)
	files := []string{writeFlow(t, dir, "first", g.URL+"/open"), writeFlow(t, dir, "second", g.URL+"/gate"), writeFlow(t, dir, "third", g.URL+"/open")}
	lines, stderr, code := runStreaming(t, env, func(l string) {
		if strings.HasPrefix(l, "PASS  first ") {
			g.open()
		}
	}, files...)
	if got := results(lines); code != 0 || strings.Join(got, ", ") != "PASS first, PASS second, PASS third" {
		t.Errorf("three flows one at a time: exit %d, results %v, want first, second, third passed in that order:\n%s\nstderr:\n%s",
			code, got, strings.Join(lines, "\n"), stderr)
	}
	if len(lines) == 0 || !strings.HasPrefix(lines[len(lines)-1], "3 flow(s), 3 passed, 0 failed") {
		t.Errorf("the summary is not the last line:\n%s", strings.Join(lines, "\n"))
	}
	if strings.Contains(stderr, "INFO") || strings.Contains(stderr, `"level":"info"`) {
		t.Errorf("a run's stderr has INFO logs by default:\n%s", stderr)
	}

	// Two at a time: slow (opens once quick's PASS is read) ends last.
	g = newGatedSite(t)
	files = []string{writeFlow(t, dir, "slow", g.URL+"/gate"), writeFlow(t, dir, "quick", g.URL+"/open")}
	lines, stderr, code = runStreaming(t, env, func(l string) {
		if strings.HasPrefix(l, "PASS  quick ") {
			g.open()
		}
	}, append(files, "--parallel", "2", "--log-level", "info")...)
	if got := results(lines); code != 0 || strings.Join(got, ", ") != "PASS quick, PASS slow" {
		t.Errorf("--parallel 2: exit %d, results %v, want quick then slow:\n%s\nstderr:\n%s", code, got, strings.Join(lines, "\n"), stderr)
	}
	if !strings.Contains(stderr, "INFO") {
		t.Errorf("--log-level info: no INFO log on stderr:\n%s", stderr)
	}
}

// TestRunArtifactsCarryEarlierErrors: a flow whose click throws an uncaught
// exception (the click itself succeeds) and whose next step then fails
// saves step-N.md with that exception, as the report shows it: the failing
// step's own answer has only the errors since the step before.
func TestRunArtifactsCarryEarlierErrors(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Boom</title><button onclick="window.boom()">Save</button>
<script>window.boom = () => { throw new TypeError('the cart is undefined (kaboom-4711)') }</script>`)
	}))
	defer site.Close()
	dir := t.TempDir()
	flowFile := filepath.Join(dir, "boom.yaml")
	if err := os.WriteFile(flowFile, []byte(`name: boom
steps:
  - navigate: `+site.URL+`/
  - click: 'role=button[name="Save"]'
  - expect: {target: 'text=Saved', check: visible}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_LOG_LEVEL=warn", "E2E_MCP_ACTION_TIMEOUT=1s")
	art := filepath.Join(dir, "artifacts")
	out, code := runFlows(t, env, flowFile, "--artifacts", art)
	if code != 1 || !strings.Contains(out, "FAIL  boom") || !strings.Contains(out, "step 3") {
		t.Fatalf("want the flow to fail at step 3: exit %d:\n%s", code, out)
	}
	md, err := os.ReadFile(filepath.Join(art, "boom", "step-3.md"))
	if err != nil {
		t.Fatalf("no artifact of the failing step: %v\n%s", err, out)
	}
	mustContain(t, "step-3.md", string(md), "kaboom-4711", "TypeError")
}

// TestRunDoesOnlyWhatIsRead: a replay does none of the work an agent's
// session does for the agent. Its actions record no flow step (nothing
// exports a replay), so none reads the target's fingerprint before it
// acts; and without a report, no action's answer snapshots the page
// (nobody reads it). A failing step's answer shows the page as before (a
// screenshot and a diagnosis of its own). With --report, each step's
// answer shows the page again.
// Counted in the CDP log (debug level), in calls of the page engine.
func TestRunDoesOnlyWhatIsRead(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Counter</title><button onclick="this.textContent='Saved'">Save</button><p>Ready</p>`)
	}))
	defer site.Close()
	dir := t.TempDir()
	write := func(name, last string) string {
		f := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(f, []byte("name: "+name+"\nsteps:\n  - navigate: "+site.URL+"/\n"+
			"  - click: 'role=button[name=\"Save\"]'\n  - expect: {target: 'role=button[name=\"Saved\"]', check: visible}\n"+last), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	pass, fail := write("pass", ""), write("fail", "  - click: 'role=button[name=\"Gone\"]'\n")
	base, _ := serverEnv(t)
	env := append(withoutEnv(base, "E2E_MCP_LOG_FORMAT"), "E2E_MCP_LOG_LEVEL=debug", "E2E_MCP_ACTION_TIMEOUT=1s")
	count := func(out string) (snapshots, prints int) {
		return strings.Count(out, "__e2e.snapshot("), strings.Count(out, "__e2e.fingerprint(")
	}
	out, code := runFlows(t, env, pass)
	if snaps, prints := count(out); code != 0 || snaps != 0 || prints != 0 {
		t.Errorf("a passing flow, JUnit only: exit %d, %d snapshot(s) and %d fingerprint(s) of the page read, want 0 and 0", code, snaps, prints)
	}
	art := filepath.Join(dir, "artifacts")
	out, code = runFlows(t, env, fail, "--artifacts", art)
	md, err := os.ReadFile(filepath.Join(art, "fail", "step-4.md"))
	if code != 1 || err != nil {
		t.Fatalf("a failing flow: exit %d, its step-4.md: %v\n%s", code, err, out)
	}
	mustContain(t, "the failing step's artifact", string(md), "Screenshot at the failure", "### Diagnosis")
	out, code = runFlows(t, env, pass, "--report", filepath.Join(dir, "report"))
	if snaps, prints := count(out); code != 0 || snaps < 2 || prints != 0 {
		t.Errorf("a passing flow with --report: exit %d, %d snapshot(s) and %d fingerprint(s), want one an action and none", code, snaps, prints)
	}
}

// junitSuite is the one test suite of the JUnit file `e2e-mcp run --junit`
// writes, as far as the tests read it.
type junitSuite struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Cases    []struct {
		Name      string `xml:"name,attr"`
		SystemOut string `xml:"system-out"`
		Failure   *struct {
			Message string `xml:"message,attr"`
			Type    string `xml:"type,attr"`
			Text    string `xml:",chardata"`
		} `xml:"failure"`
	} `xml:"testcase"`
}

// readJUnit reads the JUnit file at path, which must hold one suite; it
// returns the file's bytes too, for messages.
func readJUnit(t *testing.T, path string) (junitSuite, []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []junitSuite `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil || len(doc.Suites) != 1 {
		t.Fatalf("the JUnit file %s: %v (want one suite)\n%s", path, err, b)
	}
	return doc.Suites[0], b
}
