package main

import (
	"context"
	"encoding/base64"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/cli"
	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/logs"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/e2e-mcp/e2e-mcp/report"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// flowResult is how one flow went.
type flowResult struct {
	file, name string
	took       time.Duration
	failed     bool
	failedStep int    // 1-based; 0 for the dev server's start
	step       string // the failing step, in words
	errType    string // the failure's error type (timeout, expect_failed, ...)
	headline   string // "type: message (next step)"
	message    string // the whole failure answer, diagnostics included
	artifacts  string
	report     string // the HTML report's path, when --report asked for one
	video      string // the video's path, when --video kept one
	videoNote  string // what the video holds, in words
	trace      string // the trace's path, when --trace asked for one
	// diagnosis says which element the failing step's target likely
	// meant, when it found nothing or more than one ("" otherwise).
	diagnosis string
	heals     []heal // the steps --heal replayed on another element
	// healedFile is the repaired flow --heal wrote, and healDiff its diff;
	// healNotes say which healed steps it does not hold, and why.
	healedFile, healDiff string
	healNotes            []string
}

// healed says the flow passed only because steps were healed.
func (r flowResult) healed() bool { return !r.failed && len(r.heals) > 0 }

// runMain replays flow files, each in its own isolated session with its
// own dev server, and reports like a test runner (summary, JUnit XML,
// artifacts of failures). It returns the exit code: 0 when every flow
// passed, 1 when one failed, 2 for a bad command line.
func runMain(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("run")
	junit := fs.String("junit", "", "write a JUnit XML report to this `file`")
	artifacts := fs.String("artifacts", "", "save each failure's response and screenshot under this `directory`")
	reportDir := fs.String("report", "", "write each flow's HTML report (steps, a screenshot after each action, the failure, logs) under this `directory`")
	videoDir := fs.String("video", "", "keep each failed flow's video (an animated PNG the report plays) under this `directory`")
	videoMode := fs.String("video-mode", "retain-on-failure", "which flows' videos --video keeps: retain-on-failure or on (every flow's)")
	traceDir := fs.String("trace", "", "write each flow's trace under this `directory`: a zip that Playwright's Trace Viewer opens (npx playwright show-trace)")
	parallel := fs.Int("parallel", 1, "flows run at once, each in its own session")
	headed := fs.Bool("headed", false, "show the browser")
	update := fs.Bool("update-snapshots", false, "rewrite the baselines of visual checks (FLOW.snapshots/NAME.png) instead of comparing")
	logLevel := fs.String("log-level", "", "log level on stderr: debug, info, warn or error (default warn, or $E2E_MCP_LOG_LEVEL)")
	var healFlag healMode
	fs.Var(&healFlag, "heal", "replay a step whose target no longer finds its element on the likely same element (the same test id, a near name, label, place), mark it HEALED and write the repaired flow to FLOW.healed.yaml (--heal=write: over FLOW.yaml), with a diff")
	healOK := fs.Bool("heal-ok", false, "exit 0 when flows passed only by healing (by default a healed run exits 1, so that CI notices)")
	help := func(w io.Writer) {
		fmt.Fprintf(w, "Usage: e2e-mcp run FLOW.yaml... [--junit report.xml] [--artifacts DIR] [--report DIR] [--video DIR] [--trace DIR] [--parallel N] [--headed] [--update-snapshots] [--heal[=write]] [--heal-ok]\n\n"+
			"Replays flows (session_export_flow writes them) with the same engine and actionability rules,\n"+
			"each in its own session, and prints each one's PASS or FAIL as it ends, then a summary.\n"+
			"The browser and dev-server settings come from the E2E_MCP_* environment, as for serve.\n"+
			"A step whose target finds nothing or more than one element is diagnosed: the failure names the\n"+
			"likely same element's locator, ready to paste; --heal replays on it.\n"+
			"Exit status: 0 every flow passed, 1 one failed (or was healed, without --heal-ok), 2 a bad command line.\n\n")
		printFlags(w, fs)
	}
	files, err := parseFiles(fs, args)
	if err != nil {
		return flagsFailed("run", err, help, stdout, stderr)
	}
	switch {
	case len(files) == 0:
		return usageError(stderr, "run", "give the flow files to run")
	case *parallel < 1:
		return usageError(stderr, "run", "--parallel must be 1 or more")
	case *videoMode != "retain-on-failure" && *videoMode != "on":
		return usageError(stderr, "run", "--video-mode is retain-on-failure or on")
	}
	flows := make([]*flow.Flow, len(files))
	for i, f := range files {
		fl, err := flow.Load(f)
		if err != nil {
			fmt.Fprintf(stderr, "e2e-mcp run: %v\n", err)
			return cli.ExitUsage
		}
		flows[i] = fl
	}
	cfg, err := parseConfig("run", nil, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "e2e-mcp run: %v\n", err)
		return cli.ExitUsage
	}
	cfg.Headed = cfg.Headed || *headed
	if err := runnable(cfg); err != nil {
		fmt.Fprintf(stderr, "e2e-mcp run: %v\n", err)
		return cli.ExitUsage
	}
	log, err := logs.New(runLogLevel(*logLevel, os.Getenv), "console")
	if err != nil {
		fmt.Fprintf(stderr, "e2e-mcp run: --log-level: %v\n", err)
		return cli.ExitUsage
	}
	browser.CleanStaleProfiles("", log)
	superviseVerbs(log)
	a := newApp(cfg, log)
	a.reg.SetEndBudget(cfg.ShutdownTimeout) // no client waits to kill a CI run
	// No agent reads a run's answers: they go into JUnit, artifacts and
	// reports, masked as every writer for people masks (a password the
	// flow types literally included).
	a.deps.AnswersForPeople = true
	// A flow's visual checks keep their baselines next to it: FLOW.yaml's
	// in FLOW.snapshots/.
	baselines := map[string]string{}
	for i, f := range files {
		baselines[flowSession(i)] = strings.TrimSuffix(f, filepath.Ext(f)) + ".snapshots"
	}
	a.deps.Baselines = func(session string) (string, bool) { return baselines[session], *update }
	handlers := map[string]server.ToolHandlerFunc{}
	for _, t := range mcptools.Inventory(a.deps) {
		handlers[t.Def.Name] = t.Handler
	}
	defer a.close()
	var rep *reporter
	if *reportDir != "" || *traceDir != "" {
		for flagName, dir := range map[string]string{"--report": *reportDir, "--trace": *traceDir} {
			if dir == "" {
				continue
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				fmt.Fprintf(stderr, "e2e-mcp run: %s: %v\n", flagName, err)
				return cli.ExitUsage
			}
		}
		rep = &reporter{dir: *reportDir, traceDir: *traceDir, deps: a.deps, stderr: stderr, names: reportNames(flows)}
		// A report keeps a screenshot after each action; a trace starts
		// with its flow's session.
		a.deps.Reports, a.deps.ReportShots = *reportDir != "", *reportDir != ""
		a.deps.TraceSessions = *traceDir != ""
	}
	// The flows' secrets (E2E_SECRET_n, and any variable named like a
	// secret) are masked by every writer: answers, reports, JUnit,
	// artifacts, the log.
	secrets := a.reg.Secrets
	secrets.Add(envSecrets(os.Environ())...)

	rn := &runner{handlers: handlers, deps: a.deps, artifacts: *artifacts, rep: rep, secrets: secrets, heal: healFlag}
	if *videoDir != "" {
		// Every flow records from its first page; the runner keeps the
		// video or discards it when the flow ends.
		a.deps.Videos = &mcptools.VideoDefaults{EveryCall: true}
		rn.videos = &videoKeeper{dir: *videoDir, all: *videoMode == "on", names: reportNames(flows)}
	}
	start := time.Now()
	results := runAll(len(flows), *parallel, stdout, func(i int) flowResult {
		return rn.runFlow(context.Background(), files[i], flows[i], flowSession(i))
	})
	failed, healed := 0, 0
	for _, r := range results {
		if r.failed {
			failed++
		}
		if r.healed() {
			healed++
		}
	}
	if healFlag != healOff {
		fmt.Fprintf(stdout, "%d flow(s), %d passed, %d healed, %d failed, in %.1fs\n", len(results), len(results)-failed-healed, healed, failed, time.Since(start).Seconds())
	} else {
		fmt.Fprintf(stdout, "%d flow(s), %d passed, %d failed, in %.1fs\n", len(results), len(results)-failed, failed, time.Since(start).Seconds())
	}
	if *junit != "" {
		if err := writeJUnit(*junit, results, time.Since(start), secrets, *healOK); err != nil {
			fmt.Fprintf(stderr, "e2e-mcp run: %v\n", err)
			return cli.ExitFailed
		}
	}
	if failed > 0 || (healed > 0 && !*healOK) {
		return cli.ExitFailed
	}
	return cli.ExitOK
}

