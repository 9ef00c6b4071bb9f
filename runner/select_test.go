package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// writeTree writes files (path: text) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
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

// TestFlowFiles: a directory holds its *.yaml and *.yml flows at any
// depth, in lexical order, each once even when named again; hidden
// directories and node_modules are not searched; a YAML file without
// steps: and a FLOW.healed.yaml are skipped with a note saying why; a
// file that is not YAML, or a directory without a flow, stops the run.
func TestFlowFiles(t *testing.T) {
	dir := t.TempDir()
	flowText := "name: f\nsteps: [back]\n"
	writeTree(t, dir, map[string]string{
		"b.yaml": flowText, "a/z.yml": flowText, "a/c.YAML": flowText, "a.yaml": flowText,
		"config.yaml": "projects: [chromium]\n", "empty.yaml": "", "list.yaml": "- a\n- b\n",
		"b.healed.yaml": flowText, ".hidden/h.yaml": flowText, "node_modules/x/n.yaml": flowText,
		"notes.txt": "steps:", "broken.yml": "name: x\nsteps: [click: {\n", "docs/site.yml": "title: docs\n",
	})
	_, _, err := flowFiles([]string{filepath.Join(dir, "b.yaml"), dir, filepath.Join(dir, "a", "z.yml")})
	if err == nil || !strings.Contains(err.Error(), "broken.yml: not YAML") {
		t.Fatalf("a file that is not YAML: %v", err)
	}
	if err := os.Remove(filepath.Join(dir, "broken.yml")); err != nil {
		t.Fatal(err)
	}
	files, notes, err := flowFiles([]string{filepath.Join(dir, "b.yaml"), dir, filepath.Join(dir, "a", "z.yml")})
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, f := range files {
		r, _ := filepath.Rel(dir, f)
		rel = append(rel, filepath.ToSlash(r))
	}
	if got := strings.Join(rel, " "); got != "b.yaml a/c.YAML a/z.yml a.yaml" {
		t.Errorf("the flows found: %s", got)
	}
	got := strings.ReplaceAll(strings.Join(notes, "\n"), dir+string(filepath.Separator), "")
	want := "skipped b.healed.yaml: the repaired flow run --heal wrote beside b.yaml (review it, then move it over that file)\n" +
		"skipped config.yaml: not a flow (a YAML file with no steps:)\n" +
		"skipped docs/site.yml: not a flow (a YAML file with no steps:)\n" +
		"skipped empty.yaml: not a flow (a YAML file with no steps:)\n" +
		"skipped list.yaml: not a flow (a YAML file with no steps:)"
	if got != want {
		t.Errorf("the notes:\n%s\nwant\n%s", got, want)
	}
	if _, _, err := flowFiles([]string{filepath.Join(dir, "docs")}); err == nil || !strings.Contains(err.Error(), "no flow in it") {
		t.Errorf("a directory without a flow: %v", err)
	}
	// A file named is a flow, whatever it holds: Load says what is wrong.
	if _, err := Load(Options{Files: []string{filepath.Join(dir, "config.yaml")}}); err == nil || !strings.Contains(err.Error(), "config.yaml") {
		t.Errorf("a named file that is not a flow: %v", err)
	}
}

// TestGrep: --grep and --grep-invert read a flow's file, name and tags
// joined by spaces, case-insensitive unless written /RE/; both may be
// given; none left is an error naming them; a bad pattern is a usage
// error naming its flag.
func TestGrep(t *testing.T) {
	files := []string{"flows/checkout.yaml", "flows/login.yaml", "flows/admin/users.yaml"}
	flows := []*flow.Flow{{Name: "pay by card", Tags: []string{"@smoke", "slow"}}, {Name: "Log in"}, {Name: "list users", Tags: []string{"@smoke"}}}
	for _, c := range []struct {
		grep, invert string
		want         string
	}{
		{"", "", "0 1 2"},
		{"@smoke", "", "0 2"},
		{"LOG IN", "", "1"},
		{"/LOG IN/", "", ""},
		{"/Log in/", "", "1"},
		{"/LOG IN/i", "", "1"},
		{"admin/", "", "2"},
		{"", "@smoke", "1"},
		{"@smoke", "slow", "2"},
		{`checkout\.yaml pay`, "", "0"},
		{"^flows/login.yaml Log in$", "", "1"},
	} {
		keep, _, err := selected(Options{Grep: c.grep, GrepInvert: c.invert}, files, flows)
		var got []string
		for _, i := range keep {
			got = append(got, string(rune('0'+i)))
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("--grep %q --grep-invert %q: %v (%v), want %s", c.grep, c.invert, got, err, c.want)
		}
		if c.want == "" && (err == nil || !strings.Contains(err.Error(), "no flow of 3 is left by --grep")) {
			t.Errorf("--grep %q: want an error saying none is left: %v", c.grep, err)
		}
	}
	if err := (Options{Files: files, Parallel: 1, VideoMode: VideoOn, GrepInvert: "a("}).Check(); err == nil || !strings.HasPrefix(err.Error(), "--grep-invert: ") {
		t.Errorf("a bad pattern: %v", err)
	}
}

