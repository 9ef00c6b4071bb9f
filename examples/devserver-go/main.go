// Command devserver-go is a dev-server command for e2e-mcp, in Go, with the
// standard library only. Copy it into your project, change defaultCmd (or set
// DEV_SERVER_CMD) and build it: go build -o devserver ./devserver-go
//
//	devserver --start | --restart | --status | --shutdown   (no verb: --start)
//
// It prints one JSON object on stdout and exits 0 on success, 1 on failure
// (the contract in e2e-mcp's docs/dev-server.md).
//
// --start runs this same program again, detached, as a supervisor: the
// supervisor starts the dev server with the port in $PORT, copies its output
// to stdout.log, stderr.log and combined.log, records it in state.json, and
// exits when the server does. --start itself returns once the server answers
// HTTP. --shutdown sends SIGTERM to the process group (supervisor and
// server), then SIGKILL after a grace period.
//
// Settings (environment):
//
//	DEV_SERVER_CMD            the command line, split on blanks (no quoting, no
//	                          shell); $PORT in it becomes the port picked
//	DEV_SERVER_DIR            its working directory (default: the current one)
//	DEV_SERVER_STATE_DIR      default: <user cache dir>/devserver-go
//	DEV_SERVER_READY_PATH     the path that must answer HTTP < 500 (default /)
//	DEV_SERVER_START_TIMEOUT  how long --start waits (default 25s)
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

const defaultCmd = "python3 -m http.server $PORT --bind 127.0.0.1"

// stopGrace is how long --shutdown waits after SIGTERM before SIGKILL.
const stopGrace = 10 * time.Second

// answer is the one JSON object printed.
type answer struct {
	Status       string   `json:"status"`
	URL          string   `json:"url,omitempty"`
	Port         int      `json:"port,omitempty"`
	PID          int      `json:"pid,omitempty"`
	StartedAt    string   `json:"startedAt,omitempty"`
	Uptime       *float64 `json:"uptime,omitempty"`
	Healthy      *bool    `json:"healthy,omitempty"`
	Logs         *logs    `json:"logs,omitempty"`
	PreviousPID  int      `json:"previousPid,omitempty"`
	PreviousPort int      `json:"previousPort,omitempty"`
	StoppedAt    string   `json:"stoppedAt,omitempty"`
	Error        string   `json:"error,omitempty"`
	Message      string   `json:"message"`
}

type logs struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	Combined string `json:"combined"`
}

// state is state.json, written by the supervisor.
type state struct {
	PID           int       `json:"pid"`           // the dev server
	SupervisorPID int       `json:"supervisorPid"` // leader of the process group
	Port          int       `json:"port"`
	URL           string    `json:"url"`
	StartedAt     time.Time `json:"startedAt"`
}

// failure is an error answer: {"status":"error","error":kind,...}.
type failure struct{ kind, msg string }

func (f *failure) Error() string { return f.kind + ": " + f.msg }

var (
	stateDir   string
	readyPath  = envOr("DEV_SERVER_READY_PATH", "/")
	theLogs    logs
	statePath  string
	httpClient = &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
)

