package devserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fixture is the contract fixture (internal/devfixture), built once.
var fixture string

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == SupervisorArg {
		// The test binary is the verb supervisor of TestSupervisor.
		os.Exit(Supervise(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == GuardArg {
		// The test binary is the guard of TestGuard.
		os.Exit(Guard(os.Stdin))
	}
	dir, err := os.MkdirTemp("", "devfixture-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fixture = filepath.Join(dir, "devfixture")
	build := exec.Command("go", "build", "-o", fixture, "../internal/devfixture")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build devfixture:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// fixtureCmd is a Command running the fixture in a mode, with its own state.
func fixtureCmd(t *testing.T, mode string, extraEnv ...string) (*Command, string) {
	t.Helper()
	state := t.TempDir()
	c := &Command{Path: fixture, Env: append([]string{"FIXTURE_STATE=" + state, "FIXTURE_MODE=" + mode}, extraEnv...),
		Timeouts: Timeouts{Start: 10 * time.Second, Status: 5 * time.Second}}
	t.Cleanup(func() {
		// Whatever the test did, stop the server, then prove nothing is left.
		clean := &Command{Path: fixture, Env: []string{"FIXTURE_STATE=" + state}}
		_, _ = clean.Do(context.Background(), Shutdown)
		if left := processesWith("FIXTURE_STATE=" + state); len(left) > 0 {
			t.Errorf("processes left running: %v", left)
		}
	})
	return c, state
}

// processesWith lists live processes whose environment holds kv.
func processesWith(kv string) []string {
	envs, _ := filepath.Glob("/proc/[0-9]*/environ")
	var pids []string
	for _, e := range envs {
		b, err := os.ReadFile(e)
		if err != nil || !bytes.Contains(b, []byte(kv+"\x00")) {
			continue
		}
		pid := filepath.Base(filepath.Dir(e))
		if stat, err := os.ReadFile("/proc/" + pid + "/stat"); err == nil && strings.Contains(string(stat), ") Z ") {
			continue // a zombie is not running
		}
		pids = append(pids, pid)
	}
	return pids
}

func wantErr(t *testing.T, err error, kind Kind) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Kind != kind {
		t.Fatalf("error = %v, want %s", err, kind)
	}
	return e
}

func TestCommand_Lifecycle(t *testing.T) {
	c, state := fixtureCmd(t, "")
	ctx := context.Background()
	r, err := c.Do(ctx, Start)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "ready" || !strings.HasPrefix(r.URL, "http://127.0.0.1:") || r.Port == 0 || r.PID == 0 || !filepath.IsAbs(r.Logs.Stdout) {
		t.Errorf("start = %+v", r)
	}
	if !strings.Contains(string(r.Raw), `"extra"`) {
		t.Errorf("unknown fields are not kept in Raw: %s", r.Raw)
	}
	again, err := c.Do(ctx, Start)
	if err != nil || again.Status != "already_running" || again.PID != r.PID {
		t.Errorf("second start = %+v, %v", again, err)
	}
	st, err := c.Do(ctx, Status)
	if err != nil || st.Status != "running" || st.Healthy == nil || !*st.Healthy {
		t.Errorf("status = %+v, %v", st, err)
	}
	re, err := c.Do(ctx, Restart)
	if err != nil || re.Status != "restarted" || re.PreviousPID != r.PID || re.PID == r.PID {
		t.Errorf("restart = %+v, %v", re, err)
	}
	down, err := c.Do(ctx, Shutdown)
	if err != nil || down.Status != "stopped" || down.PreviousPID != re.PID {
		t.Errorf("shutdown = %+v, %v", down, err)
	}
	if st, err := c.Do(ctx, Status); err != nil || st.Status != "stopped" {
		t.Errorf("status after shutdown = %+v, %v", st, err)
	}
	verbs, _ := os.ReadFile(filepath.Join(state, "verbs.log"))
	if got := strings.Fields(string(verbs)); strings.Join(got, " ") != "start start status restart shutdown status" {
		t.Errorf("verbs received: %q", got)
	}
}

func TestCommand_Misbehaving(t *testing.T) {
	ctx := context.Background()
	t.Run("hang", func(t *testing.T) {
		c, _ := fixtureCmd(t, "hang")
		c.Timeouts.Start = 500 * time.Millisecond
		start := time.Now()
		_, err := c.Do(ctx, Start)
		e := wantErr(t, err, KindTimeout)
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("timeout took %s", took)
		}
		if !strings.Contains(e.Stdout, "never answering") {
			t.Errorf("timeout error keeps no output: %q", e.Stdout)
		}
	})
	t.Run("invalid json", func(t *testing.T) {
		c, _ := fixtureCmd(t, "badjson")
		e := wantErr(t, func() error { _, err := c.Do(ctx, Start); return err }(), KindInvalidJSON)
		if !strings.Contains(e.Stdout, "not JSON") {
			t.Errorf("raw stdout missing: %q", e.Stdout)
		}
	})
	t.Run("non-zero exit with an error answer", func(t *testing.T) {
		c, _ := fixtureCmd(t, "fail")
		_, err := c.Do(ctx, Start)
		e := wantErr(t, err, KindNonZeroExit)
		if e.ExitCode != 3 || e.Reported != "port_in_use: Port 3000 is busy" || !strings.Contains(e.Stderr, "EADDRINUSE") {
			t.Errorf("error = %+v", e)
		}
	})
	t.Run("status error with exit 0", func(t *testing.T) {
		c, _ := fixtureCmd(t, "errorstatus")
		_, err := c.Do(ctx, Start)
		if e := wantErr(t, err, KindNonZeroExit); e.Reported != "build_failed: compilation failed" {
			t.Errorf("error = %+v", e)
		}
	})
	t.Run("missing field", func(t *testing.T) {
		c, _ := fixtureCmd(t, "missingfield")
		_, err := c.Do(ctx, Start)
		if e := wantErr(t, err, KindMissingField); e.Field != "url" {
			t.Errorf("field = %q, want url", e.Field)
		}
	})
	t.Run("slow start within and past its timeout", func(t *testing.T) {
		c, _ := fixtureCmd(t, "slow", "FIXTURE_SLOW=300ms")
		if _, err := c.Do(ctx, Start); err != nil {
			t.Errorf("slow start within its timeout: %v", err)
		}
		c2, _ := fixtureCmd(t, "slow", "FIXTURE_SLOW=5s")
		c2.Timeouts.Start = 200 * time.Millisecond
		_, err := c2.Do(ctx, Start)
		wantErr(t, err, KindTimeout)
	})
	t.Run("server dies after start", func(t *testing.T) {
		c, _ := fixtureCmd(t, "dies")
		if _, err := c.Do(ctx, Start); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for {
			st, err := c.Do(ctx, Status)
			if err == nil && st.Status == "stopped" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("status never said stopped after the server died: %+v %v", st, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
	t.Run("server holds the command's stdout and stderr", func(t *testing.T) {
		c, _ := fixtureCmd(t, "holdpipes")
		c.Timeouts.Start = 5 * time.Second
		start := time.Now()
		r, err := c.Do(ctx, Start)
		if err != nil || r.Status != "ready" {
			t.Fatalf("start = %+v, %v", r, err)
		}
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("the answer waited %s for pipes the server holds", took)
		}
	})
	t.Run("not executable", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "devserver.sh")
		_ = os.WriteFile(p, []byte("#!/bin/sh\necho '{}'\n"), 0o644)
		_, err := (&Command{Path: p}).Do(ctx, Start)
		wantErr(t, err, KindPermissionDenied)
	})
	t.Run("missing", func(t *testing.T) {
		_, err := (&Command{Path: filepath.Join(t.TempDir(), "nope")}).Do(ctx, Start)
		wantErr(t, err, KindCommandNotFound)
	})
}

func TestParseAnswer(t *testing.T) {
	tests := []struct {
		name, out string
		verb      Verb
		kind      Kind
	}{
		{"log lines before", "compiling...\nready\n{\"status\":\"running\"}\n", Status, ""},
		{"pretty printed", "{\n  \"status\": \"stopped\"\n}\n", Shutdown, ""},
		{"two objects: the last", "{\"status\":\"x\"}\n{\"status\":\"stopped\"}", Shutdown, ""},
		{"braces in a log line", "got {weird} thing\n{\"status\":\"stopped\"}", Shutdown, ""},
		{"none", "nothing here", Status, KindInvalidJSON},
		{"bad status", `{"status":"fine"}`, Status, KindInvalidJSON},
		{"wrong type", `{"status":"ready","url":"http://x","port":"80","pid":1}`, Start, KindInvalidJSON},
		{"relative log path", `{"status":"ready","url":"http://x","port":80,"pid":1,"logs":{"stdout":"out.log"}}`, Start, KindInvalidJSON},
		{"missing pid", `{"status":"ready","url":"http://x","port":80}`, Start, KindMissingField},
	}
	for _, tc := range tests {
		_, err := parseAnswer(tc.verb, tc.out)
		switch {
		case tc.kind == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.kind != "" && (err == nil || err.Kind != tc.kind):
			t.Errorf("%s: error = %v, want %s", tc.name, err, tc.kind)
		}
	}
}
