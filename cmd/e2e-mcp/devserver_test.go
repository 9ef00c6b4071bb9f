//go:build !unit

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/devserver"
)

// binDir holds the binary buildBinary builds; TestMain removes it.
var binDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// buildBinary builds e2e-mcp once for the tests that run it as a separate
// process.
var buildBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "e2e-mcp-devserver-test-")
	if err != nil {
		return "", err
	}
	binDir = dir
	bin := filepath.Join(dir, "e2e-mcp")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", errors.New("go build: " + err.Error() + "\n" + string(out))
	}
	return bin, nil
})

func binary(t *testing.T) string {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// python3 returns the real interpreter behind python3 (a pyenv shim costs
// most of a second per start), or skips.
func python3(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 is needed for this test (apt-get install python3)")
	}
	out, err := exec.Command(p, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatal("python3 does not run:", err)
	}
	return strings.TrimSpace(string(out))
}

// invocation is one run of the subcommand as a separate process.
type invocation struct {
	code   int
	res    devserver.Result
	raw    map[string]any
	stderr string
	took   time.Duration
}

func runDevserver(t *testing.T, bin string, args ...string) invocation {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"devserver"}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	inv := invocation{stderr: stderr.String(), took: time.Since(start)}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		inv.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	// Exactly one JSON object on stdout.
	dec := json.NewDecoder(bytes.NewReader(stdout.Bytes()))
	if err := dec.Decode(&inv.raw); err != nil {
		t.Fatalf("devserver %s: stdout is not a JSON object: %v\n%s\nstderr: %s", strings.Join(args, " "), err, stdout.String(), inv.stderr)
	}
	if dec.More() {
		t.Fatalf("more than one JSON value on stdout: %s", stdout.String())
	}
	_ = json.Unmarshal(stdout.Bytes(), &inv.res)
	t.Logf("devserver %s -> exit %d in %s: %s", args[len(args)-1], inv.code, inv.took.Round(time.Millisecond), strings.TrimSpace(stdout.String()))
	return inv
}

// alive reports whether a process runs (a zombie, which an init that does
// not reap leaves behind, does not).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

func httpOK(t *testing.T, url string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode >= 500 {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
}

// TestDevserverSubcommand drives the built binary through start, status,
// restart and shutdown, each a separate process, as a contract caller does.
func TestDevserverSubcommand(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Fatal("this test checks processes through /proc: run it on Linux")
	}
	t.Parallel()
	bin, py := binary(t), python3(t)
	state := t.TempDir()
	common := []string{"--name", "web", "--cwd", t.TempDir(), "--state-dir", state}
	command := append(append([]string{}, common...), "--", py, "-m", "http.server", "$PORT", "--bind", "127.0.0.1")
	with := func(verb string) []string { return append(append([]string{}, command...), verb) }
	t.Cleanup(func() { runDevserver(t, bin, append(common, "--shutdown")...) })

	st := runDevserver(t, bin, append(common, "--status")...)
	if st.code != 0 || st.res.Status != "stopped" {
		t.Fatalf("status before start: %+v", st)
	}
	start := runDevserver(t, bin, with("--start")...)
	r := start.res
	if start.code != 0 || r.Status != "ready" || r.PID <= 0 || r.Port <= 0 || r.StartedAt == "" || r.Message == "" ||
		!filepath.IsAbs(r.Logs.Stdout) || !filepath.IsAbs(r.Logs.Stderr) || !filepath.IsAbs(r.Logs.Combined) {
		t.Fatalf("start: %+v", start)
	}
	if start.took > 30*time.Second {
		t.Fatalf("start took %s", start.took)
	}
	httpOK(t, r.URL) // the server outlived the command that started it

	if again := runDevserver(t, bin, with("--start")...); again.code != 0 || again.res.Status != "already_running" || again.res.PID != r.PID {
		t.Fatalf("second start: %+v", again)
	}
	st = runDevserver(t, bin, append(common, "--status")...) // no command needed
	if st.code != 0 || st.res.Status != "running" || st.res.Healthy == nil || !*st.res.Healthy || st.res.PID != r.PID || st.took > 5*time.Second {
		t.Fatalf("status: %+v", st)
	}
	waitUntil(t, 5*time.Second, "the relay to log the probe's request", func() bool {
		b, _ := os.ReadFile(r.Logs.Combined)
		return strings.Contains(string(b), "GET / ")
	})

	rs := runDevserver(t, bin, with("--restart")...)
	if rs.code != 0 || rs.res.Status != "restarted" || rs.res.PreviousPID != r.PID || rs.res.PreviousPort != r.Port ||
		rs.res.Port == r.Port || rs.took > 40*time.Second {
		t.Fatalf("restart: %+v", rs)
	}
	if alive(r.PID) {
		t.Fatalf("old server %d still alive after restart", r.PID)
	}
	httpOK(t, rs.res.URL)

	sd := runDevserver(t, bin, append(common, "--shutdown")...)
	if sd.code != 0 || sd.res.Status != "stopped" || sd.res.PreviousPID != rs.res.PID || sd.took > 15*time.Second {
		t.Fatalf("shutdown: %+v", sd)
	}
	if alive(rs.res.PID) {
		t.Fatalf("server %d alive after shutdown", rs.res.PID)
	}
	if resp, err := http.Get(rs.res.URL); err == nil {
		_ = resp.Body.Close()
		t.Fatalf("%s still answers", rs.res.URL)
	}
	if sd := runDevserver(t, bin, append(common, "--shutdown")...); sd.code != 0 || sd.res.Status != "already_stopped" {
		t.Fatalf("second shutdown: %+v", sd)
	}
}

