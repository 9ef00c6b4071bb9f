package mcptools

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/e2e-mcp/e2e-mcp/browser/storage"
	"github.com/e2e-mcp/e2e-mcp/metrics"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.uber.org/zap"
)

// Sessions belong to an owner, and a session id names a session only within
// its owner's namespace: two clients that choose the same id get two
// sessions, and no answer tells one client anything of another's sessions
// (not even that an id is taken). Over stdio and the CLI's Unix socket there
// is one local user, so one namespace. Over TCP (serve --http) the owner is
// the caller's principal: the OAuth issuer and subject when a token says
// who it is, else (a static token, or no credential) the MCP session that
// made the call, the only thing that tells such clients apart.

// Registry maps session ids to sessions, per owner.
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
	// Isolate gives every principal a namespace of its own (serve --http
	// on TCP). Without it all callers share one (stdio, Unix socket).
	Isolate bool
	// Shared puts the sessions callers name (sessionId) in one namespace
	// that every principal may use (--shared-sessions, an operator's
	// choice); each connection's default session stays its own. Shared
	// sessions outlive the connection that made them.
	Shared bool
	// BusyTimeout bounds how long a call waits for its session while
	// another call holds it; then it answers busy (0: 15 s).
	BusyTimeout time.Duration
	// StartState is the storage state every new session starts in
	// (--storage-state), unless session_start names another.
	StartState *storage.State
	// InitScripts run in every document of every session (--init-script).
	InitScripts []string
	// Vitals has every session's documents watch their web vitals from
	// their start, for browser_perf (set when the audit group is on).
	Vitals bool
	// ExitsWithConnection: the server exits when its one MCP connection
	// ends (stdio), so the sessions that connection made end as on the
	// server's exit, under the exit's deadline.
	ExitsWithConnection bool
	// StartEmulation, when set, is what every new browser context of a
	// session emulates first (--device, --user-agent, --grant-permissions);
	// StartDevice names its device preset.
	StartEmulation *devices.Emulation
	StartDevice    string
	// Profile keeps the sessions' cookies and storage across runs
	// (--user-data-dir); nil: every session starts fresh.
	Profile *Profile
	// SharedDefault gives every connection the same default session
	// (--shared-browser-context): a call naming no session uses it.
	SharedDefault bool
	// NoSnapshots: actions' answers carry no snapshot (--snapshot-mode
	// none); browser_snapshot still reads the page.
	NoSnapshots bool
	// Replay: the sessions replay flows (e2e-mcp run), which nothing
	// exports as flows again: their actions record no step (record.go),
	// which spares each action an engine call before it acts.
	Replay bool
	// SecretNames are the names of the secrets of --secrets, by value: a
	// flow records the value as ${NAME}.
	SecretNames map[string]string
	// Secrets are the server's secrets, which every session's answers,
	// logs, reports and flows mask as well as its own (secrets.go); nil
	// for none.
	Secrets *redact.Set

	browser *browser.Manager
	log     *zap.Logger
	// notify tells a connection's client log of its sessions' events
	// (events.go); nil when no client hears (e2e-mcp run).
	notify clientNotifier
	// endBudget is the deadline of a session's end (EndBudget; ending.go).
	endBudget time.Duration

	mu       sync.Mutex
	sessions map[sessionKey]*Session
	// ended says why sessions the server ended by itself (idle, evicted)
	// are gone, so that the next call on one is told once.
	ended map[sessionKey]endNote
	order []sessionKey // ended's keys, oldest first
}

// sessionKey is a session's place in the registry: its owner's namespace
// and the id the agent knows it by.
type sessionKey struct{ owner, id string }

// endNote is why and when the server ended a session by itself.
type endNote struct {
	why string
	at  time.Time
}

// maxEndNotes bounds the ended sessions remembered.
const maxEndNotes = 1024

// sharedDefaultSession is the session every client shares under
// --shared-browser-context.
const sharedDefaultSession = "default"

// defaultBusyTimeout is how long a call waits for a busy session.
const defaultBusyTimeout = 15 * time.Second

// NewRegistry returns an empty registry whose sessions use b.
func NewRegistry(b *browser.Manager, log *zap.Logger) *Registry {
	return &Registry{browser: b, log: log.Named("sessions"), sessions: map[sessionKey]*Session{},
		ended: map[sessionKey]endNote{}, endBudget: EndBudget}
}

// SetEndBudget sets the deadline of a session's end (EndBudget by
// default): the whole of it on the server's exit, the artifacts and the
// browser context otherwise (ending.go).
func (r *Registry) SetEndBudget(d time.Duration) {
	if d > 0 {
		r.endBudget = d
	}
}

