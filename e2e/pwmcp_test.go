//go:build pwmcp

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pwmcpModule is Playwright MCP's repository at the commit whose tests
// make pwmcp-check runs: the Go module proxy serves it as a module, checked
// against sum.golang.org, so no git is needed. scripts/pwmcp/package.json
// pins the npm packages its fixtures import at the versions it names.
const pwmcpModule = "github.com/microsoft/playwright@v1.63.0"

// pwmcpTimeout is each test's time (theirs: 30 s; the slowest that passes
// takes 5 s here). Their fixtures give actions 10 s
// (--timeout-action=10000); a test that hangs on a behaviour we lack waits
// this out, so it is what such a test costs.
const pwmcpTimeout = 15 * time.Second

// pwmcpWorkers is how many tests run at once. Their suite mostly waits
// (servers and browsers starting, polls, the worker Playwright starts
// anew after each failing test): on 2 cores two workers keep the CPU less
// than half busy, and took 9 to 11 minutes where three take 7 to 8
// (their own server, with two, 9).
const pwmcpWorkers = "3"

// The outcomes scripts/pwmcp/expectations gives a test.
const (
	pwmcpPass      = "pass"      // it passes against e2e-mcp
	pwmcpWording   = "wording"   // it fails only on Playwright MCP's answer text
	pwmcpInternals = "internals" // it tests Playwright's own implementation
	pwmcpDiffers   = "differs"   // a behaviour we keep different on purpose
	pwmcpFail      = "fail"      // a gap of ours, not yet closed
	pwmcpSkip      = "skip"      // their own condition skips it in the chromium project
)

var pwmcpOutcomes = []string{pwmcpPass, pwmcpWording, pwmcpInternals, pwmcpDiffers, pwmcpFail, pwmcpSkip}

// pwmcpExpectation is one line of the expectation file.
type pwmcpExpectation struct {
	outcome, file, title, reason string
	line                         int
}

// readPwmcpExpectations reads scripts/pwmcp/expectations (its format is
// described at its top): per test, and "*" for a whole file.
func readPwmcpExpectations(t *testing.T, path string) (tests map[string]pwmcpExpectation, files map[string]pwmcpExpectation) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tests, files = map[string]pwmcpExpectation{}, map[string]pwmcpExpectation{}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		// A pass line may end at "|" with no reason.
		if l = strings.TrimRight(l, " "); strings.HasSuffix(l, " |") {
			l += " "
		}
		f := strings.Split(l, " | ")
		if len(f) != 4 {
			t.Fatalf("%s:%d: want `outcome | file | title | reason`, got %q", path, i+1, l)
		}
		e := pwmcpExpectation{outcome: strings.TrimSpace(f[0]), file: strings.TrimSpace(f[1]), title: strings.TrimSpace(f[2]), reason: strings.TrimSpace(f[3]), line: i + 1}
		if !slices.Contains(pwmcpOutcomes, e.outcome) {
			t.Fatalf("%s:%d: outcome %q is none of %v", path, i+1, e.outcome, pwmcpOutcomes)
		}
		if e.outcome != pwmcpPass && e.reason == "" {
			t.Fatalf("%s:%d: a %s test needs its reason", path, i+1, e.outcome)
		}
		if e.title == "*" {
			if e.outcome != pwmcpInternals {
				t.Fatalf("%s:%d: only internals go by whole file (it is not run)", path, i+1)
			}
			files[e.file] = e
			continue
		}
		key := e.file + " › " + e.title
		if prev, ok := tests[key]; ok {
			t.Fatalf("%s:%d: %s is given at line %d too", path, i+1, key, prev.line)
		}
		tests[key] = e
	}
	return tests, files
}

// pwmcpResult is what Playwright's JSON reporter says of one test.
type pwmcpResult struct {
	file, title string
	status      string // passed, failed, timedOut, skipped, interrupted (last retry)
	err         string // the first error's first lines
	duration    time.Duration
}

