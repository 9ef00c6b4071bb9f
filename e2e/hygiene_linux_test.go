package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
)

// rawServer is the binary spoken to with JSON-RPC lines, so the test owns
// the process: its stdin, its PID and its signals.
type rawServer struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	out     *bufio.Scanner
	stdoutR io.Closer // our ends of its stdout and stderr
	stderrR io.Closer
	stderr  *lockedBuffer
	done    chan error
}

func startRaw(t *testing.T, env []string) *rawServer {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderrR, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{cmd: cmd, stdin: stdin, stdoutR: stdout, stderrR: stderrR, stderr: &lockedBuffer{}, done: make(chan error, 1)}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(s.stderr, stderrR) }()
	s.out = bufio.NewScanner(stdout)
	s.out.Buffer(make([]byte, 1<<20), 16<<20)
	go func() { s.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr.String())
		}
	})
	return s
}

func (s *rawServer) send(t *testing.T, msg string) {
	t.Helper()
	if _, err := io.WriteString(s.stdin, msg+"\n"); err != nil {
		t.Fatalf("write to server: %v", err)
	}
}

// await reads lines until the response with this id; the scanner ends with
// the process, so a dead server fails the test instead of hanging it.
func (s *rawServer) await(t *testing.T, id int) string {
	t.Helper()
	for s.out.Scan() {
		line := s.out.Text()
		var m struct {
			ID *int `json:"id"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.ID != nil && *m.ID == id {
			return line
		}
	}
	t.Fatalf("server closed stdout before answering request %d", id)
	return ""
}

// openBrowser initializes the server and has it launch Chrome.
func (s *rawServer) openBrowser(t *testing.T, url string) {
	t.Helper()
	s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"hygiene","version":"1"}}}`)
	s.await(t, 1)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"browser_navigate","arguments":{"url":%q}}}`, url))
	if resp := s.await(t, 2); strings.Contains(resp, `"isError":true`) {
		t.Fatalf("navigate failed: %s", resp)
	}
}

func (s *rawServer) waitExit(t *testing.T, within time.Duration) {
	t.Helper()
	select {
	case <-s.done:
	case <-time.After(within):
		t.Fatalf("server did not exit within %s", within)
	}
}

// chromeProcesses lists the live processes whose command line names a
// profile under tmp: the Chrome a server with TMPDIR=tmp started, and all
// its children (Chrome passes --user-data-dir to each).
func chromeProcesses(tmp string) []string {
	ps := proctest.MustFind(proctest.CmdlineContains("--user-data-dir=" + tmp + "/"))
	var found []string
	for _, p := range ps {
		name := p.Cmdline
		if i := strings.IndexByte(p.Cmdline, 0); i > 0 {
			name = p.Cmdline[:i]
		}
		found = append(found, fmt.Sprintf("%d %s", p.PID, filepath.Base(name)))
	}
	return found
}

// requireNoChrome waits, bounded, for the processes to go: after their
// parent dies Chrome's helpers notice and exit on their own, shortly.
func requireNoChrome(t *testing.T, tmp string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		left := chromeProcesses(tmp)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d Chrome processes left %s after the server ended: %v", len(left), within, left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func profiles(tmp string) []string {
	m, _ := filepath.Glob(filepath.Join(tmp, "e2e-mcp-chrome-*"))
	return m
}

func TestNoChromeLeft(t *testing.T) {
	f := newFixture(t)
	ends := []struct {
		name    string
		end     func(t *testing.T, s *rawServer)
		orderly bool
	}{
		{"stdin EOF", func(t *testing.T, s *rawServer) { _ = s.stdin.Close() }, true},
		{"SIGTERM", func(t *testing.T, s *rawServer) { _ = s.cmd.Process.Signal(syscall.SIGTERM) }, true},
		{"SIGINT", func(t *testing.T, s *rawServer) { _ = s.cmd.Process.Signal(syscall.SIGINT) }, true},
		// Clients often close all their pipes at once; our shutdown then logs
		// to a stderr nobody reads, which must not kill us before cleanup.
		{"all pipes closed", func(t *testing.T, s *rawServer) {
			_ = s.stdoutR.Close()
			_ = s.stderrR.Close()
			_ = s.stdin.Close()
		}, true},
		{"SIGKILL", func(t *testing.T, s *rawServer) { _ = s.cmd.Process.Kill() }, false},
	}
	for _, tc := range ends {
		t.Run(tc.name, func(t *testing.T) {
			env, tmp := serverEnv(t)
			s := startRaw(t, env)
			s.openBrowser(t, f.URL+"/signup.html")
			if n := len(chromeProcesses(tmp)); n == 0 {
				t.Fatal("no Chrome process found for the server: the count below would prove nothing")
			}
			if len(profiles(tmp)) != 1 {
				t.Fatalf("want 1 profile directory, have %v", profiles(tmp))
			}
			tc.end(t, s)
			s.waitExit(t, 20*time.Second)
			requireNoChrome(t, tmp, 10*time.Second)
			if !tc.orderly {
				// A killed server cannot clean up; the next one must.
				left := profiles(tmp)
				if len(left) != 1 {
					t.Fatalf("want the killed server's profile left behind, have %v", left)
				}
				next := startRaw(t, env)
				next.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"hygiene","version":"1"}}}`)
				next.await(t, 1)
				// The next server removes it alongside answering initialize.
				waitFor(t, 10*time.Second, "the next server to remove the stale profile "+left[0], func() bool {
					_, err := os.Stat(left[0])
					return os.IsNotExist(err)
				})
				_ = next.stdin.Close()
				next.waitExit(t, 20*time.Second)
				if left := chromeTemps(tmp, s.cmd.Process.Pid, next.cmd.Process.Pid); len(left) != 0 {
					t.Errorf("Chrome's temp directories left after a kill and the next start: %v", left)
				}
				return
			}
			if left := profiles(tmp); len(left) != 0 {
				t.Errorf("profile directories left after an orderly exit: %v", left)
			}
			if left := chromeTemps(tmp, s.cmd.Process.Pid); len(left) != 0 {
				t.Errorf("Chrome's temp directories left after an orderly exit: %v", left)
			}
		})
	}
}

// chromeTemps are the directories Chrome makes in its TMPDIR (its singleton
// socket's): they must go with the profile, not pile up in the temp dir. A
// long temp dir makes the server give Chrome a directory of its own under
// /tmp instead, named after the server's pid: those count too.
func chromeTemps(tmp string, pids ...int) []string {
	m, _ := filepath.Glob(filepath.Join(tmp, "org.chromium.Chromium.*"))
	for _, pid := range pids {
		more, _ := filepath.Glob(fmt.Sprintf("/tmp/e2e-mcp-chrome-%d-*", pid))
		m = append(m, more...)
	}
	return m
}
