package e2e

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
)

// healApp copies the two versions of the shop (testdata/healapp) into dir
// and returns the dev-server command line that serves the version
// dir/version.txt names.
func healApp(t *testing.T, dir string) string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for this test: %v", err)
	}
	for _, f := range []string{"app.py", "v1/index.html", "v1/help.html", "v1/order.html", "v2/index.html", "v2/help.html", "v2/order.html"} {
		b, err := os.ReadFile(filepath.Join("testdata/healapp", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return python + " " + filepath.Join(dir, "app.py") + " $PORT"
}

// recordFlow records what act does in a session of its own on the app's
// dev server and exports it as dir/NAME.yaml.
func recordFlow(t *testing.T, c *client.Client, dev, dir, name string, act func(do func(tool string, args map[string]any) string)) string {
	t.Helper()
	do := func(tool string, args map[string]any) string {
		args["sessionId"] = name
		return mustCall(t, c, tool, args)
	}
	do("session_start", map[string]any{"run": dev, "cwd": dir})
	act(do)
	file := filepath.Join(dir, name+".yaml")
	do("session_export_flow", map[string]any{"path": file, "name": name})
	do("session_end", map[string]any{})
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s, recorded on v1:\n%s", name, b)
	return file
}

// TestHealAfterTheAppChanged: flows recorded through MCP on v1 of a shop
// carry a fingerprint of each target. On v2 the plain run fails each flow
// at its first drift, naming the likely same element's locator (in the
// output, the artifacts and JUnit); `run --heal` passes the four drifts
// (a renamed button, a field wrapped in a new component, a changed test
// id, a link moved into the menu) as HEALED, exits 1 without --heal-ok,
// writes the repaired flow beside the original with a diff, and the
// repaired flow then passes plainly. It never heals the expect on a
// reworded heading, nor a click whose button became two of near names;
// --heal=write --heal-ok repairs in place and exits 0. session_check_flow
// gives an agent the same diagnosis in its session.
func TestHealAfterTheAppChanged(t *testing.T) {
	dir := t.TempDir()
	dev := healApp(t, dir)
	env, tmp := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn")

	c := startClient(t, env)
	drifts := recordFlow(t, c, dev, dir, "drifts", func(do func(string, map[string]any) string) {
		snap := do("browser_navigate", map[string]any{"url": "/"})
		do("browser_type", map[string]any{"target": refOf(t, snap, "textbox", "Email"), "text": "ada@example.com"})
		do("browser_click", map[string]any{"target": refOf(t, snap, "button", "Sign up")})
		do("browser_expect", map[string]any{"target": "#status", "check": "text", "expected": "Welcome, ada@example.com!"})
		do("browser_click", map[string]any{"target": refOf(t, snap, "button", "Add")}) // Milk's, the first
		do("browser_expect", map[string]any{"target": "#milk-count", "check": "text", "expected": "1"})
		do("browser_expect", map[string]any{"target": "#bread-count", "check": "text", "expected": "0"})
		do("browser_click", map[string]any{"target": refOf(t, snap, "link", "Help center")})
		do("browser_expect", map[string]any{"target": "h1", "check": "text", "expected": "How can we help?"})
	})
	order := recordFlow(t, c, dev, dir, "order", func(do func(string, map[string]any) string) {
		snap := do("browser_navigate", map[string]any{"url": "/order"})
		_ = snap
		do("browser_expect", map[string]any{"target": `role=heading[name="Order placed"]`, "check": "text", "expected": "Order placed"})
	})
	decoy := recordFlow(t, c, dev, dir, "decoy", func(do func(string, map[string]any) string) {
		snap := do("browser_navigate", map[string]any{"url": "/"})
		do("browser_click", map[string]any{"target": refOf(t, snap, "button", "Delete")})
		do("browser_expect", map[string]any{"target": "#basket", "check": "text", "expected": "empty"})
	})
	_ = c.Close()
	b, _ := os.ReadFile(drifts)
	mustContain(t, "the recorded flow", string(b), `click: role=button[name="Sign up"]`,
		`fingerprint: {role: button, name: Sign up, testId: signup-submit, tag: button, within: [main, form "Sign up", heading "Welcome"]}`,
		`click: testid="add-milk"`, `within: [main, region "Milk", heading "Milk"]`,
		`fingerprint: {role: textbox, name: Email, label: Email, placeholder: you@example.com, tag: input`,
		`href: /help`)

	flows := []string{drifts, order, decoy}
	out, code := runFlows(t, env, flows...)
	if code != 0 || strings.Count(out, "PASS  ") != 3 {
		t.Fatalf("the flows do not replay on v1 (exit %d):\n%s", code, out)
	}

	// v2: each flow fails at its first drift, and says what it likely is.
	if err := os.WriteFile(filepath.Join(dir, "version.txt"), []byte("v2"), 0o644); err != nil {
		t.Fatal(err)
	}
	art, junit := filepath.Join(dir, "artifacts"), filepath.Join(dir, "plain.xml")
	out, code = runFlows(t, env, append(flows, "--artifacts", art, "--junit", junit)...)
	t.Logf("the plain run on v2:\n%s", out)
	if code != 1 || strings.Count(out, "FAIL  ") != 3 {
		t.Fatalf("the plain run on v2: exit %d:\n%s", code, out)
	}
	mustContain(t, "the plain run's output", out,
		"step 2, type role=textbox[name=\"Email\"]",
		"diagnosis: `role=textbox[name=\"Email\"]` found nothing; `role=textbox[name=\"Email address\"]` is the likely same element",
		`same placeholder "you@example.com"`,
		"diagnosis: `role=heading[name=\"Order placed\"]` found nothing; `role=heading[name=\"Order confirmed\"]` is the closest",
		"`role=button[name=\"Delete item\"]` and `role=button[name=\"Delete all\"]` are too alike to choose between")
	md, err := os.ReadFile(filepath.Join(art, "drifts", "step-2.md"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "the artifact", string(md), "### Diagnosis", "`role=textbox[name=\"Email address\"]` is the likely same element")
	suite, jb := readJUnit(t, junit)
	if len(suite.Cases) != 3 {
		t.Fatalf("JUnit: want 3 cases\n%s", jb)
	}
	if f := suite.Cases[0].Failure; f == nil || !strings.Contains(f.Message, "diagnosis: `role=textbox[name=\"Email\"]` found nothing; `role=textbox[name=\"Email address\"]`") {
		t.Errorf("the JUnit message lacks the diagnosis: %+v", f)
	}

	// Through MCP: session_check_flow replays the flow in an agent's session
	// on its dev server and gives the same diagnosis to act on.
	c = startClient(t, append(env, "E2E_MCP_CAPS=report"))
	mustCall(t, c, "session_start", map[string]any{"run": dev, "cwd": dir})
	res := call(t, c, "session_check_flow", map[string]any{"path": drifts})
	if !res.IsError {
		t.Fatalf("session_check_flow passed on v2:\n%s", text(res))
	}
	mustContain(t, "session_check_flow", text(res), "element_not_found", "Flow drifts: step 2 of 9 (type) failed",
		"### Diagnosis\n`role=textbox[name=\"Email\"]` found nothing; `role=textbox[name=\"Email address\"]` is the likely same element",
		"set step 2's target to: role=textbox[name=\"Email address\"]", "(in a Playwright spec: page.getByRole('textbox'")
	_ = c.Close()

	// --heal: the four drifts heal, the reworded heading and the decoy do not.
	report := filepath.Join(dir, "reports")
	junit = filepath.Join(dir, "healed.xml")
	out, code = runFlows(t, env, append(flows, "--heal", "--junit", junit, "--report", report)...)
	t.Logf("the healed run on v2:\n%s", out)
	if code != 1 {
		t.Errorf("a healed run without --heal-ok exits %d, want 1", code)
	}
	mustContain(t, "the healed run's output", out,
		"HEALED  drifts ("+drifts+")", "4 steps healed",
		`HEALED step 2, type: role=textbox[name="Email"] -> role=textbox[name="Email address"]`,
		`HEALED step 3, click: role=button[name="Sign up"] -> role=button[name="Create account"] (test id "signup-submit"`,
		`HEALED step 5, click: testid="add-milk" -> testid="add-item-milk"`,
		`HEALED step 8, click: role=link[name="Help center"] -> role=link[name="Help"] (name "Help" (was "Help center": a word dropped), same link to "/help"`,
		"repaired flow: "+strings.TrimSuffix(drifts, ".yaml")+".healed.yaml",
		`      -       target: role=textbox[name="Email"]`, `      +       target: role=textbox[name="Email address"]`,
		`      -   - click: role=link[name="Help center"]`, `      +   - click: role=link[name="Help"]`,
		"FAIL  order", "FAIL  decoy",
		"`role=heading[name=\"Order confirmed\"]` is the closest",
		"1 healed, 2 failed")
	if strings.Contains(out, "HEALED step 2, expect") || strings.Contains(out, `-> role=button[name="Delete`) {
		t.Errorf("the expect or the decoy was healed:\n%s", out)
	}
	jb, _ = os.ReadFile(junit)
	mustContain(t, "the healed run's JUnit", string(jb), `type="healed"`, "HEALED: 4 steps healed")
	html, err := os.ReadFile(filepath.Join(report, "drifts.html"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "the healed flow's report", string(html), "HEALED step 3", "HEALED: 4 steps healed")
	if html, err = os.ReadFile(filepath.Join(report, "order.html")); err != nil {
		t.Fatal(err)
	}
	mustContain(t, "the changed expect's report", string(html), "Diagnosis: `role=heading[name=&#34;Order placed&#34;]` found nothing")

	healed := strings.TrimSuffix(drifts, ".yaml") + ".healed.yaml"
	hb, err := os.ReadFile(healed)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the repaired flow:\n%s", hb)
	out, code = runFlows(t, env, healed)
	if code != 0 || !strings.Contains(out, "PASS  drifts") {
		t.Fatalf("the repaired flow does not pass plainly (exit %d):\n%s", code, out)
	}
	if again, _ := os.ReadFile(drifts); string(again) != string(b) {
		t.Errorf("--heal changed the original flow")
	}

	// In place, accepted.
	out, code = runFlows(t, env, drifts, "--heal=write", "--heal-ok")
	if code != 0 || !strings.Contains(out, "HEALED  drifts") {
		t.Fatalf("--heal=write --heal-ok: exit %d:\n%s", code, out)
	}
	if inPlace, _ := os.ReadFile(drifts); string(inPlace) != string(hb) {
		t.Errorf("--heal=write wrote\n%s\nwant what --heal wrote beside it\n%s", inPlace, hb)
	}
	requireNoChrome(t, tmp, 10*time.Second)
	if left := appProcesses(dir); len(left) > 0 {
		t.Errorf("dev servers left: %v", left)
	}
}

// loginApp serves the sign-in page of testdata/healapp/login in the
// version *version names (v1: a password field #password; v2: a plain
// text field of the same label; v3: a password field of a new id) and
// keeps what its fields said they hold as they were typed into ("id=value").
type loginApp struct {
	*fixture
	mu      sync.Mutex
	version string
	typed   []string
}

func newLoginApp(t *testing.T) *loginApp {
	a := &loginApp{version: "v1"}
	a.fixture = newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /login", func(w http.ResponseWriter, r *http.Request) {
			a.mu.Lock()
			v := a.version
			a.mu.Unlock()
			b, err := testdata.ReadFile("testdata/healapp/login/" + v + ".html")
			if err != nil {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(b)
		})
		mux.HandleFunc("GET /login.js", func(w http.ResponseWriter, r *http.Request) {
			b, _ := testdata.ReadFile("testdata/healapp/login/login.js")
			w.Header().Set("Content-Type", "text/javascript")
			_, _ = w.Write(b)
		})
		mux.HandleFunc("POST /typed", func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			a.mu.Lock()
			a.typed = append(a.typed, string(b))
			a.mu.Unlock()
		})
	})
	return a
}