// TestLoadRepeatAndList: --repeat-each runs the whole list over, the
// later runs named NAME (2)..., each in its own session with its own
// report name; --list prints each with its file and tags, then the total.
func TestLoadRepeatAndList(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.yaml": "name: a\ntags: ['@smoke', fast]\nsteps: [back]\n", "b.yaml": "name: b\nsteps: [back]\n"})
	s, err := Load(Options{Files: []string{dir}, RepeatEach: 2})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tc := range s.tests {
		got = append(got, tc.name+"|"+tc.session+"|"+tc.stem)
	}
	if strings.Join(got, " ") != "a|flow-1|a b|flow-2|b a (2)|flow-3|a (2) b (2)|flow-4|b (2)" {
		t.Errorf("the tests: %v", got)
	}
	var out, errs strings.Builder
	if code := List(s, &out, &errs); code != ExitOK {
		t.Errorf("List: exit %d", code)
	}
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	want := "Listing flows:\n  " + a + " › a @smoke fast\n  " + b + " › b\n  " + a + " › a (2) @smoke fast\n  " + b + " › b (2)\nTotal: 4 flows in 2 files\n"
	if out.String() != want || errs.Len() != 0 {
		t.Errorf("List:\n%s\nwant\n%s\nstderr: %s", out.String(), want, errs.String())
	}
}

