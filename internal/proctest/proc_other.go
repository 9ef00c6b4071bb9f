//go:build !linux

package proctest

import (
	"errors"
	"fmt"
	"runtime"
)

// List cannot list processes here (no /proc): it returns an error wrapping
// [errors.ErrUnsupported], never an empty list that would prove nothing.
func List() ([]Process, error) {
	return nil, fmt.Errorf("list processes on %s: %w", runtime.GOOS, errors.ErrUnsupported)
}
