package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"go.uber.org/zap"
)

// The CLI's session daemons: an e2e-mcp per session serving Streamable HTTP
// on a Unix socket in a per-user directory, started on first use, ended by
// close, close --all or idleness.

// cliDir is the per-user directory of the session daemons' sockets, kept
// short: a Unix socket path must fit in about 100 bytes.
func cliDir() (string, error) {
	base := os.Getenv("E2E_MCP_CLI_DIR")
	if base == "" {
		sum := sha256.Sum256([]byte(os.Getenv("HOME")))
		base = filepath.Join(os.TempDir(), fmt.Sprintf("e2e-mcp-cli-%d-%s", os.Getuid(), hex.EncodeToString(sum[:3])))
		if len(base) > 60 {
			base = filepath.Join("/tmp", fmt.Sprintf("e2e-mcp-cli-%d-%s", os.Getuid(), hex.EncodeToString(sum[:3])))
		}
	}
	if err := os.MkdirAll(base, 0o700); err != nil { //nolint:gosec // the user's own directory (E2E_MCP_CLI_DIR or under the temp dir)
		return "", err
	}
	return base, nil
}

// connectDaemon connects to the session's daemon, starting it when none
// answers (a stale socket of a dead daemon is replaced).
func connectDaemon(ctx context.Context, o *cliOpts) (*client.Client, error) {
	dir, err := cliDir()
	if err != nil {
		return nil, err
	}
	sock := filepath.Join(dir, o.session+".sock")
	if c, err := net.Dial("unix", sock); err == nil { //nolint:gosec // a Unix socket of ours; the session name is checked against a strict pattern
		_ = c.Close()
	} else if err := startDaemon(ctx, dir, sock, o); err != nil {
		return nil, err
	}
	return dialDaemon(ctx, sock, o.version)
}

// dialDaemon connects to the daemon at sock, which must be running, as an
// MCP client.
func dialDaemon(ctx context.Context, sock, version string) (*client.Client, error) {
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", sock)
	}}}
	c, err := client.NewStreamableHttpClient("http://localhost/mcp", transport.WithHTTPBasicClient(hc))
	if err != nil {
		return nil, err
	}
	if err := c.Start(ctx); err != nil {
		return nil, fmt.Errorf("connect to the session daemon: %w", err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	req.Params.ClientInfo = mcp.Implementation{Name: "e2e-mcp-cli", Version: version}
	if _, err := c.Initialize(ctx, req); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("connect to the session daemon: %w", err)
	}
	return c, nil
}

// startDaemon starts `e2e-mcp serve --http unix:SOCK` detached from this
// process (its own session, output to a log beside the socket) and waits
// until it answers.
func startDaemon(ctx context.Context, dir, sock string, o *cliOpts) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	_ = os.Remove(sock)                                                                                        //nolint:gosec // our socket; the session name is checked against a strict pattern
	logf, err := os.OpenFile(filepath.Join(dir, o.session+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600) //nolint:gosec // our log file; the session name is checked against a strict pattern
	if err != nil {
		return err
	}
	defer func() { _ = logf.Close() }()
	args := []string{"serve", "--http", "unix:" + sock}
	if o.headed {
		args = append(args, "--headed")
	}
	cmd := exec.Command(self, args...) //nolint:gosec // our own binary
	cmd.Env = append(os.Environ(), DaemonEnv+"=1")
	cmd.Stdout, cmd.Stderr = logf, logf
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the session daemon: %w", err)
	}
	pid := cmd.Process.Pid
	_ = os.WriteFile(filepath.Join(dir, o.session+".pid"), []byte(strconv.Itoa(pid)), 0o600) //nolint:gosec // our pid file; the session name is checked against a strict pattern
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for {
		if c, err := net.Dial("unix", sock); err == nil { //nolint:gosec // our socket
			_ = c.Close()
			return nil
		}
		select {
		case err := <-exited:
			return fmt.Errorf("the session daemon exited at start (%v); its log: %s", err, filepath.Join(dir, o.session+".log"))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// closeAllDaemons ends every session daemon of this user.
func closeAllDaemons(ctx context.Context) (int, error) {
	dir, err := cliDir()
	if err != nil {
		return 0, err
	}
	pids, _ := filepath.Glob(filepath.Join(dir, "*.pid"))
	n := 0
	for _, pf := range pids {
		stopped, err := stopDaemon(ctx, strings.TrimSuffix(filepath.Base(pf), ".pid"))
		if err != nil {
			return n, err
		}
		if stopped {
			n++
		}
	}
	return n, nil
}

// stopDaemon ends a session's daemon: SIGTERM (it ends its session, dev
// server and browser), then it waits for the process to go and removes its
// files. A daemon that is not running is only cleaned up after.
func stopDaemon(ctx context.Context, session string) (bool, error) {
	dir, err := cliDir()
	if err != nil {
		return false, err
	}
	base := filepath.Join(dir, session)
	defer func() { _ = os.Remove(base + ".pid"); _ = os.Remove(base + ".sock") }()
	b, err := os.ReadFile(base + ".pid")
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 || terminate(pid) != nil {
		return false, nil
	}
	for processRuns(pid) {
		if ctx.Err() != nil {
			return true, fmt.Errorf("the daemon of session %s (pid %d) did not exit in time", session, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true, nil
}

// ExitWhenIdle ends a CLI daemon (cancel) once it has had no session for
// the idle timeout: sessions themselves end after it (SweepIdle) or on
// close.
func ExitWhenIdle(ctx context.Context, cancel context.CancelFunc, reg *mcptools.Registry, idle time.Duration, log *zap.Logger) {
	if idle <= 0 {
		return
	}
	t := time.NewTicker(min(idle/4, time.Second))
	defer t.Stop()
	emptySince := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if n, _ := reg.Counts(); n > 0 {
			emptySince = time.Now()
			continue
		}
		if time.Since(emptySince) >= idle {
			log.Info("CLI daemon idle: exiting", zap.Duration("idle", idle))
			cancel()
			return
		}
	}
}
