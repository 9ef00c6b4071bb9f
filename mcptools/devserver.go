package mcptools

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/devserver"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/logs"
	"github.com/e2e-mcp/e2e-mcp/netpolicy"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
)

// devState is a session's dev server: how to drive it and what it said.
type devState struct {
	server devserver.Server
	desc   string            // the command line, for messages
	result *devserver.Result // the last start/restart answer (URL, port, PID, logs)
	// unwatch stops watching for its exit (events.go).
	unwatch func()
	// release takes it from the guard, which shuts down the dev servers
	// of a server that was killed (devserver.Watch).
	release func()
}

// stopped says its --shutdown answered: the guard forgets it.
func (d *devState) stopped() {
	if d.release != nil {
		d.release()
	}
}

// devDo runs a verb of a session's dev server; a failure is the agent's
// typed error (devError). Tools run verbs through it.
func devDo(ctx context.Context, srv devserver.Server, verb devserver.Verb) (*devserver.Result, error) {
	res, err := srv.Do(ctx, verb)
	if err != nil {
		return nil, devError(srv, err)
	}
	return res, nil
}

// devError renders a failed verb of srv as a typed tool error: the
// command's error type, exit code, its own message, stderr and the tail of
// its logs, and what to do, in the words of the argument that made srv
// (run, or commandPath).
func devError(srv devserver.Server, err error) error {
	var e *devserver.Error
	if !errors.As(err, &e) {
		return err
	}
	var b strings.Builder
	b.WriteString(e.Message)
	if e.Reported != "" {
		fmt.Fprintf(&b, "\nThe command said: %s", e.Reported)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, "\nField: %s", e.Field)
	}
	if e.Stderr != "" {
		fmt.Fprintf(&b, "\nIts stderr:\n```\n%s\n```", e.Stderr)
	}
	if e.Kind == devserver.KindInvalidJSON && e.Stdout != "" {
		fmt.Fprintf(&b, "\nIts stdout:\n```\n%s\n```", text.LastLines(e.Stdout, 20))
	}
	for _, p := range []string{e.Logs.Stderr, e.Logs.Combined} {
		if p == "" {
			continue
		}
		if c, err := logs.Read(p, logs.ReadOptions{Since: -1, Lines: 30}); err == nil && len(c.Lines) > 0 {
			fmt.Fprintf(&b, "\nLast lines of %s:\n```\n%s\n```", p, strings.Join(c.Lines, "\n"))
			break
		}
	}
	hints := map[devserver.Kind]string{
		devserver.KindTimeout:          "the command did not answer in time: check it by hand, or raise the verb's timeout flag",
		devserver.KindNonZeroExit:      "read the command's error and stderr above, fix the cause, then call session_start again",
		devserver.KindInvalidJSON:      "the command must print one JSON object on stdout (docs: the dev-server command contract)",
		devserver.KindMissingField:     "the command's JSON lacks a field the contract requires",
		devserver.KindCommandNotFound:  "check commandPath (relative paths are resolved against cwd)",
		devserver.KindPermissionDenied: "make the command executable: chmod +x",
		devserver.KindNotReady:         "the server exited or never answered: read its log lines above",
	}
	if _, contract := srv.(*devserver.Command); !contract {
		hints[devserver.KindCommandNotFound] = "check run: its first word must be a program on PATH, or a path (relative paths are resolved against cwd)"
	}
	typ, ok := devTypes[e.Kind]
	if !ok {
		typ = ErrInternal
	}
	return &ToolError{Type: typ, Message: b.String(), Suggestion: hints[e.Kind]}
}

