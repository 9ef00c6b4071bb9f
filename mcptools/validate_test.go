package mcptools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestBadArguments: arguments that break a tool's schema are invalid_input
// results that name the field, through the real server.
func TestBadArguments(t *testing.T) {
	srv := NewServer("test", testDeps())
	cases := []struct {
		tool, args string
		want       []string
	}{
		{"browser_tabs", `{"action":"jump"}`, []string{"invalid_input: action:", `"jump"`, "list"}},
		{"browser_tabs", `{}`, []string{"invalid_input: action: missing required argument action"}},
		{"browser_navigate", `{"url":"http://x/","colour":"red"}`, []string{"invalid_input: colour: unknown argument colour"}},
		{"browser_resize", `{"width":"wide","height":3}`, []string{"invalid_input: width:", "string"}},
	}
	for _, c := range cases {
		msg := srv.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+c.tool+`","arguments":`+c.args+`}}`))
		b, _ := json.Marshal(msg)
		var res struct {
			Result struct {
				IsError bool `json:"isError"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal(b, &res); err != nil || !res.Result.IsError || len(res.Result.Content) == 0 {
			t.Errorf("%s %s: want an isError result, got %s", c.tool, c.args, b)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(res.Result.Content[0].Text, w) {
				t.Errorf("%s %s: %q lacks %q", c.tool, c.args, res.Result.Content[0].Text, w)
			}
		}
	}
}