type pwmcpJSONSuite struct {
	Title string `json:"title"`
	File  string `json:"file"`
	Specs []struct {
		Title string `json:"title"`
		File  string `json:"file"`
		Tests []struct {
			ProjectName string `json:"projectName"`
			Results     []struct {
				Status   string `json:"status"`
				Duration int    `json:"duration"`
				Errors   []struct {
					Message string `json:"message"`
				} `json:"errors"`
			} `json:"results"`
		} `json:"tests"`
	} `json:"specs"`
	Suites []pwmcpJSONSuite `json:"suites"`
}

type pwmcpJSONReport struct {
	Suites []pwmcpJSONSuite `json:"suites"`
	Errors []struct {
		Message string `json:"message"`
	} `json:"errors"`
}

// results flattens a suite: each test keyed by its file (relative to
// tests/mcp) and its title path (describes and the test, joined by " › ").
func (s pwmcpJSONSuite) results(path []string, out *[]pwmcpResult) {
	for _, sp := range s.Specs {
		for _, te := range sp.Tests {
			r := pwmcpResult{file: strings.TrimPrefix(filepath.ToSlash(sp.File), "mcp/"), title: strings.Join(append(slices.Clone(path), sp.Title), " › ")}
			if n := len(te.Results); n > 0 {
				last := te.Results[n-1]
				r.status, r.duration = last.Status, time.Duration(last.Duration)*time.Millisecond
				if len(last.Errors) > 0 {
					r.err = firstLines(stripANSI(last.Errors[0].Message), 6)
				}
			}
			*out = append(*out, r)
		}
	}
	for _, c := range s.Suites {
		p := slices.Clone(path)
		if c.Title != "" { // an anonymous describe adds no title
			p = append(p, c.Title)
		}
		c.results(p, out)
	}
}

var ansiRE = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func stripANSI(s string) string { return ansiRE.ReplaceAllString(s, "") }

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}

// pwmcpFetch downloads the pinned repository through the Go module proxy
// into cache (a module cache of its own, kept between runs; the go command
// checks the zip against sum.golang.org) and returns its directory.
func pwmcpFetch(t *testing.T, cache string) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", pwmcpModule)
	// Outside any module, so that no go.mod or go.sum is touched.
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOMODCACHE="+cache, "GOFLAGS=-modcacherw", "GO111MODULE=on")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var m struct {
		Dir   string
		Error string
	}
	_ = json.Unmarshal(stdout.Bytes(), &m)
	if err != nil || m.Error != "" || m.Dir == "" {
		t.Fatalf("cannot fetch %s through the Go module proxy: %v %s\n%s", pwmcpModule, err, m.Error, stderr.String())
	}
	return m.Dir
}

