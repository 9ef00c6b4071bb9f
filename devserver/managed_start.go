package devserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/redact"
)

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
		redact.CommandLine(st.Run), st.PID, st.URL, time.Since(begin).Seconds(), found.note)), nil
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
		return nil, &Error{Kind: kind, Verb: verb, Message: fmt.Sprintf("cannot run %q in %s: %v", redact.CommandLine(argv[0]), m.spec.Dir, redact.Err(err)), Logs: logs}
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
	msg := fmt.Sprintf("%s `%s` (pid %d): ready at %s in %.1fs (%s)", what, redact.CommandLine(run), pid, st.URL, time.Since(begin).Seconds(), found.note)
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
