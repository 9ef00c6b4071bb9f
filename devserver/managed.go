package devserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
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
// $XDG_STATE_HOME/e2e-mcp/devservers/<name>, else
// ~/.local/state/e2e-mcp/devservers/<name> (%LocalAppData%\e2e-mcp\... on
// Windows).
func DefaultStateDir(name string) (string, error) {
	if !nameRE.MatchString(name) {
		return "", fmt.Errorf("invalid dev server name %q: use letters, digits, '.', '_' and '-'", name)
	}
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
	return filepath.Join(base, "e2e-mcp", "devservers", name), nil
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
			return nil, fmt.Errorf("environment entry %q: want KEY=VALUE", kv)
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

// state is what StateDir/state.json keeps between processes.
type state struct {
	Name      string    `json:"name"`
	PID       int       `json:"pid"`
	PGID      int       `json:"pgid"`
	ProcStart string    `json:"procStart,omitempty"` // Linux: the PID's start time, against PID reuse
	Port      int       `json:"port"`
	URL       string    `json:"url,omitempty"`
	Ready     bool      `json:"ready"`
	ReadyBy   string    `json:"readyBy,omitempty"` // http, pattern or port
	StartedAt time.Time `json:"startedAt"`
	Logs      Logs      `json:"logs"`
	Run       string    `json:"run"`
	Dir       string    `json:"dir"`
}

func (m *Managed) statePath() string { return filepath.Join(m.spec.StateDir, "state.json") }

// loadState reads the state file; nil when there is none.
func (m *Managed) loadState() (*state, error) {
	b, err := os.ReadFile(m.statePath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil || st.PID <= 0 {
		return nil, fmt.Errorf("%s: unreadable state (remove it to start over): %v", m.statePath(), err)
	}
	return &st, nil
}

// saveState writes the state file atomically: a temporary file, then rename.
func (m *Managed) saveState(st *state) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(m.spec.StateDir, ".state-*.json")
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), m.statePath())
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
	return err
}

