package main

// The runner table (issue 38 §4): the same flows as a CI test suite under
// `e2e-mcp run` and, converted by `e2e-mcp convert --to playwright`, under
// the pinned Playwright Test of scripts/pwcheck, both with the same
// Chromium and the same dev server, at 1 and 2 workers, JUnit only and
// with every artifact each runner can keep. Each run is measured from the
// outside: wall time, CPU of the process tree, its peak memory and the
// bytes left in its output directory. suite_report.go makes the table.

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The two runners of the table.
const (
	suiteOurs = "e2e-mcp"
	suitePW   = "playwright"
)

// suiteSetting is one way of running the suite.
type suiteSetting struct {
	Key       string `json:"key"`
	Title     string `json:"title"`
	Workers   int    `json:"workers"`
	Artifacts bool   `json:"artifacts"`
	Retries   int    `json:"retries,omitempty"`
	// OursOnly: only e2e-mcp runs it (the --retries row compares e2e-mcp
	// with itself).
	OursOnly bool `json:"ours_only,omitempty"`
	// Base is the setting a OursOnly row is compared with, in the same round.
	Base string `json:"base,omitempty"`
}

// suiteSettings are the table's rows, in order.
var suiteSettings = []suiteSetting{
	{Key: "w1", Title: "1 worker, JUnit only", Workers: 1},
	{Key: "w2", Title: "2 workers, JUnit only", Workers: 2},
	{Key: "w1-art", Title: "1 worker, with artifacts", Workers: 1, Artifacts: true},
	{Key: "w2-art", Title: "2 workers, with artifacts", Workers: 2, Artifacts: true},
	{Key: "w1-retries", Title: "`--retries 2`, 1 worker, JUnit only (every flow passes)", Workers: 1, Retries: 2, OursOnly: true, Base: "w1"},
}

// suiteSample is one run of the suite by one runner in one setting.
type suiteSample struct {
	Runner  string `json:"runner"`
	Setting string `json:"setting"`
	Round   int    `json:"round"`
	// Figures: wall_ms, cpu_ms, rss_kb (peak of the tree's summed RSS),
	// pss_kb (peak of its summed PSS),
	// bytes (what the output directory holds after the run).
	Figures map[string]float64 `json:"figures"`
	Tests   int                `json:"tests"`  // test cases in its JUnit
	Passed  int                `json:"passed"` // of them, those that passed (flaky included)
	Exit    int                `json:"exit"`
	// The two CPU counts cpu_ms is the larger of (measureTree).
	RusageCPUMS  float64 `json:"rusage_cpu_ms"`
	SampledCPUMS float64 `json:"sampled_cpu_ms"`
	Err          string  `json:"error,omitempty"`
	// Files by top-level entry of the output directory: where the bytes are.
	Files    map[string]int64 `json:"files,omitempty"`
	Leftover []string         `json:"leftover,omitempty"` // processes still running after the runner exited (then killed)
}

// ok says whether the run's figures count: it ran and every flow passed.
func (s suiteSample) ok() bool { return s.Err == "" && s.Tests > 0 && s.Passed == s.Tests }

// suiteOptions locate what the phase needs.
type suiteOptions struct {
	bin      string // e2e-mcp
	flows    string // the directory of the flows
	pwcheck  string // scripts/pwcheck: the pinned @playwright/test, npm ci'd
	chromium string
	rounds   int
}

// suiteEnv is what a phase prepared: the converted specs, the versions.
type suiteEnv struct {
	o          suiteOptions
	flowFiles  []string
	specDir    string // converted specs and bench.config.ts, inside pwcheck
	playwright string // its CLI, or "" when not installed
	pwVersion  string
}

// benchConfig wraps the config that convert writes: the same projects,
// webServer and browser, with the bench's output directory, reporters and,
// with artifacts, a trace and a screenshot of every test and the HTML
// report (what e2e-mcp run's --report and --trace keep of every flow).
const benchConfig = `// Written by make bench (bench/suite.go): the converted flows' config, with the
// bench's output directory, reporters and artifacts.
import base from './playwright.config';

const out = process.env.E2E_MCP_BENCH_OUT || 'bench-out';
const artifacts = process.env.E2E_MCP_BENCH_ARTIFACTS === '1';

export default {
  ...base,
  outputDir: out + '/test-results',
  reporter: artifacts
    ? [['junit', { outputFile: out + '/junit.xml' }], ['html', { outputFolder: out + '/report', open: 'never' }]]
    : [['junit', { outputFile: out + '/junit.xml' }]],
  use: { ...base.use, ...(artifacts ? { trace: 'on', screenshot: 'on' } : {}) },
};
`

