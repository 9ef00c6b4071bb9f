package cli

import (
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

func TestParseCLI(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		name    string
		args    []string
		env     map[string]string
		pos     []string
		check   func(o *cliOpts) bool
		wantErr string
	}{
		{"defaults", []string{"@e3"}, nil, []string{"@e3"},
			func(o *cliOpts) bool { return o.session == "default" && o.timeout == 60*time.Second && !o.json }, ""},
		{"session from the environment", nil, map[string]string{"E2E_MCP_SESSION": "ci-1"}, nil,
			func(o *cliOpts) bool { return o.session == "ci-1" }, ""},
		{"options anywhere, = or a separate value", []string{"--json", "a", "--session=s2", "b", "--timeout", "2.5"}, nil, []string{"a", "b"},
			func(o *cliOpts) bool { return o.json && o.session == "s2" && o.timeout == 2500*time.Millisecond }, ""},
		{"snapshot flags", []string{"-i", "-d", "3", "-s", "#main", "-c"}, nil, nil,
			func(o *cliOpts) bool { return o.interactive && o.depth == 3 && o.scope == "#main" }, ""},
		{"a duration", []string{"--timeout", "2m"}, nil, nil, func(o *cliOpts) bool { return o.timeout == 2*time.Minute }, ""},
		{"an unknown option", []string{"--nope"}, nil, nil, nil, "unknown option --nope"},
		{"a missing value", []string{"--session"}, nil, nil, nil, "--session needs a value"},
		{"a bad session name", []string{"--session", "a b"}, nil, nil, nil, "use 1-64 letters"},
		{"a bad timeout", []string{"--timeout", "soon"}, nil, nil, nil, "give seconds or a duration"},
		{"a negative depth", []string{"-d", "-1"}, nil, nil, nil, "--depth wants a number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pos, o, err := parseCLI(c.args, env(c.env))
			if c.wantErr != "" {
				var ue *usageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want a usage error with %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(pos, c.pos) || !c.check(o) {
				t.Errorf("pos = %q, opts = %+v", pos, o)
			}
		})
	}
}

// TestVerbsMapToValidCalls: every CLI verb, with the arguments its usage
// shows, becomes a call of a tool of the server whose arguments that
// tool's schema accepts; a verb missing its arguments is a usage error.
func TestVerbsMapToValidCalls(t *testing.T) {
	tools := map[string]mcptools.Tool{}
	for _, tool := range mcptools.Inventory(nil) {
		tools[tool.Def.Name] = tool
	}
	o := &cliOpts{session: "default", timeout: 30 * time.Second}
	cases := []struct {
		verb string
		pos  []string
		tool string
		args map[string]any // a subset of the call's arguments
	}{
		{"open", []string{"http://app/"}, "browser_navigate", map[string]any{"url": "http://app/"}},
		{"goto", []string{"/x"}, "browser_navigate", nil},
		{"click", []string{"@e3"}, "browser_click", map[string]any{"target": "e3"}},
		{"dblclick", []string{"e3"}, "browser_click", map[string]any{"doubleClick": true}},
		{"fill", []string{"@e2", "ada", "lovelace"}, "browser_type", map[string]any{"target": "e2", "text": "ada lovelace"}},
		{"type", []string{"@e2", "x"}, "browser_type", map[string]any{"slowly": true}},
		{"press", []string{"Enter"}, "browser_press_key", map[string]any{"key": "Enter"}},
		{"hover", []string{"@e1"}, "browser_hover", nil},
		{"check", []string{"@e1"}, "browser_check", nil},
		{"uncheck", []string{"@e1"}, "browser_uncheck", nil},
		{"select", []string{"@e4", "Red", "Blue"}, "browser_select_option", map[string]any{"values": []string{"Red", "Blue"}}},
		{"upload", []string{"@e5", "a.txt"}, "browser_file_upload", nil},
		{"wait", []string{"@e5"}, "browser_wait_for", map[string]any{"target": "e5"}},
		{"wait", []string{"500"}, "browser_wait_for", map[string]any{"time": 0.5}},
		{"snapshot", nil, "browser_snapshot", nil},
		{"screenshot", nil, "browser_take_screenshot", nil},
		{"pdf", []string{"out.pdf"}, "browser_pdf_save", nil},
		{"eval", []string{"document.title"}, "browser_evaluate", map[string]any{"function": "document.title"}},
		{"get", []string{"text", "@e1"}, "browser_get_content", map[string]any{"format": "text"}},
		{"get", []string{"attr", "href", "@e1"}, "browser_evaluate", nil},
		{"get", []string{"count", "li"}, "browser_evaluate", nil},
		{"is", []string{"visible", "@e1"}, "browser_evaluate", nil},
		{"back", nil, "browser_navigate_back", nil},
		{"forward", nil, "browser_navigate_forward", nil},
		{"reload", nil, "browser_reload", nil},
		{"tab", nil, "browser_tabs", map[string]any{"action": "list"}},
		{"tab", []string{"2"}, "browser_tabs", map[string]any{"action": "select", "index": 2}},
		{"tab", []string{"new", "http://app/"}, "browser_tabs", map[string]any{"action": "new"}},
		{"console", nil, "browser_console_messages", nil},
		{"errors", nil, "session_errors", nil},
		{"close", nil, "session_end", nil},
		{"export", nil, "session_export_flow", nil},
		{"session", []string{"list"}, "session_list", nil},
		{"session", []string{"start"}, "session_start", nil},
		{"session", []string{"restart"}, "session_restart", nil},
	}
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.verb] = true
		tc, err := toCall(c.verb, c.pos, o)
		if err != nil {
			t.Errorf("%s %q: %v", c.verb, c.pos, err)
			continue
		}
		if tc.tool != c.tool {
			t.Errorf("%s %q: tool %s, want %s", c.verb, c.pos, tc.tool, c.tool)
			continue
		}
		for k, v := range c.args {
			if !reflect.DeepEqual(tc.args[k], v) {
				t.Errorf("%s %q: %s = %#v, want %#v", c.verb, c.pos, k, tc.args[k], v)
			}
		}
		if _, ok := toolWords[tc.tool]; !ok {
			t.Errorf("%s: the CLI has no words for %s, which its answers may name (toolWords)", c.verb, tc.tool)
		}
		tool, ok := tools[tc.tool]
		if !ok {
			t.Errorf("%s: no tool %s on the server", c.verb, tc.tool)
			continue
		}
		args := map[string]any{"sessionId": "default"}
		for k, v := range tc.args {
			args[k] = v
		}
		if err := tool.Check(jsonish(args)); err != nil {
			t.Errorf("%s %q: %s refuses the arguments %v: %v", c.verb, c.pos, tc.tool, args, err)
		}
	}
	var missing []string
	for _, v := range verbs {
		if !covered[v.name] {
			missing = append(missing, v.name)
		}
	}
	for alias := range aliases {
		if !covered[alias] {
			missing = append(missing, alias)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("verbs without a case here: %v", missing)
	}
	for _, bad := range [][]string{{"click"}, {"fill", "@e1"}, {"press"}, {"select", "@e1"}, {"pdf"}, {"is", "loud", "@e1"}, {"tab", "x"}, {"session"}} {
		var ue *usageError
		if _, err := toCall(bad[0], bad[1:], o); !errors.As(err, &ue) {
			t.Errorf("%q: err = %v, want a usage error", bad, err)
		}
	}
}

