// Package dirlock holds a directory for one process at a time: e2e-mcp's
// --user-data-dir, which one server uses at a time, as a browser profile
// is (a second server is refused, told to use --isolated).
package dirlock