// runnable says what would fail every flow, before any starts: a
// --browser-path that names no browser, a browser that cannot be shown
// (--headed with no display). Remote browsers are not checked here.
func runnable(cfg *Config) error {
	if cfg.CDPEndpoints != "" || cfg.WebDriverURLs != "" {
		return nil
	}
	if cfg.BrowserPath != "" {
		if _, err := browser.FindExecutable(cfg.BrowserPath); err != nil {
			return fmt.Errorf("--browser-path: %v; %s", err, browser.InstallHint)
		}
	}
	if cfg.Headed {
		if be, ok := browser.AsError(browser.HeadedWithoutDisplay()); ok {
			return fmt.Errorf("%s; %s", be.Message, be.Hint)
		}
	}
	return nil
}

// runLogLevel is the run's log level: --log-level, else E2E_MCP_LOG_LEVEL,
// else warn, so that a CI job's output shows the results, not INFO logs.
func runLogLevel(flagged string, getenv func(string) string) string {
	for _, l := range []string{flagged, getenv("E2E_MCP_LOG_LEVEL")} {
		if l != "" {
			return l
		}
	}
	return "warn"
}

// runAll runs n flows, parallel at once, taking them in order, and prints
// each result as its flow ends: one at a time, in the order given; in
// parallel, as they finish (each line names its flow).
func runAll(n, parallel int, stdout io.Writer, run func(i int) flowResult) []flowResult {
	results := make([]flowResult, n)
	next := make(chan int)
	var mu sync.Mutex // one result's lines at a time
	var wg sync.WaitGroup
	for range min(parallel, n) {
		wg.Go(func() {
			for i := range next {
				results[i] = run(i)
				mu.Lock()
				printResult(stdout, results[i])
				mu.Unlock()
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// printResult writes a flow's PASS or FAIL line (and where its artifacts
// and report are).
func printResult(w io.Writer, r flowResult) {
	if r.healed() {
		fmt.Fprintf(w, "HEALED  %s (%s) %.1fs: %s\n", r.name, r.file, r.took.Seconds(), stepsHealed(len(r.heals)))
		printHeals(w, r)
		return
	}
	if !r.failed {
		fmt.Fprintf(w, "PASS  %s (%s) %.1fs\n", r.name, r.file, r.took.Seconds())
		return
	}
	fmt.Fprintf(w, "FAIL  %s (%s) %.1fs: step %d, %s: %s\n", r.name, r.file, r.took.Seconds(), r.failedStep, r.step, r.headline)
	if r.diagnosis != "" {
		fmt.Fprintf(w, "      diagnosis: %s\n", r.diagnosis)
	}
	printHeals(w, r)
	if r.artifacts != "" {
		fmt.Fprintf(w, "      artifacts: %s\n", r.artifacts)
	}
	if r.report != "" {
		fmt.Fprintf(w, "      report: %s\n", r.report)
	}
	if r.video != "" {
		fmt.Fprintf(w, "      video: %s\n", r.video)
	}
	if r.trace != "" {
		fmt.Fprintf(w, "      trace: %s (npx playwright show-trace %s)\n", r.trace, r.trace)
	}
}

// envSecrets are the values of the environment's E2E_SECRET_n and of the
// variables whose names say they hold a secret (redact.IsSecretEnv:
// API_TOKEN, DB_PASSWORD; not SESSION_COOKIE_DOMAIN). All of them, not
// only those the flows read: the dev servers the run starts inherit the
// environment and may print any of them in a log a failure shows.
func envSecrets(env []string) []string {
	var out []string
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); v != "" && redact.IsSecretEnv(k) {
			out = append(out, v)
		}
	}
	return out
}

// flowSession is the session the i-th flow (from 0) runs in.
func flowSession(i int) string { return fmt.Sprintf("flow-%d", i+1) }

// reporter writes each flow's HTML report (run --report) and trace (run
// --trace), each named after its flow.
type reporter struct {
	dir      string // --report, or ""
	traceDir string // --trace, or ""
	deps     *mcptools.Deps
	names    map[string]string // the files' name (no extension) by the flow's session
	mu       sync.Mutex        // one warning at a time on stderr
	// stderr gets a report that could not be written.
	stderr io.Writer
}

// reportNames names each flow's report, trace and video after the flow,
// numbered when two flows have one name; the writers add their extension.
func reportNames(flows []*flow.Flow) map[string]string {
	count := map[string]int{}
	for _, f := range flows {
		count[safeName(f.Name)]++
	}
	names := map[string]string{}
	for i, f := range flows {
		n := safeName(f.Name)
		if count[n] > 1 {
			n = fmt.Sprintf("%s-%d", n, i+1)
		}
		names[flowSession(i)] = n
	}
	return names
}

// warn says on stderr that a flow's file could not be written.
func (rp *reporter) warn(what string, res flowResult, err error) string {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	fmt.Fprintf(rp.stderr, "e2e-mcp run: the %s of %s: %v\n", what, res.name, err)
	return ""
}

// writeTrace writes the trace of the flow's session, before the session
// ends, and returns its path ("" when it could not be written, which it
// says on stderr).
func (rp *reporter) writeTrace(ctx context.Context, session string, res flowResult) string {
	b, err := rp.deps.SessionTrace(ctx, session, "Flow "+res.name)
	if err != nil {
		return rp.warn("trace", res, err)
	}
	if err := mcptools.WriteUserFile(rp.traceDir, rp.names[session]+".zip", b); err != nil {
		return rp.warn("trace", res, err)
	}
	return filepath.Join(rp.traceDir, rp.names[session]+".zip")
}

// write renders the report of the flow's session, before the session
// ends, and returns its path ("" when it could not be written, which it
// says on stderr).
func (rp *reporter) write(ctx context.Context, session string, res flowResult) string {
	warn := func(err error) string { return rp.warn("report", res, err) }
	info := mcptools.ReportInfo{Title: "Flow " + res.name, Status: "passed",
		Meta: []report.KV{{Key: "flow file", Value: res.file}}}
	if res.failed {
		info.Status, info.Summary = "failed", fmt.Sprintf("flow step %d, %s: %s", res.failedStep, res.step, res.headline)
	}
	if res.healed() {
		info.Summary = "HEALED: " + stepsHealed(len(res.heals))
	}
	if res.diagnosis != "" {
		info.Notes = append(info.Notes, "Diagnosis: "+res.diagnosis)
	}
	for _, h := range res.heals {
		info.Meta = append(info.Meta, report.KV{Key: fmt.Sprintf("HEALED step %d", h.step),
			Value: fmt.Sprintf("%s: %s -> %s (%s)", h.action, h.from, h.to, h.why)})
	}
	if res.healedFile != "" {
		info.Meta = append(info.Meta, report.KV{Key: "repaired flow", Value: res.healedFile})
	}
	for _, n := range res.healNotes {
		info.Meta = append(info.Meta, report.KV{Key: "not repaired", Value: n})
	}
	if res.video != "" {
		info.Video = &report.Video{Src: relativeTo(rp.dir, res.video), Caption: res.videoNote}
	}
	b, err := rp.deps.SessionReport(ctx, session, info)
	if err != nil {
		return warn(err)
	}
	if err := mcptools.WriteUserFile(rp.dir, rp.names[session]+".html", b); err != nil {
		return warn(err)
	}
	return filepath.Join(rp.dir, rp.names[session]+".html")
}

// runner replays flows with the tools' handlers.
type runner struct {
	handlers  map[string]server.ToolHandlerFunc
	deps      *mcptools.Deps
	artifacts string       // --artifacts, or ""
	rep       *reporter    // --report or --trace, or nil
	videos    *videoKeeper // --video, or nil
	secrets   *redact.Set
	heal      healMode // --heal
}

// videoKeeper keeps the flows' videos (run --video): each flow's session
// records from its first page, and when the flow ends its video is written
// (a failed flow's, or every flow's with --video-mode on) or discarded.
type videoKeeper struct {
	dir   string
	all   bool
	names map[string]string // the video's file name (no extension) by the flow's session
}

// keep ends the recording of the flow's session, writing it when the flow
// failed (or all are kept); a video that could not be written is said on
// the result's message, not lost in silence.
func (vk *videoKeeper) keep(ctx context.Context, deps *mcptools.Deps, session string, res *flowResult) {
	path, st, err := deps.FinishVideo(ctx, session, res.failed || vk.all, vk.dir, vk.names[session]+".png")
	if err != nil {
		res.videoNote = "no video: " + err.Error()
		return
	}
	if path != "" {
		res.video = path
		res.videoNote = fmt.Sprintf("%dx%d, %d frames, %.1fs (the flow took %.1fs", st.Width, st.Height, st.Frames, st.Duration.Seconds(), st.Session.Seconds())
		if st.IdleCut > 0 {
			res.videoNote += fmt.Sprintf("; %.1fs with no change shortened", st.IdleCut.Seconds())
		}
		res.videoNote += fmt.Sprintf("), %d KB", (st.Bytes+1023)/1024)
	}
}

// runFlow replays one flow in its own session, then ends the session (and
// its dev server).
//
// What it says of a failure (the summary line, JUnit, artifacts) is
// masked with secrets, as the answers it reads already are.
func (rn *runner) runFlow(ctx context.Context, file string, f *flow.Flow, session string) (res flowResult) {
	handlers, artifacts, rep, secrets := rn.handlers, rn.artifacts, rn.rep, rn.secrets
	res = flowResult{file: file, name: f.Name}
	start := time.Now()
	call := func(tool string, args map[string]any) (*mcp.CallToolResult, error) {
		h, ok := handlers[tool]
		if !ok {
			return nil, fmt.Errorf("no tool %s", tool)
		}
		args["sessionId"] = session
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tool, args
		return h(ctx, req)
	}
	defer func() {
		if len(res.heals) > 0 {
			// The file is written as it is; what is shown of it is masked.
			path, diff, notes, err := writeHealed(file, res.heals, rn.heal, secrets)
			for _, n := range notes {
				res.healNotes = append(res.healNotes, secrets.String(n))
			}
			if err != nil {
				res.healDiff = secrets.String(fmt.Sprintf("      (the repaired flow could not be written: %v)\n", err))
			} else {
				res.healedFile, res.healDiff = path, secrets.String(diff)
			}
		}
		if rn.videos != nil {
			rn.videos.keep(ctx, rn.deps, session, &res)
		}
		if rep != nil && rep.dir != "" {
			res.report = rep.write(ctx, session, res)
		}
		if rep != nil && rep.traceDir != "" {
			res.trace = rep.writeTrace(ctx, session, res)
		}
		_, _ = call("session_end", map[string]any{})
		res.took = time.Since(start)
	}()
	fail := func(n int, what string, r *mcp.CallToolResult, err error, diag ...*mcptools.TargetDiagnosis) flowResult {
		res.failed, res.failedStep, res.step = true, n, secrets.String(what)
		if err != nil {
			res.errType, res.headline, res.message = "error", secrets.String(err.Error()), secrets.String(err.Error())
			return res
		}
		e := mcptools.ResultError(r)
		text := mcptools.ResultText(r)
		if len(diag) > 0 && diag[0] != nil {
			res.diagnosis = secrets.String(diag[0].Text)
			text += "\n### Diagnosis (the page changed under the flow?)\n" + diag[0].Text + "\n"
		}
		if n > 0 {
			text += rn.earlierErrors(ctx, session, text)
		}
		res.errType, res.headline, res.message = e.Type, secrets.String(e.Line()), secrets.String(text)
		if artifacts != "" {
			res.artifacts = saveArtifacts(artifacts, f.Name, n, r, res.message)
		}
		return res
	}
	// Every variable the flow reads is set, or nothing starts: a missing
	// secret is never typed as an empty text.
	if err := f.CheckEnv(os.LookupEnv); err != nil {
		return fail(0, "read the environment", nil, err)
	}
	steps := f.Steps
	if f.Dev != nil {
		a := map[string]any{}
		if f.Dev.Run != "" {
			a["run"] = f.Dev.Run
		}
		if len(f.Dev.Command) > 0 {
			a["commandPath"], a["args"] = f.Dev.Command[0], f.Dev.Command[1:]
		}
		if f.Dev.Cwd != "" {
			cwd := f.Dev.Cwd
			if !filepath.IsAbs(cwd) {
				cwd = filepath.Join(filepath.Dir(file), cwd)
			}
			a["cwd"] = cwd
		}
		if f.Dev.ReadyPath != "" {
			a["readyPath"] = f.Dev.ReadyPath
		}
		if r, err := call("session_start", a); err != nil || r.IsError {
			return fail(0, "start the dev server", r, err)
		}
	}
	if st := f.StorageState; st != "" {
		// Before the first page, as session_start's storageState does.
		if !filepath.IsAbs(st) {
			st = filepath.Join(filepath.Dir(file), st)
		}
		if r, err := call("browser_set_storage_state", map[string]any{"filename": st}); err != nil || r.IsError {
			return fail(0, "start in the storage state "+f.StorageState, r, err)
		}
	}
	for i, st := range steps {
		tool, args, err := st.Tool(os.LookupEnv)
		if err != nil {
			return fail(i+1, st.Action, nil, err)
		}
		if u, ok := args["url"].(string); ok && f.Dev == nil && f.BaseURL != "" && strings.HasPrefix(u, "/") {
			args["url"] = strings.TrimRight(f.BaseURL, "/") + u
		}
		what := describeStep(st)
		r, err := call(tool, args)
		if err != nil {
			return fail(i+1, what, r, err)
		}
		if !r.IsError {
			continue
		}
		target, _ := args["target"].(string)
		if target == "" || !drifted(mcptools.ResultError(r).Type) {
			return fail(i+1, what, r, nil)
		}
		d := rn.diagnose(ctx, session, st, target)
		if d == nil || rn.heal == healOff || !d.Verdict.Heal {
			return fail(i+1, what, r, nil, d)
		}
		hr, h, err := rn.tryHeal(call, i, st, tool, args, d)
		if h == nil {
			if err != nil {
				return fail(i+1, what, hr, err)
			}
			// The healed replay failed too: its answer, and why it was tried.
			return fail(i+1, what+" (healed to "+d.Verdict.Best.Locator+")", hr, nil, d)
		}
		res.heals = append(res.heals, *h)
	}
	return res
}

// maxEarlierErrors bounds the console errors earlierErrors lists.
const maxEarlierErrors = 20

// earlierErrors is a section of the console errors and uncaught exceptions
// of the flow's session that a failing step's answer (text) does not show:
// it has those since the step before, and an exception a click threw two
// steps earlier is often the cause. The report shows them all.
func (rn *runner) earlierErrors(ctx context.Context, session, answer string) string {
	msgs, err := rn.deps.SessionConsoleErrors(ctx, session)
	if err != nil {
		return fmt.Sprintf("\n(console errors of the flow unavailable: %v)\n", err)
	}
	var b strings.Builder
	n := 0
	for _, m := range msgs[max(0, len(msgs)-maxEarlierErrors):] {
		line := text.Clip(m.Text, 300)
		if strings.Contains(answer, line) {
			continue // the failure's own answer has it
		}
		n++
		fmt.Fprintf(&b, "- %s: %s", m.Level, line)
		if m.Location != "" {
			fmt.Fprintf(&b, " (%s)", text.Clip(m.Location, 120))
		}
		b.WriteByte('\n')
		if m.Stack != "" {
			for _, f := range text.FirstLines(m.Stack, 3) {
				fmt.Fprintf(&b, "    %s\n", text.Clip(f, 160))
			}
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("\n### Console errors earlier in the flow (%d; the failing step's answer shows those since the step before)\n%s", n, b.String())
}

// describeStep says a step in words for the summary.
func describeStep(st flow.Step) string {
	for _, k := range []string{"target", "url", "key", "text"} {
		if v, ok := st.Args[k].(string); ok {
			return st.Action + " " + v
		}
	}
	return st.Action
}

// saveArtifacts writes a failing step's whole response (error, dev-server
// log, console errors, failed requests), its text as given (masked), and
// its images: step-N.png, then step-N-2.png... (a visual check's baseline,
// actual image and diff).
func saveArtifacts(dir, name string, step int, r *mcp.CallToolResult, text string) string {
	base := filepath.Join(safeName(name), fmt.Sprintf("step-%d", step))
	if err := mcptools.WriteUserFile(dir, base+".md", []byte(text+"\n")); err != nil {
		return ""
	}
	n := 0
	for _, c := range r.Content {
		if img, ok := c.(mcp.ImageContent); ok {
			if b, err := base64.StdEncoding.DecodeString(img.Data); err == nil {
				ext := ".png"
				if img.MIMEType == "image/jpeg" {
					ext = ".jpg"
				}
				if n++; n > 1 {
					ext = fmt.Sprintf("-%d%s", n, ext)
				}
				_ = mcptools.WriteUserFile(dir, base+ext, b)
			}
		}
	}
	return filepath.Join(dir, safeName(name))
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == 0 {
			return '_'
		}
		return r
	}, s)
}

// JUnit XML, as CI systems read it.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	// SystemOut links the flow's HTML report, trace and video as
	// attachments ([[ATTACHMENT|path]], relative to the JUnit file).
	SystemOut string `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// healLines says a flow's healed steps and its repaired flow, for JUnit.
func healLines(r flowResult) string {
	if len(r.heals) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nHealed steps:\n")
	printHeals(&b, r)
	return b.String()
}

// relativeTo is path relative to dir, when it can be said so, else absolute.
func relativeTo(dir, path string) string {
	ad, err1 := filepath.Abs(dir)
	ap, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return path
	}
	if rel, err := filepath.Rel(ad, ap); err == nil {
		return filepath.ToSlash(rel)
	}
	return ap
}

func writeJUnit(path string, results []flowResult, took time.Duration, secrets *redact.Set, healOK bool) error {
	s := junitSuite{Name: "e2e-mcp flows", Tests: len(results), Time: fmt.Sprintf("%.3f", took.Seconds())}
	for _, r := range results {
		c := junitCase{Name: r.name, ClassName: r.file, Time: fmt.Sprintf("%.3f", r.took.Seconds())}
		var links []string
		for _, f := range []struct{ what, path string }{{"Report", r.report}, {"Trace", r.trace}, {"Video", r.video}} {
			if f.path != "" {
				link := relativeTo(filepath.Dir(path), f.path)
				c.SystemOut += "[[ATTACHMENT|" + link + "]]\n"
				links = append(links, f.what+": "+link)
			}
		}
		healed := healLines(r)
		switch {
		case r.failed:
			s.Failures++
			msg := fmt.Sprintf("step %d, %s: %s", r.failedStep, r.step, r.headline)
			if r.diagnosis != "" {
				msg += "; diagnosis: " + r.diagnosis
			}
			c.Failure = &junitFailure{Message: secrets.String(msg), Type: r.errType, Text: secrets.String(r.message + healed)}
			if len(links) > 0 {
				c.Failure.Text += "\n\n" + strings.Join(links, "\n")
			}
		case r.healed() && !healOK:
			// Passed only by healing: CI notices unless --heal-ok.
			s.Failures++
			c.Failure = &junitFailure{Message: secrets.String(fmt.Sprintf("HEALED: %s (--heal-ok accepts it)", stepsHealed(len(r.heals)))),
				Type: "healed", Text: secrets.String(healed)}
		case r.healed():
			c.SystemOut += secrets.String(healed)
		}
		s.Cases = append(s.Cases, c)
	}
	b, err := xml.MarshalIndent(junitSuites{Suites: []junitSuite{s}}, "", "  ")
	if err != nil {
		return err
	}
	return mcptools.WriteUserFile(filepath.Dir(path), filepath.Base(path), append([]byte(xml.Header), append(b, '\n')...))
}

// parseFiles parses a subcommand's flags, which may come before, between
// or after its file arguments (run a.yaml --junit r.xml b.yaml), and
// returns the files; an error is the flag set's (flagsFailed answers it).
func parseFiles(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	rest := args
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			return nil, err
		}
		rest = fs.Args()
		if len(rest) > 0 {
			files, rest = append(files, rest[0]), rest[1:]
		}
	}
	return files, nil
}