// prepareSuite lists the flows and converts them into a directory under
// scripts/pwcheck (where Node finds the pinned @playwright/test).
func prepareSuite(ctx context.Context, o suiteOptions) (*suiteEnv, []string, error) {
	e := &suiteEnv{o: o}
	var notes []string
	ents, err := os.ReadDir(o.flows)
	if err != nil {
		return nil, nil, err
	}
	for _, en := range ents {
		if n := en.Name(); !en.IsDir() && (strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml")) {
			e.flowFiles = append(e.flowFiles, filepath.Join(o.flows, n))
		}
	}
	if len(e.flowFiles) == 0 {
		return nil, nil, fmt.Errorf("no flow in %s", o.flows)
	}
	pw := filepath.Join(o.pwcheck, "node_modules", ".bin", "playwright")
	if _, err := os.Stat(pw); err != nil {
		notes = append(notes, fmt.Sprintf("Runner table: Playwright Test is not installed (%v): e2e-mcp runs alone. 'make bench' installs it (npm ci in scripts/pwcheck).", err))
		return e, notes, nil
	}
	e.playwright = pw
	if b, err := os.ReadFile(filepath.Join(o.pwcheck, "node_modules", "@playwright", "test", "package.json")); err == nil {
		var p struct{ Version string }
		if json.Unmarshal(b, &p) == nil {
			e.pwVersion = p.Version
		}
	}
	if e.specDir, err = os.MkdirTemp(o.pwcheck, "bench-specs-"); err != nil {
		return nil, nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	args := append(append([]string{"convert"}, e.flowFiles...), "--to", "playwright", "--out", e.specDir)
	if out, err := exec.CommandContext(cctx, o.bin, args...).CombinedOutput(); err != nil {
		e.close()
		return nil, nil, fmt.Errorf("e2e-mcp convert: %w: %s", err, oneLine(string(out), 300))
	}
	if err := os.WriteFile(filepath.Join(e.specDir, "bench.config.ts"), []byte(benchConfig), 0o644); err != nil {
		e.close()
		return nil, nil, err
	}
	return e, notes, nil
}

func (e *suiteEnv) close() {
	if e.specDir != "" {
		_ = os.RemoveAll(e.specDir)
	}
}

// suitePhase runs every setting with both runners, round after round,
// alternating which runner goes first; progress goes to logf.
func suitePhase(ctx context.Context, e *suiteEnv, logf func(string, ...any)) []suiteSample {
	var out []suiteSample
	for round := 1; round <= e.o.rounds; round++ {
		for _, st := range suiteSettings {
			if st.OursOnly {
				continue // run right after its base, below
			}
			runners := []string{suiteOurs, suitePW}
			if round%2 == 0 {
				runners = []string{suitePW, suiteOurs}
			}
			for _, r := range runners {
				if r == suitePW && e.playwright == "" {
					continue
				}
				jobs := []suiteSetting{st}
				if r == suiteOurs {
					// A setting e2e-mcp compares with itself runs next to its
					// base: the two runs seconds apart, not minutes.
					for _, o := range suiteSettings {
						if o.OursOnly && o.Base == st.Key {
							jobs = append(jobs, o)
						}
					}
				}
				for _, j := range jobs {
					if ctx.Err() != nil {
						return out
					}
					t0 := time.Now()
					s := e.runOnce(ctx, r, j, round)
					out = append(out, s)
					status := fmt.Sprintf("%d/%d passed", s.Passed, s.Tests)
					if s.Err != "" {
						status += ": " + oneLine(s.Err, 200)
					}
					logf("runner round %d/%d  %-10s %-12s %6s  %s\n", round, e.o.rounds, r, j.Key, time.Since(t0).Round(100*time.Millisecond), status)
				}
			}
		}
	}
	return out
}

// runOnce runs the suite once, in a fresh output directory, and measures it.
func (e *suiteEnv) runOnce(ctx context.Context, runner string, st suiteSetting, round int) suiteSample {
	s := suiteSample{Runner: runner, Setting: st.Key, Round: round, Figures: map[string]float64{}}
	tmp, err := os.MkdirTemp("", "e2e-mcp-bench-suite-")
	if err != nil {
		s.Err = err.Error()
		return s
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	out := filepath.Join(tmp, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		s.Err = err.Error()
		return s
	}
	mark := fmt.Sprintf("E2E_MCP_BENCH_MARK=%d-suite-%s-%s-%d", os.Getpid(), runner, st.Key, round)
	env := append(os.Environ(), "TMPDIR="+tmp, mark)
	var cmd *exec.Cmd
	if runner == suiteOurs {
		args := append([]string{"run"}, e.flowFiles...)
		args = append(args, "--parallel", strconv.Itoa(st.Workers), "--junit", filepath.Join(out, "junit.xml"))
		if st.Artifacts {
			args = append(args, "--artifacts", filepath.Join(out, "artifacts"), "--report", filepath.Join(out, "report"),
				"--trace", filepath.Join(out, "trace"))
		}
		if st.Retries > 0 {
			args = append(args, "--retries", strconv.Itoa(st.Retries))
		}
		cmd = exec.Command(e.o.bin, args...)
		cmd.Dir = tmp
		cmd.Env = append(env, "E2E_MCP_BROWSER_PATH="+e.o.chromium)
	} else {
		port, err := freePort()
		if err != nil {
			s.Err = err.Error()
			return s
		}
		args := []string{"test", "-c", filepath.Join(e.specDir, "bench.config.ts"), "--workers", strconv.Itoa(st.Workers)}
		if st.Retries > 0 {
			args = append(args, "--retries", strconv.Itoa(st.Retries))
		}
		cmd = exec.Command(e.playwright, args...)
		cmd.Dir = e.specDir
		art := "0"
		if st.Artifacts {
			art = "1"
		}
		cmd.Env = append(env, "CI=1", "PORT="+strconv.Itoa(port), "CHROMIUM="+e.o.chromium,
			"PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1", "E2E_MCP_BENCH_OUT="+out, "E2E_MCP_BENCH_ARTIFACTS="+art)
	}
	m, err := measureTree(ctx, cmd, mark, 10*time.Minute)
	s.Exit, s.Leftover = m.exit, m.left
	s.Figures["wall_ms"] = ms(m.wall)
	// The CPU figure is the kernel's count; the sampled sum, a lower bound,
	// stands in should it be larger (a process that escaped both).
	s.Figures["cpu_ms"] = ms(max(m.cpu, m.sampledCPU))
	s.RusageCPUMS, s.SampledCPUMS = ms(m.cpu), ms(m.sampledCPU)
	s.Figures["rss_kb"] = float64(m.peakRSSKB)
	s.Figures["pss_kb"] = float64(m.peakPSSKB)
	if err != nil {
		s.Err = err.Error()
		return s
	}
	s.Files = dirSizes(out)
	var total int64
	for _, n := range s.Files {
		total += n
	}
	s.Figures["bytes"] = float64(total)
	b, err := os.ReadFile(filepath.Join(out, "junit.xml"))
	if err == nil {
		s.Tests, s.Passed, err = junitCounts(b)
	}
	if err != nil {
		s.Err = fmt.Sprintf("junit: %v (exit %d: %s)", err, m.exit, oneLine(m.tail, 300))
	} else if m.exit != 0 && s.Passed == s.Tests {
		s.Err = fmt.Sprintf("exit %d with every flow passed: %s", m.exit, oneLine(m.tail, 300))
	}
	return s
}

// measured is what measureTree saw of one command.
type measured struct {
	wall time.Duration
	// cpu is the kernel's count (rusage) of user + system time of the
	// process, of every descendant waited for in the tree, and of every
	// orphan of the tree (the bench is their subreaper and waits for them).
	// sampledCPU is the sum over every process seen in the tree of its last
	// sampled times: a lower bound, a check on the first.
	cpu, sampledCPU time.Duration
	peakRSSKB       int64
	// peakPSSKB is the peak of the tree's summed PSS: a page that several
	// of its processes share (Chromium's code, in each of its processes)
	// counts once over them, where the RSS sum counts it in each.
	peakPSSKB int64
	exit      int
	tail      string   // the end of its output
	left      []string // processes still running after it exited, killed
}

// clockTick is the unit of /proc/PID/stat's times (USER_HZ: 100 on Linux).
const clockTick = 10 * time.Millisecond

// measureTree runs cmd in a process group of its own and measures it: the
// wall time, the CPU time (user + system) of its whole process tree and the
// peak of the tree's summed RSS, sampled every 50 ms. A browser killed
// before its renderers leaves them to init, where neither the runner's
// rusage nor its tree would see them: while it runs, the bench is a child
// subreaper, so the orphans of the tree become its own children, stay in
// the sampled tree, and are waited for with their rusage. Processes that
// carry mark and are left when the command exits are killed and named.
// One measureTree at a time: it waits for every child of the bench that is
// not cmd.
func measureTree(ctx context.Context, cmd *exec.Cmd, mark string, limit time.Duration) (measured, error) {
	var m measured
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return m, fmt.Errorf("child subreaper: %w", err)
	}
	defer func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) }()
	tail := &tailBuffer{max: 8 << 10}
	cmd.Stdout, cmd.Stderr = tail, tail
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return m, err
	}
	root := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	timeout := time.NewTimer(limit)
	defer timeout.Stop()
	type procKey struct {
		pid   int
		start uint64
	}
	cpuSeen := map[procKey]int64{} // ticks
	var orphanCPU time.Duration
	// sample reads the tree (the command and the orphans the bench
	// adopted), and waits for the adopted ones that ended.
	sample := func() {
		all := readProcs()
		roots := []int{root}
		for _, p := range all {
			if p.ppid == os.Getpid() && p.pid != root {
				roots = append(roots, p.pid)
			}
		}
		procs := tree(all, roots)
		if kb := rssKB(procs); kb > m.peakRSSKB {
			m.peakRSSKB = kb
		}
		if kb := pssKB(procs); kb > m.peakPSSKB {
			m.peakPSSKB = kb
		}
		for _, p := range procs {
			cpuSeen[procKey{p.pid, p.start}] = p.cpu
		}
		orphanCPU += waitOrphans(roots[1:])
	}
	var werr error
	killed := ""
