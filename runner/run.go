package runner

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// Run replays the suite's flows, each in its own isolated session with its
// own dev server, with the tools of deps (cmd's, made from the E2E_MCP_*
// settings), and reports like a test runner: each flow's PASS or FAIL on
// stdout as it ends, then a summary, JUnit, artifacts, reports. It returns
// the exit code: ExitOK when every flow passed, ExitFailed when one failed
// (or was healed, without HealOK), ExitUsage when an output directory
// cannot be made.
func Run(ctx context.Context, o Options, s *Suite, deps *mcptools.Deps, stdout, stderr io.Writer) int {
	files, flows := s.files, s.flows
	// No agent reads a run's answers: they go into JUnit, artifacts and
	// reports, masked as every writer for people masks (a password the
	// flow types literally included).
	deps.AnswersForPeople = true
	// A flow's visual checks keep their baselines next to it: FLOW.yaml's
	// in FLOW.snapshots/.
	baselines := map[string]string{}
	for i, f := range files {
		baselines[flowSession(i)] = strings.TrimSuffix(f, filepath.Ext(f)) + ".snapshots"
	}
	update := o.UpdateSnapshots
	deps.Baselines = func(session string) (string, bool) { return baselines[session], update }
	tools := mcptools.NewCaller(deps)
	var rep *reporter
	if o.Report != "" || o.Trace != "" {
		for flagName, dir := range map[string]string{"--report": o.Report, "--trace": o.Trace} {
			if dir == "" {
				continue
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				fmt.Fprintf(stderr, "e2e-mcp run: %s: %v\n", flagName, err)
				return ExitUsage
			}
		}
		rep = &reporter{dir: o.Report, traceDir: o.Trace, deps: deps, stderr: stderr, names: reportNames(flows)}
		// A report keeps a screenshot after each action; a trace starts
		// with its flow's session.
		deps.Reports, deps.ReportShots = o.Report != "", o.Report != ""
		deps.TraceSessions = o.Trace != ""
	}
	// The flows' secrets (E2E_SECRET_n, and any variable named like a
	// secret) are masked by every writer: answers, reports, JUnit,
	// artifacts, the log.
	secrets := deps.Sessions.Secrets
	secrets.Add(envSecrets(os.Environ())...)

	rn := &runner{tools: tools, deps: deps, artifacts: o.Artifacts, rep: rep, secrets: secrets, heal: o.Heal}
	if o.Video != "" {
		// Every flow records from its first page; the runner keeps the
		// video or discards it when the flow ends.
		deps.Videos = &mcptools.VideoDefaults{EveryCall: true}
		rn.videos = &videoKeeper{dir: o.Video, all: o.VideoMode == VideoOn, names: reportNames(flows)}
	}
	start := time.Now()
	results := runAll(len(flows), o.Parallel, stdout, func(i int) flowResult {
		return rn.runFlow(ctx, files[i], flows[i], flowSession(i))
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
	if o.Heal != HealOff {
		fmt.Fprintf(stdout, "%d flow(s), %d passed, %d healed, %d failed, in %.1fs\n", len(results), len(results)-failed-healed, healed, failed, time.Since(start).Seconds())
	} else {
		fmt.Fprintf(stdout, "%d flow(s), %d passed, %d failed, in %.1fs\n", len(results), len(results)-failed, failed, time.Since(start).Seconds())
	}
	if o.JUnit != "" {
		if err := writeJUnit(o.JUnit, results, time.Since(start), secrets, o.HealOK); err != nil {
			fmt.Fprintf(stderr, "e2e-mcp run: %v\n", err)
			return ExitFailed
		}
	}
	if failed > 0 || (healed > 0 && !o.HealOK) {
		return ExitFailed
	}
	return ExitOK
}
