//go:build unix

// Command devfixture is a dev-server command for tests: it implements the
// contract of docs/dev-server.md around a small real HTTP server, records
// every verb it gets, and misbehaves on request.
//
// Environment:
//
//	FIXTURE_STATE  directory for its state, logs and verbs.log (required)
//	FIXTURE_MODE   "" (well-behaved), hang, badjson, fail, errorstatus,
//	               missingfield, slow, dies, holdpipes
//	FIXTURE_SLOW   how long slow mode waits before answering (default 2s)
//
// "devfixture serve DIR" is the server itself: it listens on 127.0.0.1 on a
// free port, writes the port to DIR/port, logs each request to stdout, and
// serves a page whose button fetches /api/hello.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type state struct {
	PID       int    `json:"pid"`
	Port      int    `json:"port"`
	URL       string `json:"url"`
	StartedAt string `json:"startedAt"`
	Logs      logs   `json:"logs"`
}

type logs struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	Combined string `json:"combined"`
}

func main() {
	if len(os.Args) >= 3 && os.Args[1] == "serve" {
		serve(os.Args[2])
		return
	}
	dir := os.Getenv("FIXTURE_STATE")
	if dir == "" {
		fail(2, "no_state", "FIXTURE_STATE is not set")
	}
	_ = os.MkdirAll(dir, 0o755)
	verb := "start"
	if n := len(os.Args); n > 1 && strings.HasPrefix(os.Args[n-1], "--") {
		verb = strings.TrimPrefix(os.Args[n-1], "--")
	}
	record(dir, verb)
	switch os.Getenv("FIXTURE_MODE") {
	case "hang":
		fmt.Println("starting, and never answering")
		time.Sleep(time.Hour)
	case "badjson":
		fmt.Println("starting dev server...\nready at last, but this is not JSON")
		return
	case "fail":
		fmt.Fprintln(os.Stderr, "Error: listen EADDRINUSE: address already in use :::3000\n    at Server.setupListenHandle")
		out(map[string]any{"status": "error", "error": "port_in_use", "message": "Port 3000 is busy"})
		os.Exit(3)
	case "errorstatus":
		out(map[string]any{"status": "error", "error": "build_failed", "message": "compilation failed"})
		return
	case "slow":
		d, err := time.ParseDuration(os.Getenv("FIXTURE_SLOW"))
		if err != nil {
			d = 2 * time.Second
		}
		time.Sleep(d)
	}
	switch verb {
	case "start":
		start(dir, "ready")
	case "status":
		status(dir)
	case "shutdown":
		shutdown(dir, true)
	case "restart":
		prev := load(dir)
		shutdown(dir, false)
		s := start(dir, "")
		if prev != nil {
			out(map[string]any{"status": "restarted", "url": s.URL, "port": s.Port, "pid": s.PID, "startedAt": s.StartedAt,
				"logs": s.Logs, "previousPid": prev.PID, "previousPort": prev.Port, "message": "restarted"})
		} else {
			out(map[string]any{"status": "started", "url": s.URL, "port": s.Port, "pid": s.PID, "startedAt": s.StartedAt, "logs": s.Logs})
		}
	default:
		fail(2, "usage", "unknown verb --"+verb)
	}
}

func record(dir, verb string) {
	f, err := os.OpenFile(filepath.Join(dir, "verbs.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		fmt.Fprintln(f, verb)
		_ = f.Close()
	}
}

func out(v any) {
	b, _ := json.Marshal(v)
	fmt.Println(string(b))
}

func fail(code int, kind, msg string) {
	out(map[string]any{"status": "error", "error": kind, "message": msg})
	os.Exit(code)
}

func load(dir string) *state {
	b, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err != nil {
		return nil
	}
	var s state
	if json.Unmarshal(b, &s) != nil {
		return nil
	}
	return &s
}

func alive(pid int) bool {
	return pid > 0 && syscall.Kill(pid, 0) == nil && !zombie(pid)
}

func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] == "Z"
}

