package e2e

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// flakySite serves pages that are flaky on purpose, one per cause: each
// page's first load (a flow's first attempt) goes wrong, its later loads
// (the retry, in a new session) do not. It decides by counting, so the
// outcome is the same every run.
type flakySite struct {
	*fixture
	mu    sync.Mutex
	loads map[string]int
	carts int // requests to /api/cart
}

// flakyPages are the page of each cause; first says whether this is the
// page's first load. Each has a Save button that says "Saved" in its
// status when it works.
var flakyPages = map[string]func(first bool) string{
	// A slow API response: the button is disabled until /api/cart
	// answers, and the first answer takes 6 s (the click waits 1 s).
	"slow": func(bool) string {
		return `<button disabled>Save</button><p role="status"></p>
<script>fetch('/api/cart').then((r) => r.json()).then((c) => { const b = document.querySelector('button');
  b.disabled = false; b.onclick = () => { document.querySelector('[role=status]').textContent = 'Saved ' + c.items; }; });</script>`
	},
	// A console error in the first attempt only: the page's config is
	// missing, the script that wires the button throws, the click does
	// nothing, and the check after it fails.
	"console": func(first bool) string {
		config := `<script>window.cartConfig = {label: 'Saved 2'};</script>`
		if first {
			config = ""
		}
		return `<button>Save</button><p role="status"></p>` + config + `
<script>const label = window.cartConfig.label;
document.querySelector('button').onclick = () => { document.querySelector('[role=status]').textContent = label; };</script>`
	},
	// A target that appears after the action's wait the first time (5 s,
	// the click waits 1 s), soon after the page loads later.
	"late": func(first bool) string {
		after := 100
		if first {
			after = 5000
		}
		return fmt.Sprintf(`<p role="status"></p>
<script>setTimeout(() => { const b = document.createElement('button'); b.textContent = 'Save';
  b.onclick = () => { document.querySelector('[role=status]').textContent = 'Saved 2'; }; document.body.prepend(b); }, %d);</script>`, after)
	},
	// A toast over the button the first time, for longer than the click
	// waits.
	"toast": func(first bool) string {
		toast := ""
		if first {
			toast = `<div id="toast" style="position:fixed;inset:0;background:#333;color:#fff;padding:20px">Draft restored</div>`
		}
		return `<button onclick="document.querySelector('[role=status]').textContent = 'Saved 2'">Save</button><p role="status"></p>` + toast
	},
	// An animation still running: the first time the button slides for
	// 10 s, which the click does not wait out.
	"animation": func(first bool) string {
		style := ""
		if first {
			style = `<style>button { position: relative; animation: drift 10s linear; } @keyframes drift { from { left: 0 } to { left: 600px } }</style>`
		}
		return style + `<button onclick="document.querySelector('[role=status]').textContent = 'Saved 2'">Save</button><p role="status"></p>`
	},
	// A page that works every time.
	"plain": func(bool) string {
		return `<button onclick="document.querySelector('[role=status]').textContent = 'Saved 2'">Save</button><p role="status"></p>`
	},
}

