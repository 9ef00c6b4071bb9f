//go:build unix

package cli

import (
	"os/exec"
	"syscall"
)

// detach starts the daemon in a session of its own, so that it outlives the
// command (and its terminal) that started it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// terminate asks a daemon to end its session and exit.
func terminate(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }

// processRuns reports whether a process runs.
func processRuns(pid int) bool { return syscall.Kill(pid, 0) == nil }