wait:
	for {
		select {
		case werr = <-done:
			break wait
		case <-tick.C:
			sample()
		case <-ctx.Done():
			killed = "interrupted"
			_ = syscall.Kill(-root, syscall.SIGKILL)
		case <-timeout.C:
			killed = fmt.Sprintf("still running after %s", limit)
			_ = syscall.Kill(-root, syscall.SIGKILL)
		}
	}
	m.wall = time.Since(t0)
	m.tail = tail.String()
	all := readProcs()
	for _, p := range reap(tree(all, withEnv(all, mark)), 5*time.Second) {
		m.left = append(m.left, fmt.Sprintf("%d %s", p.pid, p.comm))
	}
	// The orphans that ended after the last sample, or were killed above.
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var kids []int
		for _, p := range readProcs() {
			if p.ppid == os.Getpid() {
				kids = append(kids, p.pid)
			}
		}
		if len(kids) == 0 {
			break
		}
		orphanCPU += waitOrphans(kids)
	}
	if ps := cmd.ProcessState; ps != nil {
		m.cpu = ps.UserTime() + ps.SystemTime() + orphanCPU
		m.exit = ps.ExitCode()
	}
	for _, t := range cpuSeen {
		m.sampledCPU += time.Duration(t) * clockTick
	}
	if killed != "" {
		return m, errors.New(killed)
	}
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) {
		return m, werr
	}
	return m, nil
}