// start runs the server in the background and answers with its address,
// unless answer is "" (restart answers itself).
func start(dir, answer string) *state {
	if s := load(dir); s != nil && alive(s.PID) {
		if answer != "" {
			out(map[string]any{"status": "already_running", "url": s.URL, "port": s.Port, "pid": s.PID, "startedAt": s.StartedAt, "logs": s.Logs})
		}
		return s
	}
	lg := logs{Stdout: filepath.Join(dir, "server.stdout.log"), Stderr: filepath.Join(dir, "server.stderr.log"), Combined: filepath.Join(dir, "server.log")}
	_ = os.Remove(filepath.Join(dir, "port"))
	self, _ := os.Executable()
	cmd := exec.Command(self, "serve", dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if os.Getenv("FIXTURE_MODE") == "holdpipes" {
		// Like `npm run dev &`: the server keeps our stdout and stderr.
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	} else {
		o, _ := os.OpenFile(lg.Stdout, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		e, _ := os.OpenFile(lg.Stderr, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		cmd.Stdout, cmd.Stderr = o, e
	}
	if err := cmd.Start(); err != nil {
		fail(1, "spawn_failed", err.Error())
	}
	var port int
	for deadline := time.Now().Add(10 * time.Second); port == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			fail(1, "start_timeout", "the server did not report its port")
		}
		b, err := os.ReadFile(filepath.Join(dir, "port"))
		if err == nil {
			port, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
	}
	s := &state{PID: cmd.Process.Pid, Port: port, URL: fmt.Sprintf("http://127.0.0.1:%d", port),
		StartedAt: time.Now().UTC().Format(time.RFC3339), Logs: lg}
	b, _ := json.Marshal(s)
	_ = os.WriteFile(filepath.Join(dir, "state.json.tmp"), b, 0o644)
	_ = os.Rename(filepath.Join(dir, "state.json.tmp"), filepath.Join(dir, "state.json"))
	fmt.Println("dev server starting (this line is a log line before the JSON)")
	if answer != "" {
		ans := map[string]any{"status": answer, "url": s.URL, "port": s.Port, "pid": s.PID, "startedAt": s.StartedAt, "logs": s.Logs,
			"message": "Server started", "extra": "unknown fields are fine"}
		if os.Getenv("FIXTURE_MODE") == "missingfield" {
			delete(ans, "url")
		}
		out(ans)
	}
	return s
}

func status(dir string) {
	s := load(dir)
	if s == nil || !alive(s.PID) {
		out(map[string]any{"status": "stopped", "message": "not running"})
		return
	}
	healthy := false
	c := http.Client{Timeout: time.Second}
	if r, err := c.Get(s.URL + "/health"); err == nil {
		healthy = r.StatusCode == 200
		_ = r.Body.Close()
	}
	st := "running"
	if !healthy {
		st = "unhealthy"
	}
	up := time.Since(parseTime(s.StartedAt)).Seconds()
	out(map[string]any{"status": st, "url": s.URL, "port": s.Port, "pid": s.PID, "startedAt": s.StartedAt, "uptime": int(up),
		"healthy": healthy, "logs": s.Logs, "message": "status checked"})
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}

func shutdown(dir string, answer bool) {
	s := load(dir)
	if s == nil || !alive(s.PID) {
		_ = os.Remove(filepath.Join(dir, "state.json"))
		if answer {
			out(map[string]any{"status": "already_stopped", "message": "was not running"})
		}
		return
	}
	_ = syscall.Kill(s.PID, syscall.SIGTERM)
	forced := false
	for deadline := time.Now().Add(5 * time.Second); alive(s.PID); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(s.PID, syscall.SIGKILL)
			forced = true
		}
	}
	_ = os.Remove(filepath.Join(dir, "state.json"))
	if answer {
		st := "stopped"
		if forced {
			st = "force_stopped"
		}
		out(map[string]any{"status": st, "previousPid": s.PID, "previousPort": s.Port, "stoppedAt": time.Now().UTC().Format(time.RFC3339),
			"uptime": int(time.Since(parseTime(s.StartedAt)).Seconds()), "message": "Server stopped"})
	}
}

const page = `<!doctype html><html><head><title>Fixture app</title></head><body>
<h1>Fixture app</h1>
<button onclick="fetch('/api/hello').then(r => r.text()).then(t => document.getElementById('out').textContent = t)">Say hello</button>
<p id="out"></p>
<a href="/about?x=1#top">About</a>
</body></html>`

func serve(dir string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "listen:", err)
		os.Exit(1)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	mux := http.NewServeMux()
	mux.HandleFunc("/health", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") })
	mux.HandleFunc("/api/hello", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "hello from port %d", port)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path != "/" && r.URL.Path != "/about" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, strings.Replace(page, "Fixture app</h1>", fmt.Sprintf("Fixture app on %d</h1>", port), 1))
	})
	combined, _ := os.OpenFile(filepath.Join(dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	logTo := func(f *os.File, format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		fmt.Fprint(f, line)
		if combined != nil {
			fmt.Fprint(combined, line)
		}
	}
	logged := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		logTo(os.Stdout, "%s %s %s\n", time.Now().UTC().Format(time.RFC3339Nano), r.Method, r.URL.RequestURI())
		mux.ServeHTTP(w, r)
	})
	if err := os.WriteFile(filepath.Join(dir, "port.tmp"), []byte(strconv.Itoa(port)), 0o644); err == nil {
		_ = os.Rename(filepath.Join(dir, "port.tmp"), filepath.Join(dir, "port"))
	}
	logTo(os.Stderr, "listening on %d\n", port)
	if os.Getenv("FIXTURE_MODE") == "dies" {
		go func() {
			time.Sleep(300 * time.Millisecond)
			logTo(os.Stderr, "fatal: the server crashed\n")
			os.Exit(1)
		}()
	}
	srv := &http.Server{Handler: logged, ReadHeaderTimeout: 5 * time.Second}
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, "serve:", err)
	}
}