func main() {
	verb := "--start"
	if n := len(os.Args); n > 1 {
		verb = os.Args[n-1]
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	stateDir = envOr("DEV_SERVER_STATE_DIR", filepath.Join(dir, "devserver-go"))
	if stateDir, err = filepath.Abs(stateDir); err == nil {
		err = os.MkdirAll(stateDir, 0o700)
	}
	statePath = filepath.Join(stateDir, "state.json")
	theLogs = logs{filepath.Join(stateDir, "stdout.log"), filepath.Join(stateDir, "stderr.log"), filepath.Join(stateDir, "combined.log")}
	if verb == "__supervise" { // internal: run by --start
		os.Exit(supervise())
	}
	var res *answer
	if err == nil {
		switch verb {
		case "--start":
			res, err = start(false)
		case "--restart":
			res, err = start(true)
		case "--status":
			res = status()
		case "--shutdown":
			res, err = shutdown()
		default:
			err = &failure{"usage", "unknown verb " + verb + "; use --start, --restart, --status or --shutdown"}
		}
	}
	out := json.NewEncoder(os.Stdout)
	if err != nil {
		var f *failure
		if !errors.As(err, &f) {
			f = &failure{"io_error", err.Error()}
		}
		_ = out.Encode(answer{Status: "error", Error: f.kind, Message: f.msg, Logs: &theLogs})
		os.Exit(1)
	}
	_ = out.Encode(res)
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func loadState() *state {
	b, err := os.ReadFile(statePath)
	if err != nil {
		return nil
	}
	var st state
	if json.Unmarshal(b, &st) != nil || st.PID == 0 {
		return nil
	}
	return &st
}

// saveState writes state.json atomically: a temporary file, then rename.
func saveState(st *state) error {
	b, _ := json.Marshal(st)
	tmp := statePath + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, statePath)
}

func (st *state) answer(status, msg string) *answer {
	up := time.Since(st.StartedAt).Round(time.Millisecond).Seconds()
	return &answer{Status: status, URL: st.URL, Port: st.Port, PID: st.PID, StartedAt: st.StartedAt.UTC().Format(time.RFC3339),
		Uptime: &up, Logs: &theLogs, Message: msg}
}

func healthy(url string) bool {
	resp, err := httpClient.Get(url + readyPath)
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode < 500
}

func freePort(avoid int) (int, error) {
	for range 10 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		port := l.Addr().(*net.TCPAddr).Port
		_ = l.Close()
		if port != avoid {
			return port, nil
		}
	}
	return 0, errors.New("no free port")
}

// start answers --start, or --restart with restart.
func start(restart bool) (*answer, error) {
	old := loadState()
	var prevPID, prevPort int
	status := "ready"
	if old != nil && alive(old.PID) {
		if !restart {
			return old.answer("already_running", fmt.Sprintf("already running (pid %d)", old.PID)), nil
		}
		if _, err := stop(old); err != nil {
			return nil, err
		}
		status = "restarted"
	} else if restart {
		status = "started"
	}
	if old != nil {
		prevPID, prevPort = old.PID, old.Port
		if groupAlive(old.SupervisorPID) { // leftovers of a server that died
			_, _ = stop(old)
		}
		_ = os.Remove(statePath)
	}
	port, err := freePort(prevPort)
	if err != nil {
		return nil, err
	}
	for _, p := range []string{theLogs.Stdout, theLogs.Stderr, theLogs.Combined} {
		_ = os.Rename(p, p+".1") // keep the previous run's logs
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	sup := exec.Command(exe, "__supervise")
	sup.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	sup.SysProcAttr = detached()
	if err := sup.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { _ = sup.Wait(); close(exited) }()

	timeout, err := time.ParseDuration(envOr("DEV_SERVER_START_TIMEOUT", "25s"))
	if err != nil {
		return nil, &failure{"usage", "DEV_SERVER_START_TIMEOUT: " + err.Error()}
	}
	url := "http://localhost:" + strconv.Itoa(port)
	deadline := time.Now().Add(timeout)
	for {
		select {
		case <-exited:
			_ = os.Remove(statePath)
			return nil, &failure{"not_ready", "the dev server exited before it was ready; last output:\n" + tail(theLogs.Combined)}
		default:
		}
		if healthy(url) {
			break
		}
		if time.Now().After(deadline) {
			if st := loadState(); st != nil {
				_, _ = stop(st)
			}
			_ = os.Remove(statePath)
			return nil, &failure{"not_ready", fmt.Sprintf("no answer on %s%s within %s; last output:\n%s", url, readyPath, timeout, tail(theLogs.Combined))}
		}
		time.Sleep(100 * time.Millisecond)
	}
	st := loadState()
	if st == nil {
		return nil, &failure{"io_error", "the supervisor did not record the server"}
	}
	res := st.answer(status, fmt.Sprintf("%s: %s", status, envOr("DEV_SERVER_CMD", defaultCmd)))
	res.Uptime = nil
	res.PreviousPID, res.PreviousPort = prevPID, prevPort
	if !restart {
		res.PreviousPID, res.PreviousPort = 0, 0
	}
	return res, nil
}

// supervise runs the dev server and copies its output to the logs until it
// exits. It is the leader of the server's process group.
func supervise() int {
	// Outlive SIGTERM to the group, to log the server's last words. (Caught,
	// not ignored: the server must not inherit an ignored SIGTERM.)
	signal.Notify(make(chan os.Signal, 1), stopSignals...)
	port, _ := strconv.Atoi(os.Getenv("PORT"))
	args := strings.Fields(envOr("DEV_SERVER_CMD", defaultCmd))
	for i, a := range args {
		args[i] = strings.ReplaceAll(strings.ReplaceAll(a, "${PORT}", strconv.Itoa(port)), "$PORT", strconv.Itoa(port))
	}
	var files [3]*os.File
	for i, p := range []string{theLogs.Stdout, theLogs.Stderr, theLogs.Combined} {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|os.O_APPEND, 0o600)
		if err != nil {
			return 1
		}
		files[i] = f
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = os.Getenv("DEV_SERVER_DIR")
	var mu sync.Mutex
	cmd.Stdout = teeWriter{files[0], files[2], &mu}
	cmd.Stderr = teeWriter{files[1], files[2], &mu}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(cmd.Stderr, "devserver: cannot start %q: %v\n", args[0], err)
		return 1
	}
	st := &state{PID: cmd.Process.Pid, SupervisorPID: os.Getpid(), Port: port, URL: "http://localhost:" + strconv.Itoa(port), StartedAt: time.Now()}
	if err := saveState(st); err != nil {
		_ = cmd.Process.Kill()
		return 1
	}
	_ = cmd.Wait()
	return 0
}

