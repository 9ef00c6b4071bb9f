package proctest

import (
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestList_Child: a real child is found by its environment and by its
// command line with the right parent and arguments, shows as a zombie once
// killed, and is gone once reaped.
func TestList_Child(t *testing.T) {
	marker := "PROCTEST_MARKER=" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	// A duration no other sleep uses, so that the command line names this one.
	dur := "30." + strconv.Itoa(os.Getpid())
	cmd := exec.Command("sleep", dur)
	cmd.Env = append(os.Environ(), marker)
	if err := cmd.Start(); err != nil {
		t.Fatalf("start sleep: %v", err)
	}
	pid := cmd.Process.Pid
	reaped := false
	t.Cleanup(func() {
		if !reaped {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})

	byEnv, err := Find(HasEnv(marker))
	if err != nil {
		t.Fatalf("Find(HasEnv): %v", err)
	}
	if len(byEnv) != 1 || byEnv[0].PID != pid {
		t.Fatalf("Find(HasEnv(%q)) = %v, want the child %d alone", marker, pids(byEnv), pid)
	}
	p := byEnv[0]
	if p.PPID != os.Getpid() {
		t.Errorf("PPID = %d, want %d", p.PPID, os.Getpid())
	}
	if want := []string{"sleep", dur}; !slices.Equal(p.Args, want) {
		t.Errorf("Args = %q, want %q", p.Args, want)
	}
	if p.Cmdline != "sleep\x00"+dur+"\x00" {
		t.Errorf("Cmdline = %q, want %q", p.Cmdline, "sleep\x00"+dur+"\x00")
	}
	if k, v, _ := strings.Cut(marker, "="); !has(p, k, v) {
		t.Errorf("Getenv(%q) does not give %q", k, v)
	}
	if p.Zombie() || !Live(p) {
		t.Errorf("State = %q: a running child counts as a zombie", p.State)
	}

	byCmd, err := Find(CmdlineContains("sleep\x00"+dur), Live)
	if err != nil {
		t.Fatalf("Find(CmdlineContains): %v", err)
	}
	if len(byCmd) != 1 || byCmd[0].PID != pid {
		t.Fatalf("Find(CmdlineContains) = %v, want the child %d alone", pids(byCmd), pid)
	}

	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	// Killed but not reaped: a zombie, which Live leaves out.
	deadline := time.Now().Add(5 * time.Second)
	for {
		ps, err := Find(func(p Process) bool { return p.PID == pid })
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) == 1 && ps[0].Zombie() {
			if live := Filter(ps, Live); len(live) != 0 {
				t.Errorf("Filter(Live) kept the zombie %d", pid)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the killed child %d is not a zombie within 5s: %v", pid, ps)
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = cmd.Wait()
	reaped = true
	ps, err := List()
	if err != nil {
		t.Fatal(err)
	}
	if left := Filter(ps, func(p Process) bool { return p.PID == pid }); len(left) != 0 {
		t.Errorf("the reaped child %d is still listed: %+v", pid, left)
	}
	if left := Filter(ps, HasEnv(marker)); len(left) != 0 {
		t.Errorf("Filter(HasEnv(%q)) after the child was reaped = %v, want none", marker, pids(left))
	}
	if !slices.ContainsFunc(ps, func(p Process) bool { return p.PID == os.Getpid() }) {
		t.Errorf("List does not list the test process %d itself", os.Getpid())
	}
}

func TestParseStat(t *testing.T) {
	cases := []struct {
		name, in  string
		ppid      int
		state     byte
		wantError bool
	}{
		{"plain", "123 (sleep) S 45 123 45 0 -1", 45, 'S', false},
		{"zombie", "123 (devfixture) Z 1 123 1", 1, 'Z', false},
		{"comm with parens and spaces", "123 (a) Z (b c) R 7 8", 7, 'R', false},
		{"truncated", "123 (x)", 0, 0, true},
		{"no comm", "123 x S 1", 0, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ppid, state, err := parseStat(c.in)
			if (err != nil) != c.wantError || ppid != c.ppid || state != c.state {
				t.Errorf("parseStat(%q) = %d, %q, %v; want %d, %q, error %v", c.in, ppid, state, err, c.ppid, c.state, c.wantError)
			}
		})
	}
}

func pids(ps []Process) []int {
	var out []int
	for _, p := range ps {
		out = append(out, p.PID)
	}
	return out
}

func has(p Process, k, v string) bool {
	got, ok := p.Getenv(k)
	return ok && got == v
}
