// Package dirlock holds a directory for one process at a time: e2e-mcp's
// --user-data-dir, which one server's browser runs on at a time, as a
// browser profile is (another server's browser is refused, told to close
// the first or use --isolated).
package dirlock
