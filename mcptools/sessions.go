package mcptools

import (
	"context"
	"regexp"
	"sort"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
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

	mu       sync.Mutex // serializes tool calls on this session
	page     *browser.Page
	lastSnap string // YAML of the last snapshot shown, for diffs
	lastURL  string
	lastUsed time.Time
	closed   bool
}

// Registry maps session ids to sessions.
type Registry struct {
	browser *browser.Manager
	log     *zap.Logger

	mu       sync.Mutex
	sessions map[string]*Session
}

// NewRegistry returns an empty registry whose sessions use b.
func NewRegistry(b *browser.Manager, log *zap.Logger) *Registry {
	return &Registry{browser: b, log: log.Named("sessions"), sessions: map[string]*Session{}}
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
		if !ok {
			s = &Session{ID: sessionID, Owner: conn, Created: time.Now()}
			r.sessions[sessionID] = s
			r.log.Info("session created", zap.String("session", sessionID), zap.String("connection", conn))
		}
		r.mu.Unlock()
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

// Page returns the session's tab, opening it (and the browser) on first use
// or after the old one was lost.
func (s *Session) Page(ctx context.Context, b *browser.Manager) (*browser.Page, error) {
	if s.page != nil && !s.page.Gone() {
		return s.page, nil
	}
	if s.page != nil {
		s.page.Close()
		s.page, s.lastSnap = nil, ""
	}
	p, err := b.NewPage(ctx)
	if err != nil {
		return nil, err
	}
	s.page = p
	return p, nil
}

// closePage closes the session's tab and browser context, if open.
func (s *Session) closePage() bool {
	if s.page == nil {
		return false
	}
	s.page.Close()
	s.page, s.lastSnap, s.lastURL = nil, "", ""
	return true
}

// SessionInfo describes a session for session_list.
type SessionInfo struct {
	ID       string    `json:"id"`
	Yours    bool      `json:"yours"`
	Browser  bool      `json:"browserOpen"`
	URL      string    `json:"url,omitempty"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"lastUsed"`
}

// List describes every session, oldest first. It does not wait for busy
// sessions: what it shows of them may be a call old.
func (r *Registry) List(ctx context.Context) []SessionInfo {
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
		if s.mu.TryLock() {
			info.Browser, info.URL, info.LastUsed = s.page != nil, s.lastURL, s.lastUsed
			s.mu.Unlock()
		} else {
			info.Browser, info.LastUsed = true, time.Now()
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}

// CloseAll ends every session; the server calls it on the way out.
func (r *Registry) CloseAll() {
	r.mu.Lock()
	all := r.sessions
	r.sessions = map[string]*Session{}
	r.mu.Unlock()
	for _, s := range all {
		s.mu.Lock()
		s.closePage()
		s.closed = true
		s.mu.Unlock()
	}
}

// CloseOwnedBy ends the sessions a vanished MCP connection made.
func (r *Registry) CloseOwnedBy(conn string) {
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
		s.closePage()
		s.closed = true
		s.mu.Unlock()
	}
}
