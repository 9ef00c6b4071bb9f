// Package cli is e2e-mcp's command line for scripts and CI: each command is
// a short process that talks MCP to a background daemon of its session, an
// e2e-mcp serving Streamable HTTP on a Unix socket in a per-user directory.
// The daemon keeps the session's browser context, refs and dev server
// between commands and exits after the idle timeout or on close.
package cli