func (m *Managed) clearState() error {
	err := os.Remove(m.statePath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

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

// alive reports whether the server's main process still runs.
func (m *Managed) alive(st *state) bool {
	m.mu.Lock()
	k := m.kids[st.PID]
	m.mu.Unlock()
	if k != nil {
		select {
		case <-k.done:
			return false
		default:
		}
	}
	return procRef{PID: st.PID, Start: st.ProcStart}.alive()
}

// procRef names a process by PID and, where known, start time.
type procRef struct {
	PID   int
	Start string
}

// alive reports whether the process runs and is the one named (not a zombie,
// not a new process that got the PID).
func (p procRef) alive() bool {
	if procAvailable() {
		pi, err := readProcStat(p.PID)
		return err == nil && pi.live() && (p.Start == "" || p.Start == pi.Start)
	}
	return pidAlive(p.PID)
}

// groupOurs reports whether signalling st's process group reaches our
// processes: the leader is ours and alive, or no process holds its PID.
func groupOurs(st *state) bool {
	if st.PGID <= 0 {
		return false
	}
	if st.PGID != st.PID {
		return true
	}
	return procRef{PID: st.PID, Start: st.ProcStart}.alive() || !pidAlive(st.PGID)
}

// members lists the live processes of the server: its main process and
// descendants (while it lives) and its process group (Linux /proc; elsewhere
// just the main process).
func members(st *state) []procRef {
	leader := procRef{PID: st.PID, Start: st.ProcStart}
	leaderAlive := leader.alive()
	if !procAvailable() {
		if leaderAlive {
			return []procRef{leader}
		}
		return nil
	}
	root := -1
	if leaderAlive {
		root = st.PID
	}
	var out []procRef
	for _, p := range processTree(root, st.PGID) {
		if p.PID == st.PID && !leaderAlive {
			continue // someone else's process that got the PID
		}
		out = append(out, procRef{PID: p.PID, Start: p.Start})
	}
	return out
}

// groupLeft reports, where /proc cannot list the group, whether the server's
// process group still has members.
func groupLeft(st *state) bool {
	return !procAvailable() && groupOurs(st) && groupAlive(st.PGID)
}

func (m *Managed) start(ctx context.Context, verb Verb, st *state) (*Result, error) {
	if st != nil {
		if m.alive(st) && !st.Ready {
			// A start that was cut short (its process killed on timeout) left
			// the server starting: wait for it again.
			return m.resume(ctx, st)
		}
		if m.alive(st) {
			return m.result(st, "already_running", fmt.Sprintf("already running (pid %d) at %s", st.PID, st.URL)), nil
		}
		// A server that exited: clean up what is left of it and start over.
		_, _ = m.stop(ctx, st, 0)
		if err := m.clearState(); err != nil {
			return nil, m.ioErr(verb, err)
		}
	}
	return m.launch(ctx, verb, st, 0, false)
}

// resume waits for a server whose start was interrupted to be ready.
func (m *Managed) resume(ctx context.Context, st *state) (*Result, error) {
	begin := time.Now()
	found, err := m.waitReady(ctx, Start, st, st.Port, true)
	if err != nil {
		m.kill(st)
		_ = m.clearState()
		return nil, err
	}
	st.URL, st.Port, st.Ready, st.ReadyBy = found.url, found.port, true, found.by
	if err := m.saveState(st); err != nil {
		return nil, m.ioErr(Start, err)
	}
	return m.result(st, "ready", fmt.Sprintf("`%s` (pid %d), whose start was interrupted, is ready at %s after %.1fs more (%s)",
		st.Run, st.PID, st.URL, time.Since(begin).Seconds(), found.note)), nil
}

// launch starts the server, waits until it is ready and records it. prev is
// the state of the previous run, if any; avoid is a port not to pick (the
// previous one, on restart); restarted says a running server was stopped.
func (m *Managed) launch(ctx context.Context, verb Verb, prev *state, avoid int, restarted bool) (*Result, error) {
	begin := time.Now()
	run := m.spec.Run
	if run == "" && prev != nil {
		run = prev.Run
	}
	if run == "" {
		return nil, &Error{Kind: KindCommandNotFound, Verb: verb, Message: "no command line to run: give the dev server's command"}
	}
	words, err := splitCommandLine(run, nil)
	if err != nil {
		return nil, &Error{Kind: KindCommandNotFound, Verb: verb, Message: "command line: " + err.Error()}
	}
	assigns, _ := splitAssignments(words)
	env := append(append([]string{}, m.spec.Env...), assigns...)
	port, pinned := 0, false
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PORT="); ok {
			port, err = strconv.Atoi(v)
			if err != nil || port < 1 || port > 65535 {
				return nil, &Error{Kind: KindCommandNotFound, Verb: verb, Message: fmt.Sprintf("PORT=%s is not a port", v)}
			}
			pinned = true
		}
	}
	if !pinned {
		if port, err = freePort(avoid); err != nil {
			return nil, m.ioErr(verb, err)
		}
		env = append(env, "PORT="+strconv.Itoa(port))
	}
	words, _ = splitCommandLine(run, func(name string) (string, bool) {
		if name == "PORT" {
			return strconv.Itoa(port), true
		}
		return "", false
	})
	_, argv := splitAssignments(words)

	if err := os.MkdirAll(m.spec.StateDir, 0o700); err != nil {
		return nil, m.ioErr(verb, err)
	}
	logs, files, err := openLogs(m.spec.StateDir)
	if err != nil {
		return nil, m.ioErr(verb, err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = m.spec.Dir
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = sysProcAttr(m.spec.Detach)
	if err := m.spawn(cmd, files); err != nil {
		kind := KindNonZeroExit
		switch {
		case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
			kind = KindCommandNotFound
		case errors.Is(err, fs.ErrPermission):
			kind = KindPermissionDenied
		}
		return nil, &Error{Kind: kind, Verb: verb, Message: fmt.Sprintf("cannot run %q in %s: %v", argv[0], m.spec.Dir, err), Logs: logs}
	}
	pid := cmd.Process.Pid
	st := &state{Name: m.spec.Name, PID: pid, PGID: processGroup(pid), Port: port, StartedAt: time.Now().UTC(),
		Logs: logs, Run: run, Dir: m.spec.Dir}
	if pi, err := readProcStat(pid); err == nil {
		st.ProcStart = pi.Start
	}
	// Recorded before it is ready, so that a shutdown can find it whatever
	// happens to this process meanwhile.
	if err := m.saveState(st); err != nil {
		m.kill(st)
		return nil, m.ioErr(verb, err)
	}
	found, err := m.waitReady(ctx, verb, st, port, pinned)
	if err != nil {
		m.kill(st)
		_ = m.clearState()
		return nil, err
	}
	st.URL, st.Port, st.Ready, st.ReadyBy = found.url, found.port, true, found.by
	if err := m.saveState(st); err != nil {
		m.kill(st)
		return nil, m.ioErr(verb, err)
	}
	status, what := "ready", "started"
	switch {
	case restarted:
		status, what = "restarted", "restarted"
	case verb == Restart:
		status = "started"
	}
	msg := fmt.Sprintf("%s `%s` (pid %d): ready at %s in %.1fs (%s)", what, run, pid, st.URL, time.Since(begin).Seconds(), found.note)
	if found.port != port {
		msg += fmt.Sprintf("; it did not take PORT=%d and listens on %d", port, found.port)
	}
	res := m.result(st, status, msg)
	res.Uptime = 0
	if verb == Restart && prev != nil {
		res.PreviousPID, res.PreviousPort = prev.PID, prev.Port
	}
	return res, nil
}

// spawn starts cmd with its output going to the log files: through pipes
// copied by goroutines, or with Detach by a relay process that outlives us.
func (m *Managed) spawn(cmd *exec.Cmd, files [3]*os.File) error {
	closeAll := func(fs ...*os.File) {
		for _, f := range fs {
			_ = f.Close()
		}
	}
	if m.spec.Detach && !canRelay {
		// No way to hand pipes to a relay: the server writes the files itself.
		cmd.Stdout, cmd.Stderr = files[0], files[1]
		_, _ = io.WriteString(files[2], "(combined output is not recorded for detached servers on this platform; see the stdout and stderr logs)\n")
		err := cmd.Start()
		closeAll(files[:]...)
		if err == nil {
			m.reap(cmd)
		}
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(files[:]...)
		return err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(append(files[:], outR, outW)...)
		return err
	}
	if m.spec.Detach {
		if err := startRelay([]*os.File{outR, errR, files[0], files[1], files[2]}); err != nil {
			closeAll(append(files[:], outR, outW, errR, errW)...)
			return fmt.Errorf("log relay: %w", err)
		}
		closeAll(append(files[:], outR, errR)...)
	} else {
		go copyOutput(outR, errR, files[0], files[1], files[2])
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	closeAll(outW, errW) // the child has its copies; EOF comes when it and its children are gone
	if err == nil {
		m.reap(cmd)
	}
	return err
}

// reap waits for cmd in the background, so that it leaves no zombie.
func (m *Managed) reap(cmd *exec.Cmd) {
	k := &child{done: make(chan struct{})}
	m.mu.Lock()
	m.kids[cmd.Process.Pid] = k
	m.mu.Unlock()
	go func() {
		k.err = cmd.Wait()
		close(k.done)
		time.AfterFunc(time.Minute, func() {
			m.mu.Lock()
			if m.kids[cmd.Process.Pid] == k {
				delete(m.kids, cmd.Process.Pid)
			}
			m.mu.Unlock()
		})
	}()
}

// copyOutput copies a server's stdout and stderr to their log files and
// both to the combined log, until both pipes are closed.
func copyOutput(outR, errR, outF, errF, combF *os.File) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	// Each stream goes to the combined log in whole lines, so that a line
	// of one stream is never cut by the other's (Python's print writes the
	// text and its newline separately). A partial line is written after
	// 200 ms without more output, so prompts still show.
	const partialWait = 200 * time.Millisecond
	combine := func(b []byte) {
		mu.Lock()
		_, _ = combF.Write(b)
		mu.Unlock()
	}
	pump := func(r, f *os.File) {
		defer wg.Done()
		buf := make([]byte, 32<<10)
		var pending []byte
		for {
			if len(pending) > 0 {
				_ = r.SetReadDeadline(time.Now().Add(partialWait))
			} else {
				_ = r.SetReadDeadline(time.Time{})
			}
			n, err := r.Read(buf)
			if n > 0 {
				_, _ = f.Write(buf[:n])
				pending = append(pending, buf[:n]...)
				if i := bytes.LastIndexByte(pending, '\n'); i >= 0 {
					combine(pending[:i+1])
					pending = append(pending[:0], pending[i+1:]...)
				}
			}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				combine(pending)
				pending = pending[:0]
				continue
			}
			if err != nil {
				if len(pending) > 0 {
					combine(pending)
				}
				return
			}
		}
	}
	wg.Add(2)
	go pump(outR, outF)
	go pump(errR, errF)
	wg.Wait()
	for _, f := range []*os.File{outR, errR, outF, errF, combF} {
		_ = f.Close()
	}
}

// relayEnv makes a process started from this binary a log relay (see init).
const relayEnv = "E2E_MCP_DEVSERVER_LOG_RELAY"

// A detached server's output must be copied to the log files after the
// short-lived process that started it has exited. That process re-runs its
// own executable with relayEnv set and the pipes and files as descriptors 3
// to 7; this hook turns it into the relay before main (or a test) runs.
func init() {
	if os.Getenv(relayEnv) == "1" {
		files := make([]*os.File, 5)
		for i := range files {
			files[i] = os.NewFile(uintptr(3+i), "relay-"+strconv.Itoa(i))
		}
		copyOutput(files[0], files[1], files[2], files[3], files[4])
		os.Exit(0)
	}
}

// startRelay starts the relay process with files as descriptors 3 and up.
func startRelay(files []*os.File) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), relayEnv+"=1")
	cmd.ExtraFiles = files
	cmd.SysProcAttr = sysProcAttr(true)
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// openLogs keeps the previous run's logs as *.log.1 and opens new ones.
func openLogs(dir string) (Logs, [3]*os.File, error) {
	logs := Logs{Stdout: filepath.Join(dir, "stdout.log"), Stderr: filepath.Join(dir, "stderr.log"), Combined: filepath.Join(dir, "combined.log")}
	var files [3]*os.File
	for i, p := range []string{logs.Stdout, logs.Stderr, logs.Combined} {
		_ = os.Rename(p, p+".1")
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|os.O_APPEND, 0o600)
		if err != nil {
			for _, g := range files[:i] {
				_ = g.Close()
			}
			return logs, files, err
		}
		files[i] = f
	}
	return logs, files, nil
}

