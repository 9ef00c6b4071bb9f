package runner

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// retried are the results of a run with --retries 2: a flow that passed
// the first time, one that failed then passed on its first retry (flaky),
// and one that failed all three attempts.
func retried() (pass, flaky, failed flowResult) {
	pass = flowResult{name: "log-in", file: "log-in.yaml", took: 1200 * time.Millisecond}
	first := flowResult{name: "cart", file: "cart.yaml", took: 2 * time.Second, failed: true, failedStep: 2, step: "click #save",
		errType: "not_actionable", headline: "not_actionable: #save: disabled", message: "### Error\n#save: disabled", report: "rep/cart.html"}
	flaky = flowResult{name: "cart", file: "cart.yaml", took: 1500 * time.Millisecond, report: "rep/cart-retry1.html", earlier: []flowResult{first},
		why: "step 2, click #save: in the failing attempt GET /api/cart answered 1.9 s later"}
	try := func(n int, trace string) flowResult {
		return flowResult{name: "pay", file: "pay.yaml", took: time.Duration(n) * time.Second, failed: true, failedStep: 3, step: "click #pay",
			errType: "element_not_found", headline: "element_not_found: no #pay", message: "### Error\nno #pay", trace: trace}
	}
	failed = try(3, "")
	failed.earlier = []flowResult{try(1, ""), try(2, "tr/pay-retry1.zip")}
	return pass, flaky, failed
}

// TestConsoleRetries: with --retries, a flaky flow has its own line, its
// failed attempt and why it flaked; a flow that failed every attempt says
// how many; the summary counts the flaky and lists them with the why.
func TestConsoleRetries(t *testing.T) {
	pass, flaky, failed := retried()
	var b strings.Builder
	c := &console{w: &b, retries: true}
	for _, r := range []flowResult{pass, flaky, failed} {
		c.flowEnded(r)
	}
	if err := c.runEnded(summarize([]flowResult{pass, flaky, failed}, 12*time.Second)); err != nil {
		t.Fatal(err)
	}
	want := `PASS  log-in (log-in.yaml) 1.2s
FLAKY  cart (cart.yaml) 3.5s: passed on retry 1
      attempt 1: step 2, click #save: not_actionable: #save: disabled
        report: rep/cart.html
      flaky: step 2, click #save: in the failing attempt GET /api/cart answered 1.9 s later
      report: rep/cart-retry1.html
FAIL  pay (pay.yaml) 6.0s: step 3, click #pay: element_not_found: no #pay
      failed all 3 attempts
      attempt 1: step 3, click #pay: element_not_found: no #pay
      attempt 2: step 3, click #pay: element_not_found: no #pay
        trace: tr/pay-retry1.zip (npx playwright show-trace tr/pay-retry1.zip)
3 flow(s), 1 passed, 1 flaky, 1 failed, in 12.0s
flaky: cart (cart.yaml): step 2, click #save: in the failing attempt GET /api/cart answered 1.9 s later
`
	if b.String() != want {
		t.Errorf("the console:\n%s\nwant\n%s", b.String(), want)
	}
}

// junitCaseOf is a test case of the JUnit file as CI systems that know
// Maven Surefire's reruns read it.
type junitCaseOf struct {
	Name    string `xml:"name,attr"`
	Time    string `xml:"time,attr"`
	Failure *struct {
		Message string `xml:"message,attr"`
	} `xml:"failure"`
	Flaky []struct {
		Message    string `xml:"message,attr"`
		Type       string `xml:"type,attr"`
		Time       string `xml:"time,attr"`
		StackTrace string `xml:"stackTrace"`
		SystemOut  string `xml:"system-out"`
	} `xml:"flakyFailure"`
	Rerun []struct {
		Message string `xml:"message,attr"`
		Time    string `xml:"time,attr"`
	} `xml:"rerunFailure"`
	SystemOut string `xml:"system-out"`
}

