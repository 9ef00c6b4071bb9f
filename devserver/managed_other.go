//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package devserver

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
)

// canRelay: descriptors cannot be handed to a relay process here (Windows
// has no ExtraFiles), so a detached server writes its log files itself.
const canRelay = false

// sysProcAttr: no process groups or sessions here.
func sysProcAttr(bool) *syscall.SysProcAttr { return nil }

// processGroup names the tree rooted at pid (taskkill /T on Windows).
func processGroup(pid int) int { return pid }

// pidAlive reports whether a process with this PID may exist.
func pidAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	if runtime.GOOS == "windows" {
		_ = p.Release()
		return true // FindProcess opens the process: it exists
	}
	return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}

// groupAlive cannot be told here; the main process stands for the group.
func groupAlive(int) bool { return false }

// signalGroup asks the process tree to stop (Windows: taskkill /T).
func signalGroup(pgid int, force bool) error {
	if runtime.GOOS != "windows" {
		return signalPID(pgid, force)
	}
	args := []string{"/T", "/PID", strconv.Itoa(pgid)}
	if force {
		args = append([]string{"/F"}, args...)
	}
	return exec.Command("taskkill", args...).Run()
}

// signalPID asks a process to stop, or kills it with force.
func signalPID(pid int, force bool) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	defer func() { _ = p.Release() }()
	if force {
		return p.Kill()
	}
	if runtime.GOOS == "windows" {
		return exec.Command("taskkill", "/PID", strconv.Itoa(pid)).Run()
	}
	return p.Signal(os.Interrupt)
}

// lockFile: no cross-process lock here; verbs on one server should not run
// at once.
func lockFile(context.Context, string) (func(), error) { return func() {}, nil }
