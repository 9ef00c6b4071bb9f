package dirlock

import (
	"errors"
	"os"
)

// ErrInUse is Lock's error for a directory another process holds.
var ErrInUse = errors.New("in use by another e2e-mcp server")

// Name is the lock file Lock makes in the directory.
const Name = "e2e-mcp.lock"

// Prepare makes dir (0700) if needed and checks that files can be made in
// it, without holding it: a directory Lock could not take for want of
// rights is found before anyone asks.
func Prepare(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".e2e-mcp-check-*")
	if err != nil {
		return err
	}
	_ = f.Close()
	return os.Remove(f.Name())
}
