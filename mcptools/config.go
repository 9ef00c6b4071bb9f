package mcptools

import (
	"context"
	"encoding/json"
	"maps"
	"slices"

	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
)

// configTool is browser_get_config (--caps config, Playwright MCP's name
// and group): the server's settings as its flags name them, with every
// credential masked.
func configTool(d *Deps) Tool {
	return define(d, "browser_get_config", ToolsetSession,
		"The server's effective settings (flags, environment), credentials masked.",
		annotations{title: "Get the config", readOnly: true, idempotent: true, openWorld: false},
		func(_ context.Context, _ *Session, _ SessionArg) (*mcp.CallToolResult, error) {
			cfg := d.redactedConfig()
			b, err := json.MarshalIndent(cfg, "", "  ")
			if err != nil {
				return nil, err
			}
			var r response
			r.resultf("```json\n%s\n```", b)
			r.set("config", cfg)
			return r.build(), nil
		})
}

// redactedConfig is Deps.Config with the values of secret-looking settings
// (a token, a password) masked, every other shown as redact.CommandLine
// shows a URL or a command line (the credentials in an endpoint's userinfo,
// query and fragment, a dev command's secret arguments), and the server's
// secrets masked inside all, plus the capability groups on.
func (d *Deps) redactedConfig() map[string]any {
	all := map[string]any{}
	for _, k := range slices.Sorted(maps.Keys(d.Config)) {
		all[k] = redact.CommandLine(d.Config[k])
	}
	var secrets *redact.Set
	if d.Sessions != nil {
		secrets = d.Sessions.Secrets
	}
	out, _ := redact.NewSet(secrets).Value(all).(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	caps := d.Caps
	if caps == nil {
		caps = []string{}
	}
	out["caps-on"] = caps
	return out
}