// endBy is the deadline of an end that starts now.
func (r *Registry) endBy() time.Time { return time.Now().Add(r.endBudget) }

// connectionID is the id of the MCP connection a call came on, or "".
func connectionID(ctx context.Context) string {
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		return cs.SessionID()
	}
	return ""
}

type principalCtx struct{}

// WithPrincipal returns ctx carrying the key of the authenticated caller
// (an OAuth issuer and subject): the transport sets it for every request.
// Calls with the same key share a namespace of sessions.
func WithPrincipal(ctx context.Context, key string) context.Context {
	if key == "" {
		return ctx
	}
	return context.WithValue(ctx, principalCtx{}, key)
}

func principalOf(ctx context.Context) string {
	k, _ := ctx.Value(principalCtx{}).(string)
	return k
}

// ownerOf is the namespace a call's sessions live in; named says whether
// the call names its session (sessionId) rather than taking its default.
func (r *Registry) ownerOf(ctx context.Context, named bool) string {
	if !r.Isolate || named && r.Shared {
		return ""
	}
	if p := principalOf(ctx); p != "" {
		return "principal:" + p
	}
	return "connection:" + connectionID(ctx)
}

// exists says whether the named session sessionID of ctx's principal is
// open or has ended.
func (r *Registry) exists(ctx context.Context, sessionID string) bool {
	key := sessionKey{owner: r.ownerOf(ctx, true), id: sessionID}
	r.mu.Lock()
	defer r.mu.Unlock()
	_, open := r.sessions[key]
	_, ended := r.ended[key]
	return open || ended
}

// acquire finds or creates the session a call names (its own default when
// sessionID is empty) and holds it for the call, waiting at most
// BusyTimeout for a call already running on it. The returned context ends
// when the call's does, or when session_end interrupts it; release ends
// the hold.
func (r *Registry) acquire(ctx context.Context, sessionID, tool string) (*Session, context.Context, error) {
	conn := connectionID(ctx)
	named := sessionID != ""
	sharedDefault := !named && r.SharedDefault
	if sharedDefault {
		// One browser session for every client, as Playwright MCP's
		// --shared-browser-context: the shared namespace's.
		sessionID, named = sharedDefaultSession, true
	}
	if !named {
		if conn == "" {
			return nil, nil, &ToolError{Type: ErrSessionRequired, Message: "this request has no MCP session, so it has no default browser session",
				Suggestion: "pass a sessionId of your choosing; it is created on first use"}
		}
		sessionID = conn
	} else if !sessionIDRE.MatchString(sessionID) {
		return nil, nil, invalidInput("sessionId", "%q: use 1-64 letters, digits, '.', '_', ':' or '-'", sessionID)
	}
	key := sessionKey{owner: r.ownerOf(ctx, named), id: sessionID}
	if sharedDefault {
		key.owner = ""
	}
	if tool == "session_end" {
		// session_end does not wait behind the call it ends.
		r.interrupt(key, tool)
	}
	for {
		r.mu.Lock()
		s, ok := r.sessions[key]
		var evicted, started *Session
		var pending *endNote
		if !ok {
			if note, gone := r.ended[key]; gone {
				// Said once; session_end of it has nothing left to say,
				// and session_list (which holds the caller's default
				// session) leaves it to the next call.
				r.forgetEndLocked(key)
				switch tool {
				case "session_end":
				case "session_list":
					pending = &note
				default:
					r.mu.Unlock()
					return nil, nil, sessionEnded(sessionID, note)
				}
			}
			if r.AllowSession != nil {
				if allowed, retry := r.AllowSession(ctx); !allowed {
					r.mu.Unlock()
					return nil, nil, rateLimited("new sessions", retry)
				}
			}
			if r.MaxSessions > 0 && len(r.sessions) >= r.MaxSessions {
				if evicted = r.idlestLocked(); evicted == nil {
					r.mu.Unlock()
					return nil, nil, &ToolError{Type: ErrCapacityExceeded,
						Message:    fmt.Sprintf("all %d sessions of this server are in a call, so none can make room for session %s", r.MaxSessions, sessionID),
						Suggestion: "retry in a few seconds, or reuse a session id you already have"}
				}
				delete(r.sessions, evicted.key)
				r.noteEndLocked(evicted.key, fmt.Sprintf("it was the least recently used of %d sessions and made room for a new one (--max-sessions)", r.MaxSessions))
			}
			s = newSession(key, conn, r.Secrets)
			s.notify = r.notify
			s.startState, s.initScripts, s.vitals = r.StartState, r.InitScripts, r.Vitals
			s.startEmulation, s.startDevice, s.profile = r.StartEmulation, r.StartDevice, r.Profile
			s.noSnapshots, s.secretNames, s.replay = r.NoSnapshots, r.SecretNames, r.Replay
			s.endNote = pending
			r.sessions[key] = s
			metrics.SessionsCreated.Inc()
			r.log.Info("session created", zap.String("session", sessionID), zap.String("connection", conn))
			started = s
		}
		r.mu.Unlock()
		if started != nil {
			started.event(mcp.LoggingLevelInfo, "session started", map[string]any{"by": tool})
		}
		if evicted != nil {
			// The least recently used idle session makes room; the caller
			// waits for its dev server's --shutdown.
			evicted.end(ctx, r.log, "evicted", r.endBy(), false)
			evicted.unlock()
			r.log.Info("session ended", zap.String("session", evicted.ID), zap.String("why", "evicted"), zap.String("for", sessionID))
			evicted.event(mcp.LoggingLevelWarning, "session ended", map[string]any{"why": fmt.Sprintf("it was the least recently used of %d sessions and made room for a new one (--max-sessions)", r.MaxSessions)})
		}
		if err := s.lockWithin(ctx, r.busyTimeout()); err != nil {
			return nil, nil, err
		}
		if !s.closed {
			if note := s.endNote; note != nil && tool != "session_list" {
				s.endNote = nil
				if tool != "session_end" {
					s.unlock()
					return nil, nil, sessionEnded(sessionID, *note)
				}
			}
			s.lastUsed = time.Now()
			return s, s.begin(ctx, tool), nil
		}
		// It was closed while we waited for it: take a fresh one.
		s.unlock()
	}
}

