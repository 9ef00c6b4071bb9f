package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// finding is one element browser_audit_accessibility reports (its structuredContent).
type finding struct {
	Rule, Ref, Role, Name, What string
}

// auditReport reads an audit answer's findings and per-rule counts.
func auditReport(t *testing.T, res *mcp.CallToolResult) ([]finding, map[string]int) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Findings []finding      `json:"findings"`
		Totals   map[string]int `json:"totals"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return r.Findings, r.Totals
}

// audit runs browser_audit_accessibility, which must answer (not fail).
func audit(t *testing.T, c *client.Client, args map[string]any) ([]finding, map[string]int, string) {
	t.Helper()
	res := call(t, c, "browser_audit_accessibility", args)
	if res.IsError {
		t.Fatalf("browser_audit_accessibility(%v) failed:\n%s", args, text(res))
	}
	f, totals := auditReport(t, res)
	return f, totals, text(res)
}

// planted is a problem the fixture has on purpose: its rule and what tells
// its element apart.
type planted struct {
	rule string
	is   func(f finding) bool
}

// wantExactly fails unless the findings are the planted ones, one each,
// and nothing else.
func wantExactly(t *testing.T, out string, got []finding, totals map[string]int, want []planted) {
	t.Helper()
	var rules []string
	for _, w := range want {
		rules = append(rules, w.rule)
		i := slices.IndexFunc(got, func(f finding) bool { return f.Rule == w.rule && w.is(f) })
		if i < 0 {
			t.Errorf("the planted %s problem is not found:\n%s", w.rule, out)
			continue
		}
		if !strings.HasPrefix(got[i].Ref, "e") {
			t.Errorf("the %s finding has no ref: %+v", w.rule, got[i])
		}
	}
	var gotRules []string
	for r, n := range totals {
		if n != 1 {
			t.Errorf("rule %s has %d findings, want 1:\n%s", r, n, out)
		}
		gotRules = append(gotRules, r)
	}
	sort.Strings(rules)
	sort.Strings(gotRules)
	if !slices.Equal(rules, gotRules) || len(got) != len(want) {
		t.Errorf("findings of rules %v (%d), want exactly %v:\n%s", gotRules, len(got), rules, out)
	}
}

// problemsPlanted are the problems of audit/problems.html.
var problemsPlanted = []planted{
	{"control-name", func(f finding) bool { return f.Role == "button" && strings.Contains(f.What, "button.icon-btn") }},
	{"img-alt", func(f finding) bool { return f.Role == "img" && strings.Contains(f.What, "logo.png") }},
	{"field-label", func(f finding) bool { return strings.Contains(f.What, "input#ws-region has only a placeholder") }},
	{"duplicate-id", func(f finding) bool { return strings.Contains(f.What, `label for="email": 2 elements have that id`) }},
	{"heading-order", func(f finding) bool {
		return f.Role == "heading" && f.Name == "Workspace details" && strings.Contains(f.What, "h3")
	}},
	{"contrast", func(f finding) bool {
		return strings.Contains(f.What, "Lowercase letters") && strings.Contains(f.What, "#aaaaaa on #ffffff")
	}},
	{"focusable-hidden", func(f finding) bool { return f.Role == "link" && f.Name == "Read the quickstart" }},
	{"landmark-main", func(f finding) bool { return strings.Contains(f.What, "no main landmark") }},
}

// TestAuditA11y: every problem planted in a realistic page is found, on
// the right element, with nothing else; a clean page has no finding; one
// element is checked alone; a finding's ref is one the other tools take.
func TestAuditA11y(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=audit"))

	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/audit/problems.html"})
	got, totals, out := audit(t, c, map[string]any{})
	wantExactly(t, out, got, totals, problemsPlanted)
	mustContain(t, "the answer", out, "WCAG 1.4.3 Contrast (Minimum) (AA)", "Fix: add alt text",
		"Contrast not checked for 1 text element(s) over a background image or gradient")

	// The field's ref is one the other tools act on, and checks it alone.
	field := got[slices.IndexFunc(got, func(f finding) bool { return f.Rule == "field-label" })]
	mustCall(t, c, "browser_type", map[string]any{"target": field.Ref, "text": "eu-west-1"})
	one, totals, out := audit(t, c, map[string]any{"target": field.Ref})
	wantExactly(t, out, one, totals, []planted{{"field-label", func(f finding) bool { return f.Ref == field.Ref }}})

	// The form alone: its own problems, no page-wide rule.
	form, totals, out := audit(t, c, map[string]any{"target": "#workspace"})
	wantExactly(t, out, form, totals, []planted{problemsPlanted[2], problemsPlanted[3], problemsPlanted[5]})

	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/audit/clean.html"})
	clean, _, out := audit(t, c, map[string]any{})
	if len(clean) != 0 {
		t.Errorf("the clean page has findings:\n%s", out)
	}
	mustContain(t, "the clean page's answer", out, "no findings")
}

// TestAuditA11yFailOn: failOn turns findings at the level into an
// expect_failed answer, and passes where there are none; an exported flow
// with the step replays green with e2e-mcp run, and fails on the page with
// the problems.
func TestAuditA11yFailOn(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_CAPS=audit", "E2E_MCP_FILE_ROOTS="+dir)
	c := startClient(t, env)

	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/audit/problems.html"})
	out := mustFail(t, c, "browser_audit_accessibility", map[string]any{"failOn": "AA"}, "expect_failed")
	mustContain(t, "the failure", out, "8 accessibility finding(s) at level AA", "focusable-hidden:", "Context: session")
	out = mustFail(t, c, "browser_audit_accessibility", map[string]any{"failOn": "A"}, "expect_failed")
	mustContain(t, "the failure at level A", out, "7 accessibility finding(s) at level A")
	// A contrast problem is level AA: an audit failing on A passes it.
	out = mustCall(t, c, "browser_audit_accessibility", map[string]any{"target": "text=Lowercase letters", "failOn": "A"})
	mustContain(t, "level A on the low-contrast hint", out, "contrast: WCAG 1.4.3", "PASS: no findings at level A")
	mustFail(t, c, "browser_audit_accessibility", map[string]any{"target": "text=Lowercase letters", "failOn": "AA"}, "expect_failed")
	mustFail(t, c, "browser_audit_accessibility", map[string]any{"failOn": "AAA"}, "invalid_input")

	// A fresh session records a passing audit and replays it.
	rec := startClient(t, env)
	mustCall(t, rec, "browser_navigate", map[string]any{"url": f.URL + "/audit/clean.html"})
	mustCall(t, rec, "browser_audit_accessibility", map[string]any{})                     // fails on nothing: not recorded
	out = mustCall(t, rec, "browser_audit_accessibility", map[string]any{"failOn": "AA"}) // recorded
	mustContain(t, "the clean page's audit", out, "PASS: no findings at level AA")
	_, flowText := exportAndReplay(t, rec, env, dir, "accessible")
	if n := strings.Count(flowText, "audit_a11y"); n != 1 {
		t.Fatalf("the flow has %d audit steps, want 1:\n%s", n, flowText)
	}
	mustContain(t, "the flow", flowText, "audit_a11y: AA")

	// The same flow on the page with problems fails at the audit.
	bad := filepath.Join(dir, "problems.yaml")
	if err := os.WriteFile(bad, []byte(strings.ReplaceAll(flowText, "clean.html", "problems.html")), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code := runFlows(t, env, bad)
	if code == 0 || !strings.Contains(out, "FAIL  accessible") || !strings.Contains(out, "expect_failed") {
		t.Fatalf("the flow on the page with problems does not fail at the audit (exit %d):\n%s", code, out)
	}
}

// TestAuditGroupOff: the audit tools are not offered by default, and a
// call to one answers not_allowed naming the flag.
func TestAuditGroupOff(t *testing.T) {
	env, _ := serverEnv(t)
	c := startClient(t, env)
	names := toolNames(t, c)
	for _, n := range []string{"browser_audit_accessibility", "browser_perf"} {
		if slices.Contains(names, n) {
			t.Errorf("the default tools/list offers %s", n)
		}
		out := mustFail(t, c, n, map[string]any{}, "not_allowed")
		mustContain(t, "a call to "+n, out, "--caps audit")
	}
}

// vitalsOf reads browser_perf's structured answer.
type vitalsOf struct {
	Watched bool     `json:"watched"`
	TTFB    *float64 `json:"ttfb"`
	FCP     *float64 `json:"fcp"`
	LCP     *struct {
		MS      float64  `json:"ms"`
		Element *vitalEl `json:"element"`
	} `json:"lcp"`
	CLS struct {
		Value    float64   `json:"value"`
		Elements []vitalEl `json:"elements"`
	} `json:"cls"`
	INP *struct {
		MS           float64  `json:"ms"`
		Interactions int      `json:"interactions"`
		Event        string   `json:"event"`
		Target       *vitalEl `json:"target"`
	} `json:"inp"`
	LongTasks *struct {
		Count   int     `json:"count"`
		TBT     float64 `json:"tbt"`
		Longest float64 `json:"longest"`
	} `json:"longTasks"`
}

type vitalEl struct {
	Ref, Role, Name, What string
}

// perf runs browser_perf, which must answer, and reads its measures.
func perf(t *testing.T, c *client.Client, args map[string]any) (vitalsOf, string) {
	t.Helper()
	res := call(t, c, "browser_perf", args)
	if res.IsError {
		t.Fatalf("browser_perf(%v) failed:\n%s", args, text(res))
	}
	b, _ := json.Marshal(res.StructuredContent)
	var r struct {
		Vitals vitalsOf `json:"vitals"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return r.Vitals, text(res)
}

