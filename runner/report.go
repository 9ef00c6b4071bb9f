package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/report"
)

// htmlReports write each flow's HTML report (run --report), named after
// the flow: its steps with a screenshot after each action, the failure,
// the logs, the video.
type htmlReports struct {
	dir  string
	deps *mcptools.Deps
	warn *warnings
}

// newHTMLReports makes the reports' directory.
func newHTMLReports(dir string, env *runEnv) (*htmlReports, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &htmlReports{dir: dir, deps: env.deps, warn: env.warn}, nil
}

// flowDone renders the report of the flow's session and notes its path
// (none when it could not be written, which it says on stderr).
func (h *htmlReports) flowDone(ctx context.Context, t test, res *flowResult) {
	info := mcptools.ReportInfo{Title: "Flow " + res.name, Status: "passed",
		Meta: []report.KV{{Key: "flow file", Value: res.file}}}
	if res.failed {
		info.Status, info.Summary = "failed", fmt.Sprintf("flow step %d, %s: %s", res.failedStep, res.step, res.headline)
	}
	if res.healed() {
		info.Summary = "HEALED: " + stepsHealed(len(res.heals))
	}
	if res.flaky() {
		info.Status, info.Summary = "flaky", fmt.Sprintf("passed on retry %d", len(res.earlier))
	}
	if res.why != "" {
		info.Notes = append(info.Notes, "Why it was flaky: "+res.why)
	}
	if res.diagnosis != "" {
		info.Notes = append(info.Notes, "Diagnosis: "+res.diagnosis)
	}
	for i, e := range res.earlier {
		v := fmt.Sprintf("failed at step %d, %s: %s", e.failedStep, e.step, e.headline)
		if e.report != "" {
			v += "; its report: " + relativeTo(h.dir, e.report)
		}
		info.Meta = append(info.Meta, report.KV{Key: fmt.Sprintf("attempt %d", i+1), Value: v})
	}
	for _, hl := range res.heals {
		info.Meta = append(info.Meta, report.KV{Key: fmt.Sprintf("HEALED step %d", hl.step),
			Value: fmt.Sprintf("%s: %s -> %s (%s)", hl.action, hl.from, hl.to, hl.why)})
	}
	if res.healedFile != "" {
		info.Meta = append(info.Meta, report.KV{Key: "repaired flow", Value: res.healedFile})
	}
	for _, n := range res.healNotes {
		info.Meta = append(info.Meta, report.KV{Key: "not repaired", Value: n})
	}
	if res.video != "" {
		info.Video = &report.Video{Src: relativeTo(h.dir, res.video), Caption: res.videoNote}
	}
	// Each actor's steps are in its own session's report, beside the
	// flow's (actors.go).
	for _, a := range actorsActed(t, res) {
		ai := info
		ai.Title = "Flow " + res.name + ", actor " + a
		ai.Meta = append([]report.KV{{Key: "actor", Value: a + " (its own browser context; the flow's other steps: " + t.stem + ".html)"}}, info.Meta...)
		b, err := h.deps.SessionReport(ctx, actorSession(t, a), ai)
		if err == nil {
			err = mcptools.WriteUserFile(h.dir, actorStem(t, a)+".html", b)
		}
		if err != nil {
			h.warn.notWritten("report of actor "+a, *res, err)
			continue
		}
		p := filepath.Join(h.dir, actorStem(t, a)+".html")
		res.actorFile(a, func(f *actorFiles) { f.report = p })
		info.Meta = append(info.Meta, report.KV{Key: "actor " + a, Value: "its steps: " + actorStem(t, a) + ".html"})
	}
	b, err := h.deps.SessionReport(ctx, t.session, info)
	if err != nil {
		res.report = h.warn.notWritten("report", *res, err)
		return
	}
	if err := mcptools.WriteUserFile(h.dir, t.stem+".html", b); err != nil {
		res.report = h.warn.notWritten("report", *res, err)
		return
	}
	res.report = filepath.Join(h.dir, t.stem+".html")
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