// writeDev renders a dev server's answer.
func (r *response) writeDev(sessionID string, res *devserver.Result) {
	r.resultf("- Session: %s", sessionID)
	if res.URL != "" {
		r.resultf("- URL: %s", res.URL)
	}
	if res.Port != 0 {
		r.resultf("- Port: %d", res.Port)
	}
	if res.PID != 0 {
		r.resultf("- PID: %d", res.PID)
	}
	for _, l := range [][2]string{{"stdout", res.Logs.Stdout}, {"stderr", res.Logs.Stderr}, {"combined", res.Logs.Combined}} {
		if l[1] != "" {
			r.resultf("- Log (%s): %s", l[0], l[1])
		}
	}
	if res.Message != "" {
		r.resultf("- Message: %s", res.Message)
	}
	r.set("session", sessionID)
	r.set("devServer", res)
}

// SessionStartParams are the arguments of session_start.
type SessionStartParams struct {
	CommandPath string   `json:"commandPath,omitempty" jsonschema:"Contract command (default: configured)"`
	Args        []string `json:"args,omitempty" jsonschema:"Arguments before the verb flag"`
	Cwd         string   `json:"cwd,omitempty" jsonschema:"Default: the server's"`
	Run         string   `json:"run,omitempty" jsonschema:"Or a dev command line, e.g. npm run dev (PORT is set)"`
	ReadyPath   string   `json:"readyPath,omitempty" jsonschema:"With run: path answering when ready (default /)"`
	// StorageState is a file browser_storage_state wrote.
	StorageState string `json:"storageState,omitempty" jsonschema:"Storage state file to start in"`
	DevSessionArg
}

func sessionStartTool(d *Deps) Tool {
	return define(d, "session_start", ToolsetSession,
		"Start the session's dev server; browser tools then take URLs relative to it.",
		annotations{title: "Start the dev server", openWorld: true},
		func(ctx context.Context, s *Session, a SessionStartParams) (*mcp.CallToolResult, error) {
			if s.dev != nil {
				return nil, &ToolError{Type: ErrInvalidInput, Message: fmt.Sprintf("session %s already has a dev server at %s (%s)", s.ID, s.dev.result.URL, s.dev.desc),
					Suggestion: "use it, call session_restart, or session_end first"}
			}
			srv, desc, err := d.newServer(s.ID, a)
			if err != nil {
				return nil, err
			}
			if a.StorageState != "" {
				st, err := d.readState(ctx, "storageState", a.StorageState)
				if err != nil {
					return nil, err
				}
				s.startState, s.stateIn = st, nil
			}
			s.prog.note("starting " + desc)
			s.warmBrowser(ctx, d)
			// Guarded from its --start: a server killed while the command
			// starts its dev server still has it shut down.
			release := devserver.Watch(srv)
			res, err := devDo(ctx, srv, devserver.Start)
			if err != nil {
				release()
				return nil, err
			}
			s.dev = &devState{server: srv, desc: desc, result: res, unwatch: s.watchDev(res), release: release}
			start := a
			s.devStart = &start
			s.allowDevOrigin()
			s.hasDev.Store(true)
			var r response
			r.resultf("Dev server %s (%s).", res.Status, desc)
			r.writeDev(s.ID, res)
			r.resultf("Browser tools in this session take relative URLs, e.g. browser_navigate url=/")
			return r.build(), nil
		})
}

