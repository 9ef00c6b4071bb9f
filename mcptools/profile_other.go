//go:build !unix

package mcptools

// chromeOn is 0: where Chrome marks its profile by a lock file, not a
// link, this server does not look for it (e2e-mcp's own lock still holds).
func chromeOn(string) int { return 0 }
