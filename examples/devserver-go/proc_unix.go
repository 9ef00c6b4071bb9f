//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// stopSignals are the signals the supervisor outlives.
var stopSignals = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP}

// detached starts the supervisor in a session of its own: away from the
// terminal, and the leader of a process group holding the server.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// alive reports whether a process runs. A zombie (exited, not yet reaped,
// which happens when init does not reap) does not count.
func alive(pid int) bool {
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	st, ok := procState(pid)
	return !ok || st != "Z"
}

// groupAlive reports whether a process of the group runs.
func groupAlive(pgid int) bool {
	if pgid <= 1 || syscall.Kill(-pgid, 0) != nil {
		return false
	}
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(stats) == 0 {
		return true // no /proc: trust kill(0)
	}
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s := string(b)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 2 && fields[2] == strconv.Itoa(pgid) && fields[0] != "Z" {
			return true
		}
	}
	return false
}

// procState is a process's state letter from /proc (Linux).
func procState(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) == 0 {
		return "", false
	}
	return fields[0], true
}

// terminate sends SIGTERM (SIGKILL with force) to a process group.
func terminate(pgid int, force bool) {
	sig := syscall.SIGTERM
	if force {
		sig = syscall.SIGKILL
	}
	if pgid > 1 {
		_ = syscall.Kill(-pgid, sig)
	}
}
