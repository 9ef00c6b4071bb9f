//go:build pwcheck

package e2e

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pwReport is what Playwright's JSON reporter says of a run.
type pwReport struct {
	Stats struct {
		Expected   int `json:"expected"`
		Unexpected int `json:"unexpected"`
		Skipped    int `json:"skipped"`
	} `json:"stats"`
	Suites []pwSuite `json:"suites"`
	Errors []struct {
		Message string `json:"message"`
	} `json:"errors"`
}

type pwSuite struct {
	Specs []struct {
		Title string `json:"title"`
		Tests []struct {
			Results []struct {
				Status string `json:"status"`
				Errors []struct {
					Message  string `json:"message"`
					Location struct {
						File string `json:"file"`
						Line int    `json:"line"`
					} `json:"location"`
				} `json:"errors"`
			} `json:"results"`
		} `json:"tests"`
	} `json:"specs"`
	Suites []pwSuite `json:"suites"`
}

// playwrightTest runs `playwright test` of the pinned @playwright/test in
// scripts/pwcheck on a config, with the system Chromium, and returns its
// JSON report and exit code.
func playwrightTest(t *testing.T, config string, env ...string) (pwReport, int) {
	t.Helper()
	pw, err := filepath.Abs("../scripts/pwcheck/node_modules/.bin/playwright")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(pw); err != nil {
		t.Fatalf("@playwright/test is not installed: run make playwright-check (%v)", err)
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium is needed: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	report := filepath.Join(t.TempDir(), "report.json")
	cmd := exec.Command(pw, "test", "-c", config, "--reporter=json")
	cmd.Dir = filepath.Dir(pw)
	cmd.Env = append(os.Environ(), "CI=1", "PORT="+strconv.Itoa(port), "CHROMIUM="+chromium,
		"PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1", "PLAYWRIGHT_JSON_OUTPUT_NAME="+report)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("playwright test: %v\n%s", err, out)
	}
	var r pwReport
	b, err := os.ReadFile(report)
	if err != nil || json.Unmarshal(b, &r) != nil {
		t.Fatalf("no JSON report (exit %d): %v\n%s", code, err, out)
	}
	return r, code
}

// failures lists each failed result's errors as file:line message.
func (s pwSuite) failures() []string {
	var out []string
	for _, sp := range s.Specs {
		for _, te := range sp.Tests {
			for _, r := range te.Results {
				for _, e := range r.Errors {
					out = append(out, e.Location.File+":"+strconv.Itoa(e.Location.Line)+" "+e.Message)
				}
			}
		}
	}
	for _, c := range s.Suites {
		out = append(out, c.failures()...)
	}
	return out
}

// lineOf is the 1-based line of the statement after the comment of a
// step in a spec.
func lineOf(t *testing.T, spec string, step int) int {
	t.Helper()
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "// step "+strconv.Itoa(step)+":") {
			return i + 2
		}
	}
	t.Fatalf("no step %d in %s", step, spec)
	return 0
}

