// Package mcptools is the MCP face of e2e-mcp: the one tool inventory
// ([Inventory]), typed parameters and handlers, the rendering of responses in
// the markdown sections agents know from Playwright MCP, the mapping of
// failures to typed isError results, and the registry of sessions (the
// caller's default session per MCP connection, or any named sessionId).
//
// It is the only package besides cmd that imports mcp-go; it drives the
// browser, devserver and logs packages, which know nothing of MCP.
package mcptools
