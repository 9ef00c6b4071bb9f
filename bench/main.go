// Command bench drives e2e-mcp and its peers (Playwright MCP,
// chrome-devtools-mcp, agent-browser) over stdio with the same MCP client,
// through the same scenarios on the same fixture pages, then e2e-mcp and
// Playwright MCP over Streamable HTTP with many clients at once (the
// concurrent scenario), then the same flows as a CI suite under e2e-mcp run
// and, converted, under Playwright Test (the runner table, suite.go), and
// prints markdown tables of medians, spreads and ratios. See
// docs/benchmarks.md.
//
//	go run ./bench [-quick] [-n 5] [-anchors bench/out/anchors.txt] [-clients 10] [-concurrent-time 20s] [-runner-rounds 3]
//	go run ./bench -runner-only [-runner-rounds 3]
//	go run ./bench -cpuprofile cpu.prof -scenario snapshot-big
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr))
}

type config struct {
	quick      bool
	runs       int
	bin        string
	anchors    string
	outDir     string
	only       string
	dump       string
	budget     time.Duration
	cpuprofile string
	scenario   string
	iterations int
	e2eArgs    string
	clients    int
	concTime   time.Duration
	concRuns   int
	floor      int
	video      bool
	suite      suiteOptions
	suiteOnly  bool
}