// TestPerf: a report page whose consent banner pushes the content down
// after load and whose button runs a long task: CLS names what moved, the
// LCP element is named, FCP and TTFB are there; INP and the click's long
// task come after a click. The page's analytics snippet also blocks the
// main thread while the page is parsed, but Chrome reports such a task
// only some of the time (about two loads in three here, with or without
// our watcher), so the count before the click is not asserted; the click's
// task is, since nothing else talks to the page while it runs.
func TestPerf(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=audit"))

	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/audit/perf.html"})
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "We use cookies"})
	v, out := perf(t, c, map[string]any{})
	if !v.Watched || v.TTFB == nil || v.FCP == nil || v.LCP == nil || v.LCP.Element == nil || v.LongTasks == nil {
		t.Fatalf("a measure is missing: %+v\n%s", v, out)
	}
	if v.LCP.Element.Role != "paragraph" || !strings.Contains(v.LCP.Element.What, "Revenue grew") {
		t.Errorf("the LCP element is not the report's summary: %+v\n%s", *v.LCP.Element, out)
	}
	// The banner goes in above everything: the report (main) moves down.
	if v.CLS.Value <= 0 || !slices.ContainsFunc(v.CLS.Elements, func(e vitalEl) bool { return e.Role == "main" && strings.HasPrefix(e.Ref, "e") }) {
		t.Fatalf("no layout shift of the report reported:\n%s", out)
	}
	if v.INP != nil {
		t.Errorf("INP before any interaction: %+v", *v.INP)
	}
	mustContain(t, "the answer", out, "- LCP: ", "- CLS: ", "moved: ", "- FCP: ", " ms (good)", "- TTFB: ",
		"- INP: no interactions yet", "- Long tasks: ")
	before := v.LongTasks.Count

	mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Recalculate totals']"})
	v, out = perf(t, c, map[string]any{})
	if v.INP == nil || v.INP.Interactions < 1 || v.INP.Target == nil || v.INP.Target.Name != "Recalculate totals" {
		t.Fatalf("no INP after the click, or not on the button:\n%s", out)
	}
	if v.LongTasks.Count <= before || v.INP.MS < v.LongTasks.Longest-50 {
		t.Errorf("the click's long task is not reported (%d long tasks before, %+v now)\n%s", before, *v.LongTasks, out)
	}
	mustContain(t, "the answer after a click", out, "- INP: ", "on "+v.INP.Target.Ref)
}