// newServer makes the dev server a session_start asks for.
func (d *Deps) newServer(sessionID string, a SessionStartParams) (devserver.Server, string, error) {
	if d.Remote && (a.Run != "" || a.CommandPath != "" || len(a.Args) > 0 || a.Cwd != "" || a.ReadyPath != "") {
		// A remote client must never name an executable to run here.
		return nil, "", &ToolError{Type: ErrNotAllowed,
			Message:    "over HTTP, session_start runs only the dev-server command this server was started with; commandPath, args, cwd, run and readyPath are refused",
			Suggestion: "call session_start without arguments; the server's operator sets the command with --server-command"}
	}
	cwd := a.Cwd
	if cwd != "" {
		abs, err := filepath.Abs(cwd)
		if err != nil {
			return nil, "", invalidInput("cwd", "%v", err)
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, "", invalidInput("cwd", "%q is not a directory", cwd)
		}
		cwd = abs
	}
	if a.Run != "" {
		if a.CommandPath != "" || len(a.Args) > 0 {
			return nil, "", invalidInput("run", "give either run or commandPath/args, not both")
		}
		return d.newManaged(sessionID, a.Run, cwd, a.ReadyPath)
	}
	if a.ReadyPath != "" {
		return nil, "", invalidInput("readyPath", "goes with run; a contract command says itself when it is ready")
	}
	path, args := a.CommandPath, a.Args
	if path == "" {
		if len(d.ServerCommand) == 0 {
			return nil, "", &ToolError{Type: ErrInvalidInput, Message: "no dev-server command: pass commandPath (a contract command) or run (any dev command line)",
				Suggestion: "or start e2e-mcp with --server-command / E2E_MCP_SERVER_COMMAND"}
		}
		path, args = d.ServerCommand[0], append(append([]string{}, d.ServerCommand[1:]...), args...)
	}
	if !filepath.IsAbs(path) && strings.ContainsRune(path, filepath.Separator) {
		base := cwd
		if base == "" {
			base, _ = os.Getwd()
		}
		path = filepath.Join(base, path)
	}
	// desc is what answers, progress, the report and errors say of the
	// command: its secret arguments masked.
	desc := redact.CommandLine(strings.Join(append([]string{path}, args...), " "))
	return &devserver.Command{Path: path, Args: args, Dir: cwd, Timeouts: d.DevTimeouts}, desc, nil
}

// SessionParams are the arguments of the session tools that take no others.
type SessionParams struct {
	SessionArg
}

func requireDev(s *Session) error {
	if s.dev == nil {
		return &ToolError{Type: ErrInvalidInput, Message: fmt.Sprintf("session %s has no dev server", s.ID),
			Suggestion: "call session_start first"}
	}
	return nil
}

func sessionStatusTool(d *Deps) Tool {
	return define(d, "session_status", ToolsetSession,
		"The dev server's status (runs the command's --status).",
		annotations{title: "Dev server status", readOnly: true, idempotent: true, openWorld: true},
		func(ctx context.Context, s *Session, _ SessionParams) (*mcp.CallToolResult, error) {
			if err := requireDev(s); err != nil {
				return nil, err
			}
			res, err := devDo(ctx, s.dev.server, devserver.Status)
			if err != nil {
				return nil, err
			}
			var r response
			r.resultf("Dev server is %s.", res.Status)
			if res.Healthy != nil {
				r.resultf("- Healthy: %v", *res.Healthy)
			}
			if res.Uptime > 0 {
				r.resultf("- Uptime: %s", (time.Duration(res.Uptime) * time.Second).String())
			}
			if res.URL == "" {
				res.URL = s.dev.result.URL
			}
			r.writeDev(s.ID, res)
			return r.build(), nil
		})
}

func sessionRestartTool(d *Deps) Tool {
	return define(d, "session_restart", ToolsetSession,
		"Restart the dev server (--restart); the page follows to its new URL.",
		annotations{title: "Restart the dev server", destructive: true, openWorld: true},
		func(ctx context.Context, s *Session, _ SessionParams) (*mcp.CallToolResult, error) {
			if err := requireDev(s); err != nil {
				return nil, err
			}
			old := s.dev.result.URL
			s.prog.note("restarting " + s.dev.desc)
			s.dev.unwatch()
			res, err := devDo(ctx, s.dev.server, devserver.Restart)
			if err != nil {
				return nil, err
			}
			s.dev.result, s.dev.unwatch = res, s.watchDev(res)
			s.allowDevOrigin()
			var r response
			r.resultf("Dev server %s.", res.Status)
			r.writeDev(s.ID, res)
			// The page follows: same path, query and fragment on the new origin.
			if s.tabs != nil && s.lastURL != "" && sameOrigin(s.lastURL, old) && res.URL != "" && !sameOrigin(old, res.URL) {
				target := rebase(s.lastURL, res.URL)
				p, err := s.Page(ctx, d.Browser)
				if err != nil {
					return nil, err
				}
				if _, err := p.Navigate(ctx, target); err != nil {
					return nil, err
				}
				r.resultf("The page followed to %s", target)
				if err := r.pageState(ctx, s, p, snapFull, browserDefaults, d.MaxSnapshotBytes); err != nil {
					return nil, err
				}
			}
			return r.build(), nil
		})
}

