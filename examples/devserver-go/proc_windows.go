package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// Windows support is a sketch: it builds, but is not tested.

var stopSignals = []os.Signal{os.Interrupt}

// detached starts the supervisor without a console, in a group of its own.
func detached() *syscall.SysProcAttr {
	const detachedProcess = 0x00000008
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess}
}

// alive asks tasklist whether the process exists.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	out, err := exec.Command("tasklist", "/FI", "PID eq "+strconv.Itoa(pid), "/NH").Output()
	return err == nil && strings.Contains(string(out), " "+strconv.Itoa(pid)+" ")
}

// groupAlive: the supervisor stands for its tree.
func groupAlive(pid int) bool { return alive(pid) }

// terminate ends the supervisor's process tree.
func terminate(pid int, force bool) {
	args := []string{"/T", "/PID", strconv.Itoa(pid)}
	if force {
		args = append([]string{"/F"}, args...)
	}
	_ = exec.Command("taskkill", args...).Run()
}
