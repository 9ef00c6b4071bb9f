package mcptools

import (
	"context"
	"time"

	"github.com/e2e-mcp/e2e-mcp/devserver"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Session events go to the client's log (logging/setLevel picks the level
// it hears), to the MCP connection that made the session: the session
// started (info) and ended and why (info; notice when the server ended an
// idle one, warning when it made room for another), its browser or a tab
// crashed (error), its dev server exited while the session lived
// (warning). Tool failures are said by diagnosed (warning).

// clientNotifier sends a log message to one MCP connection.
type clientNotifier func(conn string, level mcp.LoggingLevel, data map[string]any)

// notifierOf is srv's way of telling one connection.
func notifierOf(srv *server.MCPServer) clientNotifier {
	return func(conn string, level mcp.LoggingLevel, data map[string]any) {
		if conn != "" {
			_ = srv.SendLogMessageToSpecificClient(conn, mcp.NewLoggingMessageNotification(level, "e2e-mcp", data))
		}
	}
}

// event tells the session's client of something that happened to it; its
// texts are masked as the logs are.
func (s *Session) event(level mcp.LoggingLevel, what string, fields map[string]any) {
	if s.notify == nil {
		return
	}
	data := map[string]any{"event": what, "session": s.ID}
	for k, v := range fields {
		if str, ok := v.(string); ok {
			v = s.private.String(str)
		}
		data[k] = v
	}
	s.notify(s.Conn, level, data)
}

// devWatchEvery is how often a session looks whether its dev server still
// runs.
const devWatchEvery = time.Second

// watchDev tells the session's client when the dev server of res exits
// while the session lives, until the session stops or restarts it (the
// returned function).
func (s *Session) watchDev(res *devserver.Result) (stop func()) {
	if res == nil || res.PID <= 0 || s.notify == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	pid, url := res.PID, res.URL
	go func() {
		t := time.NewTicker(devWatchEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if !devserver.Alive(pid) {
					s.event(mcp.LoggingLevelWarning, "dev server exited", map[string]any{"pid": pid, "url": url,
						"next": "server_logs shows why; session_restart starts it again"})
					return
				}
			}
		}
	}()
	return cancel
}
