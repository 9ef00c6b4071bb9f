package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
	"github.com/mark3labs/mcp-go/mcp"
)

// fixtureEnv is a server environment whose dev-server fixture keeps its
// state (and verbs.log) in state.
func fixtureEnv(t *testing.T, extra ...string) (env []string, state string) {
	env, _ = serverEnv(t)
	state = t.TempDir()
	env = append(env, append([]string{"FIXTURE_STATE=" + state}, extra...)...)
	t.Cleanup(func() {
		if left := fixtureProcesses(state); len(left) > 0 {
			t.Errorf("dev-server processes left running: %v", left)
		}
	})
	return env, state
}

// fixtureProcesses lists live processes started with FIXTURE_STATE=state.
func fixtureProcesses(state string) []string {
	ps := proctest.MustFind(
		proctest.HasEnv("FIXTURE_STATE="+state),
		proctest.CmdlineContains("devfixture"), // e2e-mcp itself has the variable too
		proctest.Live,
	)
	var pids []string
	for _, p := range ps {
		pids = append(pids, strconv.Itoa(p.PID))
	}
	return pids
}

func verbs(state string) string {
	b, _ := os.ReadFile(filepath.Join(state, "verbs.log"))
	return strings.Join(strings.Fields(string(b)), " ")
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var portRE = regexp.MustCompile(`- Port: (\d+)`)

// TestDevServerFlow: session_start -> relative navigate -> act -> the logs
// show the page's request -> restart, the page follows -> session_end.
func TestDevServerFlow(t *testing.T) {
	env, state := fixtureEnv(t)
	c := startClient(t, env)
	var mu sync.Mutex
	var progress []string
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationProgress) {
			mu.Lock()
			progress = append(progress, n.Params.AdditionalFields["message"].(string))
			mu.Unlock()
		}
	})
	req := mcp.CallToolRequest{}
	req.Params.Name = "session_start"
	req.Params.Arguments = map[string]any{"commandPath": devfixture}
	req.Params.Meta = &mcp.Meta{ProgressToken: "start-1"}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := c.CallTool(ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("session_start: %v %s", err, text(res))
	}
	out := text(res)
	m := portRE.FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "- URL: http://127.0.0.1:") || !strings.Contains(out, "- PID: ") || !strings.Contains(out, "server.stdout.log") {
		t.Fatalf("session_start result:\n%s", out)
	}
	port := m[1]
	mu.Lock()
	if len(progress) == 0 || !strings.Contains(progress[0], "starting "+devfixture) {
		t.Errorf("no progress notification while starting: %q", progress)
	}
	mu.Unlock()

	out = mustCall(t, c, "browser_navigate", map[string]any{"url": "/"})
	if !strings.Contains(out, "Fixture app on "+port) {
		t.Fatalf("relative navigate did not reach the dev server:\n%s", out)
	}
	hello := refOf(t, out, "button", "Say hello")
	first := mustCall(t, c, "server_logs", map[string]any{"stream": "stdout"})
	cursor, _ := strconv.Atoi(regexp.MustCompile(`since=(\d+)`).FindStringSubmatch(first)[1])
	mustCall(t, c, "browser_click", map[string]any{"target": hello})
	snap := mustCall(t, c, "browser_snapshot", nil)
	if !strings.Contains(snap, "hello from port "+port) {
		t.Errorf("the page did not get the API's answer:\n%s", snap)
	}
	logs := mustCall(t, c, "server_logs", map[string]any{"stream": "stdout", "grep": "/api/", "since": cursor})
	if !strings.Contains(logs, "GET /api/hello") || strings.Contains(logs, "GET / ") {
		t.Errorf("server_logs since the cursor, grep /api/: want the page's request only:\n%s", logs)
	}

	out = mustCall(t, c, "session_restart", nil)
	m = portRE.FindStringSubmatch(out)
	if m == nil || m[1] == port {
		t.Fatalf("restart did not move to a new port:\n%s", out)
	}
	if !strings.Contains(out, "The page followed to http://127.0.0.1:"+m[1]+"/") || !strings.Contains(out, "Fixture app on "+m[1]) {
		t.Errorf("the page did not follow the restart:\n%s", out)
	}
	if out := mustCall(t, c, "session_status", nil); !strings.Contains(out, "Dev server is running.") || !strings.Contains(out, "- Healthy: true") {
		t.Errorf("status:\n%s", out)
	}
	if out := mustCall(t, c, "session_list", nil); !strings.Contains(out, "127.0.0.1:"+m[1]) {
		t.Errorf("session_list does not show the dev server:\n%s", out)
	}
	out = mustCall(t, c, "session_end", nil)
	if !strings.Contains(out, "Dev server stopped.") {
		t.Errorf("session_end:\n%s", out)
	}
	if got := verbs(state); got != "start restart status shutdown" {
		t.Errorf("the command received %q, want start restart status shutdown", got)
	}
	if len(fixtureProcesses(state)) != 0 {
		t.Errorf("the dev server still runs after session_end")
	}
	if res := call(t, c, "server_logs", nil); !res.IsError || !strings.Contains(text(res), "session_start first") {
		t.Errorf("server_logs after session_end: %s", text(res))
	}
}

