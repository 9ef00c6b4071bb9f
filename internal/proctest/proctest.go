package proctest

import "strings"

// Process is one process as [List] saw it.
type Process struct {
	// PID and PPID are the process's and its parent's IDs.
	PID, PPID int
	// State is the state letter of /proc/PID/stat: R, S, D, T, Z (a zombie:
	// exited, not yet reaped), ...
	State byte
	// Cmdline is /proc/PID/cmdline as read: the arguments, each ended by a
	// NUL, or the text a process wrote over them (Chrome's helpers rewrite
	// theirs into one space-separated string). Empty for zombies and kernel
	// threads.
	Cmdline string
	// Args is Cmdline split at its NULs, trailing NULs dropped.
	Args []string
	// Env is the environment the process started with, as KEY=VALUE
	// entries; nil where it cannot be read (another user's process).
	Env []string
}

// Zombie reports whether the process has exited and waits to be reaped.
func (p Process) Zombie() bool { return p.State == 'Z' }

// Getenv returns the value of key in the process's environment.
func (p Process) Getenv(key string) (string, bool) {
	for _, kv := range p.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// Pred is a test on a process, for [Find] and [Filter].
type Pred func(Process) bool

// CmdlineContains matches processes whose raw command line ([Process.Cmdline])
// contains s.
func CmdlineContains(s string) Pred {
	return func(p Process) bool { return strings.Contains(p.Cmdline, s) }
}

// HasEnv matches processes whose environment has the entry kv ("KEY=VALUE")
// exactly.
func HasEnv(kv string) Pred {
	return func(p Process) bool {
		for _, e := range p.Env {
			if e == kv {
				return true
			}
		}
		return false
	}
}

// Live matches processes that are not zombies.
func Live(p Process) bool { return !p.Zombie() }

// Filter returns the processes of ps for which every pred holds, in order.
func Filter(ps []Process, preds ...Pred) []Process {
	var out []Process
next:
	for _, p := range ps {
		for _, pred := range preds {
			if !pred(p) {
				continue next
			}
		}
		out = append(out, p)
	}
	return out
}

// Find lists the processes (see [List]) for which every pred holds.
func Find(preds ...Pred) ([]Process, error) {
	ps, err := List()
	if err != nil {
		return nil, err
	}
	return Filter(ps, preds...), nil
}

// MustFind is [Find] for tests that prove a process is gone: a scan that
// cannot read /proc would find nothing, and prove nothing, so it panics
// (failing the test) instead.
func MustFind(preds ...Pred) []Process {
	ps, err := Find(preds...)
	if err != nil {
		panic("proctest: " + err.Error())
	}
	return ps
}
