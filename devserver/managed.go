package devserver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/redact"
)

// ManagedSpec describes a dev server the managed runner starts from a plain
// command line, for projects without a contract command of their own.
type ManagedSpec struct {
	// Name identifies the server; it names the default state directory.
	Name string
	// Run is the command line, e.g. "npm run dev -- --port $PORT". It is split
	// with shell quoting rules but run without a shell; $PORT and ${PORT} in it
	// become the port picked for the server, and PORT is set in its
	// environment. Leading NAME=value words set environment variables. It may
	// be empty for status and shutdown (start reuses the command of the state).
	Run string
	// Dir is the working directory (default: the current one).
	Dir string
	// Env are extra KEY=VALUE environment variables; PORT here pins the port.
	Env []string
	// ReadyPath is the path probed over HTTP for readiness and health
	// (default: the announced URL's path, or "/"). Any status below 500 is ready.
	ReadyPath string
	// ReadyPattern, when set, is a regular expression: the server is ready
	// when a line of its output matches and its port accepts connections.
	ReadyPattern string
	// StateDir keeps state.json, the lock and the log files (default:
	// [DefaultStateDir] of Name).
	StateDir string
	// StartTimeout bounds the wait for readiness (default 30 s).
	StartTimeout time.Duration
	// Detach starts the server in a session of its own, so that it outlives
	// this process (the devserver subcommand, run once per verb). Without it
	// the server dies with this process (Linux: Pdeathsig).
	Detach bool
}

// DefaultStartTimeout bounds a managed server's wait for readiness.
const DefaultStartTimeout = 30 * time.Second

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// DefaultStateDir is where a managed server called name keeps its state:
// devservers/<name> under [StateBase].
func DefaultStateDir(name string) (string, error) {
	if !nameRE.MatchString(name) {
		return "", fmt.Errorf("invalid dev server name %q: use letters, digits, '.', '_' and '-'", name)
	}
	base, err := StateBase()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "devservers", name), nil
}

// StateBase is e2e-mcp's per-user state directory: $XDG_STATE_HOME/e2e-mcp,
// else ~/.local/state/e2e-mcp (%LocalAppData%\e2e-mcp on Windows).
func StateBase() (string, error) {
	base := os.Getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(base) {
		if runtime.GOOS == "windows" && os.Getenv("LocalAppData") != "" {
			base = os.Getenv("LocalAppData")
		} else {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", fmt.Errorf("no state directory: %w", err)
			}
			base = filepath.Join(home, ".local", "state")
		}
	}
	return filepath.Join(base, "e2e-mcp"), nil
}

// Managed runs a dev server from a command line and answers the contract's
// verbs for it. Its state lives in files, so another process (the
// subcommand, run once per verb) can answer for a server this one started.
type Managed struct {
	spec  ManagedSpec
	ready *regexp.Regexp

	busy chan struct{} // one verb at a time in this process (the lock file is for others)
	mu   sync.Mutex
	kids map[int]*child // processes this value started and reaps

	noSockets bool // tests: find the server from its output and PORT only
}

// child is a process this Managed started: done closes when it was reaped.
type child struct {
	done chan struct{}
	err  error // cmd.Wait's error, set before done closes
}

