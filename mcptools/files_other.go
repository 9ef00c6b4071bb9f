//go:build !unix

package mcptools

import "io/fs"

// linkCount is 1: the platform's link count is not read here.
func linkCount(fs.FileInfo) uint64 { return 1 }
