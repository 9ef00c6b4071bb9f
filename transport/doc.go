// Package transport serves MCP around mcp-go's server: over stdio (the
// framing of stdin and stdout: stdio.go), over Streamable HTTP behind
// httpauth's guard and the gate of the MCP endpoint (http.go, httpgate.go:
// body limit, sessions, their owners, the initializes' rate and cap), and
// over the legacy HTTP+SSE transport of protocol 2024-11-05 (sse.go), with
// the resumable streams' bounded event store (eventstore.go). It owns what
// the transports add to mcp-go: JSON-RPC batches of protocol 2025-03-26
// (batch.go), no response to a cancelled request (cancel.go), the MCP
// sessions' lifetime and bounds over HTTP (lifetime.go), the replicas'
// session ids (replica.go), and /health.
//
// cmd/e2e-mcp maps its flags onto HTTPOptions and calls ServeStdio or
// ServeHTTP; the tools, the browser and the sessions they make are
// mcptools', which builds the mcp-go server served here.
//
// It may import mcp-go, mcptools' exported API (the registry's counts, a
// call's principal), httpauth, metrics and zap; never chromedp (depguard,
// .golangci.yml), nor browser: /health reads the browser's state through a
// function cmd gives it (Health.Browser).
package transport
