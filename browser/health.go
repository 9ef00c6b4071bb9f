package browser

import (
	"fmt"

	"github.com/e2e-mcp/e2e-mcp/browser/launcher"
)

// State is what a health check may say of the browser without starting
// one: a check that anyone may call must not make the server launch Chrome.
type State struct {
	// Running: a browser runs (launched, or a remote one connected).
	Running bool `json:"running"`
	PID     int  `json:"pid,omitempty"`
	// Executable is the browser that would be launched, when none runs.
	Executable string `json:"executable,omitempty"`
	// Problem says why no browser can be had now: none found, or the last
	// launch failed (a remote one: the last connections failed).
	Problem string `json:"problem,omitempty"`
}

// State reports the browser's state. It starts nothing, connects to
// nothing, and takes no longer than looking up the executable.
func (m *Manager) State() State {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pool != nil {
		var st State
		st.Running, st.Problem = m.pool.State()
		return st
	}
	if bctx := m.local.Current(); bctx != nil && bctx.Err() == nil {
		return State{Running: true, PID: m.pidLocked()}
	}
	if failures, lastErr := m.local.Failures(); failures > 0 && lastErr != nil {
		// Until a launch succeeds, the last one's failure stands.
		return State{Problem: fmt.Sprintf("the browser failed to start (%d times in a row): %v", failures, lastErr)}
	}
	path, err := launcher.FindExecutable(m.opts.ExecPath)
	if err != nil {
		return State{Problem: err.Error()}
	}
	if m.opts.Headed {
		if err := launcher.HeadedWithoutDisplay(); err != nil {
			return State{Executable: path, Problem: err.Error()}
		}
	}
	return State{Executable: path}
}
