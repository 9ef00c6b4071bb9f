package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/launcher"
	"github.com/e2e-mcp/e2e-mcp/webdriver"
	"go.uber.org/zap"
)

// Browsers from a WebDriver grid (Options.Grids): each session asks a grid
// for a browser of its own over WebDriver, drives it over CDP as a remote
// browser (remote.go) bound to that one session, and deletes the WebDriver
// session when it ends (docs/architecture.md §10).

// gridTries and gridBackoff bound how a session waits for a grid that is
// full or down: three tries within about ten seconds.
const gridTries = 3

var gridBackoff = []time.Duration{time.Second, 3 * time.Second}

// gridExitWait bounds how long the server's exit waits for the grid
// sessions being made, to delete them.
var gridExitWait = 10 * time.Second

// gridFor takes a browser from a grid (the grids in turn), connects to it
// and counts the session on it. A grid that is full or down is tried again,
// within gridTries; the error carries what the grids said.
func (m *Manager) gridFor(ctx context.Context) (*remoteBrowser, error) {
	var errs []string
	for i := range gridTries {
		if i > 0 {
			t := time.NewTimer(gridBackoff[min(i-1, len(gridBackoff)-1)])
			select {
			case <-ctx.Done():
				t.Stop()
				return nil, m.gridError(append(errs, ctx.Err().Error()))
			case <-t.C:
			}
		}
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			return nil, ErrClosed
		}
		g := m.opts.Grids[m.gridNext%len(m.opts.Grids)]
		m.gridNext++
		m.mu.Unlock()
		rb, err := m.gridSession(ctx, g)
		if err == nil {
			m.mu.Lock()
			m.gridErr = ""
			m.mu.Unlock()
			return rb, nil
		}
		if errors.Is(err, ErrClosed) {
			return nil, err
		}
		errs = append(errs, err.Error())
		m.log.Warn("no browser from the WebDriver grid", zap.String("grid", g.String()), zap.Error(err), zap.Int("try", i+1))
		var we *webdriver.Error
		if errors.As(err, &we) && !we.Temporary() {
			break // the grid refuses what we ask: asking again will not help
		}
	}
	return nil, m.gridError(errs)
}

// gridError is the session's error after its tries: what the grids said,
// each answer once, with how many tries got it.
func (m *Manager) gridError(errs []string) error {
	var said []string
	count := map[string]int{}
	for _, e := range errs {
		if count[e]++; count[e] == 1 {
			said = append(said, e)
		}
	}
	for i, e := range said {
		if n := count[e]; n > 1 {
			said[i] = fmt.Sprintf("%s (%d tries)", e, n)
		}
	}
	msg := "no browser from the WebDriver grid: " + strings.Join(said, "; ")
	m.mu.Lock()
	m.gridErr = msg
	m.mu.Unlock()
	return &Error{Kind: KindBrowserLaunchFail, Message: msg,
		Hint: "check the --webdriver-url grid (running, with free slots, offering Chrome with CDP); the next call asks it again"}
}

// gridMade is what making a grid session came to.
type gridMade struct {
	rb  *remoteBrowser
	err error
}

// gridSession makes one WebDriver session on g and connects to its browser.
// A grid makes the session it is asked for whether or not we wait for its
// answer, and only its answer names the session to delete: so the making
// runs on its own, not on ctx, and ends in a session the manager holds or
// one it deleted. A caller that gives up leaves it to delete what it made;
// the manager's Close waits for it (gridExitWait).
func (m *Manager) gridSession(ctx context.Context, g *webdriver.Grid) (*remoteBrowser, error) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	if m.gridCtx == nil {
		m.gridCtx, m.gridStop = context.WithCancel(context.Background())
	}
	mctx := m.gridCtx
	m.gridMaking.Add(1)
	m.mu.Unlock()
	var mu sync.Mutex
	left := false
	made := make(chan gridMade, 1)
	go func() {
		defer m.gridMaking.Done()
		rb, err := m.makeGridSession(mctx, g)
		mu.Lock()
		defer mu.Unlock()
		if left && rb != nil {
			m.releaseGrid(rb) // its caller gave up
			return
		}
		made <- gridMade{rb, err}
	}()
	select {
	case r := <-made:
		return r.rb, r.err
	case <-ctx.Done():
		mu.Lock()
		defer mu.Unlock()
		select {
		case r := <-made:
			return r.rb, r.err
		default:
			left = true
			return nil, ctx.Err()
		}
	}
}