// teeWriter writes to a stream's log and to the combined log.
type teeWriter struct {
	own, combined *os.File
	mu            *sync.Mutex
}

func (t teeWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, _ = t.combined.Write(b)
	return t.own.Write(b)
}

func status() *answer {
	st := loadState()
	if st == nil || !alive(st.PID) {
		return &answer{Status: "stopped", Message: "not running"}
	}
	ok := healthy(st.URL)
	res := st.answer("running", "running and healthy")
	res.Healthy = &ok
	if !ok {
		res.Status, res.Message = "unhealthy", "the process runs but "+st.URL+readyPath+" does not answer"
	}
	return res
}

func shutdown() (*answer, error) {
	now := time.Now().UTC().Format(time.RFC3339)
	st := loadState()
	if st == nil || (!alive(st.PID) && !groupAlive(st.SupervisorPID)) {
		_ = os.Remove(statePath)
		return &answer{Status: "already_stopped", StoppedAt: now, Message: "not running"}, nil
	}
	up := time.Since(st.StartedAt).Round(time.Millisecond).Seconds()
	forced, err := stop(st)
	if err != nil {
		return nil, err
	}
	res := &answer{Status: "stopped", PreviousPID: st.PID, PreviousPort: st.Port, StoppedAt: now, Uptime: &up,
		Message: fmt.Sprintf("stopped pid %d", st.PID)}
	if forced {
		res.Status, res.Message = "force_stopped", fmt.Sprintf("pid %d ignored SIGTERM for %s and was killed", st.PID, stopGrace)
	}
	return res, nil
}

// stop ends the supervisor's process group: SIGTERM, then SIGKILL after
// stopGrace. It reports whether SIGKILL was needed.
func stop(st *state) (forced bool, err error) {
	defer func() { _ = os.Remove(statePath) }()
	terminate(st.SupervisorPID, false)
	if waitGone(st, stopGrace) {
		return false, nil
	}
	terminate(st.SupervisorPID, true)
	if waitGone(st, 3*time.Second) {
		return true, nil
	}
	return true, &failure{"timeout", fmt.Sprintf("pid %d survived SIGKILL", st.PID)}
}

func waitGone(st *state, limit time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	for alive(st.PID) || groupAlive(st.SupervisorPID) {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
	return true
}

// tail returns the last lines of a log.
func tail(path string) string {
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	return strings.Join(lines, "\n")
}