// serve switches the app to version v and forgets what was typed.
func (a *loginApp) serve(v string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.version, a.typed = v, nil
}

// typedInto is what the field of id said it holds, last.
func (a *loginApp) typedInto(id string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	got := ""
	for _, kv := range a.typed {
		if k, v, _ := strings.Cut(kv, "="); k == id {
			got = v
		}
	}
	return got
}

// TestHealKeepsTheFieldKind: a flow recorded on a password field records
// its kind (type: password, secret: true) and types ${E2E_SECRET_1}. When
// the app shows a plain text field of the same label instead, `run
// --heal --heal-ok` does not heal onto it: the run fails, its diagnosis
// names the likely same element and why it was refused, the secret never
// reaches the page's text field, nothing is written as repaired, and the
// report says the same; so too for a flow whose fingerprint was recorded
// before the kind was (an old flow), whose text is a secret. When the app
// gives the password field a new id, the step heals onto it.
func TestHealKeepsTheFieldKind(t *testing.T) {
	const secret = "Hunter-2-secret"
	app := newLoginApp(t)
	dir := t.TempDir()
	env, tmp := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn")

	c := startClient(t, env)
	do := func(tool string, args map[string]any) string { return mustCall(t, c, tool, args) }
	snap := do("browser_navigate", map[string]any{"url": app.URL + "/login"})
	do("browser_type", map[string]any{"target": refOf(t, snap, "textbox", "Email"), "text": "ada@example.com"})
	do("browser_type", map[string]any{"target": "#password", "text": secret})
	do("browser_click", map[string]any{"target": refOf(t, snap, "button", "Sign in")})
	do("browser_expect", map[string]any{"target": "#status", "check": "text", "expected": "Signed in as ada@example.com"})
	login := filepath.Join(dir, "login.yaml")
	do("session_export_flow", map[string]any{"path": login, "name": "login"})
	_ = c.Close()
	recorded := readFile(t, login)
	t.Logf("recorded on v1:\n%s", recorded)
	mustContain(t, "the recorded flow", recorded, "      target: '#password'\n      text: ${E2E_SECRET_1}\n"+
		"    fingerprint: {role: textbox, name: Password, label: Password, tag: input, type: password, secret: true,",
		"tag: input, type: email,")
	if app.typedInto("password") != secret {
		t.Fatalf("the recording typed %q into the password field", app.typedInto("password"))
	}

	env = append(env, "E2E_SECRET_1="+secret)
	app.serve("v1")
	if out, code := runFlows(t, env, login); code != 0 {
		t.Fatalf("the flow does not replay on v1 (exit %d):\n%s", code, out)
	}

	// v2: the likely same element is a text field; it is refused.
	refused := func(file, why string) {
		t.Helper()
		app.serve("v2")
		reports := filepath.Join(filepath.Dir(file), "reports")
		out, code := runFlows(t, env, file, "--heal", "--heal-ok", "--report", reports)
		t.Logf("--heal on v2:\n%s", out)
		if code != 1 || !strings.Contains(out, "FAIL  login") || strings.Contains(out, "HEALED") {
			t.Errorf("a password step healed onto a text field (exit %d):\n%s", code, out)
		}
		mustContain(t, "the run's diagnosis", out, "step 3, type #password",
			"diagnosis: `#password` found nothing; `role=textbox[name=\"Password\"]` is the likely same element", "not healed: "+why)
		if got := app.typedInto("pass-v2"); got != "" {
			t.Errorf("the page's text field was typed into: %q", got)
		}
		html := readTree(t, reports)
		mustContain(t, "the report", html, "not healed: ")
		if strings.Contains(html, secret) || strings.Contains(html, "HEALED") {
			t.Errorf("the report shows the secret or a heal")
		}
		if _, err := os.Stat(strings.TrimSuffix(file, ".yaml") + ".healed.yaml"); !os.IsNotExist(err) {
			t.Errorf("a repaired flow was written: %v", err)
		}
	}
	refused(login, "it is <input type=text> and the step's field was a password field (<input type=password>): a heal never changes the kind of field a step types into")

	// A flow recorded before the kind was: its text is a secret.
	old := filepath.Join(dir, "old", "login.yaml")
	if err := os.MkdirAll(filepath.Dir(old), 0o755); err != nil {
		t.Fatal(err)
	}
	oldText := strings.NewReplacer(", type: password, secret: true", "", ", type: email", "").Replace(recorded)
	if oldText == recorded || strings.Contains(oldText, "type: password") {
		t.Fatalf("the flow's fingerprints are not as expected:\n%s", recorded)
	}
	if err := os.WriteFile(old, []byte(oldText), 0o644); err != nil {
		t.Fatal(err)
	}
	refused(old, "it is <input type=text>, which shows what is typed, and the step types a secret (${E2E_SECRET_1}): a heal never types a secret where the page shows it")

	// v3: a password field of a new id; the step heals onto it.
	app.serve("v3")
	out, code := runFlows(t, env, login, "--heal", "--heal-ok")
	t.Logf("--heal on v3:\n%s", out)
	if code != 0 {
		t.Fatalf("a password step does not heal onto a password field (exit %d):\n%s", code, out)
	}
	mustContain(t, "the healed run", out, "HEALED  login", "HEALED step 3, type: #password -> role=textbox[name=\"Password\"]",
		"-       target: '#password'\n      +       target: 'role=textbox[name=\"Password\"]'\n")
	mustContain(t, "the repaired flow", readFile(t, strings.TrimSuffix(login, ".yaml")+".healed.yaml"),
		"      target: 'role=textbox[name=\"Password\"]'\n      text: ${E2E_SECRET_1}\n"+
			"    fingerprint: {role: textbox, name: Password, label: Password, tag: input, type: password, secret: true,")
	if got := app.typedInto("pass-v3"); got != secret {
		t.Errorf("the password field of v3 holds %q", got)
	}
	requireNoChrome(t, tmp, 10*time.Second)
}

