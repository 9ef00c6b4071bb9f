package runner

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// runner replays flows with the tools.
type runner struct {
	tools     *mcptools.Caller
	deps      *mcptools.Deps
	secrets   *redact.Set
	artifacts string        // --artifacts, or ""
	heal      HealMode      // --heal
	timeout   time.Duration // --timeout, or 0
	writers   []flowWriter
	retries   int // --retries
	// devs are the run's shared dev servers (nil: one per flow,
	// --dev-server-per-flow; devshare.go).
	devs *devServers
}

// runFlow replays one attempt of a flow in its own session (prepare, then
// steps), has the flow writers write what it left (the repaired flow, the
// video, the report, the trace), then ends the session and its dev server.
// prior are the attempts that failed before it (retry.go); with --retries
// it returns what the attempt recorded for a comparison.
//
// What it says of a failure (the summary line, JUnit, artifacts) is
// masked with secrets, as the answers it reads already are.
func (rn *runner) runFlow(ctx context.Context, t test, prior priorAttempts) (flowResult, *attemptLog) {
	r := &replay{runner: rn, ctx: ctx, base: ctx, t: t, res: flowResult{file: t.file, name: t.name,
		steps: stepInfos(t.flow, rn.secrets)}}
	if rn.retries > 0 {
		r.log = &attemptLog{}
	}
	start := time.Now()
	if r.prepare() {
		r.steps()
		r.saveState() // a setup flow's, when it passed (setup.go)
	}
	r.attemptDone(prior)
	for _, w := range rn.writers {
		w.flowDone(ctx, t, &r.res)
	}
	r.endActors()
	_, _ = r.call("session_end", map[string]any{})
	r.res.took = time.Since(start)
	return r.res, r.log
}

// replay is one replay of a flow under way: the calls on its session, and
// what it found.
type replay struct {
	*runner
	// ctx is the calls' context: base, bounded by the flow's timeout
	// while its steps run (timeout.go).
	ctx, base context.Context
	t         test
	res       flowResult
	shared    *sharedDev  // the run's dev server it runs on, or nil (devshare.go)
	log       *attemptLog // what it records for a comparison (--retries), or nil
	// stepsStart is when the flow's first step started.
	stepsStart time.Time
	// actor is the actor of the step under way ("": the flow's own
	// session), actors those that acted, devURL the flow's dev server's
	// URL once an actor needed it (actors.go).
	actor  string
	actors map[string]bool
	devURL string
}

// call calls a tool on the flow's session (the step's actor's, during a
// step of another actor: actors.go).
func (r *replay) call(tool string, args map[string]any) (mcptools.Answer, error) {
	return r.tools.Call(r.ctx, r.session(), tool, args)
}

// fail notes that the flow failed at step n (1-based; 0 while its session
// was being prepared, before the first step), doing what, with the answer
// a, or the error err of a call that could not be made, and the diagnosis
// of the step's target when there is one; with --artifacts it saves the
// answer. It returns false: the replay stops there.
func (r *replay) fail(n int, what string, a mcptools.Answer, err error, diag ...*mcptools.TargetDiagnosis) bool {
	res, secrets := &r.res, r.secrets
	res.failed, res.failedStep, res.step = true, n, secrets.String(what)
	if err != nil {
		res.errType, res.headline, res.message = "error", secrets.String(err.Error()), secrets.String(err.Error())
		return false
	}
	e := mcptools.AnswerError{Type: "unknown"}
	if a.Err != nil {
		e = *a.Err
	}
	text := a.Text
	if len(diag) > 0 && diag[0] != nil {
		res.diagnosis = secrets.String(diag[0].Text)
		text += "\n### Diagnosis (the page changed under the flow?)\n" + diag[0].Text + "\n"
	}
	if n > 0 {
		text += r.earlierErrors(text)
	}
	text += r.sharedDevLog()
	res.errType, res.headline, res.message = e.Type, secrets.String(e.Line()), secrets.String(text)
	if r.artifacts != "" {
		name := r.t.name
		if r.t.retry > 0 {
			name = fmt.Sprintf("%s-retry%d", name, r.t.retry)
		}
		res.artifacts = saveArtifacts(r.artifacts, name, n, a.Images, res.message)
	}
	return false
}

// maxEarlierErrors bounds the console errors earlierErrors lists.
const maxEarlierErrors = 20

// earlierErrors is a section of the console errors and uncaught exceptions
// of the flow's session that a failing step's answer (text) does not show:
// it has those since the step before, and an exception a click threw two
// steps earlier is often the cause. The report shows them all.
func (r *replay) earlierErrors(answer string) string {
	msgs, err := r.deps.SessionConsoleErrors(r.base, r.t.session)
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
