//go:build unix

package mcptools

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// chromeOn is the PID of a live Chrome on this machine that uses dir as its
// own profile, or 0. Chrome marks a profile it runs on with a symbolic
// link, SingletonLock, to "HOST-PID"; a link left by a Chrome that died,
// or made on another machine, holds nothing.
func chromeOn(dir string) int {
	target, err := os.Readlink(filepath.Join(dir, "SingletonLock"))
	if err != nil {
		return 0
	}
	i := strings.LastIndex(target, "-")
	if i < 0 {
		return 0
	}
	pid, err := strconv.Atoi(target[i+1:])
	if host, herr := os.Hostname(); err != nil || pid <= 0 || herr != nil || target[:i] != host || pid == os.Getpid() {
		return 0
	}
	// Signal 0 asks whether the process exists; EPERM: it does, another
	// user's.
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return 0
	}
	return pid
}
