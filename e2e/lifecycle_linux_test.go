package e2e

import (
	"fmt"
	"net"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
)

// closeLikeAClient ends a stdio server as the MCP SDKs' stdio transports
// do: stdin closed, SIGTERM 2 s later, SIGKILL 2 s after that, each only
// while the server still runs. It says how long the server took and which
// signal, if any, it needed.
func closeLikeAClient(t *testing.T, s *rawServer) (took time.Duration, needed string) {
	t.Helper()
	start := time.Now()
	_ = s.stdin.Close()
	for i, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		select {
		case <-s.done:
			return time.Since(start), needed
		case <-time.After(time.Until(start.Add(time.Duration(i+1) * 2 * time.Second))):
		}
		_ = s.cmd.Process.Signal(sig)
		needed = sig.String()
	}
	s.waitExit(t, 10*time.Second)
	return time.Since(start), needed
}

// freezeTab has the session's page loop forever, and waits until it does.
func freezeTab(t *testing.T, s *rawServer, id int, frozen chan struct{}) {
	t.Helper()
	s.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"browser_evaluate","arguments":{"function":%q}}}`, id, freezeFunction))
	if resp := s.await(t, id); !strings.Contains(resp, "freezing") {
		t.Fatalf("freeze: %s", resp)
	}
	select {
	case <-frozen:
	case <-time.After(30 * time.Second):
		t.Fatal("the page never started its endless loop")
	}
}

var answerPortRE = regexp.MustCompile(`- Port: (\d+)`)

// killLeftOnFailure kills, when the test failed, the dev-server processes
// of the fixture state it left running (fixtureEnv reports them), so that
// a failing run leaves none on the machine.
func killLeftOnFailure(t *testing.T, state string) {
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		for _, p := range fixtureProcesses(state) {
			if pid, err := strconv.Atoi(p); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
}

// TestExitWithinTheKillTimer: defect 6. With --save-trace, a session whose
// page loaded five API responses and then froze ends when its client
// closes the server as clients do (stdin, SIGTERM at 2 s, SIGKILL at 4 s):
// its dev server got --shutdown and is gone, its port is free, and its
// trace was saved, with the five requests and a note of the bodies the
// frozen tab could not give. Before, the trace asked the frozen tab for
// each body (5 s each) before the dev server's --shutdown: the kill came
// first, and left the dev server running and no trace.
func TestExitWithinTheKillTimer(t *testing.T) {
	f, frozen, _ := busyFixture(t)
	dir := t.TempDir()
	// (TestMain's GORACE keeps the race detector's binary from sleeping
	// a second at exit: not the server's time, which the log says.)
	env, state := fixtureEnv(t, "E2E_MCP_SERVER_COMMAND="+devfixture, "E2E_MCP_SAVE_TRACE=true", "E2E_MCP_FILE_ROOTS="+dir)
	killLeftOnFailure(t, state)
	s := startRaw(t, env)
	s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"lifecycle","version":"1"}}}`)
	s.await(t, 1)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"session_start","arguments":{}}}`)
	m := answerPortRE.FindStringSubmatch(s.await(t, 2))
	if m == nil {
		t.Fatal("session_start named no port")
	}
	port, _ := strconv.Atoi(m[1])
	if len(fixtureProcesses(state)) == 0 {
		t.Fatal("no dev-server process found: the count below would prove nothing")
	}
	s.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"browser_navigate","arguments":{"url":%q}}}`, f.URL+"/busy"))
	s.await(t, 3)
	s.send(t, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"browser_wait_for","arguments":{"text":"5 items loaded"}}}`)
	if resp := s.await(t, 4); strings.Contains(resp, `"isError":true`) {
		t.Fatalf("the page did not load its items: %s", resp)
	}
	freezeTab(t, s, 5, frozen)

	took, needed := closeLikeAClient(t, s)
	t.Logf("the server exited %s after its stdin closed (signal needed: %q)", took.Round(time.Millisecond), needed)
	waitFor(t, 2*time.Second, "the dev server to be gone", func() bool { return len(fixtureProcesses(state)) == 0 })
	if got := verbs(state); got != "start shutdown" {
		t.Errorf("the dev server's verbs: %q, want start and shutdown", got)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		t.Errorf("the dev server's port %d is still taken: %v", port, err)
	} else {
		_ = ln.Close()
	}
	traces, _ := filepath.Glob(filepath.Join(dir, "e2e-mcp-traces", "*.zip"))
	if len(traces) != 1 {
		t.Fatalf("want the session's trace saved, have %v", traces)
	}
	tz := readTrace(t, traces[0])
	items := 0
	for _, ev := range tz.network {
		if strings.Contains(fmt.Sprint(ev), "/api/item?i=") {
			items++
		}
	}
	if items != 5 {
		t.Errorf("the trace holds %d of the page's 5 API requests", items)
	}
	if all := tz.all(); !strings.Contains(all, "did not answer") {
		t.Errorf("the trace does not say which bodies the frozen tab did not give")
	}
}

// TestDevServerGoesWithAKilledServer: a server killed outright (SIGKILL,
// no stdin closed before) still has its sessions' dev servers shut down:
// the guard it started runs their --shutdown once it is gone, and then
// goes itself. Before, a contract command's dev server outlived the kill,
// holding its port.
func TestDevServerGoesWithAKilledServer(t *testing.T) {
	env, state := fixtureEnv(t, "E2E_MCP_SERVER_COMMAND="+devfixture)
	killLeftOnFailure(t, state)
	s := startRaw(t, env)
	s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"lifecycle","version":"1"}}}`)
	s.await(t, 1)
	s.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"session_start","arguments":{}}}`)
	m := answerPortRE.FindStringSubmatch(s.await(t, 2))
	if m == nil {
		t.Fatal("session_start named no port")
	}
	port, _ := strconv.Atoi(m[1])
	if len(fixtureProcesses(state)) == 0 {
		t.Fatal("no dev-server process found: the count below would prove nothing")
	}
	_ = s.cmd.Process.Kill()
	s.waitExit(t, 10*time.Second)
	waitFor(t, 20*time.Second, "the dev server to be shut down after the server's SIGKILL", func() bool { return len(fixtureProcesses(state)) == 0 })
	if got := verbs(state); got != "start shutdown" {
		t.Errorf("the dev server's verbs: %q, want start and shutdown", got)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		t.Errorf("the dev server's port %d is still taken: %v", port, err)
	} else {
		_ = ln.Close()
	}
	waitFor(t, 10*time.Second, "the guard to go", func() bool {
		return len(proctest.MustFind(proctest.CmdlineContains(bin), proctest.HasEnv("FIXTURE_STATE="+state), proctest.Live)) == 0
	})
}
