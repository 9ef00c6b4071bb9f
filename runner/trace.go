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
	dir  string
	deps *mcptools.Deps
	warn *warnings
}

// newTraces makes the traces' directory.
func newTraces(dir string, env *runEnv) (*traces, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &traces{dir: dir, deps: env.deps, warn: env.warn}, nil
}

// flowDone writes the trace of the flow's session and notes its path (none
// when it could not be written, which it says on stderr).
func (tr *traces) flowDone(ctx context.Context, t test, res *flowResult) {
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
}
