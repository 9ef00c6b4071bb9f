package runner

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// prepare sets up what the flow's session starts in, before its first
// step: every variable the flow reads set, its dev server started (or the
// run's shared one: devshare.go), its project's settings (project.go),
// its storage state loaded (a file's, or that its setup flows ended
// with). It returns false when one failed (noted on the result, as step
// 0).
func (r *replay) prepare() bool {
	f, file := r.t.flow, r.t.file
	// Every variable the flow reads is set, or nothing starts: a missing
	// secret is never typed as an empty text.
	if err := f.CheckEnv(os.LookupEnv); err != nil {
		return r.fail(0, "read the environment", mcptools.Answer{}, err)
	}
	r.projectFlow() // project.go: the project's baseURL
	f = r.t.flow
	switch {
	case f.Dev != nil && r.devs != nil:
		if !r.sharedDevServer() { // devshare.go
			return false
		}
	case f.Dev != nil:
		if ans, err := r.call("session_start", devArgs(file, f.Dev)); err != nil || ans.Err != nil {
			return r.fail(0, "start the dev server", ans, err)
		}
	}
	return r.startState(0)
}

// startState puts the session the replay's calls go to now (the flow's,
// or an actor's on its first step: actors.go) in the state the flow
// starts in: the project's emulation, then its setup flows' storage
// state, the flow's storageState, or the project's. An actor starts as
// the flow's own session does, as a context a Playwright test opens
// (browser.newContext) takes the project's and the test's options.
// It returns false when one failed (as step n: 0 for the flow's, the
// actor's first step for an actor's).
func (r *replay) startState(n int) bool {
	f, file := r.t.flow, r.t.file
	who := ""
	if r.actor != "" {
		who = " (actor " + r.actor + ")"
	}
	if !r.projectSettings(n, who) {
		return false
	}
	if len(r.t.needs) > 0 {
		// Its setup flows' state, before the first page, as a file's.
		states := make([]*mcptools.SavedState, len(r.t.needs))
		for i, s := range r.t.needs {
			states[i] = s.state
		}
		if err := r.deps.SetSessionStorageState(r.ctx, r.session(), states...); err != nil {
			return r.fail(n, "start in the storage state of its setup flows ("+strings.Join(r.t.needNames(), ", ")+")"+who, mcptools.Answer{}, err)
		}
	}
	if st := f.StorageState; st != "" {
		// Before the first page, as session_start's storageState does.
		if !filepath.IsAbs(st) {
			st = filepath.Join(filepath.Dir(file), st)
		}
		if ans, err := r.call("browser_set_storage_state", map[string]any{"filename": st}); err != nil || ans.Err != nil {
			return r.fail(n, "start in the storage state "+f.StorageState+who, ans, err)
		}
	}
	return true
}
