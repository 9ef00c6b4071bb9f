package mcptools

import (
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser"
)

// TestVideoCaptions: an action's caption names the verb and the target by
// role and name; it never holds what is typed or filled in, and a secret
// anywhere in it is masked with the session's set.
func TestVideoCaptions(t *testing.T) {
	s := newSession(sessionKey{id: "s"}, "", nil)
	s.refNames = map[string]browser.RefInfo{"e5": {Role: "button", Name: "Sign up"}, "e7": {Role: "textbox", Name: "Password"}, "e9": {Role: "combobox", Name: "Plan"}}
	s.secrets.Add("tok-8f2c91")
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"browser_click", map[string]any{"target": "e5"}, `click button "Sign up"`},
		{"browser_click", map[string]any{"target": "#go"}, `click #go`},
		{"browser_type", map[string]any{"target": "e7", "text": "hunter2-secret"}, `type into textbox "Password"`},
		{"browser_fill_form", map[string]any{"fields": []any{map[string]any{"target": "e7", "value": "hunter2-secret"}}}, `fill_form (1 fields)`},
		{"browser_select_option", map[string]any{"target": "e9", "values": []any{"Team"}}, `select "Team" in combobox "Plan"`},
		{"browser_press_key", map[string]any{"key": "Enter"}, `press Enter`},
		{"browser_navigate", map[string]any{"url": "https://app.test/?token=tok-8f2c91"}, `navigate to https://app.test/?token=` + "\u2022\u2022\u2022"},
		{"browser_drag", map[string]any{"startTarget": "e5", "endTarget": "#bin"}, `drag button "Sign up" to #bin`},
	} {
		got := s.caption(c.tool, c.args)
		if strings.Contains(got, "hunter2") || strings.Contains(got, "tok-8f2c91") {
			t.Errorf("%s: the caption %q shows what was typed or a secret", c.tool, got)
		}
		if !strings.HasPrefix(got, strings.Split(c.want, "\u2022")[0]) {
			t.Errorf("%s %v: caption %q, want %q", c.tool, c.args, got, c.want)
		}
	}
}
