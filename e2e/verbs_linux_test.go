package e2e

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
)

// hangingCommand is a contract command whose --start answers at once and
// whose --status and --shutdown hang (in a sleep whose argument marks it).
func hangingCommand(t *testing.T, marker string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "devserver.sh")
	body := `#!/bin/sh
case "$*" in
  *--start*) echo '{"status":"ready","url":"http://127.0.0.1:9","port":9,"pid":1}' ;;
  *) sleep ` + marker + ` ;;
esac
`
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// requireNoGuard waits, bounded, until the guard of the server with this
// temp dir is gone: after the server, it runs --shutdown for the dev
// servers left (within --shutdown-timeout), then exits.
func requireNoGuard(t *testing.T, tmp string, within time.Duration) {
	t.Helper()
	waitFor(t, within, "the server's guard to exit", func() bool {
		return len(proctest.MustFind(proctest.CmdlineContains(bin), proctest.HasEnv("TMPDIR="+tmp), proctest.Live)) == 0
	})
}

// requireGone waits, bounded, until no process's command line holds s.
func requireGone(t *testing.T, s string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		left := proctest.MustFind(proctest.CmdlineContains(s))
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d processes of a dev-server verb outlived the server: %v", len(left), left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestVerbsDieWithTheServer: a dev-server verb that hangs dies with the
// server, with what it started, however the server ends: killed outright
// while the verb runs, or told to stop (SIGTERM: the --shutdown of its
// sessions gets a short budget) and then killed, as clients do. The
// server's guard then runs --shutdown once more (it hangs too) and is gone
// with it within --shutdown-timeout.
func TestVerbsDieWithTheServer(t *testing.T) {
	t.Run("SIGKILL during a verb", func(t *testing.T) {
		marker := "617.5"
		env, tmp := serverEnv(t)
		s := startRaw(t, append(env, "E2E_MCP_SERVER_COMMAND="+hangingCommand(t, marker), "E2E_MCP_STATUS_TIMEOUT=5m",
			"E2E_MCP_SHUTDOWN_TIMEOUT=2s"))
		s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"verbs","version":"1"}}}`)
		s.await(t, 1)
		s.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"session_start","arguments":{}}}`)
		s.await(t, 2)
		s.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"session_status","arguments":{}}}`)
		waitFor(t, 10*time.Second, "the --status verb to hang", func() bool {
			return len(proctest.MustFind(proctest.CmdlineContains(marker))) > 0
		})
		_ = s.cmd.Process.Kill()
		s.waitExit(t, 10*time.Second)
		requireNoGuard(t, tmp, 10*time.Second)
		requireGone(t, marker, 10*time.Second)
		// session_start warmed a browser: it dies with the server too, and
		// must be gone before its profile under tmp is removed.
		requireNoChrome(t, tmp, 10*time.Second)
	})
	t.Run("SIGTERM then SIGKILL", func(t *testing.T) {
		marker := "619.5"
		env, tmp := serverEnv(t)
		s := startRaw(t, append(env, "E2E_MCP_SERVER_COMMAND="+hangingCommand(t, marker), "E2E_MCP_SHUTDOWN_TIMEOUT=2s"))
		s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"verbs","version":"1"}}}`)
		s.await(t, 1)
		s.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"session_start","arguments":{}}}`)
		s.await(t, 2)
		_ = s.cmd.Process.Signal(syscall.SIGTERM) // the sessions' --shutdown starts, and hangs
		waitFor(t, 10*time.Second, "the --shutdown verb to hang", func() bool {
			return len(proctest.MustFind(proctest.CmdlineContains(marker))) > 0
		})
		select {
		case <-s.done:
		case <-time.After(2 * time.Second):
			_ = s.cmd.Process.Kill() // as a client does after its grace period
			s.waitExit(t, 10*time.Second)
		}
		requireNoGuard(t, tmp, 10*time.Second)
		requireGone(t, marker, 10*time.Second)
		requireNoChrome(t, tmp, 10*time.Second)
	})
}
