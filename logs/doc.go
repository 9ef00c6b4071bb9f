// Package logs sets up the server's structured logging (zap, always on stderr
// so that stdout stays the MCP channel) and will hold the bounded readers of
// dev-server log files and the ring buffers of page events.
package logs