// TestDevServerFailures: each misbehaving mode of the fixture gives its
// typed error through MCP, within the shortened timeout, leaving nothing.
func TestDevServerFailures(t *testing.T) {
	cases := []struct{ mode, want, also string }{
		{"hang", "timeout", "did not answer within 1s"},
		{"badjson", "invalid_json", "not JSON"},
		{"fail", "non_zero_exit", "exited with status 3"},
		{"fail", "non_zero_exit", "EADDRINUSE"},
		{"errorstatus", "non_zero_exit", "build_failed"},
		{"missingfield", "missing_field", `"url"`},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			env, state := fixtureEnv(t, "FIXTURE_MODE="+tc.mode, "E2E_MCP_START_TIMEOUT=1s")
			c := startClient(t, env)
			start := time.Now()
			res := call(t, c, "session_start", map[string]any{"commandPath": devfixture})
			if !res.IsError || !strings.Contains(text(res), tc.want) || !strings.Contains(text(res), tc.also) {
				t.Errorf("want %s mentioning %q, got:\n%s", tc.want, tc.also, text(res))
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("took %s", took)
			}
			if tc.mode == "missingfield" {
				// It did start a server before answering badly: clean it.
				cleanFixture(t, state)
			}
		})
	}
	t.Run("slow start past its timeout", func(t *testing.T) {
		env, _ := fixtureEnv(t, "FIXTURE_MODE=slow", "FIXTURE_SLOW=5s", "E2E_MCP_START_TIMEOUT=1s")
		c := startClient(t, env)
		start := time.Now()
		if res := call(t, c, "session_start", map[string]any{"commandPath": devfixture}); !res.IsError || !strings.Contains(text(res), "timeout") {
			t.Errorf("slow start: want timeout, got:\n%s", text(res))
		}
		if took := time.Since(start); took > 4*time.Second {
			t.Errorf("took %s for a 1s timeout", took)
		}
	})
	t.Run("server dies after start", func(t *testing.T) {
		env, _ := fixtureEnv(t, "FIXTURE_MODE=dies")
		c := startClient(t, env)
		mustCall(t, c, "session_start", map[string]any{"commandPath": devfixture})
		waitFor(t, 10*time.Second, "status to report the dead server", func() bool {
			return strings.Contains(mustCall(t, c, "session_status", nil), "Dev server is stopped.")
		})
		if logs := mustCall(t, c, "server_logs", map[string]any{"stream": "stderr"}); !strings.Contains(logs, "fatal: the server crashed") {
			t.Errorf("the crash is not in the server's stderr log:\n%s", logs)
		}
	})
	t.Run("server holds the command's pipes", func(t *testing.T) {
		env, _ := fixtureEnv(t, "FIXTURE_MODE=holdpipes", "E2E_MCP_START_TIMEOUT=5s")
		c := startClient(t, env)
		start := time.Now()
		mustCall(t, c, "session_start", map[string]any{"commandPath": devfixture})
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("session_start waited %s on pipes the server holds", took)
		}
		mustCall(t, c, "session_end", nil)
	})
	t.Run("not executable and missing", func(t *testing.T) {
		env, _ := fixtureEnv(t)
		c := startClient(t, env)
		plain := filepath.Join(t.TempDir(), "dev.sh")
		_ = os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o644)
		if res := call(t, c, "session_start", map[string]any{"commandPath": plain}); !strings.Contains(text(res), "permission_denied") {
			t.Errorf("not executable: %s", text(res))
		}
		if res := call(t, c, "session_start", map[string]any{"commandPath": "/nonexistent/dev"}); !strings.Contains(text(res), "command_not_found") ||
			!strings.Contains(text(res), "Next: check commandPath") {
			t.Errorf("missing: %s", text(res))
		}
		// A run line whose program is missing: the advice is about run,
		// which the call gave, not commandPath.
		res := call(t, c, "session_start", map[string]any{"run": "nope-no-such-program --port $PORT"})
		wantError(t, res, "command_not_found", "nope-no-such-program", "Next: check run")
		if strings.Contains(text(res), "commandPath") {
			t.Errorf("a missing run program is answered about commandPath:\n%s", text(res))
		}
	})
}