// healShop serves /shop as testdata/healapp's v1 until setVersion names
// another version.
func healShop(t *testing.T) (f *fixture, setVersion func(v string)) {
	t.Helper()
	var version atomic.Value
	version.Store("v1")
	f = newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /shop", func(w http.ResponseWriter, _ *http.Request) {
			b, _ := testdata.ReadFile("testdata/healapp/" + version.Load().(string) + "/index.html")
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(b)
		})
	})
	return f, func(v string) { version.Store(v) }
}

// TestHealWritesOnlyTheHealedStep: `run --heal=write --heal-ok` on a flow
// a person keeps (comments, blank lines, quoting, an absolute URL on
// localhost) changes the healed step's locator and fingerprint and no
// other byte, in an environment whose SESSION_COOKIE_DOMAIN is
// localhost (no secret: its name does not say so); the diff it prints
// shows only that step, and the next plain run passes.
func TestHealWritesOnlyTheHealedStep(t *testing.T) {
	f, setVersion := healShop(t)
	u, err := url.Parse(f.URL)
	if err != nil {
		t.Fatal(err)
	}
	shop := "http://localhost:" + u.Port() + "/shop"
	dir := t.TempDir()
	checkout := filepath.Join(dir, "checkout.yaml")
	src := `# Checkout: kept by hand, run in CI.
name: checkout

steps:
  # the shop, on this machine
  - navigate: ` + shop + `
  - type: {target: "#email", text: 'ada@example.com'}
  - click: role=button[name="Sign up"]   # the submit button
    fingerprint: {role: button, name: Sign up, testId: signup-submit, tag: button, within: [main, form "Sign up", heading "Welcome"]}

  - expect: {target: '#status', check: text, expected: "Welcome, ada@example.com!"}
`
	if err := os.WriteFile(checkout, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	env, tmp := serverEnv(t)
	env = append(env, "E2E_MCP_LOG_LEVEL=warn", "SESSION_COOKIE_DOMAIN=localhost")
	if out, code := runFlows(t, env, checkout); code != 0 {
		t.Fatalf("the flow does not pass on v1 (exit %d):\n%s", code, out)
	}

	setVersion("v2")
	out, code := runFlows(t, env, checkout, "--heal=write", "--heal-ok")
	t.Logf("--heal=write on v2:\n%s", out)
	if code != 0 || !strings.Contains(out, "HEALED  checkout") {
		t.Fatalf("--heal=write --heal-ok: exit %d:\n%s", code, out)
	}
	want := strings.Replace(src, `  - click: role=button[name="Sign up"]   # the submit button
    fingerprint: {role: button, name: Sign up,`, `  - click: role=button[name="Create account"]   # the submit button
    fingerprint: {role: button, name: Create account,`, 1)
	got := readFile(t, checkout)
	if got != want {
		t.Errorf("--heal=write wrote\n%s\nwant\n%s", got, want)
	}
	mustContain(t, "the diff", out, "-   - click: role=button[name=\"Sign up\"]   # the submit button",
		"+   - click: role=button[name=\"Create account\"]   # the submit button")
	if strings.Contains(out, "•••") || strings.Contains(out, "+   - navigate") || strings.Contains(out, "-   - navigate") {
		t.Errorf("the output masks or changes what was not healed:\n%s", out)
	}
	if out, code := runFlows(t, env, checkout); code != 0 || !strings.Contains(out, "PASS  checkout") {
		t.Errorf("the repaired flow does not pass plainly (exit %d):\n%s", code, out)
	}
	requireNoChrome(t, tmp, 10*time.Second)
}

// TestHealLeavesARowsTarget: a healed step whose target reads a data
// row's field (each row's own value) is replayed on the element and the
// flow HEALED, but the file keeps its target: the note says why and names
// this run's element. Before, the row's value was written over
// ${row.label}, breaking every other row.
func TestHealLeavesARowsTarget(t *testing.T) {
	f, setVersion := healShop(t)
	dir := t.TempDir()
	checkout := filepath.Join(dir, "checkout.yaml")
	src := `name: checkout
baseURL: ` + f.URL + `
data:
  - {label: Sign up}
steps:
  - navigate: /shop
  - type: {target: "#email", text: 'ada@example.com'}
  - click: role=button[name="${row.label}"]
    fingerprint: {role: button, name: Sign up, testId: signup-submit, tag: button, within: [main, form "Sign up", heading "Welcome"]}
  - expect: {target: '#status', check: text, expected: "Welcome, ada@example.com!"}
`
	if err := os.WriteFile(checkout, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	env, tmp := serverEnv(t)
	env = append(env, "E2E_MCP_LOG_LEVEL=warn")
	if out, code := runFlows(t, env, checkout); code != 0 {
		t.Fatalf("the flow does not pass on v1 (exit %d):\n%s", code, out)
	}
	setVersion("v2")
	out, code := runFlows(t, env, checkout, "--heal=write", "--heal-ok")
	t.Logf("--heal=write on v2:\n%s", out)
	if code != 0 || !strings.Contains(out, "HEALED  checkout [row 1]") {
		t.Fatalf("--heal=write --heal-ok: exit %d:\n%s", code, out)
	}
	mustContain(t, "the note", out, `step 3 was not rewritten: its target reads ${row.label}, which each run (a data row, the environment) sets; this run's element: role=button[name="Create account"]; set its target by hand`)
	if got := readFile(t, checkout); got != src {
		t.Errorf("the flow file changed:\n%s", got)
	}
	requireNoChrome(t, tmp, 10*time.Second)
}
