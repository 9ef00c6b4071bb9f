//go:build !unit

package devserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestNewManagedRejects(t *testing.T) {
	for _, spec := range []ManagedSpec{
		{Name: "../x", Run: "a"},
		{Run: `a "b`},
		{Run: "PORT=1"},
		{Run: "a", ReadyPattern: "("},
		{Run: "a", Dir: "/nonexistent/dir"},
		{Run: "a", Env: []string{"NOEQUALS"}},
		{Run: "PORT=x a"},
	} {
		spec.StateDir = t.TempDir()
		if _, err := NewManaged(spec); err == nil {
			t.Errorf("NewManaged(%+v): no error", spec)
		}
	}
}

// newManaged builds a Managed for a test with its state in a temp dir.
func newManaged(t *testing.T, spec ManagedSpec) *Managed {
	t.Helper()
	if spec.StateDir == "" {
		spec.StateDir = t.TempDir()
	}
	if spec.StartTimeout == 0 {
		spec.StartTimeout = 15 * time.Second
	}
	m, err := NewManaged(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = m.Do(ctx, Shutdown)
	})
	return m
}

func do(t *testing.T, m *Managed, verb Verb) *Result {
	t.Helper()
	start := time.Now()
	res, err := m.Do(context.Background(), verb)
	if err != nil {
		t.Fatalf("--%s: %v", verb, err)
	}
	t.Logf("--%s in %s: %s %s (%s)", verb, time.Since(start).Round(time.Millisecond), res.Status, res.URL, res.Message)
	return res
}

