package proctest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// List reads every process from /proc: its stat, command line and
// environment, once. The order is that of the PIDs' names (as a glob of
// /proc/[0-9]* gives them). A process that exits while it is read is left
// out; List fails only when /proc itself cannot be read.
func List() ([]Process, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	var ps []Process
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue // not a process directory
		}
		dir := "/proc/" + e.Name() + "/"
		stat, err := os.ReadFile(dir + "stat")
		if err != nil {
			continue // gone
		}
		ppid, state, err := parseStat(string(stat))
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile(dir + "cmdline")
		environ, _ := os.ReadFile(dir + "environ")
		ps = append(ps, Process{PID: pid, PPID: ppid, State: state, Cmdline: string(cmdline),
			Args: split(string(cmdline)), Env: split(string(environ))})
	}
	return ps, nil
}

// parseStat returns the parent PID and the state letter of a
// /proc/PID/stat line, "PID (comm) STATE PPID ...". comm may hold spaces
// and parentheses, so the fields are counted from its last ')'.
func parseStat(s string) (ppid int, state byte, err error) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, fmt.Errorf("stat %q: no command name", s)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 || len(f[0]) != 1 {
		return 0, 0, fmt.Errorf("stat %q: no state and parent", s)
	}
	ppid, err = strconv.Atoi(f[1])
	if err != nil {
		return 0, 0, fmt.Errorf("stat %q: parent: %w", s, err)
	}
	return ppid, f[0][0], nil
}

// split cuts NUL-separated /proc text into its entries; nil when empty.
func split(s string) []string {
	s = strings.TrimRight(s, "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}