// NewManaged checks spec and fills in its defaults.
func NewManaged(spec ManagedSpec) (*Managed, error) {
	if spec.Name == "" {
		spec.Name = "default"
	}
	if !nameRE.MatchString(spec.Name) {
		return nil, fmt.Errorf("invalid dev server name %q: use letters, digits, '.', '_' and '-'", spec.Name)
	}
	if spec.Dir == "" {
		spec.Dir = "."
	}
	dir, err := filepath.Abs(spec.Dir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("working directory %s: not a directory", dir)
	}
	spec.Dir = dir
	env := spec.Env
	if spec.Run != "" {
		words, err := splitCommandLine(spec.Run, nil)
		if err != nil {
			return nil, fmt.Errorf("command line: %w", err)
		}
		assigns, argv := splitAssignments(words)
		if len(argv) == 0 {
			return nil, errors.New("command line: no command")
		}
		env = append(append([]string{}, env...), assigns...)
	}
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("environment entry %q: want KEY=VALUE", redact.CommandLine(kv))
		}
		if p, err := strconv.Atoi(v); k == "PORT" && (err != nil || p < 1 || p > 65535) {
			return nil, fmt.Errorf("PORT=%s is not a port", v)
		}
	}
	if spec.ReadyPath != "" && !strings.HasPrefix(spec.ReadyPath, "/") {
		spec.ReadyPath = "/" + spec.ReadyPath
	}
	m := &Managed{spec: spec, kids: map[int]*child{}, busy: make(chan struct{}, 1)}
	if spec.ReadyPattern != "" {
		if m.ready, err = regexp.Compile(spec.ReadyPattern); err != nil {
			return nil, fmt.Errorf("ready pattern: %w", err)
		}
	}
	if spec.StateDir == "" {
		if spec.StateDir, err = DefaultStateDir(spec.Name); err != nil {
			return nil, err
		}
	}
	if m.spec.StateDir, err = filepath.Abs(spec.StateDir); err != nil {
		return nil, err
	}
	if m.spec.StartTimeout <= 0 {
		m.spec.StartTimeout = DefaultStartTimeout
	}
	return m, nil
}

// Spec returns the spec with its defaults filled in.
func (m *Managed) Spec() ManagedSpec { return m.spec }

// Do runs a verb. Without a deadline on ctx, the verb gets the contract's
// timeout (start: StartTimeout plus a margin).
func (m *Managed) Do(ctx context.Context, verb Verb) (*Result, error) {
	if verb == "" {
		verb = Start
	}
	if _, ok := ctx.Deadline(); !ok {
		budget := DefaultTimeouts.For(verb)
		switch verb {
		case Start:
			budget = max(budget, m.spec.StartTimeout+5*time.Second)
		case Restart:
			budget = max(budget, DefaultTimeouts.Shutdown+m.spec.StartTimeout+5*time.Second)
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	switch verb {
	case Status:
		return m.status(ctx)
	case Start, Restart, Shutdown:
	default:
		return nil, fmt.Errorf("devserver: unknown verb %q", verb)
	}
	busy := &Error{Kind: KindTimeout, Verb: verb, Message: "another verb on this dev server is still running (lock " + filepath.Join(m.spec.StateDir, "lock") + ")"}
	select {
	case m.busy <- struct{}{}:
		defer func() { <-m.busy }()
	case <-ctx.Done():
		return nil, busy
	}
	if err := os.MkdirAll(m.spec.StateDir, 0o700); err != nil {
		return nil, m.ioErr(verb, err)
	}
	unlock, err := lockFile(ctx, filepath.Join(m.spec.StateDir, "lock"))
	if err != nil {
		if ctx.Err() != nil {
			return nil, busy
		}
		return nil, m.ioErr(verb, err)
	}
	defer unlock()
	st, err := m.loadState()
	if err != nil {
		return nil, m.ioErr(verb, err)
	}
	switch verb {
	case Start:
		return m.start(ctx, Start, st)
	case Restart:
		return m.restart(ctx, st)
	}
	return m.shutdown(ctx, st)
}

func (m *Managed) ioErr(verb Verb, err error) *Error {
	return &Error{Kind: KindIO, Verb: verb, Message: err.Error()}
}

// result is the answer about a server described by st.
func (m *Managed) result(st *state, status, msg string) *Result {
	return &Result{Status: status, URL: st.URL, Port: st.Port, PID: st.PID,
		StartedAt: st.StartedAt.Format(time.RFC3339), Uptime: uptime(st.StartedAt, time.Now()), Logs: st.Logs, Message: msg}
}

func uptime(since, now time.Time) float64 {
	return math.Round(now.Sub(since).Seconds()*1000) / 1000
}
