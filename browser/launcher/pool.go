package launcher

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/e2e-mcp/e2e-mcp/webdriver"
	"go.uber.org/zap"
)

// Pool is where sessions get their browsers when the server launches none:
// the browsers elsewhere given as endpoints (--cdp-endpoint), which
// sessions share, fewest sessions first, reconnecting to one that came
// back; or the WebDriver grids (gridpool.go), which make one browser per
// session. It counts the sessions on each browser, marks the connections
// lost or hung, and at exit deletes the grid sessions and drops the
// connections. Its lock is its own: it never calls out while holding it.
type Pool struct {
	cfg            Config
	log            *zap.Logger
	connectTimeout time.Duration
	grids          []*webdriver.Grid
	// onHung tells the owner that the browser behind bctx stopped
	// answering, before its connection is dropped.
	onHung func(bctx context.Context, why string)

	mu      sync.Mutex
	closed  bool
	remotes []*Remote // with endpoints: the browsers elsewhere
	// With grids: the sessions' browsers (gridpool.go), the next grid to
	// ask, and why the last session got none.
	grid     map[*Remote]struct{}
	gridNext int
	gridErr  string
	// gridMaking counts the grid sessions being made, on gridCtx, which
	// closeGrid cancels once it has waited for them.
	gridMaking sync.WaitGroup
	gridCtx    context.Context
	gridStop   context.CancelFunc
}

// ErrClosed is returned by a [Pool] asked for a browser after [Pool.Stop].
var ErrClosed = errors.New("launcher: closed")

// NewPool returns the pool of the browsers at endpoints, or of the grids'
// browsers when grids are given; nil when neither is. Connections are made
// with c within connectTimeout, grid sessions within c.LaunchTimeout.
// onHung is told of a browser that stopped answering (its bctx and why)
// before the pool drops the connection to it.
func NewPool(c Config, endpoints []Endpoint, grids []*webdriver.Grid, connectTimeout time.Duration, onHung func(bctx context.Context, why string)) *Pool {
	if len(endpoints) == 0 && len(grids) == 0 {
		return nil
	}
	p := &Pool{cfg: c, log: c.logger(), connectTimeout: connectTimeout, grids: grids, onHung: onHung}
	for _, ep := range endpoints {
		p.remotes = append(p.remotes, &Remote{ep: ep})
	}
	return p
}

// Remote is one browser of a [Pool] and our connection to it. Its fields
// are guarded by Pool.mu, but for ep, wd and local, which are set before
// anyone else sees it.
type Remote struct {
	ep     Endpoint
	bctx   context.Context // nil until connected
	cancel context.CancelFunc
	tabs   int  // browser contexts (sessions) open on it
	lost   bool // a call saw the connection drop before its context ended
	// failures counts failed connections in a row; nextTry is when the
	// next may be tried, lastErr why the last failed.
	failures int
	nextTry  time.Time
	lastErr  error
	// wd is the WebDriver session the browser belongs to (gridpool.go):
	// then it serves one session and goes with it; stopPing ends its pings.
	wd       *webdriver.Session
	stopPing context.CancelFunc
	// local: the grid runs on this machine (a chromedriver of ours), so
	// its browser writes files where we can read them.
	local bool
	// shared: a session uses the browser's default context
	// (TakeDefault).
	shared bool
}

// Where names the browser for messages: its grid and WebDriver session,
// or the endpoint's URL (credentials masked).
func (rb *Remote) Where() string {
	if wd := rb.wd; wd != nil {
		return wd.Grid().String() + " (WebDriver session " + wd.ID + ")"
	}
	return rb.ep.String()
}

// LocalGrid reports whether the browser is a grid's that runs on this
// machine (a chromedriver of ours): it writes files where we can read them.
func (rb *Remote) LocalGrid() bool { return rb.wd != nil && rb.local }