// freePort asks the system for a free port on 127.0.0.1 (and checks that it
// is free on ::1 too, for servers that bind "localhost" there), not avoid.
func freePort(avoid int) (int, error) {
	var lastErr error
	for range 20 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		port := l.Addr().(*net.TCPAddr).Port
		l6, err6 := net.Listen("tcp", net.JoinHostPort("::1", strconv.Itoa(port)))
		if err6 == nil {
			_ = l6.Close()
		}
		_ = l.Close()
		if port == avoid {
			continue
		}
		if err6 != nil && isAddrInUse(err6) {
			lastErr = err6
			continue
		}
		return port, nil
	}
	return 0, fmt.Errorf("no free port: %v", lastErr)
}

func isAddrInUse(err error) bool {
	return err != nil && strings.Contains(strings.ToLower(err.Error()), "address already in use")
}

// found is where a server was found ready.
type found struct {
	url  string
	port int
	by   string // http, pattern or port
	note string
}

// portOpenGrace is how long a port must stay open without a good HTTP
// answer before the server counts as ready anyway (a non-HTTP server, or an
// app that answers 500 while the dev server itself is up).
const portOpenGrace = 5 * time.Second

// otherPortsAfter is when a starting server's unannounced listening ports
// (neither in its output nor the PORT it was given) become candidates.
const otherPortsAfter = 2 * time.Second

