package mcptools

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/mark3labs/mcp-go/mcp"
)

// A switch turns something of a session on or off that later calls find
// as it was left: its dev server, a trace, a video and its overlays, a
// person's recording, routes, the network's state, emulation, highlights. A
// client that cancels one (notifications/cancelled) must not leave it half
// done (a screencast started with no recording to take it, a recorder
// listening in the page that no call knows of, interception on in some
// tabs) or its work lost (a trace stopped and never written), and must not
// be left unaware of what is on: the transport drops the cancelled call's
// answer. So a switch is not cut short by its client: it runs on a context
// without the client's cancellation (bounded by switchTimeout; session_end
// and the server's exit still stop it, and the session's end then turns
// everything off), and its answer is told on the session's next call. A
// stopped trace or video is written where the call said; the next call's
// answer says where. This is the same thinking as browser/restore.go's
// detached, which puts back what a cancelled call changed for its length
// (docs/architecture.md §2).
//
// TestSwitches holds every pair of tools that turn one thing on and off
// (start/stop, X/unX, show/hide, X/hide_X) to this table.
var switches = map[string]bool{
	"session_start": true, "session_end": true, "session_restart": true,
	"browser_start_tracing": true, "browser_stop_tracing": true,
	"browser_start_video": true, "browser_stop_video": true,
	"browser_video_show_actions": true, "browser_video_hide_actions": true,
	"browser_start_recording": true, "browser_stop_recording": true,
	"browser_route": true, "browser_unroute": true,
	"browser_highlight": true, "browser_hide_highlight": true,
	"browser_network_state_set": true, "browser_emulate": true, "browser_emulate_media": true,
}

// switchTimeout bounds a switch that its client cancelled (a dev server's
// verbs have shorter timeouts of their own).
const switchTimeout = time.Minute

// maxUntold bounds the answers of cancelled switches kept for the next
// call; maxUntoldText each one's text.
const (
	maxUntold     = 8
	maxUntoldText = 1000
)

// untold is the answer of a switch its client cancelled, for the next call.
type untold struct {
	tool string
	ok   bool
	text string
	data any
}

// switchContext is the context a switch runs on: ctx's values, not its
// client's cancellation, bounded by switchTimeout. Other tools run on ctx.
func switchContext(ctx context.Context, tool string) (context.Context, context.CancelFunc) {
	if !switches[tool] {
		return ctx, func() {}
	}
	return context.WithTimeout(context.WithoutCancel(ctx), switchTimeout)
}

// keepUntold keeps the answer of a switch whose client cancelled it (ctx
// is the call's own context), to tell on the next call; it says whether
// it did.
func (s *Session) keepUntold(ctx context.Context, tool string, res *mcp.CallToolResult) bool {
	if !switches[tool] || res == nil || !errors.Is(ctx.Err(), context.Canceled) || s.interruptedBy() != "" {
		return false
	}
	t := strings.TrimSpace(strings.TrimPrefix(ResultText(res), "### Result\n"))
	if len(s.untold) >= maxUntold {
		s.untold = s.untold[1:]
	}
	s.untold = append(s.untold, untold{tool: tool, ok: !res.IsError, text: text.Clip(t, maxUntoldText), data: res.StructuredContent})
	return true
}

// tellUntold puts the answers of the switches cancelled since the last
// call before this call's answer.
func (s *Session) tellUntold(res *mcp.CallToolResult) {
	if len(s.untold) == 0 || res == nil {
		return
	}
	var b strings.Builder
	b.WriteString("### Cancelled calls that ran to their end\n")
	var list []map[string]any
	for _, u := range s.untold {
		how := "done"
		if !u.ok {
			how = "failed"
		}
		b.WriteString("- " + u.tool + " (" + how + "): " + strings.ReplaceAll(u.text, "\n", "\n  ") + "\n")
		item := map[string]any{"tool": u.tool, "ok": u.ok, "text": u.text}
		if u.data != nil {
			item["data"] = u.data
		}
		list = append(list, item)
	}
	s.untold = nil
	res.Content = append([]mcp.Content{mcp.NewTextContent(strings.TrimRight(b.String(), "\n"))}, res.Content...)
	switch sc := res.StructuredContent.(type) {
	case map[string]any:
		sc["cancelledCalls"] = list
	case nil:
		res.StructuredContent = map[string]any{"cancelledCalls": list}
	}
}
