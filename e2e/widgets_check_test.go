//go:build widgets

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// make widgets-check: agent tasks on a widget app of our own built from real
// component libraries (scripts/widgets, pinned, npm ci + vite build). Each
// task runs as an agent works (snapshot, refs from the text, act, read the
// answer, check the app's own state through the app) four ways: alone in a
// fresh server, all in one MCP session one after another, its exported
// flow replayed by `e2e-mcp run`, and that flow converted and run under
// the pinned @playwright/test. What does not pass yet is in widgetKnown,
// with its reason; the test fails when a listed phase passes (the list
// must stay true) and when an unlisted one fails.

// The phases of a task.
const (
	phaseAlone    = "alone"
	phaseTogether = "together"
	phaseReplay   = "replay"
	phasePW       = "playwright"
)

var phases = []string{phaseAlone, phaseTogether, phaseReplay, phasePW}

// widgetTask is one agent task on the widget app.
type widgetTask struct {
	name   string // also its flow's and spec's name
	lib    string // the library it exercises
	does   string // what the agent does, in words
	secret string // the password it types: its replays' E2E_SECRET_1
	run    func(a *agent)
}

// knownFailure is a phase of a task that does not pass today: why, and a
// text its failure must hold (so that a different failure is not taken for
// the known one). A flaky one fails some runs only: it may pass, and when
// it fails, it fails so.
type knownFailure struct {
	reason string
	match  string
	flaky  bool
}

// widgetApp is the built app served on two origins: URL (127.0.0.1) and
// Cross (localhost, another port), which the frames page embeds from.
type widgetApp struct {
	URL, Cross string
}

// serveWidgetApp serves scripts/widgets/dist (built by make widgets-check)
// with the routes of a single-page app, and /api/config telling the app
// its second origin.
func serveWidgetApp(t *testing.T) *widgetApp {
	t.Helper()
	dist, err := filepath.Abs("../scripts/widgets/dist")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dist, "index.html")); err != nil {
		t.Fatalf("the widget app is not built: run make widgets-check (%v)", err)
	}
	app := &widgetApp{}
	files := http.FileServer(http.Dir(dist))
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/config", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"crossOrigin": app.Cross})
	})
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		if st, err := os.Stat(filepath.Join(dist, filepath.FromSlash(r.URL.Path))); err == nil && !st.IsDir() {
			files.ServeHTTP(w, r)
			return
		}
		// A route of the app: its page is index.html.
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		http.ServeFile(w, r, filepath.Join(dist, "index.html"))
	})
	main := httptest.NewServer(mux)
	t.Cleanup(main.Close)
	cross := httptest.NewServer(mux)
	t.Cleanup(cross.Close)
	app.URL = main.URL
	app.Cross = "http://localhost:" + strconv.Itoa(cross.Listener.Addr().(*net.TCPAddr).Port)
	return app
}

// taskFailed stops a task: what went wrong, as the agent would say it.
type taskFailed struct{ msg string }

// agent is a task's view of an MCP session: tool calls whose failures end
// the task (not the test), and what an agent reads from the answers.
type agent struct {
	c    *client.Client
	app  *widgetApp
	task string
	log  []string // the calls, one line each, for the failure's report
}

// failf ends the task with a message.
func (a *agent) failf(format string, args ...any) {
	panic(taskFailed{fmt.Sprintf(format, args...)})
}

// call runs a tool; the answer may be an error the task reads.
func (a *agent) call(tool string, args map[string]any) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	start := time.Now()
	res, err := a.c.CallTool(ctx, req)
	b, _ := json.Marshal(args)
	line := fmt.Sprintf("%s %s (%.1fs)", tool, b, time.Since(start).Seconds())
	if err != nil {
		a.log = append(a.log, line+": protocol error")
		a.failf("%s(%s): protocol error: %v", tool, b, err)
	}
	out := text(res)
	if res.IsError {
		line += ": " + firstLine(out)
	}
	a.log = append(a.log, line)
	return out, res.IsError
}