// waitReady watches the output and the sockets of a starting server until
// it is ready, exits, or runs out of time.
func (m *Managed) waitReady(ctx context.Context, verb Verb, st *state, port int, pinned bool) (found, error) {
	deadline := time.Now().Add(m.spec.StartTimeout)
	if d, ok := ctx.Deadline(); ok && d.Add(-1500*time.Millisecond).Before(deadline) {
		deadline = d.Add(-1500 * time.Millisecond) // time to clean up and answer
	}
	m.mu.Lock()
	k := m.kids[st.PID]
	m.mu.Unlock()
	out := &lineReader{path: st.Logs.Combined}
	var announced []endpoint
	patternSeen := false
	openSince := map[string]time.Time{}
	lastProblem := "nothing listens yet"
	tick := 20 * time.Millisecond
	for {
		lines, partial := out.read()
		for _, l := range lines {
			clean := stripANSI(l)
			if m.ready != nil && m.ready.MatchString(clean) {
				patternSeen = true
			}
			announced = append(announced, endpointsInLine(clean)...)
		}
		if m.ready != nil && partial != "" && m.ready.MatchString(stripANSI(partial)) {
			patternSeen = true
		}
		exited := k != nil && isDone(k.done)
		if !exited && k == nil && !(procRef{PID: st.PID, Start: st.ProcStart}).alive() {
			exited = true
		}
		if exited {
			time.Sleep(100 * time.Millisecond) // let the output copier write the last words
			return found{}, m.notReady(verb, st, exitText(k))
		}
		var owned []listener
		if procAvailable() && !m.noSockets {
			var pids []int
			for _, p := range processTree(st.PID, st.PGID) {
				pids = append(pids, p.PID)
			}
			owned, _ = listeners(pids)
		}
		assigned := port
		if !pinned && len(owned) > 0 && !hasPort(owned, port) {
			assigned = 0 // it holds sockets, none on the port it was given
		}
		remaining := time.Until(deadline)
		// Ports it holds without announcing them count after a while, when
		// neither its output nor PORT has led anywhere; at once when it said
		// it is ready and holds just one.
		others := time.Since(st.StartedAt) > otherPortsAfter || (patternSeen && len(ownedPorts(owned)) == 1)
		for _, ep := range candidates(announced, assigned, owned, others) {
			if m.ready != nil {
				if o := tryEndpoint(ctx, ep, owned, "", false, 0); o.Open {
					if patternSeen {
						return found{url: o.URL, port: ep.Port, by: "pattern", note: "its output matched the ready pattern"}, nil
					}
					lastProblem = fmt.Sprintf("port %d is open but no output line matched the ready pattern %q yet", ep.Port, m.spec.ReadyPattern)
				}
				continue
			}
			o := tryEndpoint(ctx, ep, owned, m.spec.ReadyPath, true, min(max(remaining, 200*time.Millisecond), 10*time.Second))
			if o.OK() {
				return found{url: o.URL, port: ep.Port, by: "http", note: fmt.Sprintf("HTTP %d on %s", o.Code, m.probePath(ep))}, nil
			}
			if !o.Open {
				continue
			}
			answer := fmt.Sprintf("HTTP %d", o.Code)
			if o.Err != nil {
				answer = o.Err.Error()
			}
			lastProblem = fmt.Sprintf("%s is open but GET %s gave %s", o.URL, m.probePath(ep), answer)
			if openSince[o.URL].IsZero() {
				openSince[o.URL] = time.Now()
			} else if time.Since(openSince[o.URL]) >= min(portOpenGrace, m.spec.StartTimeout/3) {
				return found{url: o.URL, port: ep.Port, by: "port", note: "port open; GET " + m.probePath(ep) + " gave " + answer}, nil
			}
		}
		if ctx.Err() != nil {
			return found{}, &Error{Kind: KindTimeout, Verb: verb, Message: "interrupted before the server was ready: " + ctx.Err().Error(), Logs: st.Logs, Stderr: tailFile(st.Logs.Stderr, 50, 8<<10)}
		}
		if time.Now().After(deadline) {
			return found{}, m.notReady(verb, st, fmt.Sprintf("did not become ready within %s (%s)", m.spec.StartTimeout, lastProblem))
		}
		wait := min(tick, time.Until(deadline))
		if tick < 200*time.Millisecond {
			tick += tick / 2
		}
		var exitCh <-chan struct{}
		if k != nil {
			exitCh = k.done
		}
		select {
		case <-ctx.Done():
		case <-exitCh:
		case <-time.After(max(wait, time.Millisecond)):
		}
	}
}