func newFlakySite(t *testing.T) *flakySite {
	t.Helper()
	s := &flakySite{loads: map[string]int{}}
	s.fixture = newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /flaky/{page}", func(w http.ResponseWriter, r *http.Request) {
			name := strings.TrimSuffix(r.PathValue("page"), ".html")
			page, ok := flakyPages[strings.TrimRight(name, "0123456789")]
			if !ok {
				http.NotFound(w, r)
				return
			}
			s.mu.Lock()
			s.loads[name]++
			first := s.loads[name] == 1
			s.mu.Unlock()
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<!doctype html><title>Cart</title><h1>Cart</h1>\n%s\n", page(first))
		})
		mux.HandleFunc("GET /api/cart", func(w http.ResponseWriter, r *http.Request) {
			s.mu.Lock()
			s.carts++
			slow := s.carts == 1
			s.mu.Unlock()
			if slow {
				select {
				case <-time.After(6 * time.Second):
				case <-r.Context().Done():
					return
				}
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"items": 2}`)
		})
	})
	return s
}

// loadsOf is how many times the page was loaded.
func (s *flakySite) loadsOf(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loads[name]
}

// writeFlakyFlow writes dir/NAME.yaml: open the page, click Save, check
// the status (a 1 s check).
func writeFlakyFlow(t *testing.T, dir, base, name string) string {
	t.Helper()
	f := filepath.Join(dir, name+".yaml")
	body := fmt.Sprintf(`name: %s
baseURL: %s
steps:
  - navigate: /flaky/%s.html
  - click: 'role=button[name="Save"]'
  - expect: {target: 'role=status', check: text, expected: Saved 2, timeout: 1}
`, name, base, name)
	if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// flakyJUnitCase is a test case of the JUnit file, with the reruns of
// Maven Surefire's format that Playwright Test's reporter writes.
type flakyJUnitCase struct {
	Name    string `xml:"name,attr"`
	Failure *struct {
		Message string `xml:"message,attr"`
	} `xml:"failure"`
	Flaky []struct {
		Message    string `xml:"message,attr"`
		Type       string `xml:"type,attr"`
		StackTrace string `xml:"stackTrace"`
	} `xml:"flakyFailure"`
	Rerun []struct {
		Message string `xml:"message,attr"`
	} `xml:"rerunFailure"`
	SystemOut string `xml:"system-out"`
}

func readFlakyJUnit(t *testing.T, path string) (failures int, cases map[string]flakyJUnitCase, raw []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Failures int              `xml:"failures,attr"`
			Cases    []flakyJUnitCase `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil || len(doc.Suites) != 1 {
		t.Fatalf("the JUnit file: %v\n%s", err, b)
	}
	cases = map[string]flakyJUnitCase{}
	for _, c := range doc.Suites[0].Cases {
		cases[c.Name] = c
	}
	return doc.Suites[0].Failures, cases, b
}

// TestRetriesFlaky (issue 38): a flow flaky on purpose for each cause (a
// slow API response, a console error, a target that appears after the
// action's wait, a toast over the target, an animation still running)
// fails its first attempt and passes its retry under `run --retries 1`:
// the run exits 0, the flow is FLAKY in the console, in JUnit (a
// flakyFailure, no failure) and in its report, and the diagnosis names the
// step where the attempts parted and the right cause. A flow that passes
// runs once.
func TestRetriesFlaky(t *testing.T) {
	site := newFlakySite(t)
	dir := t.TempDir()
	env, tmp := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_LOG_LEVEL=warn", "E2E_MCP_ACTION_TIMEOUT=1s")
	// Each cause: the step where the attempts part, and what the
	// diagnosis says of it.
	causes := []struct {
		name string
		step string
		says []string
	}{
		{"slow", `step 2, click role=button[name="Save"]: in the failing attempt`, []string{"GET /api/cart had not answered", "after it was sent (it took", `the button "Save" was still disabled when the wait ran out after 1.0 s`}},
		{"console", `step 3, expect role=status: in the failing attempt`, []string{"the console had an error the passing attempt did not:", "reading 'label'"}},
		{"late", `step 2, click role=button[name="Save"]: in the failing attempt`, []string{`the button "Save" had not appeared when the wait ran out after 1.0 s`}},
		{"toast", `step 2, click role=button[name="Save"]: in the failing attempt`, []string{`another element was under the point: the button "Save" was covered by div#toast`, "(in the passing attempt the action reached it)"}},
		{"animation", `step 2, click role=button[name="Save"]: in the failing attempt`, []string{`an animation was still running: the button "Save" was still moving when the wait ran out`}},
	}
	var files []string
	for _, c := range causes {
		files = append(files, writeFlakyFlow(t, dir, site.URL, c.name))
	}
	files = append(files, writeFlakyFlow(t, dir, site.URL, "plain"))
	junit, reports := filepath.Join(dir, "junit.xml"), filepath.Join(dir, "reports")
	out, code := runFlows(t, env, append(files, "--retries", "1", "--junit", junit, "--report", reports)...)
	t.Logf("the run:\n%s", out)
	if code != 0 {
		t.Fatalf("exit %d, want 0: every flow passed, five on a retry", code)
	}
	mustContain(t, "the run", out, "PASS  plain", "6 flow(s), 1 passed, 5 flaky, 0 failed, in ")
	failures, cases, jb := readFlakyJUnit(t, junit)
	if failures != 0 || len(cases) != 6 {
		t.Errorf("JUnit: %d failures, %d cases; want 0 and 6\n%s", failures, len(cases), jb)
	}
	for _, c := range causes {
		t.Run(c.name, func(t *testing.T) {
			mustContain(t, "the run", out, "FLAKY  "+c.name+" ("+filepath.Join(dir, c.name+".yaml")+")", ": passed on retry 1",
				"flaky: "+c.name+" ("+filepath.Join(dir, c.name+".yaml")+"): "+c.step)
			// The flaky summary line names the step and the cause.
			line := ""
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, "flaky: "+c.name+" (") {
					line = l
				}
			}
			mustContain(t, "the flaky summary line", line, c.says...)
			if n := site.loadsOf(c.name); n != 2 {
				t.Errorf("the page was loaded %d times, want 2 (an attempt and a retry)", n)
			}
			jc, ok := cases[c.name]
			if !ok || jc.Failure != nil || len(jc.Flaky) != 1 || len(jc.Rerun) != 0 {
				t.Fatalf("JUnit case %s: %+v\n%s", c.name, jc, jb)
			}
			if !strings.HasPrefix(jc.Flaky[0].Message, strings.SplitN(c.step, ":", 2)[0]+":") || jc.Flaky[0].StackTrace == "" {
				t.Errorf("JUnit: the failed attempt %+v, want its step %q and answer", jc.Flaky[0], c.step)
			}
			mustContain(t, "the JUnit case's output", jc.SystemOut, append([]string{"flaky: " + c.step, "[[ATTACHMENT|reports/" + c.name + "-retry1.html]]"}, c.says...)...)
			// The retry's report says flaky and why; the first
			// attempt's is beside it, failed.
			rb, err := os.ReadFile(filepath.Join(reports, c.name+"-retry1.html"))
			if err != nil {
				t.Fatal(err)
			}
			report := htmlText(string(rb))
			mustContain(t, "the retry's report", report, `class="status flaky">flaky: passed on retry 1`, "Why it was flaky: "+c.step,
				"attempt 1", "its report: "+c.name+".html")
			mustContain(t, "the retry's report", report, c.says...)
			fb, err := os.ReadFile(filepath.Join(reports, c.name+".html"))
			if err != nil {
				t.Fatal(err)
			}
			mustContain(t, "the failed attempt's report", string(fb), `class="status failed"`)
		})
	}
	if n := site.loadsOf("plain"); n != 1 {
		t.Errorf("the flow that passed was loaded %d times, want 1", n)
	}
	if jc := cases["plain"]; jc.Failure != nil || len(jc.Flaky) != 0 || strings.Contains(jc.SystemOut, "flaky") {
		t.Errorf("JUnit: the flow that passed: %+v", jc)
	}
	if _, err := os.Stat(filepath.Join(reports, "plain-retry1.html")); !os.IsNotExist(err) {
		t.Errorf("a retry's report of a flow that passed: %v", err)
	}
	requireNoChrome(t, tmp, 10*time.Second)
}

