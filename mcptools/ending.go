package mcptools

import (
	"context"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/devserver"
	"github.com/e2e-mcp/e2e-mcp/metrics"
	"go.uber.org/zap"
)

// A session ends by session_end, after --idle-timeout, when --max-sessions
// evicts it, when the MCP connection that made it goes away, or with the
// server (stdin's end, SIGTERM, SIGINT). Every one of these runs the same
// plan (Session.end) under one deadline:
//
//  1. the dev server's --shutdown starts first, beside the rest;
//  2. the artifacts the server keeps (--save-trace's trace, --save-video's
//     video) are built with what time is left, each step bounded: a tab
//     that does not answer (a page in an endless loop) gives no response
//     bodies, and what could not be gathered is said in the artifact, which
//     is written with what was;
//  3. the dev server's answer is waited for;
//  4. the browser context closes last, as long as the deadline allows; it
//     goes on closing after that, off the session.
//
// On the server's exit the deadline bounds the dev server's --shutdown too:
// the client kills the process soon after, and what --shutdown did not
// finish by then the guard (devserver.Watch) finishes once the process is
// gone. Other ends give --shutdown its own --shutdown-timeout: nothing
// kills the server then, and a --shutdown cut short would leave the dev
// server running until the server's exit.

// EndBudget is the deadline of a session's end. MCP clients end a stdio
// server by closing its stdin, then SIGTERM 2 s later and SIGKILL 2 s after
// that (the MCP SDKs' stdio transports): 3 s leaves the last second for
// the browser and the process to exit. `e2e-mcp run`, which no client
// kills, gives --shutdown-timeout instead (Registry.SetEndBudget).
const EndBudget = 3 * time.Second

// endShotWait bounds the wait at a session's end for the picture after its
// last step (settleShotWithin). The capture started when that step
// answered: a live page has given it by now or gives it within a few
// frames; a frozen page never does, and the end's budget is for the dev
// server's --shutdown and the trace (a client signals at 2 s).
const endShotWait = 150 * time.Millisecond

// end ends the session by the plan above, by until; exiting says the
// server exits (the deadline holds for the dev server too). The caller
// holds the session.
func (s *Session) end(ctx context.Context, log *zap.Logger, why string, until time.Time, exiting bool) {
	if !s.closed {
		metrics.SessionsEnded.WithLabelValues(strings.ReplaceAll(why, " ", "_")).Inc()
	}
	// The end's context: the caller's values, not its cancellation (a
	// session_end the client cancels still ends the session), by until.
	ctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), until)
	defer cancel()
	devDone := s.stopDev(ctx, log, why, exiting)
	// The picture being taken, before its tab closes: a live page's comes
	// within a few frames, a frozen page's never.
	s.settleShotWithin(min(endShotWait, time.Until(until)/4))
	s.endTrace(ctx, log)
	s.endVideo(ctx, log)
	s.saveProfile(ctx, log)
	<-devDone
	s.closeBy(until, log)
	s.console.close() // after the tabs: what they logged to the end is written
	s.closed = true
	// The session's scope is over: the server's log stops masking what
	// only it knew (its values would otherwise stay until the process
	// ends, and one session's could crowd another's).
	s.private.Close()
	s.secrets.Close()
}

// stopDev runs the dev server's --shutdown, if the session has one, and
// returns a channel closed when it has answered. On exiting it is bounded
// by ctx; otherwise by its own timeout. A server whose --shutdown failed
// stays with the guard, which tries again once this process is gone.
func (s *Session) stopDev(ctx context.Context, log *zap.Logger, why string, exiting bool) <-chan struct{} {
	done := make(chan struct{})
	dev := s.dev
	if dev == nil {
		close(done)
		return done
	}
	s.dev = nil
	dev.unwatch()
	if !exiting {
		ctx = context.WithoutCancel(ctx)
	}
	go func() {
		defer close(done)
		defer s.hasDev.Store(false)
		if _, err := dev.server.Do(ctx, devserver.Shutdown); err != nil {
			log.Warn("dev server shutdown failed", zap.String("session", s.ID), zap.String("why", why), zap.Error(err))
			return
		}
		dev.stopped()
		log.Info("dev server stopped", zap.String("session", s.ID), zap.String("why", why))
	}()
	return done
}

// closeBy closes the session's browser context (and a warm-up's), waiting
// for it until the deadline at most: a context that takes longer (a tab
// that does not answer) goes on closing off the session.
func (s *Session) closeBy(until time.Time, log *zap.Logger) {
	t, w, h := s.tabs, s.warm, s.profileHold
	s.tabs, s.warm, s.profileHold, s.snapPage, s.lastSnap, s.lastURL, s.newTabs = nil, nil, nil, nil, "", "", 0
	if t == nil && w == nil {
		if h != nil {
			h.let()
		}
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if w != nil {
			w.drop()
		}
		if t != nil {
			t.Close()
		}
		if h != nil {
			// The profile goes with the context (its state was saved).
			h.let()
		}
	}()
	wait := time.NewTimer(max(time.Until(until), 0))
	defer wait.Stop()
	select {
	case <-done:
	case <-wait.C:
		log.Info("the session's browser context is still closing; it goes on after the session's end", zap.String("session", s.ID))
	}
}

// within runs fn and waits for it until ctx ends; fn goes on after that
// on its own, so it must touch nothing of the session. It says whether fn
// returned in time.
func within(ctx context.Context, fn func()) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
		return true
	case <-ctx.Done():
		return false
	}
}