// Acquire gets a session a browser and counts the session on it: a grid's
// own (gridFor), or the endpoint with the fewest sessions (remoteFor). It
// returns the browser and its chromedp context; [Pool.Release] gives it
// back.
func (p *Pool) Acquire(ctx context.Context) (*Remote, context.Context, error) {
	if len(p.grids) > 0 {
		rb, err := p.gridFor(ctx)
		if err != nil {
			return nil, nil, err
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		return rb, rb.bctx, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	rb, err := p.remoteFor()
	if err != nil {
		return nil, nil, err
	}
	return rb, rb.bctx, nil
}

// Look gets a browser to look at, not for a session: an endpoint's is not
// counted; a grid's is made, and done deletes it.
func (p *Pool) Look(ctx context.Context) (bctx context.Context, done func(), err error) {
	if len(p.grids) > 0 {
		rb, bctx, err := p.Acquire(ctx)
		if err != nil {
			return nil, nil, err
		}
		return bctx, func() { p.Release(rb) }, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	rb, err := p.remoteFor()
	if err != nil {
		return nil, nil, err
	}
	rb.tabs-- // only looking
	return rb.bctx, func() {}, nil
}

// TakeDefault gives a session the browser's default context, unless
// another session has it; GiveDefault gives it back.
func (p *Pool) TakeDefault(rb *Remote) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if rb.shared {
		return false
	}
	rb.shared = true
	return true
}

// GiveDefault gives back the default context TakeDefault gave.
func (p *Pool) GiveDefault(rb *Remote) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rb.shared = false
}

// remoteFor picks the endpoint with the fewest sessions among those not
// waiting out a failure, connecting to it if needed, and counts the new
// session on it. Every remote browser a session gets comes through here.
// The wait after a failure only steers sessions to the other endpoints:
// when none is left, those waiting are tried anyway, each once, fewest
// failures first, so that a browser that came back (restarted, its
// container up again) serves the very next call rather than one a backoff
// later. It is called with p.mu held.
func (p *Pool) remoteFor() (*Remote, error) {
	if p.closed {
		return nil, ErrClosed
	}
	var errs []string
	tried := map[*Remote]bool{}
	waiting := func(rb *Remote) bool {
		return rb.failures > 0 && time.Now().Before(rb.nextTry) && (rb.bctx == nil || rb.bctx.Err() != nil)
	}
	for {
		var best *Remote
		for _, rb := range p.remotes {
			if tried[rb] || waiting(rb) {
				continue
			}
			if best == nil || rb.tabs < best.tabs {
				best = rb
			}
		}
		if best == nil {
			for _, rb := range p.remotes {
				if !tried[rb] && (best == nil || rb.failures < best.failures) {
					best = rb
				}
			}
		}
		if best == nil {
			return nil, &refusal.Error{Kind: refusal.BrowserLaunchFail, Message: "no remote browser can be reached: " + strings.Join(errs, "; "),
				Hint: "check the --cdp-endpoint browsers (running, reachable, the --cdp-header they need); the next call tries them again"}
		}
		tried[best] = true
		// An endpoint still in its backoff is tried at once (a browser that
		// came back is used by the next call), but briefly: one that does
		// not answer at all must not hold every session (this runs under
		// the pool's lock) for a whole launch timeout on each call.
		timeout := p.connectTimeout
		if waiting(best) {
			timeout = min(timeout, retryTimeout)
		}
		if err := p.connectLocked(best, timeout); err != nil {
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
func (p *Pool) connectLocked(rb *Remote, timeout time.Duration) error {
	if rb.bctx != nil && rb.bctx.Err() == nil && !rb.lost {
		return nil
	}
	if rb.bctx != nil {
		p.log.Warn("remote browser connection lost; reconnecting", zap.Stringer("endpoint", rb.ep))
		rb.cancel()
		rb.bctx, rb.tabs = nil, 0
	}
	bctx, cancel, err := p.cfg.Connect(rb.ep, timeout)
	if err != nil {
		return p.connectFailed(rb, err)
	}
	rb.bctx, rb.cancel, rb.failures, rb.lastErr, rb.lost = bctx, cancel, 0, nil, false
	go Watch(bctx, p.log, func(why string) { p.hungRemote(bctx, rb, why) })
	p.log.Info("connected to remote browser", zap.Stringer("endpoint", rb.ep))
	return nil
}

// connectFailed notes a failed connection to rb: the next waits a while
// (doubling, up to MaxBackoff) unless no other endpoint can take the
// session (remoteFor).
func (p *Pool) connectFailed(rb *Remote, err error) error {
	// chromedp's errors quote the URL they dialled, query and all.
	err = redact.Err(err)
	rb.failures++
	rb.lastErr = err
	rb.nextTry = time.Now().Add(min(time.Second<<min(rb.failures-1, 5), MaxBackoff))
	p.log.Warn("remote browser unreachable", zap.Stringer("endpoint", rb.ep), zap.Error(err), zap.Int("failures", rb.failures))
	return err
}

// Release uncounts a session on an endpoint; a grid's browser goes with
// its session.
func (p *Pool) Release(rb *Remote) {
	if rb.wd != nil {
		p.releaseGrid(rb)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if rb.tabs > 0 {
		rb.tabs--
	}
}

// disconnectLocked drops every remote connection; the remote browsers and
// what others made in them stay.
func (p *Pool) disconnectLocked() {
	for _, rb := range p.remotes {
		if rb.cancel != nil {
			rb.cancel()
		}
		rb.bctx, rb.cancel, rb.tabs = nil, nil, 0
	}
}

// MarkLost records that a call saw the connection to rb drop, so that the
// next session reconnects (or goes elsewhere) without waiting for chromedp
// to notice.
func (p *Pool) MarkLost(rb *Remote) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rb.lost = true
}

// hungRemote drops the connection to a remote browser that stopped
// answering, if it is still the current one: its sessions are told
// (onHung, before the connection drops, so that they learn why), and the
// next session connects again (or goes to another endpoint).
func (p *Pool) hungRemote(bctx context.Context, rb *Remote, why string) {
	p.mu.Lock()
	if rb.bctx != bctx {
		p.mu.Unlock()
		return
	}
	p.log.Error("remote browser hung; dropping the connection", zap.Stringer("endpoint", rb.ep), zap.String("why", why))
	p.mu.Unlock()
	if p.onHung != nil {
		p.onHung(bctx, why)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if rb.bctx != bctx {
		return
	}
	rb.lost = true
	rb.cancel()
}

// State is the pool's health: whether a browser of it is connected, else
// why none can be had now (the last failure to get one). It connects to
// nothing.
func (p *Pool) State() (running bool, problem string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.grids) > 0 {
		return p.gridStateLocked()
	}
	for _, rb := range p.remotes {
		if rb.bctx != nil && rb.bctx.Err() == nil && !rb.lost {
			running = true
		} else if rb.failures > 0 && time.Now().Before(rb.nextTry) && problem == "" {
			problem = "remote browser " + rb.ep.String() + " unreachable: " + rb.lastErr.Error()
		}
	}
	if running {
		problem = ""
	}
	return running, problem
}

// Stop refuses browsers from now on: the server is on its way out. A grid
// session being made is deleted once made.
func (p *Pool) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
}

// Close stops the pool, deletes the grid sessions still open (waiting for
// those being made first) and drops every remote connection; the remote
// browsers and what others made in them stay.
func (p *Pool) Close() {
	p.Stop()
	p.closeGrid()
	p.mu.Lock()
	p.disconnectLocked()
	p.mu.Unlock()
}
