package runner

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sync"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/report"
)

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