func (m *Managed) probePath(ep endpoint) string {
	switch {
	case m.spec.ReadyPath != "":
		return m.spec.ReadyPath
	case ep.Path != "":
		return ep.Path
	}
	return "/"
}

func hasPort(ls []listener, port int) bool {
	for _, l := range ls {
		if l.Port == port {
			return true
		}
	}
	return false
}

func isDone(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func exitText(k *child) string {
	if k == nil {
		return "exited before it was ready"
	}
	var ee *exec.ExitError
	if errors.As(k.err, &ee) {
		return "exited before it was ready (" + ee.String() + ")"
	}
	if k.err != nil {
		return "exited before it was ready: " + k.err.Error()
	}
	return "exited before it was ready (exit status 0)"
}

// notReady is the error of a server that did not become ready, with the
// tail of its output.
func (m *Managed) notReady(verb Verb, st *state, why string) *Error {
	msg := fmt.Sprintf("dev server `%s` %s", st.Run, why)
	if tail := tailFile(st.Logs.Combined, 20, 4<<10); tail != "" {
		msg += "; last output:\n" + tail
	} else {
		msg += "; it printed nothing"
	}
	return &Error{Kind: KindNotReady, Verb: verb, Message: msg, Stderr: tailFile(st.Logs.Stderr, 50, 8<<10), Logs: st.Logs}
}

// kill stops a server that failed to start: TERM, then KILL after 2 s.
func (m *Managed) kill(st *state) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = m.stop(ctx, st, 2*time.Second)
}

