package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/mark3labs/mcp-go/mcp"
)

// cliSession is a session as `session list` shows it: as session_list
// does, and the one --session (or E2E_MCP_SESSION) names is current. Every
// session of the CLI is yours: its daemon is the user's, though each
// command is a connection of its own (which session_list calls "yours").
type cliSession struct {
	mcptools.SessionInfo
	Current bool `json:"current"`
}

// listSessions is `session list`: the session of every daemon that runs,
// asked of each; it starts none (a daemon answers for its own session
// only, and a list must not make one).
func listSessions(ctx context.Context, o *cliOpts) (cliResult, error) {
	dir, err := cliDir()
	if err != nil {
		return cliResult{}, err
	}
	socks, _ := filepath.Glob(filepath.Join(dir, "*.sock"))
	list := []cliSession{}
	for _, sock := range socks {
		name := strings.TrimSuffix(filepath.Base(sock), ".sock")
		got, err := daemonSessions(ctx, sock, name, o.version)
		if err != nil {
			continue // a socket its daemon left: nobody answers there
		}
		for _, s := range got {
			list = append(list, cliSession{SessionInfo: s, Current: s.ID == o.session})
			list[len(list)-1].Yours = true
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Created.Before(list[j].Created) })
	var b strings.Builder
	for _, s := range list {
		cur, state, where := "", "no browser yet", ""
		if s.Current {
			cur = " (current)"
		}
		if s.Browser {
			state = "browser open"
		}
		if s.URL != "" {
			where = " at " + s.URL
		}
		if s.DevURL != "" {
			where += ", dev server " + s.DevURL
		}
		fmt.Fprintf(&b, "- %s%s: %s%s, last used %s\n", s.ID, cur, state, where, s.LastUsed.Local().Format("15:04:05"))
	}
	if len(list) == 0 {
		b.WriteString("No sessions.")
	}
	return cliResult{data: list, text: b.String()}, nil
}

// daemonSessions asks the daemon at sock, if one answers there, for its
// sessions (its own, name, as a rule).
func daemonSessions(ctx context.Context, sock, name, version string) ([]mcptools.SessionInfo, error) {
	conn, err := net.Dial("unix", sock) //nolint:gosec // a socket of ours, in the user's own directory
	if err != nil {
		return nil, err
	}
	_ = conn.Close()
	c, err := dialDaemon(ctx, sock, version)
	if err != nil {
		return nil, err
	}
	defer func() { _ = c.Close() }()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "session_list", map[string]any{"sessionId": name}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return nil, fmt.Errorf("session %s: %s", name, mcptools.ResultError(res).Line())
	}
	sc, _ := res.StructuredContent.(map[string]any)
	b, err := json.Marshal(sc["sessions"])
	if err != nil {
		return nil, err
	}
	var out []mcptools.SessionInfo
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("session %s: its list: %w", name, err)
	}
	return out, nil
}

// toolWords are the CLI's words for the server's tools and arguments that
// the server's answers name (call session_start first): the CLI user has
// commands and options, not tools. Every tool a command calls has its
// words (TestVerbsMapToValidCalls).
var toolWords = map[string]string{
	"browser_navigate":         "e2e-mcp open",
	"browser_click":            "e2e-mcp click",
	"browser_type":             "e2e-mcp fill",
	"browser_press_key":        "e2e-mcp press",
	"browser_hover":            "e2e-mcp hover",
	"browser_check":            "e2e-mcp check",
	"browser_uncheck":          "e2e-mcp uncheck",
	"browser_select_option":    "e2e-mcp select",
	"browser_file_upload":      "e2e-mcp upload",
	"browser_wait_for":         "e2e-mcp wait",
	"browser_snapshot":         "e2e-mcp snapshot",
	"browser_take_screenshot":  "e2e-mcp screenshot",
	"browser_pdf_save":         "e2e-mcp pdf",
	"browser_evaluate":         "e2e-mcp eval",
	"browser_get_content":      "e2e-mcp get text",
	"browser_navigate_back":    "e2e-mcp back",
	"browser_navigate_forward": "e2e-mcp forward",
	"browser_reload":           "e2e-mcp reload",
	"browser_tabs":             "e2e-mcp tab",
	"browser_console_messages": "e2e-mcp console",
	"session_errors":           "e2e-mcp errors",
	"session_end":              "e2e-mcp close",
	"session_export_flow":      "e2e-mcp export",
	"session_list":             "e2e-mcp session list",
	"session_start":            "e2e-mcp session start",
	"session_status":           "e2e-mcp session status",
	"session_restart":          "e2e-mcp session restart",
	"sessionId":                "--session",
	"commandPath":              "--command",
	"readyPath":                "--ready-path",
}

// toolNameRE finds the names toolWords may replace.
var toolNameRE = regexp.MustCompile(`\b(?:(?:browser|session)_[a-z_]+|sessionId|commandPath|readyPath)\b`)

// inCLIWords is a server's message with its tool and argument names in
// the CLI's words; names the CLI has no command for stay.
func inCLIWords(msg string) string {
	return toolNameRE.ReplaceAllStringFunc(msg, func(name string) string {
		if w, ok := toolWords[name]; ok {
			if strings.HasPrefix(w, "e2e-mcp ") {
				return "'" + w + "'"
			}
			return w
		}
		return name
	})
}
