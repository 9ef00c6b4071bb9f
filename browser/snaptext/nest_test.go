package snaptext

import "testing"

// TestInsertUnder: a frame's snapshot nests two spaces under the line of
// its iframe, which then holds a list (its colon); the level of that line
// is read from its indent; a marker no line holds changes nothing.
func TestInsertUnder(t *testing.T) {
	page := "- main:\n  - iframe \"Pay\" [ref=e3]\n  - button \"Go\" [ref=e4]"
	child := "- textbox \"Card\" [ref=f1e1]\n- button \"Pay\" [ref=f1e2]\n"
	want := "- main:\n  - iframe \"Pay\" [ref=e3]:\n    - textbox \"Card\" [ref=f1e1]\n    - button \"Pay\" [ref=f1e2]\n  - button \"Go\" [ref=e4]"
	if got := InsertUnder(page, "[ref=e3]", child); got != want {
		t.Errorf("InsertUnder:\n got %q\nwant %q", got, want)
	}
	if got := InsertUnder(page, "[ref=e9]", child); got != page {
		t.Errorf("InsertUnder under no line = %q", got)
	}
	if got := InsertUnder(page, "[ref=e3]", " \n"); got != page {
		t.Errorf("InsertUnder of nothing = %q", got)
	}
	for marker, want := range map[string]int{"[ref=e3]": 2, "- main": 1, "[ref=e9]": 1} {
		if got := LineLevel(page, marker); got != want {
			t.Errorf("LineLevel(%q) = %d, want %d", marker, got, want)
		}
	}
}
