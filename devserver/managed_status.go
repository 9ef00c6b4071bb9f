package devserver

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"
)

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
