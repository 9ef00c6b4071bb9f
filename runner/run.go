package runner

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// Run replays the suite's flows, each in its own isolated session (the
// flows that share a dev: share one dev server, devshare.go), with the tools of deps (cmd's, made from the E2E_MCP_*
// settings), and reports like a test runner: each flow's PASS or FAIL on
// stdout as it ends, then a summary, JUnit, artifacts, reports. It returns
// the exit code: ExitOK when every flow passed (perhaps on a retry, then
// flaky: retry.go), ExitFailed when one failed (or was healed, without
// HealOK), ExitUsage when an output directory cannot be made.
func Run(ctx context.Context, o Options, s *Suite, deps *mcptools.Deps, stdout, stderr io.Writer) int {
	s.tellNotes(stderr)
	if len(s.tests) == 0 {
		return ExitOK // --last-failed, and none failed: said by tellNotes
	}
	env := &runEnv{deps: deps, secrets: deps.Sessions.Secrets, stdout: stdout, warn: &warnings{w: stderr}, flows: len(s.tests)}
	rn, err := newRunner(o, s, env)
	if err != nil {
		fmt.Fprintf(stderr, "e2e-mcp run: %v\n", err)
		return ExitUsage
	}
	defer rn.devs.stop(ctx) // the shared dev servers, whatever happened
	reps := reporters(o, env)
	start := time.Now()
	stop := newStopper(o.MaxFailures)
	warm := newWarmer(rn, o.Parallel)
	results := runAll(len(s.tests), o.Parallel, func(i int) flowResult {
		t := s.tests[i]
		warm.ahead(ctx, s.tests, i)                                           // warm.go
		r := flowResult{file: t.file, name: t.name, skipped: t.awaitSetups()} // setup.go
		if r.skipped == "" {
			r = stop.run(t, func() flowResult { return rn.runTest(ctx, t) })
		}
		if r.skipped != "" {
			warm.unused(ctx, t)
		}
		t.setup.finish(r)
		return r
	}, func(r flowResult) {
		for _, rp := range reps {
			rp.flowEnded(r)
		}
	})
	sum := summarize(results, time.Since(start))
	code := sum.exitCode(o.HealOK)
	for _, rp := range reps {
		if err := rp.runEnded(sum); err != nil {
			fmt.Fprintf(stderr, "e2e-mcp run: %v\n", err)
			code = ExitFailed
		}
	}
	return code
}

// runEnv is what the run's parts share: the tools' dependencies, the
// run's secrets, where they write.
type runEnv struct {
	deps    *mcptools.Deps
	secrets *redact.Set // the registry's: every writer masks with it
	stdout  io.Writer
	warn    *warnings // stderr
	flows   int       // how many the run replays (the line reporter's [3/10])
}

// newRunner sets the tools up for a run (deps' fields that are the run's)
// and makes the runner with the flow writers o asks for.
func newRunner(o Options, s *Suite, env *runEnv) (*runner, error) {
	deps := env.deps
	// No agent reads a run's answers: they go into JUnit, artifacts and
	// reports, masked as every writer for people masks (a password the
	// flow types literally included).
	deps.AnswersForPeople = true
	// A flow's visual checks keep their baselines next to it, in each
	// attempt's session (retry.go).
	baselines := map[string]string{}
	for _, t := range s.tests {
		for k := range o.Retries + 1 {
			baselines[t.attempt(k).session] = t.baselines()
		}
	}
	if o.TraceMode == TraceOnFirstRetry || o.VideoMode == VideoOnFirstRetry {
		deps.RecordSession = firstRetries(o, s)
	}
	update := o.UpdateSnapshots
	deps.Baselines = func(session string) (string, bool) { return baselines[session], update }
	tools := mcptools.NewCaller(deps)
	writers, err := flowWriters(o, env)
	if err != nil {
		return nil, err
	}
	if deps.Sessions != nil {
		// A replay is not recorded as a flow again; and unless a report
		// shows each step's answer, what a successful action's answer
		// would say of the page is read by nobody: the page is snapshot
		// when a step fails (its diagnosis), not after each that passes.
		deps.Sessions.Replay = true
		deps.Sessions.NoSnapshots = deps.Sessions.NoSnapshots || !deps.Reports
	}
	// The flows' secrets (E2E_SECRET_n, and any variable named like a
	// secret) are masked by every writer: answers, reports, JUnit,
	// artifacts, the log.
	env.secrets.Add(envSecrets(os.Environ())...)
	rn := &runner{tools: tools, deps: deps, secrets: env.secrets, artifacts: o.Artifacts, heal: o.Heal, timeout: o.Timeout, writers: writers, retries: o.Retries}
	if !o.DevServerPerFlow {
		rn.devs = newDevServers(tools, deps.ServeOnly)
	}
	return rn, nil
}
