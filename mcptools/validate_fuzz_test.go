package mcptools

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzToolArguments throws arbitrary JSON at every tool's argument checks:
// each call is refused as invalid_input naming a field, or accepted, and
// never panics (a panic would be an internal_error, or worse).
func FuzzToolArguments(f *testing.F) {
	tools := Inventory(nil)
	f.Add(uint8(0), []byte(`{}`))
	f.Add(uint8(8), []byte(`{"url": "/login"}`))
	f.Add(uint8(21), []byte(`{"target": "e5", "button": "middle", "modifiers": ["Shift", "Nope"]}`))
	f.Add(uint8(22), []byte(`{"target": "e5", "text": "\u0000\ud800", "slowly": true}`))
	f.Add(uint8(29), []byte(`{"fields": [{"target": "e1", "type": "checkbox", "value": {"a": [[[[1]]]]}}]}`))
	f.Add(uint8(3), []byte(`{"sessionId": "../../etc", "x": 1}`))
	f.Add(uint8(9), []byte(`[1, 2]`))
	f.Add(uint8(31), []byte(`{"check": "count", "target": "li", "expected": 1e400}`))
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		tool := tools[int(which)%len(tools)]
		var args any
		if json.Unmarshal(raw, &args) != nil {
			return // the transport refuses what is not JSON
		}
		err := tool.Check(args)
		if err == nil {
			return
		}
		var te *ToolError
		if !errors.As(err, &te) || te.Type != ErrInvalidInput {
			t.Fatalf("%s(%s): %T %v, want invalid_input", tool.Def.Name, raw, err, err)
		}
		if field, _, _ := strings.Cut(te.Message, ":"); strings.TrimSpace(field) == "" {
			t.Fatalf("%s(%s): %q names no field", tool.Def.Name, raw, te.Message)
		}
	})
}

// The size bounds hold before anything is decoded into a tool's arguments.
func TestCheckSizes(t *testing.T) {
	big := strings.Repeat("x", maxArgString+1)
	for _, tc := range []struct {
		args any
		want string
	}{
		{map[string]any{"text": big}, "text: 1048577 bytes"},
		{map[string]any{"fields": []any{map[string]any{"value": big}}}, "fields[0].value: 1048577 bytes"},
		{map[string]any{"paths": make([]any, maxArgItems+1)}, "paths: 1001 items"},
	} {
		err := checkSizes(tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("checkSizes: %v, want %q", err, tc.want)
		}
	}
	deep := any("x")
	for range maxArgDepth + 2 {
		deep = []any{deep}
	}
	if err := checkSizes(map[string]any{"a": deep}); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("deep: %v", err)
	}
	if err := checkSizes(map[string]any{"text": strings.Repeat("x", maxArgString)}); err != nil {
		t.Errorf("at the bound: %v", err)
	}
}