func (r *Registry) busyTimeout() time.Duration {
	if r.BusyTimeout > 0 {
		return r.BusyTimeout
	}
	return defaultBusyTimeout
}

// interrupt cancels the call running on a session, if any.
func (r *Registry) interrupt(key sessionKey, by string) {
	r.mu.Lock()
	s := r.sessions[key]
	r.mu.Unlock()
	if s != nil {
		s.interrupt(by)
	}
}

// sessionEnded is the error that tells a caller, once, that the server
// ended its session by itself.
func sessionEnded(id string, note endNote) *ToolError {
	return &ToolError{Type: ErrSessionEnded,
		Message: fmt.Sprintf("session %s was ended by the server %s ago: %s; its dev server was stopped and its browser context (tabs, cookies, storage) closed",
			id, time.Since(note.at).Round(time.Second), note.why),
		Suggestion: "call again: a new session starts (run session_start first if it had a dev server, and navigate back; log in again if needed)"}
}

// noteEndLocked remembers that the server ended a session by itself.
func (r *Registry) noteEndLocked(key sessionKey, why string) {
	if _, ok := r.ended[key]; !ok {
		r.order = append(r.order, key)
	}
	r.ended[key] = endNote{why: why, at: time.Now()}
	for len(r.order) > maxEndNotes {
		delete(r.ended, r.order[0])
		r.order = r.order[1:]
	}
}

func (r *Registry) forgetEndLocked(key sessionKey) {
	delete(r.ended, key)
	for i, k := range r.order {
		if k == key {
			r.order = append(r.order[:i], r.order[i+1:]...)
			break
		}
	}
}

