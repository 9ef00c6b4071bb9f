// Package e2e holds the black-box tests of the e2e-mcp binary: see README.md.
package e2e

import (
	"context"
	"embed"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

//go:embed testdata
var testdata embed.FS

// bin is the binary under test and devfixture the contract fixture
// (internal/devfixture), built once by TestMain.
var bin, devfixture string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "e2e-mcp-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin = filepath.Join(dir, "e2e-mcp")
	devfixture = filepath.Join(dir, "devfixture")
	for out, pkg := range map[string]string{bin: "../cmd/e2e-mcp", devfixture: "../internal/devfixture"} {
		args := []string{"build", "-o", out, pkg}
		if out == bin {
			args = []string{"build", "-race", "-o", out, pkg}
		}
		build := exec.Command("go", args...)
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "build", pkg+":", err)
			return 1
		}
	}
	// The binary is built with the race detector, so every server a test
	// starts reports its data races: into files here, which fail the run
	// whichever test's server raced (a report on a server's stderr would
	// be seen only by a test that reads it). Without atexit_sleep_ms, each
	// exit of the binary would also wait a second for late reports: over a
	// run's thousand-odd exits, minutes of CI spent asleep.
	races := filepath.Join(dir, "races")
	if err := os.Mkdir(races, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := os.Setenv("GORACE", "atexit_sleep_ms=0 log_path="+filepath.Join(races, "race")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	code := m.Run()
	if reports, _ := filepath.Glob(filepath.Join(races, "race*")); len(reports) > 0 {
		var short []string
		for _, r := range reports {
			b, _ := os.ReadFile(r)
			fmt.Fprintf(os.Stderr, "a server under test reported a data race (%s):\n%s\n", filepath.Base(r), b)
			short = append(short, raceSummary(string(b)))
		}
		// Last, as a CI log's tail is what is read first: each access's
		// own frames, which a whole report puts far above.
		fmt.Fprintf(os.Stderr, "data races of servers under test, in short:\n%s\n", strings.Join(short, "\n"))
		return 1
	}
	return code
}

// raceSummary keeps of a race detector's report the lines that say what
// raced (the access and goroutine headers) and, under each, the first
// frames of this module's code, the frame lines only.
func raceSummary(report string) string {
	var out []string
	kept := 0
	for _, l := range strings.Split(report, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "WARNING: DATA RACE"), strings.HasSuffix(t, ":") && strings.Contains(t, "goroutine") ||
			strings.HasPrefix(t, "Goroutine "):
			out, kept = append(out, t), 0
		case strings.Contains(t, "e2e-mcp/e2e-mcp/") && !strings.HasPrefix(t, "/") && kept < 4:
			out, kept = append(out, "  "+t), kept+1
		}
	}
	return strings.Join(out, "\n")
}

// fixture serves testdata/ plus a small API, and records API calls.
type fixture struct {
	*httptest.Server
	mu      sync.Mutex
	signups []string
}

// newFixture starts the fixture site. Tests that need more endpoints add
// them with routes, which run before the server starts.
func newFixture(t *testing.T, routes ...func(mux *http.ServeMux, f *fixture)) *fixture {
	t.Helper()
	f := &fixture{}
	mux := http.NewServeMux()
	for _, add := range routes {
		add(mux, f)
	}
	mux.HandleFunc("POST /api/signup", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.signups = append(f.signups, string(b))
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	})
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Path[1:]
		if name == "" {
			name = "index.html"
		}
		b, err := testdata.ReadFile("testdata/" + name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		ctype := "text/html; charset=utf-8"
		if strings.HasSuffix(name, ".js") {
			ctype = "text/javascript"
		}
		w.Header().Set("Content-Type", ctype)
		_, _ = w.Write(b)
	})
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

// serverEnv is the environment of a server under test: its own temp dir,
// so that its Chrome profile (and any leftover) can be found and counted.
func serverEnv(t *testing.T) (env []string, tmp string) {
	tmp = t.TempDir()
	env = append(os.Environ(), "TMPDIR="+tmp, "E2E_MCP_LOG_LEVEL=debug", "E2E_MCP_LOG_FORMAT=console")
	return env, tmp
}

// startClient starts the binary with mcp-go's stdio client and initializes
// it on the session-oriented protocol version.
func startClient(t *testing.T, env []string) *client.Client {
	t.Helper()
	c, _ := startClientLog(t, env)
	return c
}

// startClientLog is startClient that also gives the server's stderr: its log
// (debug level under serverEnv, CDP messages included), for tests that wait
// until the server has done something.
func startClientLog(t *testing.T, env []string) (*client.Client, *lockedBuffer) {
	t.Helper()
	stderr := &lockedBuffer{}
	c, err := client.NewStdioMCPClientWithOptions(bin, env, nil, transport.WithCommandStderrWriter(stderr))
	if err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	return initialized(t, c, stderr), stderr
}

// initialized initializes a started client and closes it when the test
// ends, showing the server's stderr if the test failed.
func initialized(t *testing.T, c *client.Client, stderr *lockedBuffer) *client.Client {
	t.Helper()
	t.Cleanup(func() {
		_ = c.Close()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	if err := initialize(c); err != nil {
		t.Fatal(err)
	}
	return c
}

// initialize starts a client and initializes it on the session-oriented
// protocol version. (NewStdioMCPClientWithOptions starts the transport but
// not the client: Start installs the notification handler.)
func initialize(c *client.Client) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		return fmt.Errorf("start client: %w", err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	req.Params.ClientInfo = mcp.Implementation{Name: "e2e-test", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	return nil
}

type lockedBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	return len(p), nil
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b)
}

// call runs a tool and fails the test on a protocol error; the result may
// still be an isError result, which the caller checks.
func call(t *testing.T, c *client.Client, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s(%v): protocol error: %v", tool, args, err)
	}
	return res
}

// mustCall is call for results that must succeed.
func mustCall(t *testing.T, c *client.Client, tool string, args map[string]any) string {
	t.Helper()
	res := call(t, c, tool, args)
	if res.IsError {
		t.Fatalf("%s(%v) failed:\n%s", tool, args, text(res))
	}
	return text(res)
}

// text joins the text contents of a result.
func text(res *mcp.CallToolResult) string {
	var s string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			s += tc.Text
		}
	}
	return s
}