func cleanFixture(t *testing.T, state string) {
	t.Helper()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "FIXTURE_STATE="+state))
	call(t, c, "session_start", map[string]any{"commandPath": devfixture}) // already_running, now tracked
	call(t, c, "session_end", nil)
}

// TestDevServerIdleShutdown: a session unused past --idle-timeout has its
// dev server shut down.
func TestDevServerIdleShutdown(t *testing.T) {
	// The command comes from the configuration: the agent names none.
	env, state := fixtureEnv(t, "E2E_MCP_IDLE_TIMEOUT=1s")
	c := startClient(t, append(env, "E2E_MCP_SERVER_COMMAND="+devfixture))
	mustCall(t, c, "session_start", nil)
	waitFor(t, 10*time.Second, "idle shutdown", func() bool { return verbs(state) == "start shutdown" })
	// The fixture records the verb first, then stops its server.
	waitFor(t, 10*time.Second, "the dev server to stop after the idle shutdown", func() bool { return len(fixtureProcesses(state)) == 0 })
	if out := mustCall(t, c, "session_list", nil); strings.Contains(out, "127.0.0.1") {
		t.Errorf("the idle session is still listed:\n%s", out)
	}
}

// TestDevServerShutdownOnExit: stdin EOF and SIGTERM shut the dev servers
// down before the process exits.
func TestDevServerShutdownOnExit(t *testing.T) {
	for _, how := range []string{"stdin EOF", "SIGTERM"} {
		t.Run(how, func(t *testing.T) {
			env, state := fixtureEnv(t)
			s := startRaw(t, env)
			s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"exit","version":"1"}}}`)
			s.await(t, 1)
			s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			// Two sessions on the same server (the second start answers
			// already_running): one after the other, as the fixture itself
			// does not lock its state.
			s.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"session_start","arguments":{"commandPath":"`+devfixture+`","sessionId":"a"}}}`)
			s.await(t, 2)
			s.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"session_start","arguments":{"commandPath":"`+devfixture+`","sessionId":"b"}}}`)
			s.await(t, 3)
			if how == "stdin EOF" {
				_ = s.stdin.Close()
			} else {
				_ = s.cmd.Process.Signal(syscall.SIGTERM)
			}
			s.waitExit(t, 30*time.Second)
			if got := verbs(state); !strings.HasSuffix(got, "shutdown") {
				t.Errorf("verbs after %s: %q, want a shutdown last", how, got)
			}
			if left := fixtureProcesses(state); len(left) != 0 {
				t.Errorf("dev servers left after %s: %v", how, left)
			}
		})
	}
}

// TestSessionStartOpensBrowser: session_start opens the session's browser
// context while the dev server starts (a tab's renderer runs before any
// browser tool), the first navigation uses it, and session_end closes it,
// also when it ends the session before the first browser tool.
func TestSessionStartOpensBrowser(t *testing.T) {
	env, tmp := serverEnv(t)
	state := t.TempDir()
	env = append(env, "FIXTURE_STATE="+state)
	t.Cleanup(func() {
		if left := fixtureProcesses(state); len(left) > 0 {
			t.Errorf("dev-server processes left running: %v", left)
		}
	})
	c := startClient(t, env)
	renderers := func() int { return len(chromeByType(tmp, "renderer")) }
	if n := renderers(); n != 0 {
		t.Fatalf("%d renderers before session_start", n)
	}
	mustCall(t, c, "session_start", map[string]any{"commandPath": devfixture})
	waitFor(t, 20*time.Second, "a tab's renderer to run after session_start, before any browser tool", func() bool { return renderers() > 0 })
	out := mustCall(t, c, "browser_navigate", map[string]any{"url": "/"})
	if !strings.Contains(out, "Fixture app on ") {
		t.Fatalf("relative navigate after session_start:\n%s", out)
	}
	if out := mustCall(t, c, "browser_tabs", map[string]any{"action": "list"}); !strings.Contains(out, "- 0: (current) [") || strings.Contains(out, "- 1:") {
		t.Errorf("the session should have the one tab it navigated:\n%s", out)
	}
	mustCall(t, c, "session_end", nil)
	waitFor(t, 20*time.Second, "the session's renderer to end after session_end", func() bool { return renderers() == 0 })

	// Ended at once: whatever the warm-up opens is closed.
	mustCall(t, c, "session_start", map[string]any{"commandPath": devfixture, "sessionId": "quick"})
	mustCall(t, c, "session_end", map[string]any{"sessionId": "quick"})
	waitFor(t, 20*time.Second, "no renderer after a session ended before its first browser tool", func() bool { return renderers() == 0 })
}

// TestManagedDevServer: session_start run=... drives a real server program
// nobody wrote for this project: start, relative navigation, restart on a
// new port with the page following, and shutdown leaving no process.
func TestManagedDevServer(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for this test: %v", err)
	}
	env, _ := serverEnv(t)
	site := t.TempDir()
	_ = os.WriteFile(filepath.Join(site, "index.html"), []byte("<title>Static site</title><h1>Served by python</h1><a href=\"/other.html\">Other</a>"), 0o644)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir())
	c := startClient(t, env)
	out := mustCall(t, c, "session_start", map[string]any{"run": python + " -m http.server $PORT --bind 127.0.0.1", "cwd": site})
	m := portRE.FindStringSubmatch(out)
	pid := regexp.MustCompile(`- PID: (\d+)`).FindStringSubmatch(out)
	if m == nil || pid == nil {
		t.Fatalf("session_start run=:\n%s", out)
	}
	if out := mustCall(t, c, "browser_navigate", map[string]any{"url": "/"}); !strings.Contains(out, "Served by python") {
		t.Fatalf("navigate /:\n%s", out)
	}
	out = mustCall(t, c, "session_restart", nil)
	m2 := portRE.FindStringSubmatch(out)
	if m2 == nil || m2[1] == m[1] || !strings.Contains(out, "The page followed to") || !strings.Contains(out, "Served by python") {
		t.Fatalf("restart:\n%s", out)
	}
	logs := mustCall(t, c, "server_logs", map[string]any{"grep": "GET / "})
	if !strings.Contains(logs, `"GET / HTTP/1.1" 200`) {
		t.Errorf("python's request log is not in server_logs:\n%s", logs)
	}
	newPID := regexp.MustCompile(`- PID: (\d+)`).FindStringSubmatch(out)[1]
	mustCall(t, c, "session_end", nil)
	for _, p := range []string{pid[1], newPID} {
		if stat, err := os.ReadFile("/proc/" + p + "/stat"); err == nil && !strings.Contains(string(stat), ") Z ") {
			t.Errorf("python server %s still runs after session_end", p)
		}
	}
}