// waitOrphans waits, without blocking, for those of pids (children the
// bench adopted) that ended, and returns their CPU time and that of their
// own descendants they waited for.
func waitOrphans(pids []int) time.Duration {
	var sum time.Duration
	for _, pid := range pids {
		var ws unix.WaitStatus
		var ru unix.Rusage
		if got, err := unix.Wait4(pid, &ws, unix.WNOHANG, &ru); err == nil && got == pid {
			sum += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return sum
}

// pssKB is the summed proportional set size of procs (memKB).
func pssKB(procs []proc) int64 {
	var sum int64
	for _, p := range procs {
		if kb, _, err := memKB(p.pid); err == nil {
			sum += kb
		}
	}
	return sum
}

// rssKB is the summed resident set size of procs.
func rssKB(procs []proc) int64 {
	page := int64(os.Getpagesize()) / 1024
	var sum int64
	for _, p := range procs {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", p.pid))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			continue
		}
		n, _ := strconv.ParseInt(f[1], 10, 64)
		sum += n * page
	}
	return sum
}

// dirSizes sums the sizes of the regular files under dir by its top-level
// entries (junit.xml, report, trace, test-results...).
func dirSizes(dir string) map[string]int64 {
	out := map[string]int64{}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		top := strings.SplitN(filepath.ToSlash(rel), "/", 2)[0]
		out[top] += info.Size()
		return nil
	})
	return out
}