// stop ends every process of the server: SIGTERM to the group (and to
// descendants that left it), up to grace for them to go, then SIGKILL.
// forced says whether SIGKILL was needed.
func (m *Managed) stop(ctx context.Context, st *state, grace time.Duration) (forced bool, err error) {
	targets := members(st)
	if len(targets) == 0 && !groupLeft(st) {
		return false, nil
	}
	if grace > 0 {
		signalAll(st, targets, false)
		if waitGone(ctx, st, targets, grace) {
			return false, nil
		}
	}
	signalAll(st, append(targets, members(st)...), true)
	if waitGone(ctx, st, targets, 3*time.Second) {
		return grace > 0, nil
	}
	var left []string
	for _, t := range targets {
		if t.alive() {
			left = append(left, strconv.Itoa(t.PID))
		}
	}
	return true, fmt.Errorf("processes %s outlived SIGKILL", strings.Join(left, ", "))
}

// signalAll signals the server's process group, when it is still ours, and
// each of targets.
func signalAll(st *state, targets []procRef, force bool) {
	if groupOurs(st) {
		_ = signalGroup(st.PGID, force)
	}
	for _, t := range targets {
		if t.alive() {
			_ = signalPID(t.PID, force)
		}
	}
}

// waitGone polls until no target and no member of the group is alive.
func waitGone(ctx context.Context, st *state, targets []procRef, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for {
		gone := true
		for _, t := range targets {
			if t.alive() {
				gone = false
				break
			}
		}
		if gone && len(members(st)) == 0 && !groupLeft(st) {
			return true
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false
		}
		time.Sleep(25 * time.Millisecond)
	}
}

func (m *Managed) shutdown(ctx context.Context, st *state) (*Result, error) {
	now := time.Now().UTC()
	if st == nil {
		return &Result{Status: "already_stopped", StoppedAt: now.Format(time.RFC3339), Message: "no dev server was running"}, nil
	}
	res := &Result{PreviousPID: st.PID, PreviousPort: st.Port, Logs: st.Logs, Uptime: uptime(st.StartedAt, now)}
	if !m.alive(st) {
		if _, err := m.stop(ctx, st, 2*time.Second); err != nil {
			return nil, &Error{Kind: KindTimeout, Verb: Shutdown, Message: err.Error(), Logs: st.Logs}
		}
		if err := m.clearState(); err != nil {
			return nil, m.ioErr(Shutdown, err)
		}
		res.Status, res.Uptime = "already_stopped", 0
		res.StoppedAt = now.Format(time.RFC3339)
		res.Message = fmt.Sprintf("the dev server (pid %d) had already exited; its logs are kept", st.PID)
		return res, nil
	}
	grace := 10 * time.Second
	if d, ok := ctx.Deadline(); ok {
		grace = min(grace, max(time.Until(d)-4*time.Second, time.Until(d)/2))
	}
	start := time.Now()
	forced, err := m.stop(ctx, st, grace)
	if err != nil {
		return nil, &Error{Kind: KindTimeout, Verb: Shutdown, Message: err.Error(), Logs: st.Logs}
	}
	if err := m.clearState(); err != nil {
		return nil, m.ioErr(Shutdown, err)
	}
	res.StoppedAt = time.Now().UTC().Format(time.RFC3339)
	if forced {
		res.Status = "force_stopped"
		res.Message = fmt.Sprintf("pid %d did not stop within %s of SIGTERM and was killed (SIGKILL)", st.PID, grace.Round(time.Millisecond))
	} else {
		res.Status = "stopped"
		res.Message = fmt.Sprintf("stopped pid %d (port %d) in %s", st.PID, st.Port, time.Since(start).Round(time.Millisecond))
	}
	return res, nil
}

