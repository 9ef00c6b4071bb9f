package mcptools

import (
	"context"
	"encoding/json"

	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
)

// ConfigOwnKey is the key of browser_get_config's config object that holds
// the settings of ours Playwright MCP's config has no key for.
const ConfigOwnKey = "e2e-mcp"

// configTool is browser_get_config (--caps config, Playwright MCP's name
// and group): the server's effective settings as Playwright MCP's config
// object (Deps.Config), with every credential masked. Its result is the
// JSON alone, as theirs, so that a client that parses their answer's
// result parses ours.
func configTool(d *Deps) Tool {
	return define(d, "browser_get_config", ToolsetSession,
		`The effective config (file, env, flags merged) in Playwright MCP's shape; settings theirs lacks under "`+ConfigOwnKey+`". Credentials masked.`,
		annotations{title: "Get the config", readOnly: true, idempotent: true, openWorld: false},
		func(_ context.Context, _ *Session, _ SessionArg) (*mcp.CallToolResult, error) {
			cfg := d.redactedConfig()
			b, err := json.MarshalIndent(cfg, "", "  ")
			if err != nil {
				return nil, err
			}
			var r response
			r.resultf("%s", b)
			r.set("config", cfg)
			return r.build(), nil
		})
}

// redactedConfig is Deps.Config with the values of secret-looking keys
// (a token, a password, a credential header) masked, every text shown as
// redact.CommandLine shows a URL or a command line (the credentials in an
// endpoint's userinfo, query and fragment, a dev command's secret
// arguments), and the server's secrets masked inside all; with the
// capability groups on among ours ("caps-on").
func (d *Deps) redactedConfig() map[string]any {
	var secrets *redact.Set
	if d.Sessions != nil {
		secrets = d.Sessions.Secrets
	}
	out, _ := redact.NewSet(secrets).Value(commandLines(d.Config)).(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	own, _ := out[ConfigOwnKey].(map[string]any)
	if own == nil {
		own = map[string]any{}
		out[ConfigOwnKey] = own
	}
	caps := d.Caps
	if caps == nil {
		caps = []string{}
	}
	own["caps-on"] = caps
	return out
}

// commandLines is a copy of v (a tree of objects, arrays and texts) with
// each text as redact.CommandLine shows it.
func commandLines(v any) any {
	switch x := v.(type) {
	case string:
		return redact.CommandLine(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = commandLines(e)
		}
		return out
	case map[string]string:
		out := make(map[string]string, len(x))
		for k, e := range x {
			out[k] = redact.CommandLine(e)
		}
		return out
	case []string:
		out := make([]string, len(x))
		for i, e := range x {
			out[i] = redact.CommandLine(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = commandLines(e)
		}
		return out
	}
	return v
}
