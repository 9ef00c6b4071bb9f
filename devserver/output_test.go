package devserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// script writes an executable shell script into a temp dir.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "dev.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// A command that logs a megabyte before its answer is answered: the end of
// its output is read, not its first 64 KB.
func TestAnswerAfterLongLogs(t *testing.T) {
	long := script(t, `i=0; while [ $i -lt 20000 ]; do echo "log line $i of a chatty dev server, padded to be long enough"; i=$((i+1)); done
echo '{"status":"running"}'
`)
	c := &Command{Path: long, Timeouts: Timeouts{Status: 20 * time.Second}}
	res, err := c.Do(context.Background(), Status)
	if err != nil || res.Status != "running" {
		t.Fatalf("answer after 1 MB of logs: %v %v", res, err)
	}
	none := script(t, `i=0; while [ $i -lt 20000 ]; do echo "log line $i of a chatty dev server, padded to be long enough"; i=$((i+1)); done
`)
	c = &Command{Path: none, Timeouts: Timeouts{Status: 20 * time.Second}}
	_, err = c.Do(context.Background(), Status)
	e, ok := err.(*Error)
	if !ok || e.Kind != KindInvalidJSON {
		t.Fatalf("no answer: %v, want invalid_json", err)
	}
	if len(e.Stdout) > maxOutput || !strings.Contains(e.Stdout, "log line 19999 ") || strings.Contains(e.Stdout, "log line 0 ") {
		t.Errorf("invalid_json's excerpt is not the end of the output (%d bytes)", len(e.Stdout))
	}
}

// TestSupervisor: a verb run under the supervisor (the shell script, and
// this program where there is no shell) dies, with everything it started,
// when the supervisor is told its server is gone (the kernel's
// parent-death signal is SIGTERM); a verb that ends normally keeps its exit
// status.
func TestSupervisor(t *testing.T) {
	UseSupervisor(os.Args[0])
	defer UseSupervisor("")
	for i, sh := range []string{shell, ""} {
		t.Run(map[string]string{"": "self", "/bin/sh": "shell"}[sh], func(t *testing.T) {
			defer func(old string) { shell = old }(shell)
			shell = sh
			marker := fmt.Sprintf("615.%d5", i)
			hang := script(t, `case "$*" in *--status*) sleep `+marker+` ;; *) echo '{"status":"stopped"}'; exit 3 ;; esac
`)
			c := &Command{Path: hang, Timeouts: Timeouts{Status: time.Minute, Shutdown: 10 * time.Second}}
			if _, err := c.Do(context.Background(), Shutdown); err == nil {
				t.Fatal("exit 3 is a failure")
			} else if e, ok := err.(*Error); !ok || e.Kind != KindNonZeroExit || e.ExitCode != 3 {
				t.Fatalf("exit status through the supervisor: %v", err)
			}
			done := make(chan error, 1)
			go func() { _, err := c.Do(context.Background(), Status); done <- err }()
			var sup int
			deadline := time.Now().Add(10 * time.Second)
			for (sup == 0 || len(processesWithCmdline(marker)) == 0) && time.Now().Before(deadline) {
				for _, p := range processesWithCmdline("e2e-mcp-verb") {
					sup = p
				}
				time.Sleep(20 * time.Millisecond)
			}
			if sup == 0 || len(processesWithCmdline(marker)) == 0 {
				t.Fatal("the supervisor or its verb's sleep did not start")
			}
			_ = syscall.Kill(sup, syscall.SIGTERM) // as the parent-death signal does
			<-done
			deadline = time.Now().Add(5 * time.Second)
			for len(processesWithCmdline(marker)) > 0 {
				if time.Now().After(deadline) {
					t.Fatalf("the verb's child outlived its supervisor: %v", processesWithCmdline(marker))
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// processesWithCmdline lists live processes whose command line holds s.
func processesWithCmdline(s string) []int {
	all, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var pids []int
	for _, f := range all {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), s) {
			continue
		}
		var pid int
		if _, err := fmt.Sscan(filepath.Base(filepath.Dir(f)), &pid); err == nil && pid != os.Getpid() {
			pids = append(pids, pid)
		}
	}
	return pids
}

// FuzzParseAnswer: any output is answered or refused with a typed error,
// never a panic; an answer that parses is the last JSON object of the
// output and has what its verb requires.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{
		`{"status":"ready","url":"http://localhost:3000","port":3000,"pid":12}`,
		"npm log line\n{\"status\":\"running\"}\n",
		`{"status":"ready"}{"status":"ready","url":"u","port":1,"pid":2}`,
		"{\"status\":\"error\",\"error\":\"EADDRINUSE\",\"message\":\"port taken\"}",
		"  {\"status\": \"stopped\", \"logs\": {\"stdout\": \"rel.log\"}}",
		"{", "}", "[1,2]", "{\"status\":1}", "\x00\xff{\"status\":\"running\"}",
	} {
		f.Add(s, uint8(0))
	}
	verbs := []Verb{Start, Restart, Status, Shutdown}
	f.Fuzz(func(t *testing.T, out string, v uint8) {
		verb := verbs[int(v)%len(verbs)]
		res, e := parseAnswer(verb, out)
		if e != nil {
			if e.Kind == "" || e.Message == "" {
				t.Fatalf("untyped refusal of %q: %+v", out, e)
			}
			return
		}
		if res == nil || res.Status == "" {
			t.Fatalf("accepted %q without a status", out)
		}
		if !strings.Contains(out, string(res.Raw)) {
			t.Fatalf("the answer %q is not in the output", res.Raw)
		}
	})
}
