//go:build unix

package dirlock

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Lock makes dir (0700) if needed and holds it for this process: an
// exclusive flock on a file in it, which the kernel lets go when the
// process ends, however it ends. unlock lets it go sooner.
func Lock(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, Name)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600) //nolint:gosec // the operator's directory
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b := make([]byte, 32)
		n, _ := f.Read(b)
		_ = f.Close()
		who := ""
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(b[:n]))); perr == nil {
			who = fmt.Sprintf(" (pid %d)", pid)
		}
		return nil, fmt.Errorf("%w%s", ErrInUse, who)
	}
	// Who holds it, for the next one's message.
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() { _ = f.Close() }, nil
}
