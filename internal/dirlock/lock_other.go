//go:build !unix

package dirlock

import (
	"fmt"
	"os"
	"path/filepath"
)

// Lock makes dir if needed and holds it for this process: a lock file
// made exclusively and removed by unlock (a process that was killed
// leaves it: remove it by hand then).
func Lock(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, Name)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600) //nolint:gosec // the operator's directory
	if err != nil {
		if os.IsExist(err) {
			return nil, fmt.Errorf("%w (or one that was killed left %s)", ErrInUse, path)
		}
		return nil, err
	}
	return func() { _ = f.Close(); _ = os.Remove(path) }, nil
}
