package runner

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// TestReportNames: each flow's report and trace are named after it, numbered only
// when two flows share a name, never with a path separator.
func TestReportNames(t *testing.T) {
	got := reportNames([]string{"sign-up", "a/b", "sign-up", "log-in"})
	want := map[string]string{"flow-1": "sign-up-1", "flow-2": "a_b", "flow-3": "sign-up-3", "flow-4": "log-in"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q, want %q", k, got[k], v)
		}
	}
}

// TestJUnitLinksReports: a flow's report is linked from its test case,
// relative to the JUnit file, and a failure's text names it.
func TestJUnitLinksReports(t *testing.T) {
	dir := t.TempDir()
	junit := filepath.Join(dir, "out", "junit.xml")
	if err := os.MkdirAll(filepath.Dir(junit), 0o755); err != nil {
		t.Fatal(err)
	}
	results := []flowResult{
		{name: "ok", file: "ok.yaml", report: filepath.Join(dir, "reports", "ok.html")},
		{name: "bad", file: "bad.yaml", failed: true, failedStep: 2, step: "click #go", headline: "element_not_found: x",
			message: "### Error", report: filepath.Join(dir, "reports", "bad.html"), video: filepath.Join(dir, "videos", "bad.png")},
		{name: "plain", file: "plain.yaml"},
	}
	if err := writeJUnit(junit, results, 0, redact.NewSet(nil), false); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	x := string(b)
	for _, want := range []string{"[[ATTACHMENT|../reports/ok.html]]", "[[ATTACHMENT|../reports/bad.html]]", "Report: ../reports/bad.html",
		"[[ATTACHMENT|../videos/bad.png]]", "Video: ../videos/bad.png"} {
		if !strings.Contains(x, want) {
			t.Errorf("the JUnit file lacks %q:\n%s", want, x)
		}
	}
	if strings.Count(x, "<system-out>") != 2 {
		t.Errorf("want a link only where there is a report:\n%s", x)
	}
}

// TestEnvSecrets: the run masks the values of E2E_SECRET_n and of the
// variables whose names say secret (redact.IsSecretEnv), not of a
// variable that only has a secret's word inside its name.
func TestEnvSecrets(t *testing.T) {
	got := envSecrets([]string{"E2E_SECRET_1=pw-1", "CI_API_TOKEN=tok-2", "DB_PASSWORD=db-3", "E2E_SECRET_2=",
		"SESSION_COOKIE_DOMAIN=localhost", "TOKEN_URL=https://auth.example.com/token", "PASSWORD_FILE=/run/pw", "HOME=/root", "PWD=/src"})
	want := []string{"pw-1", "tok-2", "db-3"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("envSecrets: %q, want %q", got, want)
	}
}

// TestOptionsCheck: a run needs flows, one at once or more, video and trace
// modes it knows, no fewer than 0 retries; each mistake is said in the
// command line's words.
func TestOptionsCheck(t *testing.T) {
	ok := Options{Files: []string{"a.yaml"}, Parallel: 1, VideoMode: VideoRetainOnFailure}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	retries := Options{Files: ok.Files, Parallel: 1, VideoMode: VideoOnFirstRetry, TraceMode: TraceOnFirstRetry, Retries: 2}
	if err := retries.Check(); err != nil {
		t.Fatal(err)
	}
	for want, o := range map[string]Options{
		"give the flow files to run":                              {Parallel: 1, VideoMode: VideoOn},
		"--parallel must be 1 or more":                            {Files: ok.Files, VideoMode: VideoOn},
		"--video-mode is retain-on-failure, on or on-first-retry": {Files: ok.Files, Parallel: 2, VideoMode: "always"},
		"--trace-mode is on or on-first-retry":                    {Files: ok.Files, Parallel: 1, VideoMode: VideoOn, TraceMode: "retain-on-failure"},
		"--retries must be 0 or more":                             {Files: ok.Files, Parallel: 1, VideoMode: VideoOn, Retries: -1},
		"--reporter \"lines\": the reporters are list, line, dot, json, junit, html, github, blob": {Files: ok.Files, Parallel: 1, VideoMode: VideoOn,
			Reporters: ReporterList{"dot", "lines"}},
	} {
		if err := o.Check(); err == nil || err.Error() != want {
			t.Errorf("%+v: %v, want %q", o, err, want)
		}
	}
}

// TestFlowWriters: the writers run in the order whose later ones read
// what earlier ones noted (the repaired flow and the video before the
// report, which links them), each only when asked, each turning on what it
// needs of the sessions; a directory that cannot be made names its flag.
func TestFlowWriters(t *testing.T) {
	dir := t.TempDir()
	env := &runEnv{deps: &mcptools.Deps{}, secrets: redact.NewSet(nil), warn: &warnings{w: io.Discard}}
	o := Options{Heal: HealBeside, Video: filepath.Join(dir, "v"), VideoMode: VideoOn, Report: filepath.Join(dir, "r"), Trace: filepath.Join(dir, "t")}
	ws, err := flowWriters(o, env)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, w := range ws {
		kinds = append(kinds, fmt.Sprintf("%T", w))
	}
	if got := strings.Join(kinds, " "); got != "*runner.healWriter *runner.videoKeeper *runner.htmlReports *runner.traces" {
		t.Errorf("writers: %s", got)
	}
	d := env.deps
	if d.Videos == nil || !d.Videos.EveryCall || !d.Reports || !d.ReportShots || !d.TraceSessions {
		t.Errorf("the sessions do not record what the writers read: %+v", d)
	}
	for _, sub := range []string{"r", "t"} {
		if fi, err := os.Stat(filepath.Join(dir, sub)); err != nil || !fi.IsDir() {
			t.Errorf("no directory %s: %v", sub, err)
		}
	}
	if ws, err := flowWriters(Options{}, &runEnv{deps: &mcptools.Deps{}}); err != nil || len(ws) != 0 {
		t.Errorf("writers no flag asked for: %v %v", ws, err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for flag, o := range map[string]Options{"--report: ": {Report: filepath.Join(file, "r")}, "--trace: ": {Trace: filepath.Join(file, "t")}} {
		if _, err := flowWriters(o, &runEnv{deps: &mcptools.Deps{}}); err == nil || !strings.HasPrefix(err.Error(), flag) {
			t.Errorf("a directory under a file: %v, want %s...", err, flag)
		}
	}
}