// jsonish turns Go slices of strings into what a decoded JSON call holds.
func jsonish(args map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range args {
		if ss, ok := v.([]string); ok {
			l := make([]any, len(ss))
			for i, s := range ss {
				l[i] = s
			}
			v = l
		}
		if n, ok := v.(int); ok {
			v = float64(n)
		}
		out[k] = v
	}
	return out
}

// TestVerbsAgreeWithFlows: a CLI command that is also a flow action calls
// the same tool (flow.Verbs is the one table of actions).
func TestVerbsAgreeWithFlows(t *testing.T) {
	o := &cliOpts{session: "default", timeout: 30 * time.Second}
	shared := 0
	for _, v := range flow.Verbs {
		if !IsCommand(v.Name) {
			continue
		}
		shared++
		pos := []string{"@e1", "x"}
		if v.Name == "press" {
			pos = []string{"Enter"}
		}
		tc, err := toCall(v.Name, pos, o)
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		if tc.tool != v.Tool {
			t.Errorf("the CLI's %s calls %s; as a flow action it calls %s", v.Name, tc.tool, v.Tool)
		}
	}
	if shared < 10 {
		t.Errorf("only %d verbs shared with flows", shared)
	}
}

// TestVerbHelp: every verb (and alias) has its own help, which starts with
// its usage line; the CLI's usage lists every verb on a line of its own.
func TestVerbHelp(t *testing.T) {
	names := []string{}
	for _, v := range verbs {
		names = append(names, v.name)
		if !strings.Contains(Usage, "\n  "+v.name+" ") {
			t.Errorf("Usage does not list %s on a line of its own:\n%s", v.name, Usage)
		}
	}
	for alias := range aliases {
		names = append(names, alias)
	}
	for _, name := range names {
		h := verbHelp(name)
		if !strings.HasPrefix(h, "Usage: e2e-mcp "+name+" ") || !strings.Contains(h, "Exit codes") {
			t.Errorf("%s --help:\n%s", name, h)
		}
	}
}

// TestInCLIWords: the server's words for its tools become the CLI's
// commands; a tool the CLI has no command for keeps its name.
func TestInCLIWords(t *testing.T) {
	for in, want := range map[string]string{
		"invalid_input: session s1 has no dev server (call session_start first)": "invalid_input: session s1 has no dev server (call 'e2e-mcp session start' first)",
		"take a new snapshot (browser_snapshot) and use a ref from it":           "take a new snapshot ('e2e-mcp snapshot') and use a ref from it",
		"pass a sessionId of your choosing":                                      "pass a --session of your choosing",
		"answer it with browser_handle_dialog":                                   "answer it with browser_handle_dialog",
	} {
		if got := inCLIWords(in); got != want {
			t.Errorf("inCLIWords(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}