// idlestLocked returns the least recently used session that is not in a
// call, held, or nil when every session is busy. r.mu is held.
func (r *Registry) idlestLocked() *Session {
	var best *Session
	for _, s := range r.sessions {
		if !s.tryLock() {
			continue
		}
		if best == nil || s.lastUsed.Before(best.lastUsed) {
			if best != nil {
				best.unlock()
			}
			best = s
			continue
		}
		s.unlock()
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

// SessionInfo describes a session for session_list.
type SessionInfo struct {
	ID string `json:"id"`
	// Yours says the session was made on the caller's own connection.
	Yours    bool      `json:"yours"`
	Browser  bool      `json:"browserOpen"`
	URL      string    `json:"url,omitempty"`
	DevURL   string    `json:"devServer,omitempty"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"lastUsed"`
}

// List describes the sessions the caller may use, oldest first: those of
// its namespace (and the shared ones). It does not wait for busy sessions:
// what it shows of them may be a call old.
//
// current is the caller's own session, which the call holds.
func (r *Registry) List(ctx context.Context, current *Session) []SessionInfo {
	conn := connectionID(ctx)
	mine := r.ownerOf(ctx, false)
	r.mu.Lock()
	all := make([]*Session, 0, len(r.sessions))
	for k, s := range r.sessions {
		if k.owner == mine || (r.Shared || r.SharedDefault) && k.owner == "" {
			all = append(all, s)
		}
	}
	r.mu.Unlock()
	out := make([]SessionInfo, 0, len(all))
	for _, s := range all {
		info := SessionInfo{ID: s.ID, Yours: s.Conn == conn, Created: s.Created}
		held := s == current || s.tryLock()
		if held {
			info.Browser, info.URL, info.LastUsed = s.tabs != nil, s.lastURL, s.lastUsed
			if s.dev != nil {
				info.DevURL = s.dev.result.URL
			}
			if s != current {
				s.unlock()
			}
		} else {
			info.Browser, info.LastUsed = true, time.Now()
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}

// remove takes a session out of the registry and ends it.
func (r *Registry) remove(ctx context.Context, s *Session, why string) {
	r.mu.Lock()
	if r.sessions[s.key] == s {
		delete(r.sessions, s.key)
	}
	r.mu.Unlock()
	s.end(ctx, r.log, why, r.endBy(), false)
	r.log.Info("session ended", zap.String("session", s.ID), zap.String("why", why))
	s.event(mcp.LoggingLevelInfo, "session ended", map[string]any{"why": why})
}

// CloseAll ends every session, in parallel, by the end's deadline; the
// server calls it on the way out (stdin EOF, SIGTERM, SIGINT), before the
// browser goes. Calls still running are cancelled first.
func (r *Registry) CloseAll() {
	r.mu.Lock()
	all := make([]*Session, 0, len(r.sessions))
	for _, s := range r.sessions {
		all = append(all, s)
	}
	r.sessions = map[sessionKey]*Session{}
	r.mu.Unlock()
	r.endAll(all, "server exit", "the server's exit", true)
}

// endAll ends sessions in parallel, under one deadline; exiting says the
// server exits.
func (r *Registry) endAll(all []*Session, why, by string, exiting bool) {
	until := r.endBy()
	ctx, cancel := context.WithDeadline(context.Background(), until)
	defer cancel()
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Go(func() {
			s.interrupt(by)
			if !exiting {
				s.lock()
			} else if s.lockWithin(ctx, time.Until(until)) != nil {
				// A call that does not let go: the process exits anyway,
				// and the guard stops its dev server once it has.
				r.log.Warn("session not ended: a call held it past the exit's deadline", zap.String("session", s.ID))
				return
			}
			defer s.unlock()
			if exiting {
				s.event(mcp.LoggingLevelInfo, "session ended", map[string]any{"why": "the server exits"})
				s.end(ctx, r.log, why, until, true)
				return
			}
			s.end(context.Background(), r.log, why, r.endBy(), false) // its deadline from when it is held
		})
	}
	wg.Wait()
}

// CloseOwnedBy ends the sessions a vanished MCP connection made (shared
// sessions stay: others may be using them), in parallel; over stdio, as
// the server's exit (ExitsWithConnection).
func (r *Registry) CloseOwnedBy(conn string) {
	if r.KeepOnDisconnect {
		return
	}
	r.mu.Lock()
	var mine []*Session
	for k, s := range r.sessions {
		shared := r.Isolate && (r.Shared || r.SharedDefault) && k.owner == ""
		if s.Conn == conn && !shared {
			mine = append(mine, s)
			delete(r.sessions, k)
		}
	}
	r.mu.Unlock()
	r.endAll(mine, "connection closed", "the end of its MCP connection", r.ExitsWithConnection)
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
			if !s.tryLock() {
				continue // in a call: not idle
			}
			if !s.closed && time.Since(s.lastUsed) > idle {
				r.mu.Lock()
				if r.sessions[s.key] == s {
					delete(r.sessions, s.key)
					r.noteEndLocked(s.key, fmt.Sprintf("no tool call used it for longer than --idle-timeout (%s)", idle))
				}
				r.mu.Unlock()
				s.end(ctx, r.log, "idle", r.endBy(), false)
				r.log.Info("session ended", zap.String("session", s.ID), zap.String("why", "idle"), zap.Duration("idle", idle))
				s.event(mcp.LoggingLevelNotice, "session ended", map[string]any{"why": "no tool call for longer than --idle-timeout (" + idle.String() + ")"})
			}
			s.unlock()
		}
	}
}