// get fetches url and fails the test unless it answers below 500.
func get(t *testing.T, url string) {
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

// serverProcs lists the live processes of the server described by res.
func serverProcs(pid int) []int {
	var pids []int
	if procAvailable() {
		for _, p := range processTree(pid, pid) {
			pids = append(pids, p.PID)
		}
		return pids
	}
	if pidAlive(pid) || groupAlive(pid) {
		pids = append(pids, pid)
	}
	return pids
}

// checkGone fails unless no process of the server started as pid is left,
// and its port does not answer.
func checkGone(t *testing.T, pid, port int) {
	t.Helper()
	if left := serverProcs(pid); len(left) > 0 {
		t.Fatalf("processes left after shutdown of %d: %v", pid, left)
	}
	if port > 0 && tcpOpen(context.Background(), "127.0.0.1:"+strconv.Itoa(port)) {
		t.Fatalf("port %d still open; listening: %s", port, portOwners(port))
	}
}

// portOwners says which processes listen on port (from /proc), so that a
// port found open after a shutdown names its holder: one of the server's,
// or another test's server that got the freed port.
func portOwners(port int) string {
	if !procAvailable() {
		return "unknown (no /proc)"
	}
	var out []string
	for _, p := range allProcs() {
		ls, _ := listeners([]int{p.PID})
		for _, l := range ls {
			if l.Port == port {
				cmd, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/cmdline")
				out = append(out, fmt.Sprintf("pid %d (ppid %d, pgid %d) %q", p.PID, p.PPID, p.PGID,
					strings.ReplaceAll(strings.TrimRight(string(cmd), "\x00"), "\x00", " ")))
				break
			}
		}
	}
	if len(out) == 0 {
		return "no process found"
	}
	return strings.Join(out, "; ")
}

func checkLogs(t *testing.T, l Logs) {
	t.Helper()
	for _, p := range []string{l.Stdout, l.Stderr, l.Combined} {
		if !filepath.IsAbs(p) {
			t.Fatalf("log path %q is not absolute", p)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: mode %v, want 0600", p, fi.Mode().Perm())
		}
	}
}

// TestManagedLifecycle drives a server that takes $PORT through every verb.
func TestManagedLifecycle(t *testing.T) {
	t.Parallel()
	py := python(t)
	m := newManaged(t, ManagedSpec{Name: "web", Run: shellQuote(py) + " -m http.server $PORT --bind 127.0.0.1", Dir: t.TempDir()})

	st := do(t, m, Status)
	if st.Status != "stopped" {
		t.Fatalf("status before start: %+v", st)
	}
	res := do(t, m, Start)
	if res.Status != "ready" || res.PID <= 0 || res.Port <= 0 || res.URL != "http://localhost:"+strconv.Itoa(res.Port) || res.StartedAt == "" {
		t.Fatalf("start: %+v", res)
	}
	checkLogs(t, res.Logs)
	get(t, res.URL)
	again := do(t, m, Start)
	if again.Status != "already_running" || again.PID != res.PID || again.URL != res.URL {
		t.Fatalf("second start: %+v", again)
	}
	st = do(t, m, Status)
	if st.Status != "running" || st.Healthy == nil || !*st.Healthy || st.PID != res.PID {
		t.Fatalf("status: %+v", st)
	}
	// The access log of python's server goes to stderr.
	if b, _ := os.ReadFile(res.Logs.Stderr); !strings.Contains(string(b), "GET / ") {
		t.Fatalf("stderr log lacks the probe's request: %q", b)
	}

	rs := do(t, m, Restart)
	if rs.Status != "restarted" || rs.PreviousPID != res.PID || rs.PreviousPort != res.Port || rs.Port == res.Port || rs.PID == res.PID {
		t.Fatalf("restart: %+v", rs)
	}
	checkGone(t, res.PID, res.Port)
	get(t, rs.URL)
	if _, err := os.Stat(res.Logs.Combined + ".1"); err != nil {
		t.Fatalf("previous run's log not kept: %v", err)
	}

	sd := do(t, m, Shutdown)
	if sd.Status != "stopped" || sd.PreviousPID != rs.PID || sd.PreviousPort != rs.Port || sd.StoppedAt == "" {
		t.Fatalf("shutdown: %+v", sd)
	}
	checkGone(t, rs.PID, rs.Port)
	if st := do(t, m, Status); st.Status != "stopped" {
		t.Fatalf("status after shutdown: %+v", st)
	}
	if sd := do(t, m, Shutdown); sd.Status != "already_stopped" {
		t.Fatalf("second shutdown: %+v", sd)
	}
	if rs := do(t, m, Restart); rs.Status != "started" || rs.PreviousPID != 0 {
		t.Fatalf("restart when stopped: %+v", rs)
	}
}

// TestManagedIgnoresPORT: a server on a port of its own, found from its
// output alone (python prints "Serving HTTP on ... (http://127.0.0.1:N/)"),
// with the /proc socket lookup switched off.
func TestManagedIgnoresPORT(t *testing.T) {
	t.Parallel()
	py := python(t)
	fixed, err := freePort(0)
	if err != nil {
		t.Fatal(err)
	}
	m := newManaged(t, ManagedSpec{Run: shellQuote(py) + " -u -m http.server " + strconv.Itoa(fixed) + " --bind 127.0.0.1"})
	m.noSockets = true
	res := do(t, m, Start)
	if res.Port != fixed || res.URL != "http://localhost:"+strconv.Itoa(fixed) {
		t.Fatalf("start: %+v, want port %d", res, fixed)
	}
	if !strings.Contains(res.Message, "did not take PORT") {
		t.Fatalf("message does not say the port was not taken: %q", res.Message)
	}
	get(t, res.URL)
	sd := do(t, m, Shutdown)
	if sd.Status != "stopped" {
		t.Fatalf("shutdown: %+v", sd)
	}
	checkGone(t, res.PID, fixed)
}

// TestManagedSilentGrandchild: a server that prints nothing, picks its own
// port and runs under a shell, so that only the LISTEN sockets of the
// process tree (/proc) can tell where it is; it is ready when its output
// matches ReadyPattern.
func TestManagedSilentGrandchild(t *testing.T) {
	t.Parallel()
	if !procAvailable() {
		t.Fatal("this test reads /proc: run it on Linux")
	}
	py := python(t)
	script := "import http.server,sys; s=http.server.HTTPServer(('127.0.0.1', 0), http.server.SimpleHTTPRequestHandler); " +
		"print('warming up', flush=True); sys.stderr.write('ok, serving\\n'); sys.stderr.flush(); s.serve_forever()"
	m := newManaged(t, ManagedSpec{Run: "/bin/sh -c " + shellQuote(shellQuote(py)+" -c "+shellQuote(script)+"; echo done"), ReadyPattern: `^ok, serv`})
	res := do(t, m, Start)
	if res.Status != "ready" || res.Port == 0 || !strings.Contains(res.Message, "ready pattern") {
		t.Fatalf("start: %+v", res)
	}
	get(t, res.URL)
	tree := serverProcs(res.PID)
	if len(tree) != 2 {
		t.Fatalf("want sh and python in the tree, got %v", tree)
	}
	if st := do(t, m, Status); st.Status != "running" || !*st.Healthy {
		t.Fatalf("status: %+v", st)
	}
	do(t, m, Shutdown)
	checkGone(t, res.PID, res.Port)
	for _, pid := range tree {
		if (procRef{PID: pid}).alive() {
			t.Fatalf("pid %d of the tree is alive", pid)
		}
	}
}

// TestManagedIPv6Only: a server bound to ::1 only is found and reported with
// a URL that reaches it.
func TestManagedIPv6Only(t *testing.T) {
	t.Parallel()
	if l, err := net.Listen("tcp", "[::1]:0"); err != nil {
		t.Fatal("this test needs the IPv6 loopback (::1):", err)
	} else {
		_ = l.Close()
	}
	py := python(t)
	m := newManaged(t, ManagedSpec{Run: shellQuote(py) + " -m http.server --bind ::1 $PORT"})
	res := do(t, m, Start)
	p := strconv.Itoa(res.Port)
	if res.URL != "http://[::1]:"+p && res.URL != "http://localhost:"+p {
		t.Fatalf("start: %+v", res)
	}
	get(t, res.URL)
	if tcpOpen(context.Background(), "127.0.0.1:"+p) {
		t.Fatal("the test server should not be on 127.0.0.1")
	}
	if st := do(t, m, Status); st.Status != "running" || !*st.Healthy {
		t.Fatalf("status: %+v", st)
	}
	rs := do(t, m, Restart)
	if rs.Status != "restarted" || rs.Port == res.Port {
		t.Fatalf("restart: %+v", rs)
	}
	get(t, rs.URL)
	do(t, m, Shutdown)
	checkGone(t, rs.PID, 0)
	if tcpOpen(context.Background(), net.JoinHostPort("::1", strconv.Itoa(rs.Port))) {
		t.Fatal("still listening on ::1")
	}
}

// TestManagedDetached: a detached server is answered for by another Managed
// (as the subcommand's next run would), and its output reaches the logs
// through the relay process after this one stops watching.
func TestManagedDetached(t *testing.T) {
	t.Parallel()
	py := python(t)
	dir := t.TempDir()
	spec := ManagedSpec{Name: "detached", Run: shellQuote(py) + " -m http.server $PORT --bind 127.0.0.1", StateDir: dir, Detach: true}
	res := do(t, newManaged(t, spec), Start)
	other := newManaged(t, spec)
	other.spec.Run = "" // status and shutdown need no command
	st := do(t, other, Status)
	if st.Status != "running" || st.PID != res.PID || !*st.Healthy {
		t.Fatalf("status from another Managed: %+v", st)
	}
	get(t, res.URL+"/detached-marker")
	waitFor(t, 5*time.Second, "the relay to log the request", func() bool {
		b, _ := os.ReadFile(res.Logs.Combined)
		return strings.Contains(string(b), "/detached-marker")
	})
	if res := do(t, other, Start); res.Status != "already_running" {
		t.Fatalf("start from another Managed: %+v", res)
	}
	sd := do(t, other, Shutdown)
	if sd.Status != "stopped" || sd.PreviousPID != res.PID {
		t.Fatalf("shutdown: %+v", sd)
	}
	checkGone(t, res.PID, res.Port)
}

// TestManagedForceStop: a server that ignores SIGTERM is killed, and the
// answer says so.
func TestManagedForceStop(t *testing.T) {
	t.Parallel()
	py := python(t)
	script := "import signal,sys,http.server; signal.signal(signal.SIGTERM, signal.SIG_IGN); " +
		"http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), http.server.SimpleHTTPRequestHandler).serve_forever()"
	m := newManaged(t, ManagedSpec{Run: shellQuote(py) + " -c " + shellQuote(script) + " $PORT"})
	res := do(t, m, Start)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	begin := time.Now()
	sd, err := m.Do(ctx, Shutdown)
	if err != nil {
		t.Fatal(err)
	}
	if sd.Status != "force_stopped" || time.Since(begin) > 3*time.Second {
		t.Fatalf("shutdown after %s: %+v", time.Since(begin), sd)
	}
	checkGone(t, res.PID, res.Port)
}

// TestManagedNotReady: a server that exits at once is a not_ready error with
// its output, and leaves no state behind.
func TestManagedNotReady(t *testing.T) {
	t.Parallel()
	py := python(t)
	m := newManaged(t, ManagedSpec{Run: shellQuote(py) + ` -c "import sys; print('compiling'); sys.exit('boom: port $PORT is cursed')"`})
	_, err := m.Do(context.Background(), Start)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindNotReady || !strings.Contains(e.Message, "exit status 1") ||
		!strings.Contains(e.Message, "compiling") || !strings.Contains(e.Stderr, "boom: port") || e.Logs.Stderr == "" {
		t.Fatalf("err = %#v", err)
	}
	if st, _ := m.loadState(); st != nil {
		t.Fatalf("state left: %+v", st)
	}

	// And one that never answers within StartTimeout.
	m = newManaged(t, ManagedSpec{Run: shellQuote(py) + ` -c "import time; time.sleep(60)"`, StartTimeout: 500 * time.Millisecond})
	_, err = m.Do(context.Background(), Start)
	if !errors.As(err, &e) || e.Kind != KindNotReady || !strings.Contains(e.Message, "within 500ms") {
		t.Fatalf("err = %#v", err)
	}
}

func TestManagedCommandNotFound(t *testing.T) {
	t.Parallel()
	m := newManaged(t, ManagedSpec{Run: "no-such-dev-server-xyz --port $PORT"})
	_, err := m.Do(context.Background(), Start)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindCommandNotFound {
		t.Fatalf("err = %#v", err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "serve.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m = newManaged(t, ManagedSpec{Run: "./serve.sh", Dir: dir})
	if _, err = m.Do(context.Background(), Start); !errors.As(err, &e) || e.Kind != KindPermissionDenied {
		t.Fatalf("err = %#v", err)
	}
}

func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// parentEnv makes the test binary the parent process of
// TestManagedDiesWithParent (see init below).
const parentEnv = "DEVSERVER_TEST_PARENT_STATE"

// The test binary's TestMain builds a fixture; the parent process must not
// wait for that, so it is run from init, before TestMain.
func init() {
	dir := os.Getenv(parentEnv)
	if dir == "" {
		return
	}
	py, err := realPython()
	if err != nil {
		os.Exit(3)
	}
	m, err := NewManaged(ManagedSpec{Run: shellQuote(py) + " -m http.server $PORT --bind 127.0.0.1", StateDir: dir})
	if err != nil {
		os.Exit(4)
	}
	res, err := m.Do(context.Background(), Start)
	if err != nil {
		os.Exit(5)
	}
	_, _ = os.Stdout.WriteString(strconv.Itoa(res.PID) + "\n")
	select {} // until killed
}

// TestManagedDiesWithParent: started in-process (Detach false), the server
// dies with the process that started it, even when that one is killed; a
// later Managed on the same state sees it stopped and starts afresh.
func TestManagedDiesWithParent(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Fatal("Pdeathsig is Linux only: run this test on Linux")
	}
	python(t)
	dir := t.TempDir()
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), parentEnv+"="+dir)
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = parent.Process.Kill()
		t.Fatalf("parent: %v (%v)", err, parent.Wait())
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(line))
	if !(procRef{PID: pid}).alive() {
		t.Fatalf("server %d not running", pid)
	}
	_ = parent.Process.Kill() // SIGKILL: no chance to clean up
	_ = parent.Wait()
	waitFor(t, 5*time.Second, "the server to die with its parent", func() bool { return len(serverProcs(pid)) == 0 })

	m := newManaged(t, ManagedSpec{StateDir: dir})
	if st := do(t, m, Status); st.Status != "stopped" {
		t.Fatalf("status: %+v", st)
	}
	res := do(t, m, Start) // the command comes from the state
	if res.Status != "ready" || res.PID == pid {
		t.Fatalf("start: %+v", res)
	}
}

// TestManagedConcurrentStarts: verbs at once on one server (in this process
// and through a second Managed, as another process would) start it once.
func TestManagedConcurrentStarts(t *testing.T) {
	t.Parallel()
	py := python(t)
	spec := ManagedSpec{Run: shellQuote(py) + " -m http.server $PORT --bind 127.0.0.1", StateDir: t.TempDir()}
	a, b := newManaged(t, spec), newManaged(t, spec)
	results := make(chan *Result, 4)
	for _, m := range []*Managed{a, a, b, b} {
		go func() {
			res, err := m.Do(context.Background(), Start)
			if err != nil {
				t.Error(err)
			}
			results <- res
		}()
	}
	pids, ready := map[int]bool{}, 0
	for range 4 {
		if res := <-results; res != nil {
			pids[res.PID] = true
			if res.Status == "ready" {
				ready++
			}
		}
	}
	if len(pids) != 1 || ready != 1 {
		t.Fatalf("%d servers, %d ready answers; want one of each", len(pids), ready)
	}
}
