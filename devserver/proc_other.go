//go:build !unix

package devserver

import "os/exec"

// setProcessGroup is a no-op where there are no Unix process groups.
func setProcessGroup(*exec.Cmd) {}

// killProcessGroup kills the command; its children may outlive it here.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// Alive says whether process pid exists; without a way to ask cheaply
// here, every process is taken to exist (no dev server exit is reported).
func Alive(pid int) bool { return pid > 0 }