// do runs a tool that must succeed.
func (a *agent) do(tool string, args map[string]any) string {
	out, isErr := a.call(tool, args)
	if isErr {
		a.failf("%s failed: %s", tool, clip(out, 1500))
	}
	return out
}

// snapshot is the page as the agent reads it.
func (a *agent) snapshot() string {
	return a.do("browser_snapshot", nil)
}

// ref is the ref of the element of a role and name in a snapshot, as an
// agent picks it from the text.
func (a *agent) ref(snap, role, name string) string {
	// A line of its own ("- button "Save" [ref=e5]", quoted as YAML when
	// it holds a # or a colon), or a part of a condensed row ("| cell
	// "Ada" [ref=e7]", "columnheader: button "Age" [ref=e8]").
	re := regexp.MustCompile(`(?:- '?|\| |: )` + regexp.QuoteMeta(role) + ` "` + regexp.QuoteMeta(name) + `"[^|\n]*?\[ref=((?:f\d+)?e\d+)\]`)
	m := re.FindStringSubmatch(snap)
	if m == nil {
		a.failf("no %s %q with a ref in the snapshot:\n%s", role, name, clip(snap, 4000))
	}
	return m[1]
}

// refMatch is the ref of the first snapshot line matching a pattern (for
// elements whose names an agent matches loosely).
func (a *agent) refMatch(snap, pattern string) string {
	re := regexp.MustCompile(pattern + `[^\n]*\[ref=((?:f\d+)?e\d+)\]`)
	m := re.FindStringSubmatch(snap)
	if m == nil {
		a.failf("no line matching %s with a ref in the snapshot:\n%s", pattern, clip(snap, 4000))
	}
	return m[1]
}

// see fails the task unless the answer shows each text.
func (a *agent) see(what, out string, want ...string) {
	for _, w := range want {
		if !strings.Contains(out, w) {
			a.failf("%s does not show %q:\n%s", what, w, clip(out, 4000))
		}
	}
}

// verifyText asserts through the app that a text is visible (recorded as
// an expect step of the flow).
func (a *agent) verifyText(s string) {
	a.do("browser_verify_text_visible", map[string]any{"text": s})
}

// expectText asserts that the element holds a text (an expect step).
func (a *agent) expectText(target, s string) {
	a.do("browser_expect", map[string]any{"target": target, "check": "text", "expected": s})
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return clip(s, 300)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// runTask runs a task on an agent: "" when it passed, else why not.
func runTask(a *agent, task widgetTask) (failure string) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(taskFailed)
			if !ok {
				panic(r)
			}
			failure = f.msg
		}
	}()
	task.run(a)
	return ""
}

// runTaskSeen is runTask with, on a failure, the calls made and the page
// as the agent would see it next.
func runTaskSeen(a *agent, task widgetTask) string {
	failure := runTask(a, task)
	if failure == "" {
		return ""
	}
	failure += "\n  calls:\n    " + strings.Join(a.log, "\n    ")
	if snap, isErr := a.call("browser_snapshot", nil); !isErr {
		failure += "\n  the page then:\n" + clip(snap, 3000)
	}
	return failure
}

// widgetServerEnv is the environment of a server under test for the
// tasks: the testing and vision tools, files under dir.
func widgetServerEnv(t *testing.T, dir string) []string {
	env, _ := serverEnv(t)
	return append(env, "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_LOG_LEVEL=warn",
		"E2E_MCP_CAPS=testing,vision")
}

// startWidgetClient starts a server for tasks; stop ends it.
func startWidgetClient(env []string) (c *client.Client, stderr *lockedBuffer, err error) {
	stderr = &lockedBuffer{}
	c, err = client.NewStdioMCPClientWithOptions(bin, env, nil, transport.WithCommandStderrWriter(stderr))
	if err != nil {
		return nil, stderr, err
	}
	if err := initialize(c); err != nil {
		_ = c.Close()
		return nil, stderr, err
	}
	return c, stderr, nil
}

