package snaptext

import (
	"reflect"
	"testing"
)

// TestReadTexts: headings, statuses and alerts as a snapshot writes them
// (names with quotes and colons, texts quoted as YAML, changes with their
// notes), nothing else, and no status that holds more than its text.
func TestReadTexts(t *testing.T) {
	snap := `- main:
  - heading "Sales" [level=1]
  - 'heading "Q1: \"best\" quarter" [level=2]'
  - button "Save" [ref=e3]
  - status: "Saved: 3 rows"
  - status: Welcome back
  - alert "Card declined" [ref=e4]
  - status:
    - button "Undo" [ref=e5]
  - alert
  - text: heading "Not one"
  - iframe "Newsletter" [ref=e6]:
    - heading "Newsletter" [level=2]
# removed 1 line(s): - heading "Old"`
	want := []ReadText{
		{Role: "heading", Name: "Sales"},
		{Role: "heading", Name: `Q1: "best" quarter`},
		{Role: "status", Text: "Saved: 3 rows"},
		{Role: "status", Text: "Welcome back"},
		{Role: "alert", Name: "Card declined"},
		{Role: "heading", Name: "Newsletter"},
	}
	if got := ReadTexts(snap); !reflect.DeepEqual(got, want) {
		t.Errorf("ReadTexts:\n got %+v\nwant %+v", got, want)
	}
}
