package cli

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestSnapshotShapeRefs: the CLI's snapshot answer comes from the structured
// answer as a client decodes it (JSON objects), never from the markdown.
func TestSnapshotShapeRefs(t *testing.T) {
	var sc map[string]any
	if err := json.Unmarshal([]byte(`{"page": {"url": "http://app/x", "title": "X"},
		"snapshot": {"kind": "whole", "yaml": "- button \"Save\" [ref=e1]",
			"refs": {"e1": {"role": "button", "name": "Save"}, "f1e5": {"role": "textbox", "name": "Colour: Red"}}}}`), &sc); err != nil {
		t.Fatal(err)
	}
	res, err := snapshotShape(&mcp.CallToolResult{StructuredContent: sc}, "### Snapshot\n(the text is not read)")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := res.data.(map[string]any)
	refs, _ := data["refs"].(map[string]map[string]string)
	want := map[string][2]string{"e1": {"button", "Save"}, "f1e5": {"textbox", "Colour: Red"}}
	for ref, w := range want {
		if got := refs[ref]; got["role"] != w[0] || got["name"] != w[1] {
			t.Errorf("%s: %v, want role %s name %q", ref, got, w[0], w[1])
		}
	}
	if len(refs) != len(want) || data["snapshot"] != `- button "Save" [ref=e1]` || data["origin"] != "http://app/x" {
		t.Errorf("data = %v", data)
	}
}
