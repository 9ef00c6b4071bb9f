//go:build !unix

package mcptools

import "io/fs"

// noFollow: O_EXCL alone refuses an existing link on these platforms.
const noFollow = 0

// linkCount is 1: the platform's link count is not read here.
func linkCount(fs.FileInfo) uint64 { return 1 }
