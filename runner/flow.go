package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// runner replays flows with the tools.
type runner struct {
	tools     *mcptools.Caller
	deps      *mcptools.Deps
	artifacts string       // --artifacts, or ""
	rep       *reporter    // --report or --trace, or nil
	videos    *videoKeeper // --video, or nil
	secrets   *redact.Set
	heal      HealMode // --heal
}

// runFlow replays one flow in its own session, then ends the session (and
// its dev server).
//
// What it says of a failure (the summary line, JUnit, artifacts) is
// masked with secrets, as the answers it reads already are.
func (rn *runner) runFlow(ctx context.Context, file string, f *flow.Flow, session string) (res flowResult) {
	artifacts, rep, secrets := rn.artifacts, rn.rep, rn.secrets
	res = flowResult{file: file, name: f.Name}
	start := time.Now()
	call := func(tool string, args map[string]any) (mcptools.Answer, error) {
		return rn.tools.Call(ctx, session, tool, args)
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
	fail := func(n int, what string, r mcptools.Answer, err error, diag ...*mcptools.TargetDiagnosis) flowResult {
		res.failed, res.failedStep, res.step = true, n, secrets.String(what)
		if err != nil {
			res.errType, res.headline, res.message = "error", secrets.String(err.Error()), secrets.String(err.Error())
			return res
		}
		e := mcptools.AnswerError{Type: "unknown"}
		if r.Err != nil {
			e = *r.Err
		}
		text := r.Text
		if len(diag) > 0 && diag[0] != nil {
			res.diagnosis = secrets.String(diag[0].Text)
			text += "\n### Diagnosis (the page changed under the flow?)\n" + diag[0].Text + "\n"
		}
		if n > 0 {
			text += rn.earlierErrors(ctx, session, text)
		}
		res.errType, res.headline, res.message = e.Type, secrets.String(e.Line()), secrets.String(text)
		if artifacts != "" {
			res.artifacts = saveArtifacts(artifacts, f.Name, n, r.Images, res.message)
		}
		return res
	}
	// Every variable the flow reads is set, or nothing starts: a missing
	// secret is never typed as an empty text.
	if err := f.CheckEnv(os.LookupEnv); err != nil {
		return fail(0, "read the environment", mcptools.Answer{}, err)
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
		if r, err := call("session_start", a); err != nil || r.Err != nil {
			return fail(0, "start the dev server", r, err)
		}
	}
	if st := f.StorageState; st != "" {
		// Before the first page, as session_start's storageState does.
		if !filepath.IsAbs(st) {
			st = filepath.Join(filepath.Dir(file), st)
		}
		if r, err := call("browser_set_storage_state", map[string]any{"filename": st}); err != nil || r.Err != nil {
			return fail(0, "start in the storage state "+f.StorageState, r, err)
		}
	}
	for i, st := range steps {
		tool, args, err := st.Tool(os.LookupEnv)
		if err != nil {
			return fail(i+1, st.Action, mcptools.Answer{}, err)
		}
		if u, ok := args["url"].(string); ok && f.Dev == nil && f.BaseURL != "" && strings.HasPrefix(u, "/") {
			args["url"] = strings.TrimRight(f.BaseURL, "/") + u
		}
		what := describeStep(st)
		r, err := call(tool, args)
		if err != nil {
			return fail(i+1, what, r, err)
		}
		if r.Err == nil {
			continue
		}
		target, _ := args["target"].(string)
		if target == "" || !drifted(r.Err.Type) {
			return fail(i+1, what, r, nil)
		}
		d := rn.diagnose(ctx, session, st, target)
		if d == nil || rn.heal == HealOff || !d.Verdict.Heal {
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