// makeGridSession asks g for a session, connects to its browser and counts
// it in m.grid; a session it cannot use, or made after the manager closed,
// is deleted.
func (m *Manager) makeGridSession(ctx context.Context, g *webdriver.Grid) (*remoteBrowser, error) {
	cctx, cancel := context.WithTimeout(ctx, m.opts.LaunchTimeout)
	s, err := g.NewSession(cctx, m.launchConfig().GridCaps(g))
	cancel()
	if err != nil {
		return nil, err
	}
	m.log.Info("WebDriver session started", zap.String("grid", g.String()), zap.String("session", s.ID))
	rb := &remoteBrowser{ep: launcher.GridEndpoint(s, g), wd: s, local: g.Loopback()}
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		m.deleteGrid(rb)
		return nil, ErrClosed
	}
	// rb is no one else's yet: connecting needs no lock, and others need
	// not wait for it.
	if err := m.connectLocked(rb, m.opts.ConnectTimeout); err != nil {
		m.deleteGrid(rb)
		return nil, err
	}
	pctx, pcancel := context.WithCancel(context.Background())
	rb.stopPing = pcancel
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		m.deleteGrid(rb)
		return nil, ErrClosed
	}
	if m.grid == nil {
		m.grid = map[*remoteBrowser]struct{}{}
	}
	m.grid[rb] = struct{}{}
	rb.tabs = 1
	m.mu.Unlock()
	go launcher.PingGrid(pctx, rb.wd, m.log)
	return rb, nil
}

// releaseGrid ends the session's use of a grid browser: it leaves the
// manager's list and its WebDriver session is deleted (the grid closes the
// browser and removes its profile).
func (m *Manager) releaseGrid(rb *remoteBrowser) {
	m.mu.Lock()
	_, mine := m.grid[rb]
	delete(m.grid, rb)
	m.mu.Unlock()
	if mine {
		m.deleteGrid(rb)
	}
}

// deleteGrid disconnects from a grid browser and deletes its session.
func (m *Manager) deleteGrid(rb *remoteBrowser) {
	if rb.stopPing != nil {
		rb.stopPing()
	}
	if rb.cancel != nil {
		rb.cancel()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := rb.wd.Delete(ctx); err != nil {
		m.log.Warn("delete WebDriver session", zap.String("grid", rb.wd.Grid().String()), zap.String("session", rb.wd.ID), zap.Error(err))
		return
	}
	m.log.Info("WebDriver session deleted", zap.String("grid", rb.wd.Grid().String()), zap.String("session", rb.wd.ID))
}

// closeGrid deletes the grid sessions still open, in parallel: the server
// is on its way out. Sessions being made are waited for first, up to
// gridExitWait, since they delete themselves once they see the manager
// closed; the requests still unanswered then are cancelled, and what a grid
// makes of them is left to its own session timeout.
func (m *Manager) closeGrid() {
	made := make(chan struct{})
	go func() {
		m.gridMaking.Wait()
		close(made)
	}()
	t := time.NewTimer(gridExitWait)
	defer t.Stop()
	select {
	case <-made:
	case <-t.C:
		m.log.Warn("WebDriver sessions still being made at exit; cancelled, the grid may keep them until its session timeout", zap.Duration("waited", gridExitWait))
	}
	m.mu.Lock()
	if m.gridStop != nil {
		m.gridStop()
	}
	rbs := make([]*remoteBrowser, 0, len(m.grid))
	for rb := range m.grid {
		rbs = append(rbs, rb)
	}
	m.grid = nil
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, rb := range rbs {
		wg.Go(func() { m.deleteGrid(rb) })
	}
	wg.Wait()
}

// gridState is the health of a manager with grids: running while some
// session has a grid browser, else the last failure to get one.
func (m *Manager) gridStateLocked() State {
	for rb := range m.grid {
		if rb.bctx != nil && rb.bctx.Err() == nil && !rb.lost {
			return State{Running: true}
		}
	}
	return State{Problem: m.gridErr}
}
