package runner

import (
	"context"
	"os"
	"path/filepath"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// traces write each flow's trace (run --trace), named after the flow: a
// zip Playwright's Trace Viewer opens. Each flow's session traces from its
// first call (Deps.TraceSessions).
type traces struct {
	dir        string
	firstRetry bool // --trace-mode on-first-retry: only a first retry traces
	deps       *mcptools.Deps
	warn       *warnings
}

// newTraces makes the traces' directory.
func newTraces(o Options, env *runEnv) (*traces, error) {
	if err := os.MkdirAll(o.Trace, 0o755); err != nil {
		return nil, err
	}
	return &traces{dir: o.Trace, firstRetry: o.TraceMode == TraceOnFirstRetry, deps: env.deps, warn: env.warn}, nil
}

// flowDone writes the trace of the flow's session and notes its path (none
// when it could not be written, which it says on stderr).
func (tr *traces) flowDone(ctx context.Context, t test, res *flowResult) {
	if tr.firstRetry && t.retry != 1 {
		return // the session did not trace (Deps.RecordSession)
	}
	b, err := tr.deps.SessionTrace(ctx, t.session, "Flow "+res.name)
	if err != nil {
		res.trace = tr.warn.notWritten("trace", *res, err)
		return
	}
	if err := mcptools.WriteUserFile(tr.dir, t.stem+".zip", b); err != nil {
		res.trace = tr.warn.notWritten("trace", *res, err)
		return
	}
	res.trace = filepath.Join(tr.dir, t.stem+".zip")
	// Each actor's steps are in its own session's trace, beside the
	// flow's (actors.go).
	for _, a := range actorsActed(t, res) {
		b, err := tr.deps.SessionTrace(ctx, actorSession(t, a), "Flow "+res.name+", actor "+a)
		if err == nil {
			err = mcptools.WriteUserFile(tr.dir, actorStem(t, a)+".zip", b)
		}
		if err != nil {
			tr.warn.notWritten("trace of actor "+a, *res, err)
			continue
		}
		p := filepath.Join(tr.dir, actorStem(t, a)+".zip")
		res.actorFile(a, func(f *actorFiles) { f.trace = p })
	}
}