// outcome is what one phase of one task did.
type outcome struct {
	ran     bool
	failure string // "" passed
	took    time.Duration
}

// results are the outcomes by task and phase.
type results struct {
	mu sync.Mutex
	m  map[string]map[string]outcome
}

func (r *results) set(task, phase string, o outcome) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]map[string]outcome{}
	}
	if r.m[task] == nil {
		r.m[task] = map[string]outcome{}
	}
	r.m[task][phase] = o
}

func (r *results) get(task, phase string) outcome {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[task][phase]
}

// parallel runs f on each of n items with at most w at a time.
func parallel(n, w int, f func(i int)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, w)
	for i := 0; i < n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			f(i)
		}()
	}
	wg.Wait()
}

// workers is how many browsers the phases run at once: the machine's
// cores, at least 2 (the tasks wait on the browser more than they compute).
func workers() int {
	if v, err := strconv.Atoi(os.Getenv("WIDGETS_PARALLEL")); err == nil && v > 0 {
		return v
	}
	return max(2, runtime.NumCPU())
}

// TestWidgetsCheck (make widgets-check): every task alone in a fresh
// server and all of them in one session; each passing task's flow
// replayed by e2e-mcp run and, converted, under real @playwright/test.
func TestWidgetsCheck(t *testing.T) {
	tasks := widgetTasks()
	if len(tasks) < 30 {
		t.Fatalf("%d tasks; the check wants at least 30", len(tasks))
	}
	names := map[string]bool{}
	for _, task := range tasks {
		if names[task.name] {
			t.Fatalf("two tasks named %s", task.name)
		}
		names[task.name] = true
	}
	for name, byPhase := range widgetKnown {
		if !names[name] {
			t.Errorf("widgetKnown lists %s, which is no task", name)
		}
		for phase := range byPhase {
			if !slices.Contains(phases, phase) {
				t.Errorf("widgetKnown: %s: no phase %q", name, phase)
			}
		}
	}
	if only := os.Getenv("WIDGETS_TASKS"); only != "" {
		// While working on some tasks: only those (a regular expression).
		re := regexp.MustCompile(only)
		var some []widgetTask
		for _, task := range tasks {
			if re.MatchString(task.name) {
				some = append(some, task)
			}
		}
		tasks = some
		t.Logf("WIDGETS_TASKS=%s: %d tasks", only, len(tasks))
	}
	app := serveWidgetApp(t)
	dir := widgetsRunDir(t)
	flows := filepath.Join(dir, "flows")
	if err := os.MkdirAll(flows, 0o755); err != nil {
		t.Fatal(err)
	}
	res := &results{}
	w := workers()
	start := time.Now()

	// The tasks in one session, one after another, as an agent works
	// through a list, beside the tasks each alone.
	var together sync.WaitGroup
	together.Add(1)
	go func() {
		defer together.Done()
		runTogether(t, app, tasks, dir, res)
	}()
	parallel(len(tasks), max(1, w-1), func(i int) { runAlone(t, app, tasks[i], flows, res) })
	t.Logf("alone: %d tasks in %.0fs", len(tasks), time.Since(start).Seconds())
	together.Wait()
	t.Logf("alone and together: %.0fs", time.Since(start).Seconds())

	replayStart := time.Now()
	replayFlows(t, tasks, flows, dir, res, w)
	t.Logf("replays: %.0fs", time.Since(replayStart).Seconds())
	pwStart := time.Now()
	playwrightFlows(t, tasks, flows, dir, res, w)
	t.Logf("playwright: %.0fs", time.Since(pwStart).Seconds())

	judge(t, tasks, res)
}