// TestLastRun: a run with --artifacts writes what failed (absolute paths,
// each file once) to DIR/.last-run.json, over the last one, as a new file
// renamed over it; --last-failed keeps the flows of the command line that
// failed then, says so when none did, and needs the state and --artifacts.
func TestLastRun(t *testing.T) {
	dir := t.TempDir()
	art := filepath.Join(dir, "art")
	writeTree(t, dir, map[string]string{"a.yaml": "name: a\nsteps: [back]\n", "b.yaml": "name: b\nsteps: [back]\n", "c.yaml": "name: c\nsteps: [back]\n"})
	files := []string{filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "c.yaml")}
	o := Options{Files: files, Artifacts: art, LastFailed: true, Parallel: 1, VideoMode: VideoOn}
	if _, err := Load(o); err == nil || !strings.Contains(err.Error(), "no last run in "+art) {
		t.Errorf("no state yet: %v", err)
	}
	secrets := redact.NewSet(nil)
	secrets.Add("hunter2")
	st := &lastRunState{dir: art, secrets: secrets}
	results := []flowResult{{file: files[0], name: "a"}, {file: files[1], name: "b hunter2", failed: true}, {file: files[1], name: "b (2)", failed: true}, {file: files[2], name: "c", skipped: "stopped"}}
	if err := st.runEnded(summarize(results, time.Second)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(art, ".last-run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var l lastRun
	if err := json.Unmarshal(b, &l); err != nil || l.Status != "interrupted" || len(l.Failed) != 1 || l.Failed[0].File != files[1] || l.Failed[0].Name != "b "+redact.Mask {
		t.Errorf("the state (%v):\n%s", err, b)
	}
	left, _ := filepath.Glob(filepath.Join(art, ".*.tmp"))
	if len(left) > 0 {
		t.Errorf("temp files left: %v", left)
	}
	s, err := Load(o)
	if err != nil || len(s.tests) != 1 || s.tests[0].file != files[1] {
		t.Errorf("--last-failed: %+v, %v", s, err)
	}
	if err := st.runEnded(summarize([]flowResult{{file: files[1], name: "b"}}, time.Second)); err != nil {
		t.Fatal(err)
	}
	s, err = Load(o)
	if err != nil || len(s.tests) != 0 || !strings.Contains(s.none, "no flow of these failed in the last run") {
		t.Errorf("--last-failed after a green run: %+v, %v", s, err)
	}
	if b, _ := os.ReadFile(filepath.Join(art, ".last-run.json")); !strings.Contains(string(b), `"status": "passed"`) || !strings.Contains(string(b), `"failedTests": []`) {
		t.Errorf("the state of a green run:\n%s", b)
	}
	o.Artifacts = ""
	if err := o.Check(); err == nil || !strings.Contains(err.Error(), "give --artifacts DIR") {
		t.Errorf("--last-failed without --artifacts: %v", err)
	}
}

// TestStopper: with --max-failures N no flow starts once N failed; the
// flows not started are not run, saying why; without it every flow runs.
func TestStopper(t *testing.T) {
	s := newStopper(2)
	var ran []string
	run := func(name string, fail bool) flowResult {
		return s.run(test{file: name + ".yaml", name: name}, func() flowResult {
			ran = append(ran, name)
			return flowResult{name: name, failed: fail}
		})
	}
	run("a", true)
	run("b", false)
	run("c", true)
	r := run("d", true)
	if strings.Join(ran, " ") != "a b c" || r.skipped != "the run stopped after 2 failures (--max-failures 2)" || r.failed || r.file != "d.yaml" {
		t.Errorf("ran %v, then %+v", ran, r)
	}
	s, ran = newStopper(0), nil
	for range 3 {
		run("x", true)
	}
	if len(ran) != 3 {
		t.Errorf("no limit: ran %v", ran)
	}
}

// TestNotRunReported: a flow not run is a SKIP line and a count of the
// summary, JUnit's skipped test case, neither passed nor failed.
func TestNotRunReported(t *testing.T) {
	results := []flowResult{{name: "a", file: "a.yaml", failed: true, failedStep: 1, step: "back", headline: "x"}, {name: "b", file: "b.yaml", skipped: "the run stopped after 1 failure (--max-failures 1)"}}
	var b strings.Builder
	c := &console{w: &b}
	for _, r := range results {
		c.flowEnded(r)
	}
	_ = c.runEnded(summarize(results, 2*time.Second))
	want := "FAIL  a (a.yaml) 0.0s: step 1, back: x\nSKIP  b (b.yaml): not run: the run stopped after 1 failure (--max-failures 1)\n2 flow(s), 0 passed, 1 failed, 1 skipped, in 2.0s\n"
	if b.String() != want {
		t.Errorf("the console:\n%s\nwant\n%s", b.String(), want)
	}
	junit := filepath.Join(t.TempDir(), "j.xml")
	if err := writeJUnit(junit, results, time.Second, redact.NewSet(nil), false); err != nil {
		t.Fatal(err)
	}
	x, _ := os.ReadFile(junit)
	for _, w := range []string{`tests="2" failures="1" skipped="1"`, `<testcase name="b" classname="b.yaml" time="0.000">`, `<skipped message="not run: the run stopped after 1 failure (--max-failures 1)"></skipped>`} {
		if !strings.Contains(string(x), w) {
			t.Errorf("JUnit lacks %s:\n%s", w, x)
		}
	}
}

// TestFlowTimeout: a flow's own timeout wins over --timeout; without
// either there is none; a bad one is a usage error.
func TestFlowTimeout(t *testing.T) {
	for _, c := range []struct {
		flow, run time.Duration
		want      time.Duration
		by        string
	}{
		{0, 0, 0, ""},
		{0, time.Minute, time.Minute, "--timeout"},
		{5 * time.Second, time.Minute, 5 * time.Second, "the flow's timeout:"},
		{2 * time.Minute, 0, 2 * time.Minute, "the flow's timeout:"},
	} {
		r := &replay{runner: &runner{timeout: c.run}, t: test{flow: &flow.Flow{Timeout: c.flow}}}
		if d, by := r.flowTimeout(); d != c.want || by != c.by {
			t.Errorf("flow %s, --timeout %s: %s by %q, want %s by %q", c.flow, c.run, d, by, c.want, c.by)
		}
	}
	for o, want := range map[*Options]string{
		{Files: []string{"a"}, Parallel: 1, VideoMode: VideoOn, Timeout: -1}:     "--timeout must be more than 0",
		{Files: []string{"a"}, Parallel: 1, VideoMode: VideoOn, MaxFailures: -1}: "--max-failures must be 1 or more (0: no limit)",
		{Files: []string{"a"}, Parallel: 1, VideoMode: VideoOn, RepeatEach: -2}:  "--repeat-each must be 1 or more",
	} {
		if err := o.Check(); err == nil || err.Error() != want {
			t.Errorf("%+v: %v, want %s", *o, err, want)
		}
	}
}
