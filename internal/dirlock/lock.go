package dirlock

import "errors"

// ErrInUse is Lock's error for a directory another process holds.
var ErrInUse = errors.New("in use by another e2e-mcp server")

// Name is the lock file Lock makes in the directory.
const Name = "e2e-mcp.lock"
