//go:build unix

package devserver

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the command in its own process group, so that a
// timeout can kill it with everything it started.
func setProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// killProcessGroup kills the command's whole process group.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}

// Alive says whether process pid exists (a zombie, not yet reaped, counts
// as gone when /proc says so).
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	if st, err := readProcStat(pid); err == nil && !st.live() {
		return false
	}
	return true
}