// TestJUnitRetries: JUnit in the shape of Playwright Test's reporter with
// retries: a flaky flow is no failure, its failed attempt a flakyFailure
// (with its error, answer and report) and the why in its output, its time
// the passing attempt's; a flow that failed every attempt is a failure
// (its first attempt's, saying how many) with a rerunFailure for each
// later one, its time the first attempt's.
func TestJUnitRetries(t *testing.T) {
	pass, flaky, failed := retried()
	dir := t.TempDir()
	path := filepath.Join(dir, "junit.xml")
	if err := writeJUnit(path, []flowResult{pass, flaky, failed}, 12*time.Second, redact.NewSet(nil), false); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Tests    int           `xml:"tests,attr"`
			Failures int           `xml:"failures,attr"`
			Cases    []junitCaseOf `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Suites) != 1 || doc.Suites[0].Tests != 3 || doc.Suites[0].Failures != 1 || len(doc.Suites[0].Cases) != 3 {
		t.Fatalf("want 3 cases, 1 failure:\n%s", b)
	}
	cs := doc.Suites[0].Cases
	if cs[0].Failure != nil || len(cs[0].Flaky)+len(cs[0].Rerun) != 0 {
		t.Errorf("the flow that passed:\n%s", b)
	}
	fl := cs[1]
	if fl.Failure != nil || len(fl.Flaky) != 1 || fl.Time != "1.500" || len(fl.Rerun) != 0 {
		t.Fatalf("the flaky flow:\n%s", b)
	}
	if f := fl.Flaky[0]; f.Message != "step 2, click #save: not_actionable: #save: disabled" || f.Type != "not_actionable" || f.Time != "2.000" ||
		!strings.Contains(f.StackTrace, "#save: disabled") || !strings.Contains(f.SystemOut, "[[ATTACHMENT|") {
		t.Errorf("the flaky flow's failed attempt: %+v\n%s", f, b)
	}
	if !strings.HasPrefix(fl.SystemOut, "flaky: step 2, click #save: in the failing attempt") || !strings.Contains(fl.SystemOut, "cart-retry1.html]]") {
		t.Errorf("the flaky flow's output: %q", fl.SystemOut)
	}
	fa := cs[2]
	if fa.Failure == nil || !strings.Contains(fa.Failure.Message, "(failed all 3 attempts)") || fa.Time != "1.000" || len(fa.Rerun) != 2 || len(fa.Flaky) != 0 {
		t.Fatalf("the failed flow:\n%s", b)
	}
	if fa.Rerun[0].Time != "2.000" || fa.Rerun[1].Time != "3.000" {
		t.Errorf("the reruns are the later attempts, in order:\n%s", b)
	}
}

// TestAttempts: a retry runs in a session of its own and names its files
// after the flow with -retryK; with an on-first-retry mode only the first
// retries' sessions record, and the other kind of recording is as asked.
func TestAttempts(t *testing.T) {
	s := &Suite{tests: []test{{file: "a.yaml", flow: &flow.Flow{Name: "a"}, session: "flow-1", stem: "a"}, {file: "b.yaml", flow: &flow.Flow{Name: "b"}, session: "flow-2", stem: "b"}}}
	r := s.tests[0].attempt(2)
	if r.session != "flow-1-retry2" || r.stem != "a-retry2" || r.retry != 2 || r.file != "a.yaml" {
		t.Errorf("the second retry: %+v", r)
	}
	if first := s.tests[1].attempt(0); first.session != "flow-2" || first.stem != "b" || first.retry != 0 {
		t.Errorf("the first attempt: %+v", first)
	}
	rec := firstRetries(Options{TraceMode: TraceOnFirstRetry, VideoMode: VideoRetainOnFailure}, s)
	for id, want := range map[string][2]bool{"flow-1": {false, true}, "flow-1-retry1": {true, true}, "flow-2-retry1": {true, true}, "flow-2-retry2": {false, true}} {
		if trace, video := rec(id); trace != want[0] || video != want[1] {
			t.Errorf("%s records trace %v, video %v; want %v", id, trace, video, want)
		}
	}
	rec = firstRetries(Options{TraceMode: TraceOn, VideoMode: VideoOnFirstRetry}, s)
	if trace, video := rec("flow-1"); !trace || video {
		t.Errorf("--video-mode on-first-retry: the first attempt records trace %v, video %v", trace, video)
	}
}

// TestPassingAttemptReadsNothing: with --retries, an attempt that passes
// the first time reads nothing of its session (the deps here have no
// sessions: a read would panic) and names no divergence; only its steps
// were timed.
func TestPassingAttemptReadsNothing(t *testing.T) {
	rn := &runner{retries: 2, deps: &mcptools.Deps{}, secrets: redact.NewSet(nil)}
	r := &replay{runner: rn, t: test{file: "a.yaml", flow: &flow.Flow{Name: "a"}, session: "flow-1"}, log: &attemptLog{}}
	r.log.steps = []stepTime{{n: 1, what: "navigate /", ok: true}}
	r.attemptDone(priorAttempts{})
	if !r.log.tl.At.IsZero() || r.res.why != "" || r.res.earlier != nil {
		t.Errorf("a first attempt that passed read its timeline or named a divergence: %+v %+v", r.log, r.res)
	}
}
