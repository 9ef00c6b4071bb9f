package e2e

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// selectSite serves the pages of the run-selection tests: /sel/page.html
// (a heading "Hello") and /sel/fixed.html, whose heading says "Fixed" once
// fixed is set, "Broken" before.
func selectSite(t *testing.T) (*fixture, *atomic.Bool) {
	t.Helper()
	var fixed atomic.Bool
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /sel/page.html", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<!doctype html><title>Sel</title><h1>Hello</h1>")
		})
		mux.HandleFunc("GET /sel/fixed.html", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			h := "Broken"
			if fixed.Load() {
				h = "Fixed"
			}
			fmt.Fprintf(w, "<!doctype html><title>Sel</title><h1>%s</h1>", h)
		})
	})
	return f, &fixed
}

// selectFlow is a flow named name on the select site that passes (its
// heading reads want, "Hello" on page.html) or fails within a second;
// head are lines before its steps (tags:, timeout:).
func selectFlow(base, name, page, want, head string) string {
	return fmt.Sprintf("name: %s\n%sbaseURL: %s\nsteps:\n  - navigate: /sel/%s\n  - expect: {target: 'role=heading', check: text, expected: %s, timeout: 1}\n",
		name, head, base, page, want)
}

// writeFiles writes files (path under dir: text).
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runEnvironment is the environment of a run: its own temp dir (where its
// Chrome is counted), state dir, warnings only.
func runEnvironment(t *testing.T) ([]string, string) {
	env, tmp := serverEnv(t)
	return append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_LOG_LEVEL=warn"), tmp
}

// resultLines are the PASS, FAIL, SKIP and HEALED lines of a run's output,
// each as "VERDICT name".
func resultLines(out string) []string {
	var got []string
	for _, m := range regexp.MustCompile(`(?m)^(PASS|FAIL|SKIP|HEALED)  (.+?) \([^()\n]*\.ya?ml\)`).FindAllStringSubmatch(out, -1) {
		got = append(got, m[1]+" "+m[2])
	}
	return got
}

// runJUnit is the JUnit file as the selection tests read it: its counts
// and each case's name and outcome.
type runJUnit struct {
	Suite struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
		Cases    []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
			} `xml:"failure"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readRunJUnit(t *testing.T, path string) (runJUnit, string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var j runJUnit
	if err := xml.Unmarshal(b, &j); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
	return j, string(b)
}

// cases is each test case of a JUnit file as "name outcome".
func (j runJUnit) cases() []string {
	var out []string
	for _, c := range j.Suite.Cases {
		switch {
		case c.Failure != nil:
			out = append(out, c.Name+" failed")
		case c.Skipped != nil:
			out = append(out, c.Name+" skipped")
		default:
			out = append(out, c.Name+" passed")
		}
	}
	return out
}

// TestRunDirectories: `e2e-mcp run flows/ extra.yaml` replays every flow
// under the directory (its subdirectories too, in order; not its hidden
// directories or node_modules) and the file after, each once; a YAML file
// there that is not a flow is named as skipped, and a FLOW.healed.yaml
// too. --grep and --grep-invert pick flows by file, name and tags; --list
// prints what would run and starts no browser (a wrapper counts every
// browser launched; the same wrapper counts the real run's).
func TestRunDirectories(t *testing.T) {
	f, _ := selectSite(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"flows/checkout.yaml":         selectFlow(f.URL, "checkout", "page.html", "Hello", "tags: ['@smoke', pay]\n"),
		"flows/sub/login.yml":         selectFlow(f.URL, "Log in", "page.html", "Hello", ""),
		"flows/config.yaml":           "projects: [chromium, firefox]\n",
		"flows/checkout.healed.yaml":  selectFlow(f.URL, "healed copy", "fixed.html", "Nope", ""),
		"flows/.cache/old.yaml":       selectFlow(f.URL, "hidden", "fixed.html", "Nope", ""),
		"flows/node_modules/dep.yaml": selectFlow(f.URL, "dependency", "fixed.html", "Nope", ""),
		"extra.yaml":                  selectFlow(f.URL, "extra", "page.html", "Hello", "tags: [slow]\n"),
		"flows/sub/notes.txt":         "steps: not a yaml file",
	})
	// A wrapper that logs each launch of the browser, then is the browser.
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium is needed: %v", err)
	}
	launches := filepath.Join(dir, "launches.log")
	wrapper := filepath.Join(dir, "chromium-wrapper")
	writeFiles(t, dir, map[string]string{"chromium-wrapper": fmt.Sprintf("#!/bin/sh\necho launched >> %q\nexec %q \"$@\"\n", launches, chromium)})
	if err := os.Chmod(wrapper, 0o755); err != nil {
		t.Fatal(err)
	}
	env, tmp := runEnvironment(t)
	env = append(env, "E2E_MCP_BROWSER_PATH="+wrapper)
	flows, extra := filepath.Join(dir, "flows"), filepath.Join(dir, "extra.yaml")
	junit := filepath.Join(dir, "junit.xml")

	out, code := runFlows(t, env, flows, extra, "--junit", junit, filepath.Join(flows, "checkout.yaml"))
	if code != 0 || strings.Join(resultLines(out), ", ") != "PASS checkout, PASS Log in, PASS extra" {
		t.Fatalf("run flows/ extra.yaml: exit %d, want the three flows in order:\n%s", code, out)
	}
	mustContain(t, "the run's output", out,
		"e2e-mcp run: skipped "+filepath.Join(flows, "config.yaml")+": not a flow (a YAML file with no steps:)",
		"e2e-mcp run: skipped "+filepath.Join(flows, "checkout.healed.yaml")+": the repaired flow run --heal wrote beside "+filepath.Join(flows, "checkout.yaml"))
	if j, b := readRunJUnit(t, junit); j.Suite.Tests != 3 || j.Suite.Failures != 0 {
		t.Errorf("the JUnit file: %v\n%s", j.cases(), b)
	}
	if n := strings.Count(readFile(t, launches), "launched"); n == 0 {
		t.Fatalf("the wrapper counted no launch of the real run")
	}
	requireNoChrome(t, tmp, 10*time.Second)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--grep", "@smoke"}, "PASS checkout"},
		{[]string{"--grep-invert", "@smoke"}, "PASS Log in, PASS extra"},
		{[]string{"--grep", "LOG IN"}, "PASS Log in"},
		{[]string{"--grep", "sub/", "--grep-invert", "slow"}, "PASS Log in"},
		{[]string{"--grep", "pay|slow", "--grep-invert", "checkout"}, "PASS extra"},
	} {
		out, code := runFlows(t, env, append([]string{flows, extra}, c.args...)...)
		if code != 0 || strings.Join(resultLines(out), ", ") != c.want {
			t.Errorf("%v: exit %d, want %s:\n%s", c.args, code, c.want, out)
		}
	}
	out, code = runFlows(t, env, flows, "--grep", "nothing-matches")
	if code != 2 || !strings.Contains(out, `no flow of 2 is left by --grep "nothing-matches"`) {
		t.Errorf("a --grep that leaves nothing: exit %d:\n%s", code, out)
	}

	// --list: what would run, and no browser.
	if err := os.Remove(launches); err != nil {
		t.Fatal(err)
	}
	out, code = runFlows(t, env, flows, extra, "--list", "--grep-invert", "checkout", "--repeat-each", "2")
	want := "Listing flows:\n" +
		"  " + filepath.Join(flows, "sub", "login.yml") + " › Log in\n" +
		"  " + extra + " › extra slow\n" +
		"  " + filepath.Join(flows, "sub", "login.yml") + " › Log in (2)\n" +
		"  " + extra + " › extra (2) slow\n" +
		"Total: 4 flows in 2 files\n"
	if code != 0 || !strings.HasSuffix(out, want) {
		t.Errorf("--list: exit %d:\n%s\nwant it to end with\n%s", code, out, want)
	}
	if b, err := os.ReadFile(launches); err == nil || len(b) > 0 {
		t.Errorf("--list launched a browser: %q", b)
	}
	if left := chromeProcesses(tmp); len(left) > 0 {
		t.Errorf("Chrome processes after --list: %v", left)
	}
}

// TestRunRepeatAndMaxFailures: --repeat-each 3 replays the list three
// times over, each run its own test case in JUnit (NAME, NAME (2), NAME
// (3)); -x stops starting flows after the first failure, the rest SKIP
// lines, JUnit's skipped cases and the summary's "skipped", exit 1;
// --max-failures 2 lets the run go on to the second.
func TestRunRepeatAndMaxFailures(t *testing.T) {
	f, _ := selectSite(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"1-ok.yaml":  selectFlow(f.URL, "ok one", "page.html", "Hello", ""),
		"2-bad.yaml": selectFlow(f.URL, "bad one", "page.html", "Nope", ""),
		"3-ok.yaml":  selectFlow(f.URL, "ok two", "page.html", "Hello", ""),
		"4-bad.yaml": selectFlow(f.URL, "bad two", "page.html", "Nope", ""),
	})
	env, tmp := runEnvironment(t)
	junit := filepath.Join(dir, "junit.xml")

	out, code := runFlows(t, env, filepath.Join(dir, "1-ok.yaml"), filepath.Join(dir, "3-ok.yaml"), "--repeat-each", "3", "--junit", junit)
	if code != 0 || strings.Join(resultLines(out), ", ") != "PASS ok one, PASS ok two, PASS ok one (2), PASS ok two (2), PASS ok one (3), PASS ok two (3)" {
		t.Fatalf("--repeat-each 3: exit %d:\n%s", code, out)
	}
	if j, b := readRunJUnit(t, junit); j.Suite.Tests != 6 || strings.Join(j.cases(), ", ") != "ok one passed, ok two passed, ok one (2) passed, ok two (2) passed, ok one (3) passed, ok two (3) passed" {
		t.Errorf("--repeat-each 3 in JUnit: %v\n%s", j.cases(), b)
	}

	out, code = runFlows(t, env, dir, "-x", "--junit", junit)
	if code != 1 || strings.Join(resultLines(out), ", ") != "PASS ok one, FAIL bad one, SKIP ok two, SKIP bad two" {
		t.Fatalf("-x: exit %d, want the flows after the failure not run:\n%s", code, out)
	}
	mustContain(t, "-x's output", out, "SKIP  ok two ("+filepath.Join(dir, "3-ok.yaml")+"): not run: the run stopped after 1 failure (--max-failures 1)",
		"4 flow(s), 1 passed, 1 failed, 2 skipped, in ")
	j, b := readRunJUnit(t, junit)
	if j.Suite.Tests != 4 || j.Suite.Failures != 1 || j.Suite.Skipped != 2 || strings.Join(j.cases(), ", ") != "ok one passed, bad one failed, ok two skipped, bad two skipped" ||
		!strings.Contains(j.Suite.Cases[2].Skipped.Message, "--max-failures 1") {
		t.Errorf("-x in JUnit: %+v\n%s", j.cases(), b)
	}

	out, code = runFlows(t, env, dir, "--max-failures", "2")
	if code != 1 || strings.Join(resultLines(out), ", ") != "PASS ok one, FAIL bad one, PASS ok two, FAIL bad two" || !strings.Contains(out, "4 flow(s), 2 passed, 2 failed, in ") {
		t.Errorf("--max-failures 2: exit %d:\n%s", code, out)
	}
	requireNoChrome(t, tmp, 10*time.Second)
}

// TestRunLastFailed: a run with --artifacts keeps what failed in
// DIR/.last-run.json; the next run with --last-failed replays only that
// flow (now passing), and the one after, nothing failed, replays none and
// says so; without --artifacts --last-failed is a usage error.
func TestRunLastFailed(t *testing.T) {
	f, fixed := selectSite(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.yaml": selectFlow(f.URL, "always", "page.html", "Hello", ""),
		"b.yaml": selectFlow(f.URL, "fixed later", "fixed.html", "Fixed", ""),
	})
	env, _ := runEnvironment(t)
	art := filepath.Join(dir, "art")
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")

	out, code := runFlows(t, env, a, b, "--artifacts", art)
	if code != 1 || strings.Join(resultLines(out), ", ") != "PASS always, FAIL fixed later" {
		t.Fatalf("the first run: exit %d:\n%s", code, out)
	}
	state := readFile(t, filepath.Join(art, ".last-run.json"))
	mustContain(t, "the last run's state", state, `"status": "failed"`, `"file": "`+b+`"`)
	if strings.Contains(state, a) {
		t.Errorf("the state names the flow that passed:\n%s", state)
	}

	fixed.Store(true)
	out, code = runFlows(t, env, a, b, "--artifacts", art, "--last-failed")
	if code != 0 || strings.Join(resultLines(out), ", ") != "PASS fixed later" {
		t.Fatalf("--last-failed: exit %d, want only the flow that failed:\n%s", code, out)
	}
	mustContain(t, "the state after", readFile(t, filepath.Join(art, ".last-run.json")), `"status": "passed"`, `"failedTests": []`)

	out, code = runFlows(t, env, a, b, "--artifacts", art, "--last-failed")
	if code != 0 || len(resultLines(out)) != 0 || !strings.Contains(out, "--last-failed: no flow of these failed in the last run") {
		t.Errorf("--last-failed after a green run: exit %d:\n%s", code, out)
	}
	out, code = runFlows(t, env, a, "--last-failed")
	if code != 2 || !strings.Contains(out, "--last-failed reads the last run's state from the --artifacts directory") {
		t.Errorf("--last-failed without --artifacts: exit %d:\n%s", code, out)
	}
}

// TestRunFlowTimeout: a flow past its timeout: fails as flow_timeout in
// the step it was in (a wait of 60 s, cut at 3 s), with the time taken, and
// its session, browser and dev server are gone after (processes counted);
// its report is still written. A flow's own timeout: wins over --timeout,
// which bounds the flows without one.
func TestRunFlowTimeout(t *testing.T) {
	python, dir := signUpApp(t, t.TempDir())
	env, tmp := runEnvironment(t)
	writeFiles(t, dir, map[string]string{"slow.yaml": "name: slow\ntimeout: 3s\ndev:\n  run: " + python + " app.py $PORT\n  cwd: .\n" +
		"steps:\n  - navigate: /\n  - group: Wait\n    steps:\n      - wait: {text: Never shown, timeout: 60}\n"})
	reports := filepath.Join(dir, "reports")
	start := time.Now()
	out, code := runFlows(t, env, filepath.Join(dir, "slow.yaml"), "--timeout", "1m", "--report", reports)
	took := time.Since(start)
	if code != 1 || !regexp.MustCompile(`FAIL  slow \(.*\) [0-9.]+s: step 2, Wait > wait Never shown: flow_timeout: the flow's steps ran past its timeout of 3s \(the flow's timeout:\): [3-9]\.[0-9]s, in step 2 \(Wait > wait Never shown\)`).MatchString(out) {
		t.Fatalf("a flow past its timeout: exit %d:\n%s", code, out)
	}
	t.Logf("a flow past its timeout (%s):\n%s", took.Round(time.Millisecond), out)
	if strings.Contains(out, "ERROR") {
		t.Errorf("the flow's timeout is logged as an error of the tool it stopped:\n%s", out)
	}
	if took > 30*time.Second {
		t.Errorf("the run took %s: the step was not cut at the flow's timeout", took)
	}
	if _, err := os.Stat(filepath.Join(reports, "slow.html")); err != nil {
		t.Errorf("no report of the flow that timed out: %v", err)
	}
	requireNoChrome(t, tmp, 10*time.Second)
	deadline := time.Now().Add(10 * time.Second)
	for left := appProcesses(dir); len(left) > 0; left = appProcesses(dir) {
		if time.Now().After(deadline) {
			t.Fatalf("the dev server outlived the flow that timed out: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// --timeout bounds the flows without their own; their own wins.
	f, _ := selectSite(t)
	slowStep := "  - wait: {time: 2}\n"
	writeFiles(t, dir, map[string]string{
		"bounded.yaml": selectFlow(f.URL, "bounded", "page.html", "Hello", "") + slowStep,
		"own.yaml":     selectFlow(f.URL, "own", "page.html", "Hello", "timeout: 1m\n") + slowStep,
	})
	out, code = runFlows(t, env, filepath.Join(dir, "bounded.yaml"), filepath.Join(dir, "own.yaml"), "--timeout", "1s")
	if code != 1 || strings.Join(resultLines(out), ", ") != "FAIL bounded, PASS own" || !strings.Contains(out, "flow_timeout: the flow's steps ran past its timeout of 1s (--timeout)") {
		t.Errorf("--timeout 1s: exit %d:\n%s", code, out)
	}
	out, code = runFlows(t, env, filepath.Join(dir, "own.yaml"), "--timeout", "30")
	if code != 2 || !strings.Contains(out, `"30" has no unit`) {
		t.Errorf("--timeout 30: exit %d:\n%s", code, out)
	}
	requireNoChrome(t, tmp, 10*time.Second)
}