// widgetsRunDir is a directory for the flows and specs inside
// scripts/widgets, where Node finds the pinned @playwright/test; it is
// removed after the test (kept with WIDGETS_KEEP=1 to look at).
func widgetsRunDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("../scripts/widgets", "run-")
	if err != nil {
		t.Fatal(err)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if os.Getenv("WIDGETS_KEEP") != "" {
			t.Logf("kept %s", dir)
			return
		}
		_ = os.RemoveAll(dir)
	})
	return dir
}

// runAlone runs a task in a fresh server and exports its flow.
func runAlone(t *testing.T, app *widgetApp, task widgetTask, flows string, res *results) {
	start := time.Now()
	env := widgetServerEnv(t, flows)
	c, stderr, err := startWidgetClient(env)
	if err != nil {
		res.set(task.name, phaseAlone, outcome{ran: true, failure: "start the server: " + err.Error()})
		return
	}
	defer func() { _ = c.Close() }()
	a := &agent{c: c, app: app, task: task.name}
	failure := runTaskSeen(a, task)
	if failure == "" {
		// The session as a flow, for the replays, with checks of what the
		// agent read (assertReads): they must hold in the replays too.
		file := filepath.Join(flows, task.name+".yaml")
		if out, isErr := a.call("session_export_flow", map[string]any{"path": file, "name": task.name, "assertReads": true}); isErr {
			failure = "session_export_flow: " + out
		} else if b, err := os.ReadFile(file); err != nil {
			failure = "the exported flow: " + err.Error()
		} else if i := strings.Index(string(b), "•••"); i >= 0 {
			// A flow keeps the typed passwords out as ${E2E_SECRET_n};
			// a mask in it is a page word the flow no longer says.
			line := string(b)[strings.LastIndex(string(b[:i]), "\n")+1:]
			line, _, _ = strings.Cut(line, "\n")
			failure = "the exported flow masks words of the page: " + strings.TrimSpace(line)
		}
	}
	if failure != "" {
		if s := stderr.String(); s != "" {
			failure += "\n  server log:\n" + clip(s, 3000)
		}
	}
	res.set(task.name, phaseAlone, outcome{ran: true, failure: failure, took: time.Since(start)})
}

// runTogether runs every task in one session, in order.
func runTogether(t *testing.T, app *widgetApp, tasks []widgetTask, dir string, res *results) {
	env := widgetServerEnv(t, dir)
	c, stderr, err := startWidgetClient(env)
	if err != nil {
		for _, task := range tasks {
			res.set(task.name, phaseTogether, outcome{ran: true, failure: "start the server: " + err.Error()})
		}
		return
	}
	defer func() { _ = c.Close() }()
	for _, task := range tasks {
		start := time.Now()
		a := &agent{c: c, app: app, task: task.name}
		failure := runTaskSeen(a, task)
		res.set(task.name, phaseTogether, outcome{ran: true, failure: failure, took: time.Since(start)})
	}
	_ = stderr
}

// replayFlows replays each exported flow with e2e-mcp run, the flows of a
// password together (E2E_SECRET_1 is the password the task typed).
func replayFlows(t *testing.T, tasks []widgetTask, flows, dir string, res *results, w int) {
	groups := flowGroups(tasks, flows, res)
	keys := sortedKeys(groups)
	// Two runs at a time, each with w flows at once: the big group (no
	// password) beside the small ones.
	parallel(len(keys), 2, func(i int) {
		secret := keys[i]
		var files []string
		for _, task := range groups[secret] {
			files = append(files, filepath.Join(flows, task.name+".yaml"))
		}
		env := widgetServerEnv(t, dir)
		if secret != "" {
			env = append(env, "E2E_SECRET_1="+secret)
		}
		start := time.Now()
		art := filepath.Join(dir, "artifacts-"+strconv.Itoa(len(secret))+"-"+secretLabel(secret))
		args := append([]string{"run", "--parallel", strconv.Itoa(w), "--artifacts", art}, files...)
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out, _ := cmd.CombinedOutput()
		took := time.Since(start)
		lines := strings.Split(string(out), "\n")
		for _, task := range groups[secret] {
			o := outcome{ran: true, took: took, failure: "no PASS or FAIL line for it:\n" + clip(string(out), 3000)}
			for _, l := range lines {
				switch {
				case strings.HasPrefix(l, "PASS  "+task.name+" ("):
					o.failure = ""
				case strings.HasPrefix(l, "FAIL  "+task.name+" ("):
					o.failure = l
				}
			}
			res.set(task.name, phaseReplay, o)
		}
	})
}