func realMain(args []string, stdout, stderr io.Writer) int {
	var c config
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&c.quick, "quick", false, "smoke run: 2 runs, fewer warm navigations")
	fs.IntVar(&c.runs, "n", 0, "runs per server (default 5, 2 with -quick)")
	fs.StringVar(&c.bin, "bin", "bin/e2e-mcp", "the e2e-mcp binary")
	fs.StringVar(&c.anchors, "anchors", "bench/out/anchors.txt", "the output of install-anchors.sh (the peers' command lines); missing: e2e-mcp alone")
	fs.StringVar(&c.outDir, "out", "bench/out", "where results.json goes")
	fs.StringVar(&c.only, "only", "", "comma-separated servers to run (e2e-mcp, playwright-mcp, chrome-devtools-mcp, agent-browser)")
	fs.StringVar(&c.dump, "dump", "", "write every tool answer under this directory")
	fs.DurationVar(&c.budget, "budget", 12*time.Minute, "stop starting runs after this long")
	fs.StringVar(&c.cpuprofile, "cpuprofile", "", "write a CPU profile of e2e-mcp running -scenario many times to this file")
	fs.StringVar(&c.scenario, "scenario", "", "with -cpuprofile: "+strings.Join(profileScenarios(), ", "))
	fs.IntVar(&c.iterations, "iterations", 30, "with -cpuprofile: how many times the scenario runs")
	fs.StringVar(&c.e2eArgs, "e2e-args", "", "extra flags for e2e-mcp, after the bench's own (such as '--log-level info'; the server's stderr goes to -dump)")
	fs.IntVar(&c.clients, "clients", 10, "concurrent scenario: MCP clients over Streamable HTTP at once, each its own session (4 with -quick; 0 skips the scenario)")
	fs.DurationVar(&c.concTime, "concurrent-time", 20*time.Second, "concurrent scenario: how long every client loops navigate/snapshot/click (5s with -quick)")
	fs.IntVar(&c.concRuns, "concurrent-runs", 1, "concurrent scenario: runs per server (e2e-mcp and Playwright MCP), alternating order")
	fs.BoolVar(&c.video, "video", true, "also run e2e-mcp with a video of the session recording (action latency with video on and off, video bytes a minute)")
	fs.IntVar(&c.floor, "floor-starts", 15, "initialize floor: starts of e2e-mcp and of the reference programs in bench/floor, in turn (5 with -quick; 0 skips it)")
	fs.IntVar(&c.suite.rounds, "runner-rounds", 3, "runner table: rounds of the flows under e2e-mcp run and Playwright Test, every setting each round (1 with -quick; 0 skips it)")
	fs.StringVar(&c.suite.flows, "runner-flows", "bench/runnerapp/flows", "runner table: the directory of the flows")
	fs.StringVar(&c.suite.pwcheck, "pwcheck", "scripts/pwcheck", "runner table: the directory where npm ci installed the pinned @playwright/test")
	fs.StringVar(&c.suite.chromium, "chromium", "", "runner table: the Chromium both runners use (default: chromium on PATH)")
	fs.BoolVar(&c.suiteOnly, "runner-only", false, "run only the runner table")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if c.quick && !set["clients"] {
		c.clients = 4
	}
	if c.quick && !set["floor-starts"] {
		c.floor = 5
	}
	if c.quick && !set["runner-rounds"] {
		c.suite.rounds = 1
	}
	if c.quick && !set["concurrent-time"] {
		c.concTime = 5 * time.Second
	}
	if c.clients < 0 || c.concTime <= 0 || c.concRuns < 0 || c.suite.rounds < 0 {
		fmt.Fprintln(stderr, "bench: -clients, -concurrent-runs and -runner-rounds must be 0 or more, -concurrent-time more than 0")
		return 2
	}
	if c.runs <= 0 {
		c.runs = 5
		if c.quick {
			c.runs = 2
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if abs, err := filepath.Abs(c.bin); err == nil {
		c.bin = abs // servers run in their own directories
	}
	if _, err := os.Stat(c.bin); err != nil {
		fmt.Fprintf(stderr, "bench: %v (build it with 'make build')\n", err)
		return 1
	}
	c.suite.bin = c.bin
	if c.suiteOnly {
		return suiteMain(ctx, c, stdout, stderr)
	}
	fx, err := newFixture()
	if err != nil {
		fmt.Fprintf(stderr, "bench: fixture: %v\n", err)
		return 1
	}
	defer fx.close()
	if c.cpuprofile != "" {
		return profileMain(ctx, c, fx, stdout, stderr)
	}
	return benchMain(ctx, c, fx, stdout, stderr)
}

func benchMain(ctx context.Context, c config, fx *fixture, stdout, stderr io.Writer) int {
	sigCtx := ctx // the runner table runs after the budget of the MCP scenarios
	specs := []spec{e2eSpec(c.bin, c.e2eArgs)}
	if c.video {
		specs = append(specs, e2eVideoSpec(c.bin, c.e2eArgs))
	}
	var notes []string
	peers, err := parseAnchors(c.anchors)
	if err != nil {
		notes = append(notes, fmt.Sprintf("The peers are not installed (%v): e2e-mcp runs alone. 'make bench' installs them with ../shared/tools/install-anchors.sh (needs npm).", err))
	}
	for _, p := range peers {
		if _, err := os.Stat(p.Cmd); err != nil {
			notes = append(notes, fmt.Sprintf("%s left out: %v", p.Key, err))
			continue
		}
		specs = append(specs, p)
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "NOTE: %s\n", n)
	}
	if c.only != "" {
		want := strings.Split(c.only, ",")
		specs = slices.DeleteFunc(specs, func(s spec) bool { return !slices.Contains(want, s.Key) })
	}
	if len(specs) == 0 {
		fmt.Fprintln(stderr, "bench: no server to run")
		return 2
	}
	o := options{warmNavs: 5, dump: c.dump, formVideo: time.Minute}
	if c.quick {
		o.warmNavs, o.formVideo = 3, 10*time.Second
	}
	o.pacedBoth = slices.ContainsFunc(specs, func(s spec) bool { return s.Key == e2eVideo })
	ctx, cancel := context.WithTimeout(ctx, c.budget)
	defer cancel()

	started := time.Now()
	loadStart := loadavg()
	hangs := map[string]int{}
	var runs []runResult
	var keys []string
	for _, s := range specs {
		keys = append(keys, s.Key)
	}
runs:
	for run := 0; run < c.runs; run++ {
		// Alternate: each run starts with the next server, so no server is
		// always first (or always right after the same one).
		for i := range specs {
			if ctx.Err() != nil {
				notes = append(notes, fmt.Sprintf("Stopped after %s (budget or signal): %d of %d runs done.", time.Since(started).Round(time.Second), run, c.runs))
				break runs
			}
			pos := i
			sp := specs[(i+run)%len(specs)]
			if hangs[sp.Key] >= 2 {
				continue
			}
			t0 := time.Now()
			mark := fmt.Sprintf("E2E_MCP_BENCH_MARK=%d-%s-%d", os.Getpid(), sp.Key, run)
			r := runServer(ctx, fx, sp, run+1, pos+1, mark, o)
			runs = append(runs, r)
			if r.hung() {
				if hangs[sp.Key]++; hangs[sp.Key] == 2 {
					notes = append(notes, fmt.Sprintf("%s left out of the remaining runs: it stopped answering in two runs.", sp.Key))
				}
			}
			status := "ok"
			if len(r.Errors) > 0 {
				status = fmt.Sprintf("%d figure(s) failed", len(r.Errors))
			}
			fmt.Fprintf(stderr, "run %d/%d  %-20s %6s  %s\n", run+1, c.runs, sp.Key, time.Since(t0).Round(100*time.Millisecond), status)
		}
	}
	var floor *floorResult
	if c.floor > 0 && slices.ContainsFunc(specs, func(s spec) bool { return s.Key == e2eMCP }) && ctx.Err() == nil {
		t0 := time.Now()
		f, err := initFloor(ctx, specs[slices.IndexFunc(specs, func(s spec) bool { return s.Key == e2eMCP })], c.floor)
		if err != nil {
			notes = append(notes, fmt.Sprintf("Initialize floor: not measured: %v", err))
		} else {
			floor = f
			notes = append(notes, f.note())
		}
		fmt.Fprintf(stderr, "initialize floor  %6s\n", time.Since(t0).Round(100*time.Millisecond))
	}
	co := concOptions{clients: c.clients, dur: c.concTime, dump: c.dump}
	concLabel := ""
	if co.clients > 0 && c.concRuns > 0 && slices.ContainsFunc(specs, func(s spec) bool { return concurrentServer(s.Key) }) {
		cr, note := concurrentPhase(ctx, fx, specs, c.concRuns, co, func(f string, a ...any) { fmt.Fprintf(stderr, f, a...) })
		runs = append(runs, cr...)
		if note != "" {
			notes = append(notes, note)
		}
		if len(cr) > 0 {
			concLabel = concurrentLabel(co)
		}
	}
	var suite *suiteResult
	if c.suite.rounds > 0 && sigCtx.Err() == nil {
		sr, note := runSuite(sigCtx, c.suite, func(f string, a ...any) { fmt.Fprintf(stderr, f, a...) })
		suite = sr
		if note != "" {
			notes = append(notes, note)
		}
	}
	sum := summarizeRuns(slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return k == e2eVideo }), runs)
	sum.Concurrent = concLabel
	vsum := summarizeRuns([]string{e2eMCP, e2eVideo}, runs)
	versions := map[string]string{}
	for _, r := range runs {
		if r.Version != "" {
			versions[r.Server] = r.Version
		}
	}
	m := machine()
	m.LoadStart, m.LoadEnd = loadStart, loadavg()
	if v, ok := versions[e2eMCP]; ok {
		versions[e2eMCP] = v + " (" + commit() + ")"
	}
	for _, sp := range specs {
		if pv := packageVersion(sp.Cmd); pv != "" && sp.Key != e2eMCP {
			versions[sp.Key] = pv
		}
	}
	fmt.Fprintf(stdout, "Machine: %s. Runs: %d per server, alternating order; medians with min–max over all samples. %s.\n",
		m.String(), c.runs, versionLine(keys, versions))
	if concLabel != "" {
		fmt.Fprintf(stdout, "Concurrent scenario: %d MCP clients over Streamable HTTP at once, each its own session, looping navigate/snapshot/click for %s; %d run(s) per server; p50/p95 over every call of every client.\n",
			co.clients, co.dur, c.concRuns)
	}
	fmt.Fprintln(stdout)
	writeTable(stdout, sum)
	if slices.Contains(keys, e2eVideo) {
		fmt.Fprintln(stdout)
		writeVideoTable(stdout, vsum)
	}
	if suite != nil {
		fmt.Fprintln(stdout)
		suite.write(stdout)
	}
	for _, n := range notes {
		fmt.Fprintf(stdout, "\nNote: %s\n", n)
	}
	fmt.Fprintf(stderr, "total %s\n", time.Since(started).Round(time.Second))

	if err := os.MkdirAll(c.outDir, 0o755); err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	out := struct {
		Date     string            `json:"date"`
		Machine  machineInfo       `json:"machine"`
		Quick    bool              `json:"quick"`
		Runs     int               `json:"runs"`
		Conc     string            `json:"concurrent,omitempty"`
		Servers  []spec            `json:"servers"`
		Versions map[string]string `json:"versions"`
		Summary  summary           `json:"summary"`
		Video    summary           `json:"video,omitempty"`
		Raw      []runResult       `json:"raw"`
		Floor    *floorResult      `json:"initialize_floor,omitempty"`
		Runner   *suiteResult      `json:"runner,omitempty"`
		Notes    []string          `json:"notes,omitempty"`
	}{time.Now().UTC().Format(time.RFC3339), m, c.quick, c.runs, concLabel, specs, versions, sum, vsum, runs, floor, suite, notes}
	if !writeRaw(c.outDir, "results.json", out, stderr) {
		return 1
	}
	if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return 1
	}
	return 0
}