// pwcheckDir is a directory for a test's specs inside scripts/pwcheck,
// where Node finds the pinned @playwright/test; it is removed after.
func pwcheckDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("../scripts/pwcheck", "run-")
	if err != nil {
		t.Fatal(err)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// TestPlaywrightCheck (make playwright-check): the spec a session that
// signed up exports passes under real @playwright/test with the system
// Chromium and the config's webServer; with the button's label changed
// (label.txt) it fails at step 4, the click, on the line the spec gives
// that step; the spec e2e-mcp convert writes of the flow file passes too.
func TestPlaywrightCheck(t *testing.T) {
	dir := pwcheckDir(t)
	_, must, _ := signUpAndExport(t, dir)
	spec := filepath.Join(dir, "signup.spec.ts")
	must("session_export_flow", map[string]any{"path": spec, "name": "sign-up", "format": "playwright"})
	flowFile := filepath.Join(dir, "signup.yaml")
	must("session_export_flow", map[string]any{"path": flowFile, "name": "sign-up"})
	config := filepath.Join(dir, "playwright.config.ts")
	secret := "E2E_SECRET_1=hunter2"

	r, code := playwrightTest(t, config, secret)
	if code != 0 || r.Stats.Expected != 1 || r.Stats.Unexpected != 0 || r.Stats.Skipped != 0 {
		var fails []string
		for _, s := range r.Suites {
			fails = append(fails, s.failures()...)
		}
		t.Fatalf("the exported spec does not pass (exit %d): %+v\n%s", code, r.Stats, strings.Join(fails, "\n"))
	}
	t.Logf("the exported spec passed: %+v", r.Stats)

	// The app changes under the spec: it fails at the click.
	if err := os.WriteFile(filepath.Join(dir, "label.txt"), []byte("Register"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, code = playwrightTest(t, config, secret)
	var fails []string
	for _, s := range r.Suites {
		fails = append(fails, s.failures()...)
	}
	want := spec + ":" + strconv.Itoa(lineOf(t, spec, 4)) + " "
	if code == 0 || r.Stats.Unexpected != 1 || len(fails) == 0 || !strings.HasPrefix(fails[0], want) || !strings.Contains(fails[0], "locator.click") {
		t.Fatalf("the changed app: exit %d, %+v; want the first failure at %s(step 4, the click):\n%s", code, r.Stats, want, strings.Join(fails, "\n"))
	}
	t.Logf("the changed app fails at step 4: %s", strings.SplitN(fails[0], "\n", 2)[0])
	_ = os.Remove(filepath.Join(dir, "label.txt"))

	// e2e-mcp convert of the flow file: its spec and config pass too.
	conv := filepath.Join(dir, "converted")
	if o, err := exec.Command(bin, "convert", flowFile, "--to", "playwright", "--out", conv).CombinedOutput(); err != nil {
		t.Fatalf("e2e-mcp convert: %v\n%s", err, o)
	}
	r, code = playwrightTest(t, filepath.Join(conv, "playwright.config.ts"), secret)
	if code != 0 || r.Stats.Expected != 1 || r.Stats.Unexpected != 0 {
		t.Fatalf("the converted spec does not pass (exit %d): %+v", code, r.Stats)
	}
	if left := appProcesses(dir); len(left) > 0 {
		t.Errorf("dev servers left: %v", left)
	}
}

// TestPlaywrightCheckExactText: the Playwright spec of a session that typed
// hostile texts (TestFlowReplaysTextExactly's) parses under real
// @playwright/test, whatever they hold, its route of Go's (?i) syntax
// included, and sends the page byte for byte what the agent typed, with
// the variables the texts name set; only ${E2E_SECRET_1} reads the
// environment. With E2E_SECRET_1 unset the test fails before its first
// step, naming it, as e2e-mcp run does.
func TestPlaywrightCheckExactText(t *testing.T) {
	dir := pwcheckDir(t)
	site, must := hostileSession(t, dir)
	spec := filepath.Join(dir, "echo.spec.ts")
	must("session_export_flow", map[string]any{"path": spec, "name": "echo", "format": "playwright"})
	if b, err := os.ReadFile(spec); err == nil {
		t.Logf("the exported spec:\n%s", b)
	}
	config := filepath.Join(dir, "playwright.config.ts")

	r, code := playwrightTest(t, config, hostileEnv()...)
	if code != 0 || r.Stats.Expected != 1 || r.Stats.Unexpected != 0 {
		var fails []string
		for _, s := range r.Suites {
			fails = append(fails, s.failures()...)
		}
		for _, e := range r.Errors {
			fails = append(fails, e.Message)
		}
		t.Fatalf("the spec does not pass (exit %d): %+v\n%s", code, r.Stats, strings.Join(fails, "\n"))
	}
	site.check(t, "@playwright/test", hostilePassword)

	var unset []string
	for _, kv := range hostileEnv() {
		if !strings.HasPrefix(kv, "E2E_SECRET_1=") {
			unset = append(unset, kv)
		}
	}
	loads, _ := site.seen()
	r, code = playwrightTest(t, config, unset...)
	var fails []string
	for _, s := range r.Suites {
		fails = append(fails, s.failures()...)
	}
	if code == 0 || r.Stats.Unexpected != 1 || len(fails) == 0 || !strings.Contains(fails[0], "E2E_SECRET_1") {
		t.Fatalf("E2E_SECRET_1 unset: exit %d, %+v; want a failure naming it:\n%s", code, r.Stats, strings.Join(fails, "\n"))
	}
	if now, _ := site.seen(); len(now) != len(loads) {
		t.Errorf("E2E_SECRET_1 unset: the spec loaded the page (a step ran)")
	}
	t.Logf("unset: %s", strings.SplitN(fails[0], "\n", 2)[0])
}

// TestPlaywrightCheckMixedFlows: e2e-mcp convert of two flows, one with a
// dev server (the sign-up app) and one without (a site at an absolute URL),
// writes a config under which `playwright test` runs both specs, and both
// pass.
func TestPlaywrightCheckMixedFlows(t *testing.T) {
	dir := pwcheckDir(t)
	python, _ := signUpApp(t, dir)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<!doctype html><title>Docs</title><h1>The docs</h1>"))
	}))
	defer site.Close()
	withDev := filepath.Join(dir, "signup.yaml")
	withoutDev := filepath.Join(dir, "docs.yaml")
	for file, text := range map[string]string{
		withDev: "name: sign-up\ndev:\n  run: " + python + " app.py $PORT\n  cwd: .\nsteps:\n  - navigate: /\n" +
			"  - expect: {target: 'role=heading', check: text, expected: 'Create your account'}\n",
		withoutDev: "name: docs\nsteps:\n  - navigate: " + site.URL + "/\n" +
			"  - expect: {target: 'role=heading', check: text, expected: 'The docs'}\n",
	} {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conv := filepath.Join(dir, "converted")
	if o, err := exec.Command(bin, "convert", withDev, withoutDev, "--to", "playwright", "--out", conv).CombinedOutput(); err != nil {
		t.Fatalf("e2e-mcp convert: %v\n%s", err, o)
	}
	config := filepath.Join(conv, "playwright.config.ts")
	r, code := playwrightTest(t, config)
	if code != 0 || r.Stats.Expected != 2 || r.Stats.Unexpected != 0 || r.Stats.Skipped != 0 {
		var fails []string
		for _, s := range r.Suites {
			fails = append(fails, s.failures()...)
		}
		b, _ := os.ReadFile(config)
		t.Fatalf("want both specs run and passed (exit %d): %+v\n%s\n--- the config:\n%s", code, r.Stats, strings.Join(fails, "\n"), b)
	}
	if left := appProcesses(dir); len(left) > 0 {
		t.Errorf("dev servers left: %v", left)
	}
}

// TestPlaywrightCheckRandomSessions: the flows of the random sessions
// (TestReplayRandomSessions': iframes, page code, the mouse at
// coordinates, uploads beside the flow, checks of what the agent read),
// converted by e2e-mcp convert, pass under real @playwright/test.
func TestPlaywrightCheckRandomSessions(t *testing.T) {
	dir := pwcheckDir(t)
	f := uploadSite(t)
	flows, calls := randomSessions(t, f, dir, randomSeed(t), 10)
	conv := filepath.Join(dir, "specs")
	if o, err := exec.Command(bin, append([]string{"convert", "--to", "playwright", "--out", conv}, flows...)...).CombinedOutput(); err != nil {
		t.Fatalf("e2e-mcp convert: %v\n%s", err, o)
	}
	r, code := playwrightTest(t, filepath.Join(conv, "playwright.config.ts"))
	if code != 0 || r.Stats.Expected != len(flows) || r.Stats.Unexpected != 0 || r.Stats.Skipped != 0 {
		var fails []string
		for _, s := range r.Suites {
			fails = append(fails, s.failures()...)
		}
		for _, e := range r.Errors {
			fails = append(fails, e.Message)
		}
		for _, file := range flows {
			spec := filepath.Join(conv, strings.TrimSuffix(filepath.Base(file), ".yaml")+".spec.ts")
			if !strings.Contains(strings.Join(fails, "\n"), spec) {
				continue
			}
			b, _ := os.ReadFile(spec)
			t.Logf("%s, of the session's calls:\n%s\n%s", spec, strings.Join(calls[file], "\n"), b)
		}
		t.Fatalf("the specs of the random sessions (exit %d): %+v\n%s", code, r.Stats, strings.Join(fails, "\n"))
	}
	t.Logf("%d specs passed", r.Stats.Expected)
}