// secretLabel names a password's group in file names.
func secretLabel(s string) string {
	if s == "" {
		return "none"
	}
	return regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(s, "_")
}

// flowGroups are the tasks with an exported flow, by password.
func flowGroups(tasks []widgetTask, flows string, res *results) map[string][]widgetTask {
	groups := map[string][]widgetTask{}
	for _, task := range tasks {
		if _, err := os.Stat(filepath.Join(flows, task.name+".yaml")); err != nil || res.get(task.name, phaseAlone).failure != "" {
			continue
		}
		groups[task.secret] = append(groups[task.secret], task)
	}
	return groups
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// playwrightFlows converts the flows of a password with e2e-mcp convert
// and runs them under the pinned @playwright/test.
func playwrightFlows(t *testing.T, tasks []widgetTask, flows, dir string, res *results, w int) {
	pw, err := filepath.Abs("../scripts/widgets/node_modules/.bin/playwright")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(pw); err != nil {
		t.Fatalf("@playwright/test is not installed: run make widgets-check (%v)", err)
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium is needed: %v", err)
	}
	groups := flowGroups(tasks, flows, res)
	for _, secret := range sortedKeys(groups) {
		conv := filepath.Join(dir, "pw-"+secretLabel(secret))
		// A flow convert refuses is that task's failure, not its group's:
		// each is tried alone, and the group converted without them.
		var ok []widgetTask
		for _, task := range groups[secret] {
			one := filepath.Join(dir, "convert-"+task.name)
			if out, err := exec.Command(bin, "convert", "--to", "playwright", "--out", one, filepath.Join(flows, task.name+".yaml")).CombinedOutput(); err != nil {
				res.set(task.name, phasePW, outcome{ran: true, failure: fmt.Sprintf("e2e-mcp convert: %v\n%s", err, out)})
				continue
			}
			ok = append(ok, task)
		}
		groups[secret] = ok
		var files []string
		for _, task := range ok {
			files = append(files, filepath.Join(flows, task.name+".yaml"))
		}
		if len(files) == 0 {
			continue
		}
		setAll := func(o outcome) {
			for _, task := range groups[secret] {
				res.set(task.name, phasePW, o)
			}
		}
		if out, err := exec.Command(bin, append([]string{"convert", "--to", "playwright", "--out", conv}, files...)...).CombinedOutput(); err != nil {
			setAll(outcome{ran: true, failure: fmt.Sprintf("e2e-mcp convert: %v\n%s", err, out)})
			continue
		}
		report := filepath.Join(conv, "report.json")
		start := time.Now()
		cmd := exec.Command(pw, "test", "-c", filepath.Join(conv, "playwright.config.ts"), "--reporter=json", "--workers", strconv.Itoa(w))
		cmd.Dir = filepath.Dir(pw)
		cmd.Env = append(os.Environ(), "CI=1", "CHROMIUM="+chromium, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1", "PLAYWRIGHT_JSON_OUTPUT_NAME="+report)
		if secret != "" {
			cmd.Env = append(cmd.Env, "E2E_SECRET_1="+secret)
		}
		out, _ := cmd.CombinedOutput()
		took := time.Since(start)
		var r pwJSON
		b, err := os.ReadFile(report)
		if err != nil || json.Unmarshal(b, &r) != nil {
			setAll(outcome{ran: true, failure: fmt.Sprintf("no JSON report: %v\n%s", err, clip(string(out), 3000))})
			continue
		}
		byFile := r.byFile()
		for _, task := range groups[secret] {
			o := outcome{ran: true, took: took}
			got, ok := byFile[task.name+".spec.ts"]
			switch {
			case !ok:
				o.failure = "the spec did not run:\n" + clip(string(out), 2000)
			case got != "":
				o.failure = got
			}
			res.set(task.name, phasePW, o)
		}
	}
}

// pwJSON is what Playwright's JSON reporter says, as far as this test
// reads it: each spec's file and its results' status and errors.
type pwJSON struct {
	Suites []pwJSONSuite `json:"suites"`
}

type pwJSONSuite struct {
	File  string `json:"file"`
	Specs []struct {
		File  string `json:"file"`
		Tests []struct {
			Results []struct {
				Status string `json:"status"`
				Errors []struct {
					Message string `json:"message"`
				} `json:"errors"`
			} `json:"results"`
		} `json:"tests"`
	} `json:"specs"`
	Suites []pwJSONSuite `json:"suites"`
}

// byFile is each spec file's failure ("" passed).
func (r pwJSON) byFile() map[string]string {
	out := map[string]string{}
	var walk func(s pwJSONSuite)
	walk = func(s pwJSONSuite) {
		for _, sp := range s.Specs {
			file := filepath.Base(sp.File)
			msg := ""
			for _, te := range sp.Tests {
				for _, r := range te.Results {
					if r.Status != "passed" {
						msg += r.Status
						for _, e := range r.Errors {
							msg += ": " + stripANSI(e.Message)
						}
					}
				}
			}
			out[file] += msg
		}
		for _, c := range s.Suites {
			walk(c)
		}
	}
	for _, s := range r.Suites {
		walk(s)
	}
	return out
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func stripANSI(s string) string { return ansi.ReplaceAllString(s, "") }

// judge holds the outcomes to widgetKnown and prints the table.
func judge(t *testing.T, tasks []widgetTask, res *results) {
	var table strings.Builder
	fmt.Fprintf(&table, "%-36s %-30s %-9s %-9s %-9s %-9s\n", "task", "library", phaseAlone, phaseTogether, phaseReplay, phasePW)
	for _, task := range tasks {
		fmt.Fprintf(&table, "%-36s %-30s", task.name, task.lib)
		for _, phase := range phases {
			o := res.get(task.name, phase)
			known, listed := widgetKnown[task.name][phase]
			cell := "pass"
			switch {
			case !o.ran && phase != phaseAlone && res.get(task.name, phaseAlone).failure != "":
				// No flow to replay: the task failed alone (judged there).
				cell = "-"
			case !o.ran:
				cell = "NOT RUN"
				t.Errorf("%s: %s did not run", task.name, phase)
			case o.failure == "" && listed && known.flaky:
				cell = "pass~"
				t.Logf("%s: %s passes this time (listed as flaky: %s)", task.name, phase, known.reason)
			case o.failure == "" && listed:
				cell = "PASS!"
				t.Errorf("%s: %s passes, but widgetKnown lists it (%s): take it off the list", task.name, phase, known.reason)
			case o.failure != "" && listed && strings.Contains(o.failure, known.match):
				cell = "known"
				t.Logf("%s: %s fails as known (%s): %s", task.name, phase, known.reason, firstLine(o.failure))
			case o.failure != "" && listed:
				cell = "FAIL"
				t.Errorf("%s: %s fails, listed as %q but without %q:\n%s", task.name, phase, known.reason, known.match, o.failure)
			case o.failure != "":
				cell = "FAIL"
				t.Errorf("%s (%s): %s fails:\n%s", task.name, task.lib, phase, o.failure)
			}
			if o.took > 0 && cell != "-" {
				cell += fmt.Sprintf(" %.0fs", o.took.Seconds())
			}
			fmt.Fprintf(&table, " %-9s", cell)
		}
		table.WriteString("\n")
	}
	t.Logf("the tasks:\n%s", table.String())
}
