package devserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
)

// A dev server that a session started must go when the server that
// started it goes, even when that server is killed with SIGKILL before its
// sessions end (MCP clients kill a server a few seconds after closing it).
// A contract command's dev server is the command's own (it runs on after
// --start answers, often in a session of its own), so no signal of ours
// reaches it; a managed server dies with us (Linux: Pdeathsig), but what it
// started may not.
//
// So every dev server a session starts is given to a guard: one small
// process per server, this program started with GuardArg, that reads from
// a pipe whose other end only this process holds. Each dev server is
// watched while it runs and released once its --shutdown has answered.
// When the pipe ends (this process is gone, whatever killed it) the guard
// runs --shutdown for every server still watched, in parallel, each within
// its own shutdown timeout, and exits: a SIGKILL costs the dev servers
// their orderly end's moment, not their end. An orderly exit releases
// every server first, so the guard then exits at once; a --shutdown this
// process gave up on at its exit's deadline is still watched, and the
// guard runs it again on its own time.

// GuardArg is the first argument that makes the program the guard of a
// server's dev servers: see [Guard].
const GuardArg = "__e2e-mcp-guard"

// guardExe is the program that guards dev servers, "" for none (tests,
// the devserver subcommand): then a killed server leaves them running.
var guardExe string

// UseGuard has every dev server [Watch] is given guarded by exe (this
// program, whose main hands GuardArg to [Guard]).
func UseGuard(exe string) { guardExe = exe }

// guardMsg is one line to the guard: a server to watch (Command or
// Managed), or one to forget (Release).
type guardMsg struct {
	ID      int          `json:"id"`
	Command *guardedCmd  `json:"command,omitempty"`
	Managed *ManagedSpec `json:"managed,omitempty"`
	Release bool         `json:"release,omitempty"`
}

// guardedCmd is a contract command as the guard runs it.
type guardedCmd struct {
	Path     string   `json:"path"`
	Args     []string `json:"args,omitempty"`
	Dir      string   `json:"dir,omitempty"`
	Env      []string `json:"env,omitempty"`
	Timeouts Timeouts `json:"timeouts"`
}

// guardPipe is this process's end of the guard's pipe.
type guardPipe struct {
	mu     sync.Mutex
	w      io.WriteCloser
	failed bool // the guard could not start, or went away
	next   int  // the id of the last server watched
}

// theGuard is this process's guard, started by the first Watch.
var theGuard guardPipe

// Watch has the guard shut srv down should this process end before
// release is called; release once srv's --shutdown has answered (or when
// it should no longer be stopped on this process's death). Without a
// guard (UseGuard not called, or it could not start) it does nothing.
func Watch(srv Server) (release func()) {
	msg := guardMsg{}
	switch s := srv.(type) {
	case *Command:
		msg.Command = &guardedCmd{Path: s.Path, Args: s.Args, Dir: s.Dir, Env: s.Env, Timeouts: s.Timeouts}
	case *Managed:
		if s.spec.Detach {
			return func() {} // it outlives this process on purpose
		}
		spec := s.Spec()
		msg.Managed = &spec
	default:
		return func() {}
	}
	g := &theGuard
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.startLocked() {
		return func() {}
	}
	g.next++
	msg.ID = g.next
	if !g.sendLocked(msg) {
		return func() {}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			g.sendLocked(guardMsg{ID: msg.ID, Release: true})
		})
	}
}

// startLocked starts the guard if it does not run yet; it says whether
// one runs. g.mu is held.
func (g *guardPipe) startLocked() bool {
	if g.w != nil || g.failed {
		return g.w != nil
	}
	if guardExe == "" {
		g.failed = true
		return false
	}
	cmd := exec.Command(guardExe, GuardArg)
	// Its own process group: a terminal's Ctrl-C, or a signal to this
	// process's group, is not its end.
	setProcessGroup(cmd)
	w, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		g.failed = true
		return false
	}
	go func() { _ = cmd.Wait() }()
	g.w = w
	return true
}

// sendLocked writes one line to the guard; a guard that went away is
// given up. g.mu is held.
func (g *guardPipe) sendLocked(m guardMsg) bool {
	if g.w == nil {
		return false
	}
	b, _ := json.Marshal(m)
	if _, err := g.w.Write(append(b, '\n')); err != nil {
		_ = g.w.Close()
		g.w, g.failed = nil, true
		return false
	}
	return true
}

// Guard is the guard's whole program: it reads what to watch from stdin
// until it ends, then shuts down every server still watched and returns
// the exit status.
func Guard(stdin io.Reader) int {
	// A terminal's signals are for the server, which ends its own dev
	// servers; the guard waits for the pipe.
	signal.Ignore(syscall.SIGINT, syscall.SIGHUP)
	if exe, err := os.Executable(); err == nil {
		// The verbs it runs die with it, should it be killed.
		UseSupervisor(exe)
	}
	watched := map[int]guardMsg{}
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		var m guardMsg
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		if m.Release {
			delete(watched, m.ID)
		} else {
			watched[m.ID] = m
		}
	}
	var wg sync.WaitGroup
	failed := false
	var mu sync.Mutex
	for _, m := range watched {
		wg.Go(func() {
			if err := m.shutdown(); err != nil {
				mu.Lock()
				failed = true
				mu.Unlock()
				fmt.Fprintln(os.Stderr, "e2e-mcp guard:", err)
			}
		})
	}
	wg.Wait()
	if failed {
		return 1
	}
	return 0
}

// shutdown stops a watched server the way its session would have.
func (m guardMsg) shutdown() error {
	switch {
	case m.Command != nil:
		c := &Command{Path: m.Command.Path, Args: m.Command.Args, Dir: m.Command.Dir, Env: m.Command.Env, Timeouts: m.Command.Timeouts}
		_, err := c.Do(context.Background(), Shutdown)
		return err
	case m.Managed != nil:
		mg, err := NewManaged(*m.Managed)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), DefaultTimeouts.Shutdown)
		defer cancel()
		_, err = mg.Do(ctx, Shutdown)
		return err
	}
	return errors.New("nothing to shut down")
}
