package devserver

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/e2e-mcp/e2e-mcp/redact"
)

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
	msg := fmt.Sprintf("dev server `%s` %s", redact.CommandLine(st.Run), why)
	if tail := tailFile(st.Logs.Combined, 20, 4<<10); tail != "" {
		msg += "; last output:\n" + tail
	} else {
		msg += "; it printed nothing"
	}
	return &Error{Kind: KindNotReady, Verb: verb, Message: msg, Stderr: tailFile(st.Logs.Stderr, 50, 8<<10), Logs: st.Logs}
}
