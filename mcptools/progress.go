package mcptools

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A call whose client asked for progress (a progressToken in its _meta)
// is told how it goes: every second while it runs (a client that resets
// its request timeout on progress waits as long as the call does: a
// navigation to a slow page, a wait, a dev server starting), what it is
// doing when that changes (session_start: starting the dev server), and a
// batch's steps as they start, with the count. Values only grow, as the
// specification wants: seconds, or for a batch the steps done and a part
// of the next.

// progressEvery is how often a running call reports.
const progressEvery = time.Second

// callProgress reports one call's progress.
type callProgress struct {
	send func(progress float64, total int, msg string)

	mu    sync.Mutex
	tool  string
	start time.Time
	last  float64
	what  string
	done  int // a batch's steps done
	total int // and its steps, 0 for a call of no steps
	ticks int // reports since the last step
	stop  chan struct{}
}

// startProgress starts reporting a call's progress, or returns nil when its
// client asked for none (or the call came from no client: e2e-mcp run).
// Its messages go through mask (the session's secrets: a dev command line
// may name one).
func startProgress(ctx context.Context, req mcp.CallToolRequest, tool string, mask func(string) string) *callProgress {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return nil
	}
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return nil
	}
	token := req.Params.Meta.ProgressToken
	p := &callProgress{tool: tool, start: time.Now(), stop: make(chan struct{}),
		send: func(progress float64, total int, msg string) {
			params := map[string]any{"progressToken": token, "progress": progress, "message": mask(msg)}
			if total > 0 {
				params["total"] = total
			}
			_ = srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), params)
		}}
	go func() {
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				p.report(false)
			}
		}
	}()
	return p
}

// note says what the call is doing now.
func (p *callProgress) note(what string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.what = what
	p.mu.Unlock()
	p.report(false)
}

// step says a batch's step i (from 0) of total starts.
func (p *callProgress) step(i, total int, what string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.done, p.total, p.what, p.ticks = i, total, what, 0
	p.mu.Unlock()
	p.report(true)
}

// report sends the progress now (at a step's start, the step count
// itself).
func (p *callProgress) report(atStep bool) {
	p.mu.Lock()
	elapsed := time.Since(p.start)
	var v float64
	if p.total > 0 {
		if !atStep {
			p.ticks++
		}
		v = float64(p.done) + 1 - 1/float64(1+p.ticks) // below the next step's count
	} else {
		v = elapsed.Seconds()
	}
	if v <= p.last {
		v = p.last + 1e-6
	}
	p.last = v
	msg := p.tool
	if p.what != "" {
		msg += ": " + p.what
	}
	if p.total > 0 {
		msg = fmt.Sprintf("%s (step %d of %d)", msg, p.done+1, p.total)
	}
	msg += fmt.Sprintf(", %s", elapsed.Round(time.Second))
	total := p.total
	p.mu.Unlock()
	p.send(v, total, msg)
}

// end stops the reports.
func (p *callProgress) end() {
	if p != nil {
		close(p.stop)
	}
}
