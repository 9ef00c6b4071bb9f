package browser

import (
	"context"
	"errors"

	"github.com/e2e-mcp/e2e-mcp/browser/launcher"
	"go.uber.org/zap"
)

// The seam to browser/launcher, which gets the browser (finds, launches,
// connects to one, asks a grid; its Pool holds the browsers elsewhere and
// which one a new session gets) and knows nothing of tabs or pages: the
// launcher's settings made of the manager's options, a closed pool made
// this package's ErrClosed (its refusals come back as they are: AsError
// reads them), and what a browser's death means for the sessions on it.

// launchConfig is how the manager's browsers are launched or asked of a
// grid.
func (m *Manager) launchConfig() launcher.Config {
	c := launcher.Config{
		ExecPath:           m.opts.ExecPath,
		Headed:             m.opts.Headed,
		NoSandbox:          m.opts.NoSandbox,
		IgnoreHTTPSErrors:  m.opts.IgnoreHTTPSErrors,
		JavaScriptDisabled: m.opts.JavaScriptDisabled,
		ProfileRoot:        m.opts.ProfileRoot,
		LaunchTimeout:      m.opts.LaunchTimeout,
		// Connections go through each context's policy proxy (policy.go).
		ProxiedUDPOnly: m.policy().Intercepts(),
		Logger:         m.log,
	}
	if m.log != nil {
		c.Debugf = launcher.CDPDebugf(m.log)
	}
	if v := m.opts.Viewport; v.Width > 0 {
		c.WindowWidth, c.WindowHeight = v.Width+windowInsets.Width, v.Height+windowInsets.Height
	}
	return c
}

// newPool is the pool of the manager's browsers elsewhere, nil when it
// launches its own: a browser that stops answering is marked dead for the
// sessions on it before its connection drops.
func (m *Manager) newPool() *launcher.Pool {
	return launcher.NewPool(m.launchConfig(), m.opts.Endpoints, m.opts.Grids, m.opts.ConnectTimeout, func(bctx context.Context, why string) {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.markDeathLocked(bctx, why)
	})
}

// poolClosed is err, or [ErrClosed] for the launcher's: a pool used after
// it was closed.
func poolClosed(err error) error {
	if errors.Is(err, launcher.ErrClosed) {
		return ErrClosed
	}
	return err
}

// launch starts Chrome if it is not running, and watches a new one. It is
// called with m.mu held.
func (m *Manager) launch() (context.Context, error) {
	if m.closed {
		return nil, ErrClosed
	}
	bctx, launched, err := m.local.Browser()
	if err != nil {
		return nil, err
	}
	if launched {
		go launcher.Watch(bctx, m.log, func(why string) { m.hungLocal(bctx, why) })
	}
	return bctx, nil
}

// hungLocal ends a launched browser that stopped answering, if it is still
// the current one, and tells its sessions why.
func (m *Manager) hungLocal(bctx context.Context, why string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.local.Current() != bctx {
		return
	}
	m.log.Error("browser hung; stopping it", zap.String("why", why))
	m.markDeathLocked(bctx, why)
	m.local.Shutdown()
}

// markDeathLocked records why the browser behind bctx went away, for the
// sessions that had tabs on it. m.mu is held.
func (m *Manager) markDeathLocked(bctx context.Context, why string) {
	for p := range m.pages {
		if t := p.tabs; t != nil && t.bctx == bctx {
			t.mu.Lock()
			t.deathWhy = why
			t.mu.Unlock()
		}
	}
}
