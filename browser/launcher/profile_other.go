//go:build !linux

package launcher

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// processAlive reports whether a process with this PID may exist. Where the
// platform cannot tell, it says yes, so that no live server's profile is
// removed.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return !errors.Is(err, os.ErrProcessDone) && !errors.Is(err, syscall.ESRCH)
}

// killProfileProcesses kills the processes that use dir as their profile,
// with pkill where the platform has it (macOS and the BSDs). Without Linux's
// Pdeathsig, a Chrome whose server was killed lives on until this runs.
func killProfileProcesses(dir string) {
	if pkill, err := exec.LookPath("pkill"); err == nil {
		_ = exec.Command(pkill, "-KILL", "-f", "--user-data-dir="+dir).Run()
	}
}

// ProfileProcesses is implemented on Linux only; elsewhere it reports none.
func ProfileProcesses(string) []int { return nil }
