package mcptools

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Capability groups: tools a server offers only when asked (--caps), so
// that the tools/list every request carries stays small for the agents that
// do not need them. A tool of no group is always offered.
const (
	// CapEmulation: what the pages' media queries see (color scheme,
	// reduced motion, forced colors, print).
	CapEmulation = "emulation"
	// CapNetwork: routes that mock, fail, delay or change requests, and
	// the network state (offline, throttled).
	CapNetwork = "network"
	// CapStorage: cookies, local and session storage, and the storage
	// state saved to a file and put back.
	CapStorage = "storage"
	// CapTime: the pages' fake clock.
	CapTime = "time"
	// CapPDF: the page saved as a PDF file (as in Playwright MCP).
	CapPDF = "pdf"
	// CapVision: the mouse at coordinates, and a screenshot labelled with
	// refs.
	CapVision = "vision"
	// CapAudit: the page's accessibility checked against a rule set, and
	// its Core Web Vitals measured.
	CapAudit = "audit"
	// CapReport: session_report, and a small screenshot after each action
	// for it; session_check_flow, a flow replayed in the session with run's
	// diagnosis of what changed.
	CapReport = "report"
	// CapVideo: a video of the session, with chapters and action
	// overlays (Playwright MCP's video tools).
	CapVideo = "video"
	// CapDevtools: a session's trace for Playwright's Trace Viewer,
	// started and stopped by the agent (Playwright MCP's group of the
	// same tools).
	CapDevtools = "devtools"
	// CapTesting: a locator for a test, and checks written as Playwright
	// MCP's verify tools (recorded as expect steps).
	CapTesting = "testing"
	// CapConfig: the server's settings, credentials masked.
	CapConfig = "config"
)

// CapGroups are the capability groups, in the order help lists them.
var CapGroups = []string{CapAudit, CapConfig, CapDevtools, CapEmulation, CapNetwork, CapPDF, CapReport, CapStorage, CapTesting, CapTime, CapVideo, CapVision}

// ParseCaps reads a --caps value: group names separated by commas, or
// "all". An unknown name is an error that lists the groups.
func ParseCaps(s string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, c := range strings.Split(s, ",") {
		c = strings.ToLower(strings.TrimSpace(c))
		switch {
		case c == "":
			continue
		case c == "all":
			return append([]string(nil), CapGroups...), nil
		case !isCap(c):
			return nil, fmt.Errorf("unknown capability group %q (groups: %s, or all)", c, strings.Join(CapGroups, ", "))
		case !seen[c]:
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out, nil
}

func isCap(c string) bool { return slices.Contains(CapGroups, c) }

// Offered keeps the tools of no group and those of the groups in caps.
func Offered(tools []Tool, caps []string) []Tool {
	var out []Tool
	for _, t := range tools {
		if t.Cap == "" || slices.Contains(caps, t.Cap) {
			out = append(out, t)
		}
	}
	return out
}

// gate registers every tool, but a tool of a group that is off is left out
// of tools/list and answers a call with not_allowed naming the flag that
// offers it, rather than the protocol's "tool not found".
func gate(tools []Tool, caps []string, hooks *server.Hooks) []Tool {
	off := map[string]bool{}
	out := make([]Tool, len(tools))
	for i, t := range tools {
		out[i] = t
		if t.Cap == "" || slices.Contains(caps, t.Cap) {
			continue
		}
		off[t.Def.Name] = true
		err := &ToolError{Type: ErrNotAllowed,
			Message:    fmt.Sprintf("%s is in the %s capability group, which this server does not offer", t.Def.Name, t.Cap),
			Suggestion: fmt.Sprintf("restart the server with --caps %s (or E2E_MCP_CAPS=%s)", t.Cap, t.Cap)}
		out[i].Handler = func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return errorResult(t.Def.Name, err), nil
		}
	}
	if len(off) > 0 {
		hooks.AddAfterListTools(func(_ context.Context, _ any, _ *mcp.ListToolsRequest, res *mcp.ListToolsResult) {
			res.Tools = slices.DeleteFunc(res.Tools, func(t mcp.Tool) bool { return off[t.Name] })
		})
	}
	return out
}

// inCap puts a tool in a capability group.
func inCap(group string, t Tool) Tool {
	t.Cap = group
	return t
}
