package mcptools

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.uber.org/zap"
)

// instructions tell the model how the tools fit together, once per
// connection.
const instructions = `Browser tools for end-to-end testing. Typical loop: browser_navigate, read the snapshot, act on elements by their ref (e5) with browser_click / browser_type, read the changes each action returns. Refs come from the latest snapshot; after a navigation take a new one. Every tool takes an optional sessionId: sub-agents that pass different ids get isolated browsers (cookies, storage, tabs).`

// NewServer builds the MCP server with every tool of the inventory (those
// of capability groups that are off hidden, caps.go). When an
// MCP connection goes away, the sessions it made are ended.
func NewServer(version string, d *Deps) *server.MCPServer {
	hooks := &server.Hooks{}
	hooks.AddOnUnregisterSession(func(_ context.Context, cs server.ClientSession) {
		d.Logger.Debug("connection closed", zap.String("connection", cs.SessionID()))
		d.Sessions.CloseOwnedBy(cs.SessionID())
		d.clientRoots.forget(cs.SessionID())
	})
	tools := gate(Inventory(d), d.Caps, hooks)
	srv := server.NewMCPServer("e2e-mcp", version,
		server.WithInstructions(instructions),
		server.WithToolCapabilities(false),
		// logging/setLevel: the client picks the level of the log messages
		// it gets (failures, sessions made and ended).
		server.WithLogging(),
		server.WithRecovery(),
		server.WithHooks(hooks),
	)
	Register(srv, tools)
	d.Sessions.notify = notifierOf(srv)
	if !d.Remote {
		// A local client's workspace roots are where its files may be
		// (roots.go): asked for once it is initialized, and when they change.
		refresh := func(ctx context.Context, _ mcp.JSONRPCNotification) { d.clientRoots.refresh(ctx, d.Logger) }
		srv.AddNotificationHandler(string(mcp.MethodNotificationInitialized), refresh)
		srv.AddNotificationHandler(mcp.MethodNotificationRootsListChanged, refresh)
	}
	return srv
}

// clientLog sends a log message to the client of the call, at the level it
// chose with logging/setLevel (none when it chose none).
func clientLog(ctx context.Context, level mcp.LoggingLevel, data any) {
	if srv := server.ServerFromContext(ctx); srv != nil {
		_ = srv.SendLogMessageToClient(ctx, mcp.NewLoggingMessageNotification(level, "e2e-mcp", data))
	}
}