// TestPerfThrottled: with the network group, browser_perf reloads on a
// throttled network and measures there (a later first paint than the same
// reload unthrottled, after), then puts the network back; with the
// emulation group, a slower CPU, after which the session emulates what it
// did before; without the group, throttling is not allowed.
func TestPerfThrottled(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=audit"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/audit/perf.html"})
	out := mustFail(t, c, "browser_perf", map[string]any{"network": "fast-3g"}, "not_allowed")
	mustContain(t, "throttling without the group", out, "--caps audit,network")

	env, _ = serverEnv(t)
	c = startClient(t, append(env, "E2E_MCP_CAPS=audit,network,emulation"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/audit/perf.html"})
	slow, out := perf(t, c, map[string]any{"network": "fast-3g"})
	mustContain(t, "the throttled answer", out, "reloaded under fast-3g network; throttling restored")
	fast, out2 := perf(t, c, map[string]any{"reload": true})
	if slow.FCP == nil || fast.FCP == nil || *slow.FCP <= *fast.FCP {
		t.Fatalf("the throttled load is not the slower one:\n%s\n%s", out, out2)
	}
	mustContain(t, "the plain reload", out2, "(reloaded):")

	// A slower CPU on top of what the session emulates, then back to it.
	mustCall(t, c, "browser_emulate", map[string]any{"locale": "de-DE"})
	_, out = perf(t, c, map[string]any{"cpuThrottling": 4})
	mustContain(t, "the answer under a slow CPU", out, "reloaded under CPU 4x slower; throttling restored")
	out = mustCall(t, c, "browser_emulate", map[string]any{})
	mustContain(t, "the session's emulation after", out, "Emulating in every tab: locale de-DE.")
}

// TestPerfCancelRestores: a browser_perf call with cpuThrottling that the
// client cancels (notifications/cancelled) while the throttled reload
// loads leaves the tab as it was: the CPU is given back on a context the
// call's cancellation does not reach. What the server told Chrome is read
// from its log of the DevTools traffic (a busy loop's time, compared before
// and after, was the first check: under a loaded CI machine it moved 16x
// by itself).
func TestPerfCancelRestores(t *testing.T) {
	reloading, release := make(chan struct{}), make(chan struct{})
	var loads atomic.Int32
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /cpu.html", func(w http.ResponseWriter, r *http.Request) {
			heading := "First load"
			if loads.Add(1) == 2 {
				heading = "Reloaded"
				close(reloading)
				select {
				case <-release:
				case <-r.Context().Done():
				}
			}
			fmt.Fprintf(w, "<!doctype html><title>CPU</title><h1>%s</h1>", heading)
		})
	})
	var once sync.Once
	releaseOnce := func() { once.Do(func() { close(release) }) }
	t.Cleanup(releaseOnce)
	env, _ := serverEnv(t)
	c, stderr := startClientLog(t, append(env, "E2E_MCP_CAPS=audit,emulation")) // at debug level: the DevTools traffic
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/cpu.html"})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "browser_perf", map[string]any{"cpuThrottling": 50}
		_, err := c.CallTool(ctx, req)
		done <- err
	}()
	select {
	case <-reloading:
	case <-time.After(30 * time.Second):
		t.Fatal("the throttled reload never reached the fixture")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled call answered %v", err)
	}
	releaseOnce()
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Reloaded"})
	// The cancelled call puts the rate back when its reload ends, which
	// may be after the page shows it: wait for it.
	var rates []string
	read := func() bool {
		rates = nil
		for _, line := range strings.Split(stderr.String(), "\n") {
			if m := cpuRateRE.FindStringSubmatch(line); m != nil && strings.Contains(line, "-> ") {
				rates = append(rates, m[1])
			}
		}
		return len(rates) >= 2 && rates[0] == "50" && rates[len(rates)-1] == "1"
	}
	deadline := time.Now().Add(10 * time.Second)
	for !read() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond) // polling the log, with a deadline
	}
	if !read() {
		t.Fatalf("the CPU rates the server set, in order: %v; want 50 first and 1 last", rates)
	}
}

// cpuRateRE finds the rate of an Emulation.setCPUThrottlingRate command in
// the server's debug log of the DevTools traffic.
var cpuRateRE = regexp.MustCompile(`"method":"Emulation.setCPUThrottlingRate","params":\{"rate":([0-9.]+)\}`)
