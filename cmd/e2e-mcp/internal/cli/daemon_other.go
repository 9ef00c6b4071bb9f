//go:build !unix

package cli

import (
	"os"
	"os/exec"
)

// detach: on systems without Unix sessions the daemon simply runs on.
func detach(*exec.Cmd) {}

// terminate ends a daemon; without signals it cannot end its session first.
func terminate(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// processRuns reports whether a process runs.
func processRuns(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}
