package launcher

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
	"github.com/e2e-mcp/e2e-mcp/webdriver"
	"go.uber.org/zap"
)

// Browsers from a WebDriver grid (a Pool made with grids): each session asks a grid
// for a browser of its own over WebDriver, drives it over CDP as a remote
// browser (pool.go) bound to that one session, and deletes the WebDriver
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
func (p *Pool) gridFor(ctx context.Context) (*Remote, error) {
	var errs []string
	for i := range gridTries {
		if i > 0 {
			t := time.NewTimer(gridBackoff[min(i-1, len(gridBackoff)-1)])
			select {
			case <-ctx.Done():
				t.Stop()
				return nil, p.gridError(append(errs, ctx.Err().Error()))
			case <-t.C:
			}
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, ErrClosed
		}
		g := p.grids[p.gridNext%len(p.grids)]
		p.gridNext++
		p.mu.Unlock()
		rb, err := p.gridSession(ctx, g)
		if err == nil {
			p.mu.Lock()
			p.gridErr = ""
			p.mu.Unlock()
			return rb, nil
		}
		if errors.Is(err, ErrClosed) {
			return nil, err
		}
		errs = append(errs, err.Error())
		p.log.Warn("no browser from the WebDriver grid", zap.String("grid", g.String()), zap.Error(err), zap.Int("try", i+1))
		var we *webdriver.Error
		if errors.As(err, &we) && !we.Temporary() {
			break // the grid refuses what we ask: asking again will not help
		}
	}
	return nil, p.gridError(errs)
}

// gridError is the session's error after its tries: what the grids said,
// each answer once, with how many tries got it.
func (p *Pool) gridError(errs []string) error {
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
	p.mu.Lock()
	p.gridErr = msg
	p.mu.Unlock()
	return &refusal.Error{Kind: refusal.BrowserLaunchFail, Message: msg,
		Hint: "check the --webdriver-url grid (running, with free slots, offering Chrome with CDP); the next call asks it again"}
}

// gridMade is what making a grid session came to.
type gridMade struct {
	rb  *Remote
	err error
}

// gridSession makes one WebDriver session on g and connects to its browser.
// A grid makes the session it is asked for whether or not we wait for its
// answer, and only its answer names the session to delete: so the making
// runs on its own, not on ctx, and ends in a session the pool holds or
// one it deleted. A caller that gives up leaves it to delete what it made;
// the pool's Close waits for it (gridExitWait).
func (p *Pool) gridSession(ctx context.Context, g *webdriver.Grid) (*Remote, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	if p.gridCtx == nil {
		p.gridCtx, p.gridStop = context.WithCancel(context.Background())
	}
	mctx := p.gridCtx
	p.gridMaking.Add(1)
	p.mu.Unlock()
	var mu sync.Mutex
	left := false
	made := make(chan gridMade, 1)
	go func() {
		defer p.gridMaking.Done()
		rb, err := p.makeGridSession(mctx, g)
		mu.Lock()
		defer mu.Unlock()
		if left && rb != nil {
			p.releaseGrid(rb) // its caller gave up
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
// it in p.grid; a session it cannot use, or made after the pool stopped,
// is deleted.
func (p *Pool) makeGridSession(ctx context.Context, g *webdriver.Grid) (*Remote, error) {
	cctx, cancel := context.WithTimeout(ctx, p.cfg.LaunchTimeout)
	s, err := g.NewSession(cctx, p.cfg.GridCaps(g))
	cancel()
	if err != nil {
		return nil, err
	}
	p.log.Info("WebDriver session started", zap.String("grid", g.String()), zap.String("session", s.ID))
	rb := &Remote{ep: GridEndpoint(s, g), wd: s, local: g.Loopback()}
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		p.deleteGrid(rb)
		return nil, ErrClosed
	}
	// rb is no one else's yet: connecting needs no lock, and others need
	// not wait for it.
	if err := p.connectLocked(rb, p.connectTimeout); err != nil {
		p.deleteGrid(rb)
		return nil, err
	}
	pctx, pcancel := context.WithCancel(context.Background())
	rb.stopPing = pcancel
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		p.deleteGrid(rb)
		return nil, ErrClosed
	}
	if p.grid == nil {
		p.grid = map[*Remote]struct{}{}
	}
	p.grid[rb] = struct{}{}
	rb.tabs = 1
	p.mu.Unlock()
	go PingGrid(pctx, rb.wd, p.log)
	return rb, nil
}

// releaseGrid ends the session's use of a grid browser: it leaves the
// pool's list and its WebDriver session is deleted (the grid closes the
// browser and removes its profile).
func (p *Pool) releaseGrid(rb *Remote) {
	p.mu.Lock()
	_, mine := p.grid[rb]
	delete(p.grid, rb)
	p.mu.Unlock()
	if mine {
		p.deleteGrid(rb)
	}
}

// deleteGrid disconnects from a grid browser and deletes its session.
func (p *Pool) deleteGrid(rb *Remote) {
	if rb.stopPing != nil {
		rb.stopPing()
	}
	if rb.cancel != nil {
		rb.cancel()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := rb.wd.Delete(ctx); err != nil {
		p.log.Warn("delete WebDriver session", zap.String("grid", rb.wd.Grid().String()), zap.String("session", rb.wd.ID), zap.Error(err))
		return
	}
	p.log.Info("WebDriver session deleted", zap.String("grid", rb.wd.Grid().String()), zap.String("session", rb.wd.ID))
}

// closeGrid deletes the grid sessions still open, in parallel: the server
// is on its way out. Sessions being made are waited for first, up to
// gridExitWait, since they delete themselves once they see the pool
// closed; the requests still unanswered then are cancelled, and what a grid
// makes of them is left to its own session timeout.
func (p *Pool) closeGrid() {
	made := make(chan struct{})
	go func() {
		p.gridMaking.Wait()
		close(made)
	}()
	t := time.NewTimer(gridExitWait)
	defer t.Stop()
	select {
	case <-made:
	case <-t.C:
		p.log.Warn("WebDriver sessions still being made at exit; cancelled, the grid may keep them until its session timeout", zap.Duration("waited", gridExitWait))
	}
	p.mu.Lock()
	if p.gridStop != nil {
		p.gridStop()
	}
	rbs := make([]*Remote, 0, len(p.grid))
	for rb := range p.grid {
		rbs = append(rbs, rb)
	}
	p.grid = nil
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, rb := range rbs {
		wg.Go(func() { p.deleteGrid(rb) })
	}
	wg.Wait()
}

// gridStateLocked is the health of a pool with grids: running while some
// session has a grid browser, else the last failure to get one.
func (p *Pool) gridStateLocked() (running bool, problem string) {
	for rb := range p.grid {
		if rb.bctx != nil && rb.bctx.Err() == nil && !rb.lost {
			return true, ""
		}
	}
	return false, p.gridErr
}