func (m *Managed) restart(ctx context.Context, st *state) (*Result, error) {
	if st == nil || !m.alive(st) {
		if st != nil {
			_, _ = m.stop(ctx, st, 0)
			if err := m.clearState(); err != nil {
				return nil, m.ioErr(Restart, err)
			}
		}
		return m.launch(ctx, Restart, st, 0, false)
	}
	grace := 10 * time.Second
	if d, ok := ctx.Deadline(); ok {
		grace = min(grace, max(time.Until(d)/4, time.Second))
	}
	if _, err := m.stop(ctx, st, grace); err != nil {
		return nil, &Error{Kind: KindTimeout, Verb: Restart, Message: "stopping the old server: " + err.Error(), Logs: st.Logs}
	}
	if err := m.clearState(); err != nil {
		return nil, m.ioErr(Restart, err)
	}
	return m.launch(ctx, Restart, st, st.Port, true)
}

func (m *Managed) status(ctx context.Context) (*Result, error) {
	st, err := m.loadState()
	if err != nil {
		return nil, m.ioErr(Status, err)
	}
	if st == nil {
		return &Result{Status: "stopped", Message: "not running"}, nil
	}
	if !m.alive(st) {
		return &Result{Status: "stopped", Logs: st.Logs,
			Message: fmt.Sprintf("not running: the dev server (pid %d) has exited; its logs are kept", st.PID)}, nil
	}
	if !st.Ready {
		res := m.result(st, "unhealthy", "starting: not ready yet")
		res.Healthy = new(false)
		return res, nil
	}
	healthy, why := m.health(ctx, st)
	res := m.result(st, "running", "running and healthy ("+why+")")
	res.Healthy = new(healthy)
	if !healthy {
		res.Status, res.Message = "unhealthy", "the process runs but does not answer: "+why
	}
	return res, nil
}

// health probes a running server the way it was found ready.
func (m *Managed) health(ctx context.Context, st *state) (bool, string) {
	timeout := 2 * time.Second
	if d, ok := ctx.Deadline(); ok {
		timeout = min(timeout, max(time.Until(d)-500*time.Millisecond, 100*time.Millisecond))
	}
	u, err := url.Parse(st.URL)
	if err != nil {
		return false, "bad URL in the state: " + err.Error()
	}
	if m.spec.ReadyPath != "" {
		u.Path = m.spec.ReadyPath
	} else if u.Path == "" {
		u.Path = "/"
	}
	target := u.String()
	if st.ReadyBy == "http" {
		code, err := probeHTTP(ctx, target, timeout)
		if err != nil {
			return false, "GET " + target + ": " + err.Error()
		}
		if code >= 500 {
			return false, fmt.Sprintf("GET %s: HTTP %d", target, code)
		}
		return true, fmt.Sprintf("HTTP %d", code)
	}
	if tcpOpen(ctx, u.Host) {
		return true, "port " + strconv.Itoa(st.Port) + " open"
	}
	return false, "port " + strconv.Itoa(st.Port) + " does not accept connections"
}

// result is the answer about a server described by st.
func (m *Managed) result(st *state, status, msg string) *Result {
	return &Result{Status: status, URL: st.URL, Port: st.Port, PID: st.PID,
		StartedAt: st.StartedAt.Format(time.RFC3339), Uptime: uptime(st.StartedAt, time.Now()), Logs: st.Logs, Message: msg}
}

func uptime(since, now time.Time) float64 {
	return math.Round(now.Sub(since).Seconds()*1000) / 1000
}

