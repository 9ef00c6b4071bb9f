package mcptools

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseCaps(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		err  string
	}{
		{"", nil, ""},
		{"emulation", []string{"emulation"}, ""},
		{" Emulation , emulation ", []string{"emulation"}, ""},
		{"all", CapGroups, ""},
		{"emulation,x-ray", nil, `unknown capability group "x-ray" (groups: audit, config, devtools, emulation, network, pdf, report, storage, testing, time, video, vision, or all)`},
	} {
		got, err := ParseCaps(c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("ParseCaps(%q) err = %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseCaps(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

// TestCapsOfferTheirTools: a group's tools are in tools/list only when the
// group is on; the core stays the same either way.
func TestCapsOfferTheirTools(t *testing.T) {
	names := func(caps []string) []string {
		d := testDeps()
		d.Caps = caps
		msg := NewServer("test", d).HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		b, _ := json.Marshal(msg)
		var res struct {
			Result struct {
				Tools []struct{ Name string } `json:"tools"`
			} `json:"result"`
		}
		_ = json.Unmarshal(b, &res)
		var out []string
		for _, tool := range res.Result.Tools {
			out = append(out, tool.Name)
		}
		return out
	}
	core, all := names(nil), names(CapGroups)
	if strings.Contains(strings.Join(core, " "), "browser_emulate_media") {
		t.Errorf("the default tools/list offers browser_emulate_media")
	}
	var added []string
	for _, n := range all {
		if !slices.Contains(core, n) {
			added = append(added, n)
		}
	}
	var grouped []string
	for _, tool := range Inventory(nil) {
		if tool.Cap != "" {
			grouped = append(grouped, tool.Def.Name)
		}
	}
	slices.Sort(grouped)
	if len(grouped) == 0 || !reflect.DeepEqual(added, grouped) || len(all) != len(core)+len(grouped) {
		t.Errorf("every group adds %v to the %d core tools, want the grouped tools %v", added, len(core), grouped)
	}
	// A call to a hidden tool is an answer the agent can act on.
	msg := NewServer("test", testDeps()).HandleMessage(context.Background(), []byte(
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"browser_emulate_media","arguments":{"colorScheme":"dark"}}}`))
	b, _ := json.Marshal(msg)
	if s := string(b); !strings.Contains(s, `"isError":true`) || !strings.Contains(s, "not_allowed") || !strings.Contains(s, "--caps emulation") {
		t.Errorf("a call to a tool of a group that is off answers:\n%s", s)
	}
	for _, tool := range Inventory(nil) {
		if tool.Cap != "" && !isCap(tool.Cap) {
			t.Errorf("%s is in the unknown group %q", tool.Def.Name, tool.Cap)
		}
	}
}
