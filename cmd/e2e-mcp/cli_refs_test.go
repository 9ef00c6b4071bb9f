package main

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestSnapshotShapeRefs: the CLI reads every ref of a snapshot, from plain
// lines, one-line table rows and lines single-quoted because their name
// holds ": ".
func TestSnapshotShapeRefs(t *testing.T) {
	text := "### Snapshot\n```yaml\n" + `- button "Save" [ref=e1]
- 'combobox "Colour: Red" [ref=e2]':
  - option "Red" [selected]
- 'link "Bob''s: notes" [ref=e3]'
- row: cell "a" | button "Edit" [ref=e4]
- textbox "Name" [active] [ref=f1e5]` + "\n```\n"
	res, err := snapshotShape(&mcp.CallToolResult{}, text)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := res.data.(map[string]any)
	refs, _ := data["refs"].(map[string]map[string]string)
	want := map[string][2]string{"e1": {"button", "Save"}, "e2": {"combobox", "Colour: Red"}, "e3": {"link", "Bob's: notes"},
		"e4": {"button", "Edit"}, "f1e5": {"textbox", "Name"}}
	for ref, w := range want {
		if got := refs[ref]; got["role"] != w[0] || got["name"] != w[1] {
			t.Errorf("%s: %v, want role %s name %q", ref, got, w[0], w[1])
		}
	}
	if len(refs) != len(want) {
		t.Errorf("refs = %v", refs)
	}
}
