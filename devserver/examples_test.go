//go:build !unit

package devserver

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestExamples runs the example dev-server commands of examples/ (the Bash
// script and the Go program) through this package's contract runner against
// python3 -m http.server: start, status, restart, shutdown, and nothing left
// running.
func TestExamples(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Fatal("the examples are for Unix: run this test on Linux or macOS")
	}
	t.Parallel()
	py := python(t)
	goBin := filepath.Join(t.TempDir(), "devserver-go")
	if out, err := exec.Command("go", "build", "-o", goBin, "../examples/devserver-go").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	script, err := filepath.Abs("../examples/devserver.sh")
	if err != nil {
		t.Fatal(err)
	}
	for name, path := range map[string]string{"bash": script, "go": goBin} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name == "bash" {
				if _, err := exec.LookPath("bash"); err != nil {
					t.Fatal("bash is needed for the Bash example")
				}
			}
			// python3 first on PATH is the real interpreter, not a slow shim.
			c := &Command{Path: path, Dir: t.TempDir(), Env: []string{
				"PATH=" + filepath.Dir(py) + string(os.PathListSeparator) + os.Getenv("PATH"),
				"DEV_SERVER_STATE_DIR=" + t.TempDir(),
			}}
			exampleLifecycle(t, c)
		})
	}
}

func exampleLifecycle(t *testing.T, c *Command) {
	ctx := context.Background()
	run := func(verb Verb) *Result {
		t.Helper()
		begin := time.Now()
		res, err := c.Do(ctx, verb)
		if err != nil {
			t.Fatalf("--%s: %v", verb, err)
		}
		t.Logf("--%s in %s: %s %s", verb, time.Since(begin).Round(time.Millisecond), res.Status, res.URL)
		return res
	}
	t.Cleanup(func() { _, _ = c.Do(ctx, Shutdown) })

	start := run(Start)
	if start.Status != "ready" || start.PID <= 0 || start.Port <= 0 || start.StartedAt == "" {
		t.Fatalf("start: %+v", start)
	}
	for _, p := range []string{start.Logs.Stdout, start.Logs.Stderr, start.Logs.Combined} {
		if !filepath.IsAbs(p) {
			t.Fatalf("log path %q", p)
		}
	}
	get(t, start.URL)
	if again := run(Start); again.Status != "already_running" || again.PID != start.PID {
		t.Fatalf("second start: %+v", again)
	}
	st := run(Status)
	if st.Status != "running" || st.Healthy == nil || !*st.Healthy {
		t.Fatalf("status: %+v", st)
	}
	rs := run(Restart)
	if rs.Status != "restarted" || rs.PreviousPID != start.PID || rs.Port == start.Port {
		t.Fatalf("restart: %+v", rs)
	}
	if (procRef{PID: start.PID}).alive() {
		t.Fatalf("old server %d alive after restart", start.PID)
	}
	get(t, rs.URL)
	sd := run(Shutdown)
	if sd.Status != "stopped" || sd.PreviousPID != rs.PID {
		t.Fatalf("shutdown: %+v", sd)
	}
	if (procRef{PID: rs.PID}).alive() {
		t.Fatalf("server %d alive after shutdown", rs.PID)
	}
	if resp, err := http.Get(rs.URL); err == nil {
		_ = resp.Body.Close()
		t.Fatalf("%s answers after shutdown", rs.URL)
	}
	if st := run(Status); st.Status != "stopped" {
		t.Fatalf("status after shutdown: %+v", st)
	}
	if sd := run(Shutdown); sd.Status != "already_stopped" {
		t.Fatalf("second shutdown: %+v", sd)
	}
}
