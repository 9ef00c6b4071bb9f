//go:build !unix

package browser

import "os"

// openNoWait opens a file to read (no FIFOs to wait for here).
func openNoWait(path string) (*os.File, error) {
	return os.Open(path) //nolint:gosec // the caller checked the path against the file roots
}
