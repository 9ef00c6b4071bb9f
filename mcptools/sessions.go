package mcptools

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/devserver"
	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/metrics"
	"github.com/mark3labs/mcp-go/server"
	"go.uber.org/zap"
)

// sessionIDRE is what a sessionId may look like.
var sessionIDRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$`)

// Session is what one agent works in: its browser context with a tab, its
// snapshot state, and (later) its dev server. Calls on one session are
// serialized; sessions run in parallel.
type Session struct {
	ID    string
	Owner string // the MCP connection that made it
	// Created is when the session was made.
	Created time.Time

	mu       sync.Mutex    // serializes tool calls on this session
	tabs     *browser.Tabs // the session's browser context, once opened
	warm     *warmTabs     // the browser context session_start began opening
	dev      *devState     // the session's dev server, if started
	snapPage *browser.Page // the tab lastSnap was taken of
	lastSnap string        // YAML of the last snapshot shown, for diffs
	lastURL  string
	newTabs  int           // tabs that popped up since the last response said so
	errors   []errorRecord // failed calls, oldest first (session_errors)
	hasDev   atomic.Bool   // a dev server runs (read without the lock, for metrics)
	// recorded are the successful actions and checks, as flow steps;
	// refNames the role and name of every ref handed out, for locators.
	recorded []flow.Step
	refNames map[string]browser.RefInfo
	pageRefs map[string]browser.RefInfo // the refs of the last whole-page snapshot
	devStart *SessionStartParams        // how the dev server was started, for flows
	secrets  int                        // passwords typed, recorded as ${E2E_SECRET_n}
	lastUsed time.Time
	closed   bool
}

// warmTabs is a browser context being opened ahead of the first browser
// tool; tabs and err are set when done closes.
type warmTabs struct {
	done   chan struct{}
	cancel context.CancelFunc
	tabs   *browser.Tabs
	err    error
}

// drop abandons the warm-up: what it opens is closed once it arrives.
func (w *warmTabs) drop() {
	w.cancel()
	go func() {
		<-w.done
		if w.tabs != nil {
			w.tabs.Close()
		}
	}()
}

// Registry maps session ids to sessions.
type Registry struct {
	// MaxSessions bounds the open sessions (0: no bound): a new one evicts
	// the least recently used idle session, or is refused with
	// capacity_exceeded when all are in a call.
	MaxSessions int
	// KeepOnDisconnect keeps the sessions a connection made when it goes
	// away (the CLI's daemon: each command is a connection of its own);
	// they end by session_end or idleness.
	KeepOnDisconnect bool
	// AllowSession, when set, applies a per-client rate limit to making
	// sessions.
	AllowSession func(ctx context.Context) (ok bool, retryAfter time.Duration)

	browser *browser.Manager
	log     *zap.Logger
	// shutdownTimeout bounds stopping all dev servers on the way out.
	shutdownTimeout time.Duration

	mu       sync.Mutex
	sessions map[string]*Session
}

// NewRegistry returns an empty registry whose sessions use b.
func NewRegistry(b *browser.Manager, log *zap.Logger) *Registry {
	return &Registry{browser: b, log: log.Named("sessions"), sessions: map[string]*Session{}, shutdownTimeout: 20 * time.Second}
}

// connectionID is the id of the MCP connection a call came on, or "".
func connectionID(ctx context.Context) string {
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		return cs.SessionID()
	}
	return ""
}

// acquire finds or creates the session a call names (its own default when
// sessionID is empty) and locks it for the call; release unlocks it.
func (r *Registry) acquire(ctx context.Context, sessionID string) (*Session, error) {
	conn := connectionID(ctx)
	if sessionID == "" {
		if conn == "" {
			return nil, &ToolError{Type: ErrSessionRequired, Message: "this request has no MCP session, so it has no default browser session",
				Suggestion: "pass a sessionId of your choosing; it is created on first use"}
		}
		sessionID = conn
	} else if !sessionIDRE.MatchString(sessionID) {
		return nil, invalidInput("sessionId", "%q: use 1-64 letters, digits, '.', '_', ':' or '-'", sessionID)
	}
	for {
		r.mu.Lock()
		s, ok := r.sessions[sessionID]
		var evicted *Session
		if !ok && r.AllowSession != nil {
			if allowed, retry := r.AllowSession(ctx); !allowed {
				r.mu.Unlock()
				return nil, rateLimited("new sessions", retry)
			}
		}
		if !ok {
			if r.MaxSessions > 0 && len(r.sessions) >= r.MaxSessions {
				if evicted = r.idlestLocked(); evicted == nil {
					r.mu.Unlock()
					return nil, &ToolError{Type: ErrCapacityExceeded,
						Message:    fmt.Sprintf("all %d sessions of this server are in a call, so none can make room for session %s", r.MaxSessions, sessionID),
						Suggestion: "retry in a few seconds, or reuse a session id you already have"}
				}
				delete(r.sessions, evicted.ID)
			}
			s = &Session{ID: sessionID, Owner: conn, Created: time.Now()}
			r.sessions[sessionID] = s
			metrics.SessionsCreated.Inc()
			r.log.Info("session created", zap.String("session", sessionID), zap.String("connection", conn))
		}
		r.mu.Unlock()
		if evicted != nil {
			// The least recently used idle session makes room; the caller
			// waits for its dev server's --shutdown.
			evicted.end(ctx, r.log, "evicted")
			evicted.mu.Unlock()
			r.log.Info("session ended", zap.String("session", evicted.ID), zap.String("why", "evicted"), zap.String("for", sessionID))
		}
		s.mu.Lock()
		if !s.closed {
			s.lastUsed = time.Now()
			return s, nil
		}
		// It was closed while we waited for it: take a fresh one.
		s.mu.Unlock()
	}
}

func (s *Session) release() { s.mu.Unlock() }

// idlestLocked returns the least recently used session that is not in a
// call, locked, or nil when every session is busy. r.mu is held.
func (r *Registry) idlestLocked() *Session {
	var best *Session
	for _, s := range r.sessions {
		if !s.mu.TryLock() {
			continue
		}
		if best == nil || s.lastUsed.Before(best.lastUsed) {
			if best != nil {
				best.mu.Unlock()
			}
			best = s
			continue
		}
		s.mu.Unlock()
	}
	return best
}

// Counts are the numbers of open sessions and of those with a dev server.
// Busy sessions count with what they had when last seen.
func (r *Registry) Counts() (sessions, devServers int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.sessions {
		sessions++
		if s.hasDev.Load() {
			devServers++
		}
	}
	return sessions, devServers
}

// Page returns the session's current tab, opening the browser context (and
// the browser) on first use or after the old one was lost. While a dialog
// blocks the tab it returns a dialog_open error: only the tools that answer
// or work around dialogs use [Session.Tab].
func (s *Session) Page(ctx context.Context, b *browser.Manager) (*browser.Page, error) {
	p, err := s.Tab(ctx, b)
	if err != nil {
		return nil, err
	}
	if err := p.Ready(); err != nil {
		return nil, err
	}
	return p, nil
}

// Tab returns the session's current tab in whatever state it is, after
// taking in the popups opened since the last call.
func (s *Session) Tab(ctx context.Context, b *browser.Manager) (*browser.Page, error) {
	if s.tabs != nil && s.tabs.Gone() {
		// The browser died (crash or kill): say so once, with what was
		// lost; the next call opens a fresh browser context.
		urls, said, how := s.tabs.URLs(), s.tabs.DeathSaid(), s.tabs.Death()
		s.closePage()
		if said {
			return s.Tab(ctx, b)
		}
		return nil, &ToolError{Type: ErrorType(browser.KindBrowserCrashed),
			Message:    fmt.Sprintf("%s; session %s lost its tabs (%s), cookies and storage", how, s.ID, strings.Join(urls, ", ")),
			Suggestion: "call again: a new browser is started; navigate to where you were (log in again if needed)"}
	}
	if s.tabs == nil && s.warm != nil {
		w := s.warm
		select {
		case <-w.done:
			s.warm = nil
			w.cancel() // done: nothing of the tabs hangs on its context
			if w.err == nil {
				s.tabs = w.tabs
				s.allowDevOrigin()
			} // else open it below, and report what goes wrong then
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if s.tabs == nil {
		t, err := b.NewTabs(ctx)
		if err != nil {
			return nil, err
		}
		s.tabs = t
		s.allowDevOrigin()
	}
	p, added, err := s.tabs.Sync(ctx)
	if err != nil {
		return nil, err
	}
	s.newTabs += added
	if crashed := s.tabs.TakeCrashed(); len(crashed) > 0 {
		return nil, &ToolError{Type: ErrorType(browser.KindBrowserCrashed),
			Message:    fmt.Sprintf("the tab showing %s crashed (its renderer died) and was closed; cookies and storage are kept", strings.Join(crashed, ", ")),
			Suggestion: "call again: it works in the current tab (browser_tabs lists them); navigate back to the page"}
	}
	if p != s.snapPage {
		// The diff baseline belongs to one tab.
		s.snapPage, s.lastSnap, s.lastURL = p, "", ""
	}
	return p, nil
}

// closePage closes the session's tabs and browser context, if open.
func (s *Session) closePage() bool {
	if s.warm != nil {
		s.warm.drop()
		s.warm = nil
	}
	if s.tabs == nil {
		return false
	}
	s.tabs.Close()
	s.tabs, s.snapPage, s.lastSnap, s.lastURL, s.newTabs = nil, nil, "", "", 0
	return true
}

// SessionInfo describes a session for session_list.
type SessionInfo struct {
	ID       string    `json:"id"`
	Yours    bool      `json:"yours"`
	Browser  bool      `json:"browserOpen"`
	URL      string    `json:"url,omitempty"`
	DevURL   string    `json:"devServer,omitempty"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"lastUsed"`
}

// List describes every session, oldest first. It does not wait for busy
// sessions: what it shows of them may be a call old.
//
// current is the caller's own session, which the call holds locked.
func (r *Registry) List(ctx context.Context, current *Session) []SessionInfo {
	conn := connectionID(ctx)
	r.mu.Lock()
	all := make([]*Session, 0, len(r.sessions))
	for _, s := range r.sessions {
		all = append(all, s)
	}
	r.mu.Unlock()
	out := make([]SessionInfo, 0, len(all))
	for _, s := range all {
		info := SessionInfo{ID: s.ID, Yours: s.Owner == conn || s.ID == conn, Created: s.Created}
		locked := s == current || s.mu.TryLock()
		if locked {
			info.Browser, info.URL, info.LastUsed = s.tabs != nil, s.lastURL, s.lastUsed
			if s.dev != nil {
				info.DevURL = s.dev.result.URL
			}
			if s != current {
				s.mu.Unlock()
			}
		} else {
			info.Browser, info.LastUsed = true, time.Now()
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}

// end stops the session's dev server (--shutdown) and closes its browser
// context. The caller holds s.mu.
func (s *Session) end(ctx context.Context, log *zap.Logger, why string) {
	if !s.closed {
		metrics.SessionsEnded.WithLabelValues(strings.ReplaceAll(why, " ", "_")).Inc()
	}
	if s.dev != nil {
		if _, err := s.dev.server.Do(ctx, devserver.Shutdown); err != nil {
			log.Warn("dev server shutdown failed", zap.String("session", s.ID), zap.String("why", why), zap.Error(err))
		} else {
			log.Info("dev server stopped", zap.String("session", s.ID), zap.String("why", why))
		}
		s.dev = nil
		s.hasDev.Store(false)
	}
	s.closePage()
	s.closed = true
}

// remove takes a session out of the registry and ends it.
func (r *Registry) remove(ctx context.Context, s *Session, why string) {
	r.mu.Lock()
	if r.sessions[s.ID] == s {
		delete(r.sessions, s.ID)
	}
	r.mu.Unlock()
	s.end(ctx, r.log, why)
	r.log.Info("session ended", zap.String("session", s.ID), zap.String("why", why))
}

// CloseAll ends every session, their dev servers in parallel; the server
// calls it on the way out (stdin EOF, SIGTERM, SIGINT).
func (r *Registry) CloseAll() {
	r.mu.Lock()
	all := r.sessions
	r.sessions = map[string]*Session{}
	r.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), r.shutdownTimeout)
	defer cancel()
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Go(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.end(ctx, r.log, "server exit")
		})
	}
	wg.Wait()
}

// CloseOwnedBy ends the sessions a vanished MCP connection made.
func (r *Registry) CloseOwnedBy(conn string) {
	if r.KeepOnDisconnect {
		return
	}
	r.mu.Lock()
	var mine []*Session
	for id, s := range r.sessions {
		if s.Owner == conn {
			mine = append(mine, s)
			delete(r.sessions, id)
		}
	}
	r.mu.Unlock()
	for _, s := range mine {
		s.mu.Lock()
		s.end(context.Background(), r.log, "connection closed")
		s.mu.Unlock()
	}
}

// SweepIdle ends the sessions unused for longer than idle: their dev
// servers get --shutdown and their browser contexts close. Busy sessions
// are left alone. It runs until ctx ends, looking every idle/4 (at most
// every 30 s).
func (r *Registry) SweepIdle(ctx context.Context, idle time.Duration) {
	if idle <= 0 {
		return
	}
	every := min(idle/4, 30*time.Second)
	t := time.NewTicker(max(every, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		r.mu.Lock()
		all := make([]*Session, 0, len(r.sessions))
		for _, s := range r.sessions {
			all = append(all, s)
		}
		r.mu.Unlock()
		for _, s := range all {
			if !s.mu.TryLock() {
				continue // in a call: not idle
			}
			if !s.closed && time.Since(s.lastUsed) > idle {
				r.mu.Lock()
				if r.sessions[s.ID] == s {
					delete(r.sessions, s.ID)
				}
				r.mu.Unlock()
				s.end(ctx, r.log, "idle")
				r.log.Info("session ended", zap.String("session", s.ID), zap.String("why", "idle"), zap.Duration("idle", idle))
			}
			s.mu.Unlock()
		}
	}
}