// TestDevserverUnderContract: the subcommand is itself a contract command,
// driven here by the package's own contract runner.
func TestDevserverUnderContract(t *testing.T) {
	t.Parallel()
	bin, py := binary(t), python3(t)
	c := &devserver.Command{Path: bin, Args: []string{"devserver", "--name", "c", "--state-dir", t.TempDir(), "--",
		py, "-m", "http.server", "$PORT", "--bind", "127.0.0.1"}}
	ctx := context.Background()
	res, err := c.Do(ctx, devserver.Start)
	if err != nil || res.Status != "ready" {
		t.Fatalf("start: %+v %v", res, err)
	}
	httpOK(t, res.URL)
	if res, err := c.Do(ctx, devserver.Status); err != nil || res.Status != "running" {
		t.Fatalf("status: %+v %v", res, err)
	}
	if res, err := c.Do(ctx, devserver.Shutdown); err != nil || res.Status != "stopped" {
		t.Fatalf("shutdown: %+v %v", res, err)
	}
}

// TestDevserverFailure: a server that exits at once is a failure (exit 1)
// whose JSON says not_ready, with its output and its logs; the quoting of an
// argument survives the trip through the command line.
func TestDevserverFailure(t *testing.T) {
	t.Parallel()
	bin, py := binary(t), python3(t)
	inv := runDevserver(t, bin, "--state-dir", t.TempDir(), "--", py, "-c", `import sys; sys.exit("it's \"bad\" on $PORT")`, "--start")
	if inv.code != 1 || inv.raw["status"] != "error" || inv.raw["error"] != "not_ready" {
		t.Fatalf("got %+v", inv)
	}
	msg, _ := inv.raw["message"].(string)
	if !regexp.MustCompile(`it's "bad" on \d+`).MatchString(msg) {
		t.Fatalf("message lacks the output: %q", msg)
	}
	if logs, _ := inv.raw["logs"].(map[string]any); logs["stderr"] == nil {
		t.Fatalf("no logs in %v", inv.raw)
	}
}

func TestDevserverUsage(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"devserver", "--state-dir", dir}, 2, "no command"},
		{[]string{"devserver", "--state-dir", dir, "--start"}, 2, "no command"},
		{[]string{"devserver", "--state-dir", dir, "--run", "a", "--", "b"}, 2, "not both"},
		{[]string{"devserver", "--state-dir", dir, "--bogus", "x"}, 2, "bogus"},
		{[]string{"devserver", "--state-dir", dir, "--ready-pattern", "(", "--", "x"}, 2, "ready pattern"},
		{[]string{"devserver", "--name", "../up", "--", "x"}, 2, "invalid dev server name"},
		{[]string{"devserver", "--state-dir", dir, "--run", `a "b`}, 2, "unterminated quote"},
		{[]string{"devserver", "--state-dir", dir, "--status"}, 0, `"status":"stopped"`},
		{[]string{"devserver", "--state-dir", dir, "--shutdown"}, 0, `"status":"already_stopped"`},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		code := realMain(c.args, nil, &stdout, &stderr)
		if code != c.code || !strings.Contains(stdout.String(), c.want) || strings.Count(stdout.String(), "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q; want exit %d and %q", c.args, code, stdout.String(), c.code, c.want)
		}
		if code == 2 && (strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "(see e2e-mcp devserver --help)")) {
			t.Errorf("%q: want one line on stderr saying where the help is: %q", c.args, stderr.String())
		}
	}
	var stdout bytes.Buffer
	if code := realMain([]string{"devserver", "-h"}, nil, &stdout, &bytes.Buffer{}); code != 0 || !strings.Contains(stdout.String(), "-ready-pattern") {
		t.Errorf("-h: exit %d, %q", code, stdout.String())
	}
}

func TestJoinCommandLine(t *testing.T) {
	got := joinCommandLine([]string{"npm", "run", "dev", "--", "--port", "$PORT", "a b", `q"uote`, "it's", `back\slash`, ""})
	want := `npm run dev -- --port $PORT "a b" "q\"uote" "it's" "back\\slash" ""`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func waitUntil(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestDevserverInterruptedStart: when the caller kills --start on timeout
// (the server is slow to come up), the server is left starting; --status
// says so, and the next --start waits for it instead of starting another.
func TestDevserverInterruptedStart(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Fatal("this test checks processes through /proc: run it on Linux")
	}
	t.Parallel()
	bin, py := binary(t), python3(t)
	state := t.TempDir()
	common := []string{"--name", "slow", "--state-dir", state}
	t.Cleanup(func() { runDevserver(t, bin, append(common, "--shutdown")...) })
	slow := "import sys,time,http.server; time.sleep(1.5); " +
		"http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), http.server.SimpleHTTPRequestHandler).serve_forever()"
	first := exec.Command(bin, append(append([]string{"devserver"}, common...), "--", py, "-c", slow, "$PORT", "--start")...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 10*time.Second, "the server to be recorded", func() bool {
		_, err := os.Stat(filepath.Join(state, "state.json"))
		return err == nil
	})
	_ = first.Process.Kill()
	_ = first.Wait()

	st := runDevserver(t, bin, append(common, "--status")...)
	if st.code != 0 || st.res.Status != "unhealthy" || !strings.Contains(st.res.Message, "starting") {
		t.Fatalf("status while starting: %+v", st)
	}
	again := runDevserver(t, bin, append(common, "--start")...) // the command comes from the state
	if again.code != 0 || again.res.Status != "ready" || again.res.PID != st.res.PID {
		t.Fatalf("start after an interrupted start: %+v", again)
	}
	httpOK(t, again.res.URL)
}