// pwmcpLayout lays out, in work (removed first: a run never sees the last
// one's files), the tree their fixtures expect: tests/mcp, tests/config and
// tests/third_party copied from the fetched repository, a package.json at
// its root;
// packages/playwright-core/lib/coreBundle.js and utilsBundle.js re-exporting
// the pinned npm playwright-core's build; lib/entry/mcp.js, the file the
// fixtures start as the server, is our launcher (scripts/pwmcp/launcher.js),
// which runs E2E_MCP_BIN; packages/playwright-test/cli.js, which they
// resolve at load for Playwright Test's own MCP server, refuses to run. And
// browsers/, for PLAYWRIGHT_BROWSERS_PATH: the pinned playwright's
// Chromium and headless shell (for the fixtures that launch a browser of
// their own) are the system Chromium.
func pwmcpLayout(t *testing.T, root, repo, chromium string) string {
	t.Helper()
	work := filepath.Join(root, ".work")
	if err := os.RemoveAll(work); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"tests/mcp", "tests/config", "tests/third_party"} {
		if err := os.CopyFS(filepath.Join(work, dir), os.DirFS(filepath.Join(repo, dir))); err != nil {
			t.Fatalf("copy %s: %v", dir, err)
		}
	}
	core := filepath.Join(root, "node_modules", "playwright-core")
	launcher, err := os.ReadFile(filepath.Join(root, "launcher.js"))
	if err != nil {
		t.Fatal(err)
	}
	if pwmcpTheirs() {
		launcher = []byte("require(" + strconv.Quote(filepath.Join(core, "lib", "entry", "mcp.js")) + ");\n")
	}
	files := map[string]string{
		// The root of their repository: Playwright puts test-results
		// beside the nearest package.json, and their fixtures count on
		// it being two levels above tests/mcp.
		"package.json": `{"name": "pwmcp-check-work", "private": true}` + "\n",
		"packages/playwright-core/lib/entry/mcp.js": string(launcher),
		"packages/playwright-test/cli.js": "process.stderr.write('pwmcp-check: Playwright Test\\'s own MCP server is not part of this check\\n');\n" +
			"process.exit(2);\n",
	}
	for _, name := range []string{"index", "lib/coreBundle", "lib/utilsBundle"} {
		files["packages/playwright-core/"+name+".js"] = "module.exports = require(" + strconv.Quote(filepath.Join(core, name+".js")) + ");\n"
	}
	files["packages/playwright-core/package.json"] = `{"name": "playwright-core", "main": "index.js", "version": ` +
		strconv.Quote(pwmcpVersion(t, core)) + "}\n"
	for name, content := range files {
		path := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	var browsers struct {
		Browsers []struct {
			Name     string `json:"name"`
			Revision string `json:"revision"`
		} `json:"browsers"`
	}
	b, err := os.ReadFile(filepath.Join(core, "browsers.json"))
	if err != nil || json.Unmarshal(b, &browsers) != nil {
		t.Fatalf("the pinned playwright-core's browsers.json: %v", err)
	}
	exe := map[string]string{
		"chromium":                "chrome-linux64/chrome",
		"chromium-headless-shell": "chrome-headless-shell-linux64/chrome-headless-shell",
	}
	for _, br := range browsers.Browsers {
		rel, ok := exe[br.Name]
		if !ok {
			continue
		}
		path := filepath.Join(work, "browsers", strings.ReplaceAll(br.Name, "-", "_")+"-"+br.Revision, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(chromium, path); err != nil {
			t.Fatal(err)
		}
		delete(exe, br.Name)
	}
	if len(exe) > 0 {
		t.Fatalf("the pinned playwright-core names no %v in browsers.json", exe)
	}
	return work
}

// pwmcpTheirs says the run is of Playwright MCP's own server (the pinned
// npm playwright-core's, PWMCP_SERVER=playwright): a baseline, not a check.
func pwmcpTheirs() bool { return os.Getenv("PWMCP_SERVER") == "playwright" }

// pwmcpTheirFailures is the file that lists the tests Playwright MCP's own
// server does not pass here (a run with PWMCP_SERVER=playwright writes
// it): the figure counts how many of the others behave the same here.
func pwmcpTheirFailures(root string) string { return filepath.Join(root, "playwright-fails") }

// pwmcpVersion is the version of the npm package in dir.
func pwmcpVersion(t *testing.T, dir string) string {
	t.Helper()
	var p struct {
		Version string `json:"version"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil || json.Unmarshal(b, &p) != nil || p.Version == "" {
		t.Fatalf("no version in %s/package.json: %v", dir, err)
	}
	return p.Version
}

// pwmcpPlaywright runs the pinned `playwright test` on their config in
// the chromium project, pwmcpWorkers workers, with the JSON reporter; it returns
// the report, also kept as .work/NAME.json. args adds options and the
// files to run.
func pwmcpPlaywright(t *testing.T, root, work, name string, env []string, args ...string) pwmcpJSONReport {
	t.Helper()
	report := filepath.Join(work, name+".json")
	cmd := exec.Command(filepath.Join(root, "node_modules", ".bin", "playwright"),
		append([]string{"test", "-c", filepath.Join(work, "tests/mcp/playwright.config.ts"), "--project=chromium", "--reporter=json"}, args...)...)
	cmd.Dir = work
	cmd.Env = append(pwmcpEnv(), append(env, "PLAYWRIGHT_JSON_OUTPUT_NAME="+report, "PLAYWRIGHT_BROWSERS_PATH="+filepath.Join(work, "browsers"))...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("playwright test: %v\n%s", err, out.String())
	}
	var r pwmcpJSONReport
	b, rerr := os.ReadFile(report)
	if rerr != nil || json.Unmarshal(b, &r) != nil {
		t.Fatalf("playwright test wrote no JSON report (%v): %v\n%s", err, rerr, out.String())
	}
	if len(r.Errors) > 0 {
		var msgs []string
		for _, e := range r.Errors {
			msgs = append(msgs, firstLines(stripANSI(e.Message), 8))
		}
		t.Errorf("playwright test reports errors outside the tests (a file that does not load?):\n%s", strings.Join(msgs, "\n\n"))
	}
	return r
}

// pwmcpEnv is this process's environment without what would change how
// the server under test or their runner behaves: our settings and
// Playwright MCP's (E2E_MCP_*, PLAYWRIGHT_MCP_*), and CI, which their
// config reads to pick reporters and forbid test.only.
func pwmcpEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "E2E_MCP_") || strings.HasPrefix(name, "PLAYWRIGHT_MCP_") || name == "CI" ||
			name == "PLAYWRIGHT_BROWSERS_PATH" || name == "PLAYWRIGHT_JSON_OUTPUT_NAME" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1")
}

// TestPwmcpCheck (make pwmcp-check; CI): Playwright MCP's own tests
// (tests/mcp of microsoft/playwright at pwmcpModule) run unchanged against
// the e2e-mcp binary, through scripts/pwmcp/launcher.js, in their chromium
// project with the system Chromium; each test's outcome is compared with
// scripts/pwmcp/expectations. A test expected to pass that does not, a
// test the file does not name, or a line naming no test fails it; a test
// expected not to pass that passes is printed as an improvement (mark it
// pass). Whole files of Playwright internals are listed, not run. It
// prints the figure and fails, never skips, when it cannot run (no npm
// packages, no Chromium, no download). PWMCP_FILES=regexp runs only the
// files it matches (then tests not run are not missing).
func TestPwmcpCheck(t *testing.T) {
	root, err := filepath.Abs("../scripts/pwmcp")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "node_modules", ".bin", "playwright")); err != nil {
		t.Fatalf("the pinned @playwright/test is not installed: run make pwmcp-check (%v)", err)
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium is needed: %v", err)
	}
	start := time.Now()
	repo := pwmcpFetch(t, filepath.Join(root, ".cache", "gomod"))
	work := pwmcpLayout(t, root, repo, chromium)
	expected, wholeFiles := readPwmcpExpectations(t, filepath.Join(root, "expectations"))
	t.Logf("pwmcp-check: %s fetched and laid out in %s", pwmcpModule, time.Since(start).Round(time.Second))

	var only *regexp.Regexp
	if v := os.Getenv("PWMCP_FILES"); v != "" {
		if only, err = regexp.Compile(v); err != nil {
			t.Fatalf("PWMCP_FILES: %v", err)
		}
	}

	// Every test of every file, listed without running (so whole files
	// of internals are counted too).
	var specs []string
	err = filepath.WalkDir(filepath.Join(work, "tests/mcp"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".spec.ts") {
			specs = append(specs, filepath.Base(path))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var listed []pwmcpResult
	for _, s := range pwmcpPlaywright(t, root, work, "list", nil, "--list").Suites {
		s.results(nil, &listed)
	}
	if t.Failed() {
		t.FailNow()
	}
	all := map[string]pwmcpResult{}
	for _, r := range listed {
		all[r.file+" › "+r.title] = r
	}

	// The files to run: those not wholly internals, or PWMCP_FILES's.
	var run []string
	for _, s := range specs {
		if _, internal := wholeFiles[s]; internal || (only != nil && !only.MatchString(s)) {
			continue
		}
		run = append(run, "tests/mcp/"+s)
	}
	for f := range wholeFiles {
		if !slices.Contains(specs, f) {
			t.Errorf("expectations: %s names no file of tests/mcp", f)
		}
	}
	for key, e := range expected {
		if _, ok := all[key]; !ok {
			t.Errorf("expectations:%d: %s is no test of tests/mcp (renamed or gone? remove the line)", e.line, key)
		}
		if _, ok := wholeFiles[e.file]; ok {
			t.Errorf("expectations:%d: %s is in a file listed whole as internals", e.line, key)
		}
	}

	runStart := time.Now()
	env := []string{"E2E_MCP_BIN=" + bin}
	workers := pwmcpWorkers
	if v := os.Getenv("PWMCP_WORKERS"); v != "" {
		workers = v
	}
	args := []string{"--workers=" + workers, "--timeout=" + strconv.Itoa(int(pwmcpTimeout.Milliseconds()))}
	if skip := pwmcpInternalsGrep(expected); skip != "" {
		args = append(args, "--grep-invert", skip)
	}
	args = append(args, run...)
	var results []pwmcpResult
	for _, s := range pwmcpPlaywright(t, root, work, "report", env, args...).Suites {
		s.results(nil, &results)
	}
	t.Logf("pwmcp-check: %d tests of %d files ran in %s", len(results), len(run), time.Since(runStart).Round(time.Second))

	got := map[string]pwmcpResult{}
	for _, r := range results {
		got[r.file+" › "+r.title] = r
	}
	if pwmcpTheirs() {
		var failed []string
		for _, r := range results {
			if r.status != "passed" {
				failed = append(failed, r.file+" › "+r.title)
			}
		}
		sort.Strings(failed)
		head := "# The tests of tests/mcp (" + pwmcpModule + ", chromium project, internals left out) that Playwright MCP's own\n" +
			"# server (the pinned npm playwright-core's) does not pass on this machine: written by make pwmcp-check with\n" +
			"# PWMCP_SERVER=playwright. The figure each run prints counts how many of the others behave the same here.\n"
		if err := os.WriteFile(pwmcpTheirFailures(root), []byte(head+strings.Join(failed, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("pwmcp-check: Playwright MCP's own server passes %d of these %d tests; the others are listed in %s",
			len(results)-len(failed), len(results), pwmcpTheirFailures(root))
		return
	}
	count := map[string]int{}
	var regressions, improvements, missing []string
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		l := all[key]
		if w, ok := wholeFiles[l.file]; ok {
			count[w.outcome]++
			continue
		}
		if only != nil && !only.MatchString(l.file) {
			continue
		}
		e, known := expected[key]
		r, ran := got[key]
		status := "not run"
		if ran {
			status = r.status
		}
		switch {
		case known && e.outcome == pwmcpInternals && !ran:
			// Listed, not run.
		case !known:
			missing = append(missing, fmt.Sprintf("%s | %s | %s |   (%s)", pwmcpStatusOutcome(status), l.file, l.title, status))
			count["unknown"]++
			continue
		case status == "passed":
			if e.outcome != pwmcpPass {
				improvements = append(improvements, fmt.Sprintf("%s (expected %s: %s)", key, e.outcome, e.reason))
			}
			count[pwmcpPass]++
			continue
		case status == "skipped":
			if e.outcome != pwmcpSkip {
				regressions = append(regressions, fmt.Sprintf("%s: skipped, expected %s", key, e.outcome))
			}
		case e.outcome == pwmcpPass || e.outcome == pwmcpSkip:
			regressions = append(regressions, fmt.Sprintf("%s: %s, expected %s (%s)\n    %s", key, status, e.outcome,
				r.duration.Round(100*time.Millisecond), strings.ReplaceAll(r.err, "\n", "\n    ")))
		}
		count[e.outcome]++
	}

	total := len(all)
	if only != nil {
		total = 0
		for _, c := range count {
			total += c
		}
	}
	t.Logf("pwmcp-check: of %d tests of Playwright MCP (%s, chromium project): %d pass, %d wording-only, %d internals, %d differ on purpose, %d fail, %d skipped by their own condition",
		total, pwmcpModule, count[pwmcpPass], count[pwmcpWording], count[pwmcpInternals], count[pwmcpDiffers], count[pwmcpFail], count[pwmcpSkip])
	if b, err := os.ReadFile(pwmcpTheirFailures(root)); err == nil && only == nil {
		theirFails := map[string]bool{}
		for _, l := range strings.Split(string(b), "\n") {
			if l != "" && !strings.HasPrefix(l, "#") {
				theirFails[l] = true
			}
		}
		var theirs, same int
		for key, r := range got {
			if theirFails[key] {
				continue
			}
			theirs++
			if r.status == "passed" || expected[key].outcome == pwmcpWording {
				same++
			}
		}
		if theirs > 0 {
			t.Logf("pwmcp-check: of the %d tests run that Playwright MCP's own server passes, %d (%d%%) pass here or fail only on its wording",
				theirs, same, same*100/theirs)
		}
	}
	if len(improvements) > 0 {
		t.Logf("pwmcp-check: %d tests pass that the expectations do not expect to (mark them pass):\n  %s", len(improvements), strings.Join(improvements, "\n  "))
	}
	if len(missing) > 0 {
		t.Errorf("pwmcp-check: %d tests the expectations do not name (add them, with the outcome and a reason):\n%s", len(missing), strings.Join(missing, "\n"))
	}
	if len(regressions) > 0 {
		t.Errorf("pwmcp-check: %d tests expected to pass do not:\n  %s", len(regressions), strings.Join(regressions, "\n  "))
	}
	if os.Getenv("PWMCP_DUMP") != "" {
		pwmcpDump(t, os.Getenv("PWMCP_DUMP"), keys, all, got, expected, wholeFiles)
	}
}

// pwmcpInternalsGrep is a --grep-invert pattern of the tests expected as
// internals one by one (whole files are not given to run at all): they
// are listed and counted, not run. Playwright matches it against
// "project file describes title tags", space separated.
func pwmcpInternalsGrep(expected map[string]pwmcpExpectation) string {
	var alts []string
	for _, e := range expected {
		if e.outcome == pwmcpInternals {
			alts = append(alts, regexp.QuoteMeta(e.file+" "+strings.ReplaceAll(e.title, " › ", " ")))
		}
	}
	if len(alts) == 0 {
		return ""
	}
	sort.Strings(alts)
	return `[ /](` + strings.Join(alts, "|") + `)( @\S+)*$`
}

// pwmcpStatusOutcome is the outcome a test's status suggests, for a line
// of the expectations to start from.
func pwmcpStatusOutcome(status string) string {
	switch status {
	case "passed":
		return pwmcpPass
	case "skipped":
		return pwmcpSkip
	}
	return pwmcpFail
}

// pwmcpDump writes every test run with its status and first error lines
// to path, for working through the failures.
func pwmcpDump(t *testing.T, path string, keys []string, all, got map[string]pwmcpResult, expected, wholeFiles map[string]pwmcpExpectation) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	for _, key := range keys {
		if _, ok := wholeFiles[all[key].file]; ok {
			continue
		}
		r, ran := got[key]
		if !ran {
			continue
		}
		fmt.Fprintf(w, "=== %s\n%s %s (expected %s)\n%s\n\n", key, r.status, r.duration.Round(100*time.Millisecond), expected[key].outcome, r.err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
}