// sameOrigin reports whether two URLs have one origin, as the request
// policy reads origins (netpolicy.OriginOf: default ports, case, IP forms).
func sameOrigin(a, b string) bool {
	oa, ok1 := netpolicy.OriginOf(a)
	ob, ok2 := netpolicy.OriginOf(b)
	return ok1 && ok2 && oa == ob
}

// rebase moves u's path, query and fragment onto base's origin.
func rebase(u, base string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return base
	}
	pb, err := url.Parse(base)
	if err != nil {
		return base
	}
	pu.Scheme, pu.Host = pb.Scheme, pb.Host
	return pu.String()
}

func sessionEndTool(d *Deps) Tool {
	return define(d, "session_end", ToolsetSession,
		"End the session: its dev server (--shutdown) and browser context.",
		annotations{title: "End the session", destructive: true, idempotent: true, openWorld: true},
		func(ctx context.Context, s *Session, _ SessionParams) (*mcp.CallToolResult, error) {
			var r response
			if s.dev != nil {
				s.dev.unwatch()
				res, err := devDo(ctx, s.dev.server, devserver.Shutdown)
				if err != nil {
					return nil, err
				}
				r.resultf("Dev server %s.", res.Status)
				s.dev.stopped()
				s.dev = nil
				s.hasDev.Store(false)
			}
			d.Sessions.remove(ctx, s, "session_end")
			r.resultf("Session %s ended.", s.ID)
			return r.build(), nil
		})
}

// ServerLogsParams are the arguments of server_logs.
type ServerLogsParams struct {
	Stream string `json:"stream,omitempty" jsonschema:"Default combined,enum=combined,enum=stdout,enum=stderr"`
	Lines  int    `json:"lines,omitempty" jsonschema:"Last N lines (default 100, max 2000)"`
	Grep   string `json:"grep,omitempty" jsonschema:"Only lines matching this regex"`
	Since  *int64 `json:"since,omitempty" jsonschema:"Cursor from an earlier call: only newer lines"`
	SessionArg
}

// maxLogLines bounds server_logs.
const maxLogLines = 2000

