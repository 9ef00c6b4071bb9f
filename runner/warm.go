package runner

import (
	"context"
	"runtime"
	"sync"
)

// Opening a browser context and its first tab costs a flow about as much
// as its steps on a small app (a renderer to start, the engine to
// install). A flow's session begins opening them when the flow before it
// in the run starts, so that the wait overlaps that flow's steps, or its
// shared dev server's start for the first ones: at most one context is
// open ahead of the flows running. A flow that then never runs (skipped
// by --max-failures or a failed setup flow) has its session ended, which
// closes them.
//
// That needs a CPU the running flows leave free (with --parallel as high as
// the machine has CPUs, the opening only takes from theirs) and costs a
// renderer's memory: it is done only when --parallel is below the CPUs.

// warmer opens flows' sessions ahead of them.
type warmer struct {
	rn     *runner
	on     bool     // --parallel leaves a CPU free
	warmed sync.Map // session -> true: opened ahead
}

func newWarmer(rn *runner, parallel int) *warmer {
	return &warmer{rn: rn, on: parallel < runtime.NumCPU()}
}

// ahead begins opening the sessions of tests[i] and the test after it.
func (w *warmer) ahead(ctx context.Context, tests []test, i int) {
	if !w.on {
		return
	}
	for _, t := range tests[i:min(i+2, len(tests))] {
		if err := w.rn.deps.WarmSession(ctx, t.session); err == nil {
			w.warmed.Store(t.session, true)
		}
	}
}

// unused ends t's session when it was opened ahead and the test did not
// run in it.
func (w *warmer) unused(ctx context.Context, t test) {
	if _, ok := w.warmed.LoadAndDelete(t.session); ok {
		_, _ = w.rn.tools.Call(context.WithoutCancel(ctx), t.session, "session_end", map[string]any{})
	}
}
