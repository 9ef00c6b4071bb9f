package devserver

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

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