func versionLine(keys []string, v map[string]string) string {
	var parts []string
	for _, k := range keys {
		if s := v[k]; s != "" {
			parts = append(parts, s)
		}
	}
	return "Servers: " + strings.Join(parts, ", ")
}

type machineInfo struct {
	CPUs      int    `json:"cpus"`
	MemoryMB  int64  `json:"memory_mb"`
	Browser   string `json:"browser"`
	OS        string `json:"os"`
	LoadStart string `json:"loadavg_start"` // 1, 5 and 15 minute load averages: other work on the machine
	LoadEnd   string `json:"loadavg_end"`
}

func (m machineInfo) String() string {
	return fmt.Sprintf("%d CPUs, %.1f GB RAM, %s, %s, load average %s at the start and %s at the end",
		m.CPUs, float64(m.MemoryMB)/1024, m.Browser, m.OS, m.LoadStart, m.LoadEnd)
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func machine() machineInfo {
	m := machineInfo{CPUs: runtime.NumCPU(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		if _, err := fmt.Sscanf(string(b), "MemTotal: %d kB", &kb); err == nil {
			m.MemoryMB = kb / 1024
		}
	}
	for _, name := range []string{"chromium", "google-chrome", "chrome"} {
		path, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		out, err := exec.CommandContext(ctx, path, "--version").Output()
		cancel()
		if err == nil {
			m.Browser = strings.TrimSpace(strings.SplitN(string(out), " built on", 2)[0])
			break
		}
	}
	if m.Browser == "" {
		m.Browser = "browser version unknown"
	}
	return m
}

// commit names the source e2e-mcp was built from, when run from a clone.
func commit() string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "describe", "--always", "--dirty").Output()
	if err != nil {
		return "commit unknown"
	}
	return "commit " + strings.TrimSpace(string(out))
}

// writeRaw writes a run's raw numbers as indented JSON into dir and says
// where on stderr; false (the error said) when it could not.
func writeRaw(dir, name string, v any, stderr io.Writer) bool {
	b, err := json.MarshalIndent(v, "", "  ")
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return false
	}
	fmt.Fprintf(stderr, "raw numbers: %s\n", filepath.Join(dir, name))
	return true
}