// lineReader reads the lines added to a log file since the last call.
type lineReader struct {
	path    string
	off     int64
	pending []byte
}

// read returns the complete new lines ('\n' or '\r' ended) and the
// incomplete last one.
func (r *lineReader) read() (lines []string, partial string) {
	f, err := os.Open(r.path)
	if err != nil {
		return nil, string(r.pending)
	}
	defer func() { _ = f.Close() }()
	if _, err := f.Seek(r.off, io.SeekStart); err != nil {
		return nil, string(r.pending)
	}
	b, _ := io.ReadAll(io.LimitReader(f, 1<<20))
	r.off += int64(len(b))
	buf := append(r.pending, b...)
	for {
		i := bytes.IndexAny(buf, "\r\n")
		if i < 0 {
			break
		}
		if i > 0 {
			lines = append(lines, string(buf[:i]))
		}
		buf = buf[i+1:]
	}
	if len(buf) > 4<<10 { // a "line" this long is not an announcement
		buf = nil
	}
	r.pending = append([]byte(nil), buf...)
	return lines, string(r.pending)
}

// tailFile returns up to the last n lines of a file (at most max bytes),
// without terminal escapes.
func tailFile(path string, n, maxBytes int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	off := max(fi.Size()-int64(maxBytes), 0)
	b := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	s := strings.TrimRight(stripANSI(string(b)), "\r\n")
	if off > 0 {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// splitCommandLine splits a command line into words as a POSIX shell does,
// without running one: blanks separate words; '...' is literal; in "..." a
// backslash escapes \ " $ ` and newline; outside quotes a backslash escapes
// any character. With expand, $NAME and ${NAME} outside single quotes become
// expand's value where it has one, and stay as written otherwise.
func splitCommandLine(s string, expand func(name string) (string, bool)) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	rs := []rune(s)
	const (
		plain = iota
		single
		double
	)
	mode := plain
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch mode {
		case single:
			if c == '\'' {
				mode = plain
			} else {
				cur.WriteRune(c)
			}
			continue
		case double:
			switch c {
			case '"':
				mode = plain
			case '\\':
				if i+1 < len(rs) && strings.ContainsRune("\\\"$`\n", rs[i+1]) {
					i++
					if rs[i] != '\n' {
						cur.WriteRune(rs[i])
					}
				} else {
					cur.WriteRune(c)
				}
			case '$':
				i = expandVar(rs, i, &cur, expand)
			default:
				cur.WriteRune(c)
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\'':
			mode, inWord = single, true
		case '"':
			mode, inWord = double, true
		case '\\':
			inWord = true
			if i+1 < len(rs) {
				i++
				if rs[i] != '\n' {
					cur.WriteRune(rs[i])
				}
			}
		case '$':
			inWord = true
			i = expandVar(rs, i, &cur, expand)
		default:
			inWord = true
			cur.WriteRune(c)
		}
	}
	if mode != plain {
		return nil, errors.New("unterminated quote")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// expandVar handles the '$' at rs[i]: it writes the expansion (or the text
// as written) and returns the index of the last rune consumed.
func expandVar(rs []rune, i int, cur *strings.Builder, expand func(string) (string, bool)) int {
	isName := func(r rune, first bool) bool {
		return r == '_' || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z') || (!first && r >= '0' && r <= '9')
	}
	j, braced := i+1, false
	if j < len(rs) && rs[j] == '{' {
		braced, j = true, j+1
	}
	k := j
	for k < len(rs) && isName(rs[k], k == j) {
		k++
	}
	name := string(rs[j:k])
	if name == "" || (braced && (k >= len(rs) || rs[k] != '}')) {
		cur.WriteRune('$')
		return i
	}
	end := k - 1
	if braced {
		end = k
	}
	if expand != nil {
		if v, ok := expand(name); ok {
			cur.WriteString(v)
			return end
		}
	}
	cur.WriteString(string(rs[i : end+1]))
	return end
}

var assignRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// splitAssignments separates leading NAME=value words from the command.
func splitAssignments(words []string) (assigns, argv []string) {
	i := 0
	for i < len(words) && assignRE.MatchString(words[i]) {
		i++
	}
	return words[:i], words[i:]
}
