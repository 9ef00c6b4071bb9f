package browser

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/launcher"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/e2e-mcp/e2e-mcp/webdriver"
	"go.uber.org/zap"
)

// remoteBrowser is one endpoint and our connection to it. Its fields are
// guarded by Manager.mu.
type remoteBrowser struct {
	ep     launcher.Endpoint
	bctx   context.Context // nil until connected
	cancel context.CancelFunc
	tabs   int  // browser contexts (sessions) open on it
	lost   bool // a call saw the connection drop before its context ended
	// failures counts failed connections in a row; nextTry is when the
	// next may be tried, lastErr why the last failed.
	failures int
	nextTry  time.Time
	lastErr  error
	// wd is the WebDriver session the browser belongs to (grid.go): then
	// it serves one session and goes with it; stopPing ends its pings.
	wd       *webdriver.Session
	stopPing context.CancelFunc
	// local: the grid runs on this machine (a chromedriver of ours), so
	// its browser writes files where we can read them.
	local bool
	// shared: a session uses the browser's default context
	// (Options.SharedRemote).
	shared bool
}

// remoteFor picks the endpoint with the fewest sessions among those not
// waiting out a failure, connecting to it if needed, and counts the new
// session on it. Every remote browser a session gets comes through here.
// The wait after a failure only steers sessions to the other endpoints:
// when none is left, those waiting are tried anyway, each once, fewest
// failures first, so that a browser that came back (restarted, its
// container up again) serves the very next call rather than one a backoff
// later. It is called with m.mu held.
func (m *Manager) remoteFor() (*remoteBrowser, error) {
	if m.closed {
		return nil, ErrClosed
	}
	var errs []string
	tried := map[*remoteBrowser]bool{}
	waiting := func(rb *remoteBrowser) bool {
		return rb.failures > 0 && time.Now().Before(rb.nextTry) && (rb.bctx == nil || rb.bctx.Err() != nil)
	}
	for {
		var best *remoteBrowser
		for _, rb := range m.remotes {
			if tried[rb] || waiting(rb) {
				continue
			}
			if best == nil || rb.tabs < best.tabs {
				best = rb
			}
		}
		if best == nil {
			for _, rb := range m.remotes {
				if !tried[rb] && (best == nil || rb.failures < best.failures) {
					best = rb
				}
			}
		}
		if best == nil {
			return nil, &Error{Kind: KindBrowserLaunchFail, Message: "no remote browser can be reached: " + strings.Join(errs, "; "),
				Hint: "check the --cdp-endpoint browsers (running, reachable, the --cdp-header they need); the next call tries them again"}
		}
		tried[best] = true
		// An endpoint still in its backoff is tried at once (a browser that
		// came back is used by the next call), but briefly: one that does
		// not answer at all must not hold every session (this runs under
		// the manager's lock) for a whole launch timeout on each call.
		timeout := m.opts.ConnectTimeout
		if waiting(best) {
			timeout = min(timeout, retryTimeout)
		}
		if err := m.connectLocked(best, timeout); err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", best.ep, err))
			continue
		}
		best.tabs++
		return best, nil
	}
}

// retryTimeout bounds the connection to an endpoint retried during its
// backoff: a browser that came back answers in milliseconds.
const retryTimeout = 2 * time.Second

// connectLocked connects to an endpoint unless connected, within timeout.
// A connection that dropped counts as the browser's crash (sessions on it
// are told once).
func (m *Manager) connectLocked(rb *remoteBrowser, timeout time.Duration) error {
	if rb.bctx != nil && rb.bctx.Err() == nil && !rb.lost {
		return nil
	}
	if rb.bctx != nil {
		m.log.Warn("remote browser connection lost; reconnecting", zap.Stringer("endpoint", rb.ep))
		rb.cancel()
		rb.bctx, rb.tabs = nil, 0
	}
	bctx, cancel, err := m.launchConfig().Connect(rb.ep, timeout)
	if err != nil {
		return m.connectFailed(rb, err)
	}
	rb.bctx, rb.cancel, rb.failures, rb.lastErr, rb.lost = bctx, cancel, 0, nil, false
	go launcher.Watch(bctx, m.log, func(why string) { m.hungRemote(bctx, rb, why) })
	m.log.Info("connected to remote browser", zap.Stringer("endpoint", rb.ep))
	return nil
}

// connectFailed notes a failed connection to rb: the next waits a while
// (doubling, up to launcher.MaxBackoff) unless no other endpoint can take the
// session (remoteFor).
func (m *Manager) connectFailed(rb *remoteBrowser, err error) error {
	// chromedp's errors quote the URL they dialled, query and all.
	err = redact.Err(err)
	rb.failures++
	rb.lastErr = err
	rb.nextTry = time.Now().Add(min(time.Second<<min(rb.failures-1, 5), launcher.MaxBackoff))
	m.log.Warn("remote browser unreachable", zap.Stringer("endpoint", rb.ep), zap.Error(err), zap.Int("failures", rb.failures))
	return err
}

// releaseRemote uncounts a session on an endpoint; a grid's browser goes
// with its session.
func (m *Manager) releaseRemote(rb *remoteBrowser) {
	if rb.wd != nil {
		m.releaseGrid(rb)
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if rb.tabs > 0 {
		rb.tabs--
	}
}

// disconnectLocked drops every remote connection; the remote browsers and
// what others made in them stay.
func (m *Manager) disconnectLocked() {
	for _, rb := range m.remotes {
		if rb.cancel != nil {
			rb.cancel()
		}
		rb.bctx, rb.cancel, rb.tabs = nil, nil, 0
	}
}

// markLost records that a call saw the connection to rb drop, so that the
// next session reconnects (or goes elsewhere) without waiting for chromedp
// to notice.
func (m *Manager) markLost(rb *remoteBrowser) {
	m.mu.Lock()
	defer m.mu.Unlock()
	rb.lost = true
}

// hungRemote drops the connection to a remote browser that stopped
// answering, if it is still the current one: its sessions are told, and
// the next session connects again (or goes to another endpoint).
func (m *Manager) hungRemote(bctx context.Context, rb *remoteBrowser, why string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if rb.bctx != bctx {
		return
	}
	m.log.Error("remote browser hung; dropping the connection", zap.Stringer("endpoint", rb.ep), zap.String("why", why))
	m.markDeathLocked(bctx, why)
	rb.lost = true
	rb.cancel()
}
