package runner

import (
	"encoding/json"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// sampleResults are one flow of each outcome, as the reporters' tests
// read them: log-in passed, pay failed at its step 2 (line 7, column 5 of
// its file) after step 1 was healed, sign-up healed at step 1 (line 4),
// search flaky (passed on its 2nd attempt), export skipped.
func sampleResults() []flowResult {
	steps := []stepInfo{{action: "navigate", title: "navigate /", pos: flow.Pos{Line: 4, Column: 5}},
		{action: "click", title: "click #pay", pos: flow.Pos{Line: 7, Column: 5}},
		{action: "expect", title: "expect role=status", pos: flow.Pos{Line: 9, Column: 5}}}
	return []flowResult{
		{name: "log-in", file: "flows/log-in.yaml", took: 1200 * time.Millisecond, steps: steps[:1]},
		{name: "pay", file: "flows/pay.yaml", took: 3 * time.Second, steps: steps, failed: true, failedStep: 2, step: "click #pay",
			errType: "element_not_found", headline: "element_not_found: no element matches #pay (take a snapshot)", message: "### Error\nno element",
			diagnosis: `likely role=button[name="Pay"]`, report: "out/pay.html", artifacts: "art/pay", trace: "tr/pay.zip", video: "vid/pay.png", videoNote: "3 frames",
			actorFiles: []actorFiles{{actor: "bob", report: "out/pay.bob.html", trace: "tr/pay.bob.zip"}, {actor: "eve", report: "out/pay.eve.html"}},
			heals:      []heal{{step: 1, action: "navigate", from: "/a", to: "/b", why: "same page"}}},
		{name: "sign-up", file: "flows/sign-up.yaml", took: 2 * time.Second, steps: steps[:2], healedFile: "flows/sign-up.healed.yaml",
			healDiff: "--- a\n+++ b\n", healNotes: []string{"step 9 was not written"},
			heals: []heal{{step: 1, action: "click", from: "#go", to: `role=button[name="Go, now"]`, why: "same name"}}},
		{name: "search", file: "flows/search.yaml", took: 4 * time.Second, steps: steps[:1],
			earlier: []flowResult{{name: "search", file: "flows/search.yaml", took: time.Second, steps: steps[:1], failed: true, failedStep: 1, step: "navigate /search", errType: "timeout", headline: "timeout: slow"}},
			why:     "step 1 navigate: the page answered later"},
		{name: "export", file: "flows/export.yaml", skipped: "the run stopped after 1 failure (--max-failures 1)", steps: steps[:1]},
	}
}

// TestDocCarriesEveryField: the JSON report and the blob carry every
// field of a result, so that merge-reports reports a shard's flows as the
// shard's own run did: each result goes through the document (as JSON)
// and comes back the same. A field added to flowResult or heal fails this
// test until flowDoc carries it (or it is said here why not).
func TestDocCarriesEveryField(t *testing.T) {
	carried := map[string]bool{"file": true, "name": true, "took": true, "failed": true, "failedStep": true, "step": true, "errType": true,
		"headline": true, "message": true, "artifacts": true, "report": true, "video": true, "videoNote": true, "trace": true, "diagnosis": true,
		"heals": true, "healedFile": true, "healDiff": true, "healNotes": true, "steps": true, "skipped": true, "earlier": true, "why": true, "actorFiles": true}
	for i := range reflect.TypeFor[flowResult]().NumField() {
		if f := reflect.TypeFor[flowResult]().Field(i); !carried[f.Name] {
			t.Errorf("flowResult.%s is not carried by the JSON report and the blob: add it to flowDoc (flowDocOf, resultOf) and here", f.Name)
		}
	}
	notCarried := map[string]string{"print": "the healWriter's, during the run", "holdsSecret": "as print"}
	for i := range reflect.TypeFor[heal]().NumField() {
		f := reflect.TypeFor[heal]().Field(i)
		if _, ok := notCarried[f.Name]; !ok && !map[string]bool{"step": true, "action": true, "from": true, "to": true, "why": true}[f.Name] {
			t.Errorf("heal.%s is not carried by the JSON report and the blob: add it to healDoc or say why not", f.Name)
		}
	}
	for _, r := range sampleResults() {
		b, err := json.Marshal(flowDocOf(r, nil, samePath))
		if err != nil {
			t.Fatal(err)
		}
		var d flowDoc
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		back, err := resultOf(d, samePath)
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		if !reflect.DeepEqual(back, r) {
			t.Errorf("%s through the document:\n%+v\nwant\n%+v\n%s", r.name, back, r, b)
		}
	}
	// What the document says of the failed flow: its outcome, each step's,
	// the error with the failing step's place, and the healed step's new
	// locator masked.
	r := sampleResults()[1]
	r.heals[0].to = "/b?token=s3cret"
	secrets := redact.NewSet(nil)
	secrets.Add("s3cret")
	d := flowDocOf(r, secrets, samePath)
	var outs []string
	for _, st := range d.Steps {
		outs = append(outs, string(st.Outcome))
	}
	if d.Outcome != outcomeFailed || strings.Join(outs, " ") != "healed failed skipped" || d.Error == nil || d.Error.Line != 7 || d.Error.Column != 5 ||
		d.Error.Type != "element_not_found" || d.Heals[0].To == r.heals[0].to || strings.Contains(d.Heals[0].To, "s3cret") {
		t.Errorf("the failed flow's document: %+v %+v %+v", d, d.Error, d.Heals)
	}
	// An outcome the steps do not bear out, or one not known, is refused.
	d = flowDocOf(sampleResults()[0], nil, samePath)
	for _, o := range []outcome{"failed", "flaky", "sideways"} {
		d.Outcome = o
		if _, err := resultOf(d, samePath); err == nil {
			t.Errorf("a passed flow read back as %s", o)
		}
	}
}

// failBlock and healBlock are the console's lines of sampleResults' pay
// and sign-up, which line and dot print in full.
const failBlock = `FAIL  pay (flows/pay.yaml) 3.0s: step 2, click #pay: element_not_found: no element matches #pay (take a snapshot)
      diagnosis: likely role=button[name="Pay"]
      HEALED step 1, navigate: /a -> /b (same page)
      artifacts: art/pay
      report: out/pay.html
      video: vid/pay.png
      trace: tr/pay.zip (npx playwright show-trace tr/pay.zip)
`
const healBlock = `HEALED  sign-up (flows/sign-up.yaml) 2.0s: 1 step healed
      HEALED step 1, click: #go -> role=button[name="Go, now"] (same name)
      repaired flow: flows/sign-up.healed.yaml
      (the repaired flow: step 9 was not written)
--- a
+++ b
`

// reported is what reporter r writes of sampleResults.
func reported(t *testing.T, mk func(*strings.Builder) reporter) string {
	t.Helper()
	var b strings.Builder
	r := mk(&b)
	rs := sampleResults()
	for _, x := range rs {
		r.flowEnded(x)
	}
	if err := r.runEnded(summarize(rs, 10*time.Second)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestLineAndDot: dot writes a character a flow as it ends, then the
// flows that did not simply pass in full, then the summary; line writes
// those flows as they end and the summary, and on a terminal a progress
// line ([2/5] and the flow) that each next line clears.
func TestLineAndDot(t *testing.T) {
	sumLine := "5 flow(s), 2 passed, 1 flaky, 1 failed, 1 skipped, in 10.0s\n" +
		"flaky: search (flows/search.yaml): step 1 navigate: the page answered later\n"
	search := "FLAKY  search (flows/search.yaml) 5.0s: passed on retry 1\n" + // the console's lines of a flaky flow
		"      attempt 1: step 1, navigate /search: timeout: slow\n" +
		"      flaky: step 1 navigate: the page answered later\n"
	if got, want := reported(t, func(b *strings.Builder) reporter { return &dots{w: b, summary: &console{w: b}} }),
		"·FH±°\n"+failBlock+healBlock+search+sumLine; got != want {
		t.Errorf("dot:\n%q\nwant\n%q", got, want)
	}
	many := &strings.Builder{}
	d := &dots{w: many, summary: &console{w: io.Discard}}
	for range 170 {
		d.flowEnded(flowResult{})
	}
	_ = d.runEnded(summary{})
	if want := strings.Repeat("·", 80) + "\n" + strings.Repeat("·", 80) + "\n" + strings.Repeat("·", 10) + "\n"; many.String() != want {
		t.Errorf("dot, 170 flows:\n%s", many.String())
	}
	if got, want := reported(t, func(b *strings.Builder) reporter { return &lineReporter{w: b, total: 5, summary: &console{w: b}} }),
		failBlock+healBlock+search+sumLine; got != want {
		t.Errorf("line off a terminal:\n%q\nwant\n%q", got, want)
	}
	c := clearLine
	if got, want := reported(t, func(b *strings.Builder) reporter {
		return &lineReporter{w: b, terminal: true, total: 5, summary: &console{w: b}}
	}), c+"[1/5] passed log-in (flows/log-in.yaml)"+c+failBlock+"[2/5] failed pay (flows/pay.yaml)"+c+healBlock+
		"[3/5] healed sign-up (flows/sign-up.yaml)"+c+search+"[4/5] flaky search (flows/search.yaml)"+c+
		"[5/5] skipped export (flows/export.yaml)"+c+sumLine; got != want {
		t.Errorf("line on a terminal:\n%q\nwant\n%q", got, want)
	}
}

// TestGitHubAnnotations: an error on the failing step's line and column
// of a failed flow's file (relative to the workspace), a warning on the
// first healed step of a healed flow and on a flaky flow, then the
// summary as a notice; newlines, % and the properties' : and , escaped
// as GitHub reads them back.
func TestGitHubAnnotations(t *testing.T) {
	ws := t.TempDir()
	t.Chdir(ws)
	got := reported(t, func(b *strings.Builder) reporter { return &githubReporter{w: b, root: ws} })
	want := `::error file=flows/pay.yaml,line=7,col=5,title=flow pay failed::step 2, click #pay: element_not_found: no element matches #pay (take a snapshot)%0Adiagnosis: likely role=button[name="Pay"]%0Areport: out/pay.html
::warning file=flows/sign-up.yaml,line=4,col=5,title=flow sign-up healed::1 step healed%0Astep 1, click: #go -> role=button[name="Go, now"] (same name)
::warning file=flows/search.yaml,title=flow search is flaky::passed on attempt 2
::notice title=e2e-mcp run::5 flow(s), 1 passed, 1 flaky, 1 healed, 1 skipped, 1 failed, in 10.0s
`
	if got != want {
		t.Errorf("github:\n%s\nwant\n%s", got, want)
	}
	if got := ghProperty("a,b:c%d\ne"); got != "a%2Cb%3Ac%25d%0Ae" {
		t.Errorf("a property escaped: %s", got)
	}
	// A flow that failed before its first step has no line; a file outside
	// the workspace is named absolutely.
	var b strings.Builder
	g := &githubReporter{w: &b, root: filepath.Join(ws, "sub")}
	_ = g.runEnded(summarize([]flowResult{{name: "dev", file: "flows/dev.yaml", failed: true, step: "start the dev server", headline: "dev_server_failed: exit 1"}}, time.Second))
	if want := "::error file=" + filepath.ToSlash(filepath.Join(ws, "flows", "dev.yaml")) + ",title=flow dev failed::before the first step (start the dev server): dev_server_failed: exit 1\n"; !strings.HasPrefix(b.String(), want) {
		t.Errorf("a failure before the first step:\n%s\nwant\n%s", b.String(), want)
	}
}

// TestReporterSet: --reporter takes names comma-separated or again; with
// none the run has list alone; --junit, --json and --blob turn their
// reporter on; the html and blob reporters write each flow's report (in
// --report's directory, or e2e-mcp-report), and the reporters come in
// the order they print in.
func TestReporterSet(t *testing.T) {
	var l ReporterList
	for _, v := range []string{"dot, junit", "html,", "github"} {
		if err := l.Set(v); err != nil {
			t.Fatal(err)
		}
	}
	if l.String() != "dot,junit,html,github" {
		t.Errorf("--reporter dot, junit --reporter html, --reporter github: %q", l.String())
	}
	kinds := func(o Options) string {
		var out []string
		for _, r := range reporters(o, &runEnv{}) {
			out = append(out, strings.TrimPrefix(reflect.TypeOf(r).String(), "*runner."))
		}
		return strings.Join(out, " ")
	}
	for want, o := range map[string]Options{
		"console":             {},
		"console junitReport": {JUnit: "j.xml"},
		"dots junitReport htmlIndex githubReporter": {Reporters: l},
		"lineReporter jsonReport blobReport":        {Reporters: ReporterList{"line"}, JSON: "r.json", Blob: "b"},
	} {
		if got := kinds(o); got != want {
			t.Errorf("%+v: reporters %s, want %s", o, got, want)
		}
	}
	for _, c := range []struct {
		o    Options
		want string
	}{{Options{}, ""}, {Options{Report: "r"}, "r"}, {Options{Reporters: ReporterList{"html"}}, "e2e-mcp-report"},
		{Options{Blob: "b"}, "e2e-mcp-report"}, {Options{Reporters: ReporterList{"blob"}, Report: "x"}, "x"}} {
		if got := c.o.reportsDir(); got != c.want {
			t.Errorf("%+v: reports in %q, want %q", c.o, got, c.want)
		}
	}
}
