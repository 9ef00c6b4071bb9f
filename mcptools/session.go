package mcptools

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
)

// SessionListParams are the arguments of session_list.
type SessionListParams struct {
	SessionArg
}

func sessionListTool(d *Deps) Tool {
	return define(d, "session_list", ToolsetSession,
		"List your sessions: id, made here or not, browser open, URL.",
		annotations{title: "List sessions", readOnly: true, idempotent: true},
		func(ctx context.Context, cur *Session, _ SessionListParams) (*mcp.CallToolResult, error) {
			var r response
			list := d.Sessions.List(ctx, cur)
			for _, s := range list {
				state := "no browser yet"
				if s.Browser {
					state = "browser open"
				}
				who := ""
				if s.Yours {
					who = " (yours)"
				}
				url := ""
				if s.URL != "" {
					url = " at " + s.URL
				}
				dev := ""
				if s.DevURL != "" {
					dev = ", dev server " + s.DevURL
				}
				r.resultf("- %s%s: %s%s%s, last used %s", s.ID, who, state, url, dev, s.LastUsed.Format("15:04:05"))
			}
			r.set("sessions", list)
			if len(list) == 0 {
				r.resultf("No sessions.")
			}
			return r.build(), nil
		})
}
