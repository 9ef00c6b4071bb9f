package mcptools

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/e2e-mcp/e2e-mcp/browser/storage"
	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
)

// sessionIDRE is what a sessionId may look like.
var sessionIDRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$`)

// Session is what one agent works in: its browser context with its tabs,
// its snapshot state and its dev server. Calls on one session are
// serialized (a call holds it); sessions run in parallel.
type Session struct {
	// ID is the name the agent knows the session by.
	ID string
	// Conn is the MCP connection that made it.
	Conn string
	// Created is when the session was made.
	Created time.Time

	key  sessionKey    // its place in the registry
	hold chan struct{} // one slot: held by the call running on the session

	runMu sync.Mutex
	run   *runningCall // the call holding the session, if any
	// req is the request of the call holding the session (its progress
	// token, its _meta), set by onSession for the call's length.
	req mcp.CallToolRequest
	// prog reports the call's progress, when its client asked (progress.go).
	prog *callProgress
	// notify tells the client's log of the session's events (events.go).
	notify clientNotifier
	// endNote says why the session this one replaces was ended by the
	// server, when session_list made this one before that could be said.
	endNote *endNote

	tabs *browser.Tabs // the session's browser context, once opened
	// startState is the storage state a browser context of the session
	// starts in (--storage-state, session_start's storageState).
	startState *storage.State
	stateIn    *browser.Tabs // the browser context startState was put into
	// initScripts run in every document of the session (--init-script);
	// scriptsIn is the browser context they were added to.
	initScripts []string
	scriptsIn   *browser.Tabs
	// vitals: the session's documents run the web vitals watcher from
	// their start (the audit group, Registry.Vitals).
	vitals bool
	// startEmulation is what a new browser context of the session
	// emulates first (Registry.StartEmulation, StartDevice).
	startEmulation *devices.Emulation
	startDevice    string
	// profile keeps the session's cookies and storage across runs
	// (Registry.Profile); profileHold is the session's hold on it while
	// its browser context is open (profile.go).
	profile     *Profile
	profileHold *profileHold
	// noSnapshots: actions answer without a snapshot (Registry.NoSnapshots).
	noSnapshots bool
	// replay: the session replays a flow and records none (Registry.Replay).
	replay bool
	// serveOnly: the session only serves a dev server to others
	// (Deps.ServeOnly): its session_start opens no browser context.
	serveOnly bool
	// secretNames are the --secrets names by value (Registry.SecretNames).
	secretNames map[string]string
	// recordCount counts the steps ever recorded (recorded keeps the newest).
	recordCount int
	// batching: a browser_batch runs steps, which add no page state to
	// their answers (the batch answers once).
	batching bool
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
	// readChecks are, for each recorded step, the checks of what the
	// agent read after it that were still shown at the next step
	// (reads.go); pendingReads what it read since the last step, not
	// checked yet. leftOut counts the calls the flow has no step for
	// (coverage.go).
	readChecks   [][]string
	pendingReads []string
	leftOut      []leftOutCall
	refNames     map[string]browser.RefInfo
	pageRefs     map[string]browser.RefInfo // the refs of the last whole-page snapshot
	devStart     *SessionStartParams        // how the dev server was started, for flows
	// secrets are the secrets the session's agent never saw (the
	// server's, through the parent); private adds what the agent itself
	// gave (a typed password, a credential argument, a stored value),
	// which its own answers show as the page shows it but every writer
	// for people masks (secrets.go); secretRefs the E2E_SECRET_n each
	// secret was recorded as in its flow.
	secrets    *redact.Set
	private    *redact.Set
	secretRefs map[string]int
	// lastBaseline is the baseline name of the last visual check, which
	// its flow step records when the call named none.
	lastBaseline string
	steps        stepLog // every call, for the session's report and trace (steplog.go)
	// video is the session's recording, if any; overlays what
	// browser_video_show_actions asked for; videoDone says the automatic
	// recording (VideoDefaults) was started once (video.go).
	video     *sessionVideo
	overlays  *actionOverlays
	videoDone bool
	// trace is the session's trace while it records (tracing.go);
	// traceAuto says every session's tracing (--save-trace) started it.
	trace     *traceState
	traceAuto bool
	// lastTrace and lastVideo say where the last trace and video the agent
	// stopped were written, and when: the next stop says it too.
	lastTrace, lastVideo string
	// demo is the tab a person's demonstration is being recorded in
	// (demo.go).
	demo *browser.Page
	// untold are the answers of switches whose client cancelled them, told
	// on the next call (switches.go).
	untold []untold
	// console writes the console of the session's documents to files of
	// the output directory the operator named; nil when none is named
	// (consolelog.go).
	console  *consoleLog
	lastUsed time.Time
	closed   bool
}

// runningCall is the call that holds a session.
type runningCall struct {
	tool   string
	since  time.Time
	cancel context.CancelFunc
	// by is set when something else cancelled it (session_end, the
	// server's exit): the call then answers so.
	by string
}

// newSession makes a session whose secrets mask its own and parent's
// (the server's: the flow runner's variables, the operator's credentials).
func newSession(key sessionKey, conn string, parent *redact.Set) *Session {
	secrets := redact.NewSet(parent)
	return &Session{ID: key.id, Conn: conn, Created: time.Now(), key: key, hold: make(chan struct{}, 1),
		secrets: secrets, private: redact.NewSet(secrets)}
}

// lockWithin holds the session for a call, waiting at most d for the call
// that holds it now; then the answer is busy, naming that call.
func (s *Session) lockWithin(ctx context.Context, d time.Duration) error {
	select {
	case s.hold <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case s.hold <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
	}
	what := "another call"
	s.runMu.Lock()
	if r := s.run; r != nil {
		what = fmt.Sprintf("%s (running for %s)", r.tool, time.Since(r.since).Round(100*time.Millisecond))
	}
	s.runMu.Unlock()
	return &ToolError{Type: ErrBusy,
		Message:    fmt.Sprintf("session %s is busy with %s; this call waited %s for it", s.ID, what, d),
		Suggestion: "retry when that call has answered, use another sessionId for parallel work, or call session_end to cancel it and end the session"}
}

// lock holds the session, waiting as long as it takes.
func (s *Session) lock() { s.hold <- struct{}{} }

// tryLock holds the session if no call does.
func (s *Session) tryLock() bool {
	select {
	case s.hold <- struct{}{}:
		return true
	default:
		return false
	}
}

func (s *Session) unlock() { <-s.hold }

// begin records the call that now holds the session and returns its
// context, which interrupt cancels (a switch's does not end with its
// client's cancellation: switches.go).
func (s *Session) begin(ctx context.Context, tool string) context.Context {
	parent, stop := switchContext(ctx, tool)
	cctx, cancel := context.WithCancel(parent)
	s.runMu.Lock()
	s.run = &runningCall{tool: tool, since: time.Now(), cancel: func() { cancel(); stop() }}
	s.runMu.Unlock()
	return cctx
}

// release ends the call's hold on the session.
func (s *Session) release() {
	s.runMu.Lock()
	if r := s.run; r != nil {
		r.cancel()
	}
	s.run = nil
	s.runMu.Unlock()
	s.unlock()
}

// interruptedBy says what cancelled the running call from outside, or "".
func (s *Session) interruptedBy() string {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.run == nil {
		return ""
	}
	return s.run.by
}

// interrupt cancels the call running on the session, saying who did.
func (s *Session) interrupt(by string) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if r := s.run; r != nil && r.by == "" {
		r.by = by
		r.cancel()
	}
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

// Page returns the session's current tab, opening the browser context (and
// the browser) on first use or after the old one was lost. While a dialog
// blocks the tab it returns a dialog_open error, and while a file chooser
// the page opened waits for files a file_chooser_open error: only the tools
// that answer or work around them use [Session.Tab] or
// [Session.PageUnderChooser].
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

// PageUnderChooser is [Session.Page] for the tools that answer an open
// file chooser or leave it behind (browser_file_upload, browser_navigate):
// only a dialog holds them back.
func (s *Session) PageUnderChooser(ctx context.Context, b *browser.Manager) (*browser.Page, error) {
	p, err := s.Tab(ctx, b)
	if err != nil {
		return nil, err
	}
	if err := p.NoDialog(); err != nil {
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
		s.event(mcp.LoggingLevelError, "browser crashed", map[string]any{"how": how, "lost": urls})
		return nil, &ToolError{Type: ErrBrowserCrashed,
			Message:    fmt.Sprintf("%s; session %s lost its tabs (%s), cookies and storage", how, s.ID, strings.Join(urls, ", ")),
			Suggestion: "call again: a new browser is started; navigate to where you were (log in again if needed)"}
	}
	if s.tabs == nil {
		if err := s.openTabs(ctx, b); err != nil {
			return nil, err
		}
	}
	p, added, err := s.tabs.Sync(ctx)
	if err != nil {
		return nil, err
	}
	if s.tabs != s.scriptsIn {
		// A new browser context runs the server's init scripts first.
		if s.vitals {
			if err := s.tabs.WatchVitals(ctx); err != nil {
				return nil, err
			}
		}
		for _, src := range s.initScripts {
			if _, err := s.tabs.AddInitScript(ctx, src); err != nil {
				return nil, err
			}
		}
		if s.startEmulation != nil {
			if _, err := s.tabs.SetEmulation(ctx, *s.startEmulation, s.startDevice, false); err != nil {
				return nil, fmt.Errorf("emulate the server's --device, --user-agent, --locale, --timezone, --grant-permissions: %w", err)
			}
		}
		s.scriptsIn = s.tabs
	}
	if err := s.startProfile(); err != nil {
		return nil, err
	}
	if s.startState != nil && s.tabs != s.stateIn {
		// A new browser context starts in the session's storage state, put
		// into its first tab before it shows anything.
		if _, err := s.tabs.SetStorageState(ctx, s.startState, p); err != nil {
			return nil, fmt.Errorf("start in the storage state: %w", err)
		}
		s.stateIn = s.tabs
	}
	s.newTabs += added
	if crashed := s.tabs.TakeCrashed(); len(crashed) > 0 {
		s.event(mcp.LoggingLevelError, "tab crashed", map[string]any{"pages": crashed})
		return nil, &ToolError{Type: ErrBrowserCrashed,
			Message:    fmt.Sprintf("the tab showing %s crashed (its renderer died) and was closed; cookies and storage are kept", strings.Join(crashed, ", ")),
			Suggestion: "call again: it works in the current tab (browser_tabs lists them); navigate back to the page"}
	}
	if p != s.snapPage {
		// The diff baseline belongs to one tab.
		s.snapPage, s.lastSnap, s.lastURL = p, "", ""
	}
	return p, nil
}

// openTabs opens the session's browser context: the one session_start
// began opening, else a new one. The session's --user-data-dir is held
// from here until the context closes or its browser dies.
func (s *Session) openTabs(ctx context.Context, b *browser.Manager) error {
	if err := s.holdProfile(); err != nil {
		return err
	}
	if s.warm != nil {
		w := s.warm
		select {
		case <-w.done:
			s.warm = nil
			w.cancel() // done: nothing of the tabs hangs on its context
			if w.err == nil {
				s.tabs = w.tabs
			} // else open it below, and report what goes wrong then
		case <-ctx.Done():
			s.letProfile()
			return ctx.Err()
		}
	}
	if s.tabs == nil {
		t, err := b.NewTabs(ctx)
		if err != nil {
			s.letProfile()
			return err
		}
		s.tabs = t
	}
	s.tabs.Secrets = s.private
	s.console.watch(s.tabs)
	s.allowDevOrigin()
	if s.profileHold != nil {
		s.profileHold.until(s.tabs.Done())
	}
	return nil
}

// closePage closes the session's tabs and browser context, if open, and
// lets its profile go.
func (s *Session) closePage() bool {
	s.settleShot()
	if s.warm != nil {
		s.warm.drop()
		s.warm = nil
	}
	if s.tabs == nil {
		s.letProfile()
		return false
	}
	s.tabs.Close()
	s.letProfile()
	s.tabs, s.snapPage, s.lastSnap, s.lastURL, s.newTabs = nil, nil, "", "", 0
	return true
}