// junitCounts reads a JUnit XML report (e2e-mcp's or Playwright Test's):
// its test cases and how many of them passed (neither failed, errored nor
// skipped).
func junitCounts(b []byte) (tests, passed int, err error) {
	var doc struct {
		Suites []struct {
			Cases []struct {
				Failure *struct{} `xml:"failure"`
				Error   *struct{} `xml:"error"`
				Skipped *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	dec := xml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return 0, 0, err
	}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			tests++
			if c.Failure == nil && c.Error == nil && c.Skipped == nil {
				passed++
			}
		}
	}
	if tests == 0 {
		return 0, 0, errors.New("no test case in the report")
	}
	return tests, passed, nil
}

// suiteResult is the runner table's part of results.json.
type suiteResult struct {
	Flows      []string      `json:"flows"`
	Rounds     int           `json:"rounds"`
	Chromium   string        `json:"chromium"`
	Playwright string        `json:"playwright_test,omitempty"` // its version
	Rows       []suiteRow    `json:"rows"`
	Notes      []string      `json:"notes,omitempty"`
	Raw        []suiteSample `json:"raw"`
}

// runSuite prepares and runs the runner table; the note says why it did
// not run.
func runSuite(ctx context.Context, o suiteOptions, logf func(string, ...any)) (*suiteResult, string) {
	for _, p := range []*string{&o.flows, &o.pwcheck} {
		if abs, err := filepath.Abs(*p); err == nil {
			*p = abs
		}
	}
	if o.chromium == "" {
		o.chromium, _ = exec.LookPath("chromium")
	}
	if o.chromium == "" {
		return nil, "Runner table: not measured: no chromium on PATH (-chromium names one)."
	}
	e, notes, err := prepareSuite(ctx, o)
	if err != nil {
		return nil, fmt.Sprintf("Runner table: not measured: %v", err)
	}
	defer e.close()
	samples := suitePhase(ctx, e, logf)
	rows, more := summarizeSuite(samples)
	res := &suiteResult{Rounds: o.rounds, Chromium: o.chromium, Playwright: e.pwVersion, Rows: rows,
		Notes: append(notes, more...), Raw: samples}
	for _, f := range e.flowFiles {
		res.Flows = append(res.Flows, filepath.Base(f))
	}
	return res, ""
}

// write prints the runner table with the line that says what it is.
func (r *suiteResult) write(w io.Writer) {
	pw := "Playwright Test (not installed)"
	if r.Playwright != "" {
		pw = "Playwright Test " + r.Playwright
	}
	fmt.Fprintf(w, "Runner table: the same %d flows (bench/runnerapp/flows) under `e2e-mcp run` and, converted by `e2e-mcp convert --to playwright`, under %s; %s for both; %d round(s), every setting in each, the runner that goes first alternating; medians (min–max), the ratio from the two runs of each round.\n\n",
		len(r.Flows), pw, r.Chromium, r.Rounds)
	writeSuiteTable(w, r.Rows, r.Notes)
}

// suiteMain runs the runner table alone (-runner-only) and writes
// runner.json beside results.json.
func suiteMain(ctx context.Context, c config, stdout, stderr io.Writer) int {
	if c.suite.rounds == 0 {
		fmt.Fprintln(stderr, "bench: -runner-only with -runner-rounds 0: nothing to run")
		return 2
	}
	started := time.Now()
	loadStart := loadavg()
	r, note := runSuite(ctx, c.suite, func(f string, a ...any) { fmt.Fprintf(stderr, f, a...) })
	if r == nil {
		fmt.Fprintf(stderr, "bench: %s\n", note)
		return 1
	}
	m := machine()
	m.LoadStart, m.LoadEnd = loadStart, loadavg()
	fmt.Fprintf(stdout, "Machine: %s. e2e-mcp %s.\n\n", m.String(), commit())
	r.write(stdout)
	fmt.Fprintf(stderr, "total %s\n", time.Since(started).Round(time.Second))
	if err := os.MkdirAll(c.outDir, 0o755); err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	out := struct {
		Date    string       `json:"date"`
		Machine machineInfo  `json:"machine"`
		Runner  *suiteResult `json:"runner"`
	}{time.Now().UTC().Format(time.RFC3339), m, r}
	if !writeRaw(c.outDir, "runner.json", out, stderr) {
		return 1
	}
	if ctx.Err() != nil {
		return 1
	}
	return 0
}