func serverLogsTool(d *Deps) Tool {
	return define(d, "server_logs", ToolsetSession,
		"The dev server's log: last lines, grep, or new since a cursor.",
		annotations{title: "Dev server logs", readOnly: true, openWorld: false},
		func(_ context.Context, s *Session, a ServerLogsParams) (*mcp.CallToolResult, error) {
			if err := requireDev(s); err != nil {
				return nil, err
			}
			if a.Lines < 0 || a.Lines > maxLogLines {
				return nil, invalidInput("lines", "%d: use 1 to %d", a.Lines, maxLogLines)
			}
			var re *regexp.Regexp
			if a.Grep != "" {
				var err error
				if re, err = regexp.Compile(a.Grep); err != nil {
					return nil, invalidInput("grep", "%v", err)
				}
			}
			// Only the paths the session's command reported are ever read.
			lg := s.dev.result.Logs
			paths := map[string]string{"stdout": lg.Stdout, "stderr": lg.Stderr, "combined": lg.Combined}
			stream := a.Stream
			if stream == "" {
				stream = "combined"
				if lg.Combined == "" {
					stream = "stderr"
				}
			}
			path, ok := paths[stream]
			if !ok {
				return nil, invalidInput("stream", "%q: use stdout, stderr or combined", stream)
			}
			if path == "" {
				var have []string
				for k, v := range paths {
					if v != "" {
						have = append(have, k)
					}
				}
				return nil, &ToolError{Type: ErrInvalidInput, Message: fmt.Sprintf("the dev-server command reported no %s log", stream),
					Suggestion: fmt.Sprintf("streams it reported: %s", strings.Join(have, ", "))}
			}
			since := int64(-1)
			if a.Since != nil {
				since = *a.Since
			}
			c, err := logs.Read(path, logs.ReadOptions{Lines: a.Lines, Grep: re, Since: since})
			if err != nil {
				return nil, &ToolError{Type: ErrInvalidInput, Message: fmt.Sprintf("cannot read the %s log %s: %v", stream, path, err),
					Suggestion: "check session_status: the server may have moved or removed its logs"}
			}
			var r response
			r.resultf("%s log %s: %d line(s)", stream, path, len(c.Lines))
			if c.Reset {
				r.resultf("(the file is shorter than the cursor: it was rotated or truncated; read from its start)")
			}
			if c.Dropped > 0 || c.Skipped > 0 {
				r.resultf("(%d earlier matching line(s) and %d byte(s) left out: narrow with grep or read with since)", c.Dropped, c.Skipped)
			}
			if len(c.Lines) > 0 {
				r.resultf("```\n%s\n```", strings.Join(c.Lines, "\n"))
			}
			r.resultf("Next cursor: %d (pass since=%d to read only what is new)", c.Cursor, c.Cursor)
			r.set("cursor", c.Cursor)
			return r.build(), nil
		})
}

// warmBrowser starts opening the session's browser context (launching the
// browser if needed) while the dev server starts, which takes seconds: the
// first navigation then pays neither the launch nor the tab. The work does
// not touch the session and does not hold up session_start's answer;
// [Session.Tab] takes its result (or waits for it) on the first browser
// tool, and a failure is reported there, as if the tool had opened it.
func (s *Session) warmBrowser(ctx context.Context, d *Deps) {
	if s.tabs != nil || s.warm != nil || d.Browser == nil {
		return
	}
	if s.serveOnly {
		// No tab of its own, but the browser the flows will want.
		go d.Browser.Prelaunch()
		return
	}
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	w := &warmTabs{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(w.done)
		w.tabs, w.err = d.Browser.NewTabs(wctx)
	}()
	s.warm = w
}

// ServeOnly marks session id (made if new) as one that only serves a dev
// server to other sessions, as e2e-mcp run's shared dev server does: its
// session_start opens no browser context ahead of a first browser tool
// that will never come, a renderer kept alive all the run for nothing; it
// only launches the browser, which the other sessions will use.
func (d *Deps) ServeOnly(ctx context.Context, id string) error {
	s, _, err := d.Sessions.acquire(ctx, id, "serve_only")
	if err != nil {
		return err
	}
	defer s.release()
	s.serveOnly = true
	return nil
}

// WarmSession starts opening session id's browser context (made if new),
// as session_start does while a dev server starts, so that its first
// browser tool finds the tab open: e2e-mcp run opens the next flow's while
// one runs. A session that exists already (or ended) is left as it is.
// Ending the session closes what it opened, used or not.
func (d *Deps) WarmSession(ctx context.Context, id string) error {
	if d.Sessions.exists(ctx, id) {
		return nil // begun, or ended: not to be waited for or made again
	}
	s, _, err := d.Sessions.acquire(ctx, id, "warm")
	if err != nil {
		return err
	}
	defer s.release()
	s.warmBrowser(ctx, d)
	return nil
}

// allowDevOrigin lets the session's pages reach its dev server whatever the
// request policy's allowlist and private-network default say. It is called
// when the dev server starts or moves, and when the browser context opens.
func (s *Session) allowDevOrigin() {
	if s.tabs != nil && s.dev != nil && s.dev.result != nil && s.dev.result.URL != "" {
		_ = s.tabs.AllowOrigin(s.dev.result.URL)
	}
}