// htmlText is an HTML file's text with the escapes of quotes undone, for
// looking for a diagnosis in it.
func htmlText(s string) string {
	return strings.NewReplacer("&#34;", `"`, "&quot;", `"`, "&#39;", "'", "&amp;", "&").Replace(s)
}

// TestRetriesFailEveryAttempt (issue 38): a flow that fails every attempt
// still fails the run (exit 1), saying how many attempts it had, each
// attempt's failure in JUnit (a failure and a rerunFailure for each retry).
// With --trace-mode and --video-mode on-first-retry, only first retries
// record: the failing flow's and the flaky flow's first retries leave a
// trace and a video, no other attempt does, nor the flow that passed.
func TestRetriesFailEveryAttempt(t *testing.T) {
	site := newFlakySite(t)
	dir := t.TempDir()
	env, tmp := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_LOG_LEVEL=warn", "E2E_MCP_ACTION_TIMEOUT=1s")
	never := filepath.Join(dir, "never.yaml")
	if err := os.WriteFile(never, fmt.Appendf(nil, `name: never
baseURL: %s
steps:
  - navigate: /flaky/plain2.html
  - click: 'role=button[name="Pay"]'
`, site.URL), 0o644); err != nil {
		t.Fatal(err)
	}
	late := writeFlakyFlow(t, dir, site.URL, "late3")
	plain := writeFlakyFlow(t, dir, site.URL, "plain4")
	junit, traces, videos := filepath.Join(dir, "junit.xml"), filepath.Join(dir, "traces"), filepath.Join(dir, "videos")
	out, code := runFlows(t, env, never, late, plain, "--retries", "2", "--junit", junit,
		"--trace", traces, "--trace-mode", "on-first-retry", "--video", videos, "--video-mode", "on-first-retry")
	t.Logf("the run:\n%s", out)
	if code != 1 {
		t.Fatalf("exit %d, want 1: a flow failed every attempt", code)
	}
	mustContain(t, "the run", out, "FAIL  never (", `step 2, click role=button[name="Pay"]: element_not_found`, "failed all 3 attempts",
		"attempt 1: step 2, click", "attempt 2: step 2, click", "FLAKY  late3 (", "PASS  plain4 (", "3 flow(s), 1 passed, 1 flaky, 1 failed, in ")
	if n := site.loadsOf("plain2"); n != 3 {
		t.Errorf("the failing flow ran %d times, want 3", n)
	}
	failures, cases, jb := readFlakyJUnit(t, junit)
	if jc := cases["never"]; failures != 1 || jc.Failure == nil || !strings.Contains(jc.Failure.Message, "(failed all 3 attempts)") || len(jc.Rerun) != 2 || len(jc.Flaky) != 0 {
		t.Errorf("JUnit: the failing flow:\n%s", jb)
	}
	if jc := cases["late3"]; jc.Failure != nil || len(jc.Flaky) != 1 {
		t.Errorf("JUnit: the flaky flow:\n%s", jb)
	}
	for what, d := range map[string]struct {
		dir  string
		want []string
	}{"traces": {traces, []string{"late3-retry1.zip", "never-retry1.zip"}}, "videos": {videos, []string{"late3-retry1.png", "never-retry1.png"}}} {
		entries, err := os.ReadDir(d.dir)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		slices.Sort(got)
		if !slices.Equal(got, d.want) {
			t.Errorf("%s: %v, want only the first retries': %v", what, got, d.want)
		}
	}
	mustContain(t, "the run", out, "trace: "+filepath.Join(traces, "never-retry1.zip"), "video: "+filepath.Join(videos, "never-retry1.png"),
		"trace: "+filepath.Join(traces, "late3-retry1.zip"))
	requireNoChrome(t, tmp, 10*time.Second)
}
