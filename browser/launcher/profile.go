package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"go.uber.org/zap"
)

// profilePrefix names the temporary Chrome profiles this package creates:
// <prefix><pid>-<random>, so that a later server can tell whose they are.
const profilePrefix = "e2e-mcp-chrome-"

// NewProfileDir makes an empty directory under root (the temp directory if
// empty) named like a profile of this process, so that a later server
// removes it if we are killed: a browser's profile, or a download directory.
func NewProfileDir(root string) (string, error) {
	if root == "" {
		root = os.TempDir()
	}
	return os.MkdirTemp(root, fmt.Sprintf("%s%d-", profilePrefix, os.Getpid()))
}

// maxChromeTmp bounds the length of Chrome's TMPDIR: Chrome's singleton
// socket lives at TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket (45
// bytes more), and a Unix socket's path has at most 107, or Chrome exits
// ("Socket path too long").
const maxChromeTmp = 56

// chromeTempDir makes the temp directory of a browser whose profile is
// profile: profile/tmp, removed with it; or, when that path is too long for
// Chrome's socket, a directory of its own under /tmp named like a profile
// of this process, so that a later server removes it if we are killed.
// Removing the path it returns, when the browser is done, is the caller's.
func chromeTempDir(profile string) (string, error) {
	tmp := filepath.Join(profile, "tmp")
	if len(tmp) <= maxChromeTmp || runtime.GOOS == "windows" { // a named pipe there, no path
		return tmp, os.Mkdir(tmp, 0o700)
	}
	return os.MkdirTemp("/tmp", fmt.Sprintf("%s%d-", profilePrefix, os.Getpid()))
}

// profileOwner returns the PID encoded in a profile directory's name.
func profileOwner(dir string) (int, bool) {
	rest, ok := strings.CutPrefix(filepath.Base(dir), profilePrefix)
	if !ok {
		return 0, false
	}
	pidStr, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(pidStr)
	return pid, err == nil && pid > 0
}

// CleanStaleProfiles removes the profile directories under root (the temp
// directory if empty, and then /tmp too when Chrome's temp directories had
// to go there) that belong to servers no longer running, after killing
// any Chrome process still using them. A server killed with SIGKILL cannot
// clean up after itself; the next one does it here. It returns the
// directories it removed.
func CleanStaleProfiles(root string, log *zap.Logger) []string {
	var extra []string
	if root == "" {
		root = os.TempDir()
		if len(filepath.Join(root, profilePrefix+"1234567-1234567890", "tmp")) > maxChromeTmp && root != "/tmp" {
			// Chrome's temp directories went to /tmp (chromeTempDir).
			extra, _ = filepath.Glob(filepath.Join("/tmp", profilePrefix+"*"))
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(root, profilePrefix+"*"))
	dirs = append(dirs, extra...)
	var removed []string
	for _, dir := range dirs {
		pid, ok := profileOwner(dir)
		if !ok || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		killProfileProcesses(dir)
		if err := os.RemoveAll(dir); err != nil {
			log.Warn("remove stale browser profile", zap.String("dir", dir), zap.Error(err))
			continue
		}
		removed = append(removed, dir)
	}
	if len(removed) > 0 {
		log.Info("removed browser profiles left by a server that was killed", zap.Strings("dirs", removed))
	}
	return removed
}
