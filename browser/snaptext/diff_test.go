package snaptext

import (
	"strings"
	"testing"
)

// TestDiff: the changed lines under their ancestors, and a note of the
// lines that went away; nothing when nothing changed.
func TestDiff(t *testing.T) {
	prev := "- main:\n  - heading \"A\" [level=1]\n  - form:\n    - textbox \"Name\" [ref=e1]\n    - button \"Go\" [ref=e2]\n  - status"
	tests := []struct {
		name, next, want string
		changed          bool
	}{
		{"same", prev, "", false},
		{"value typed", strings.Replace(prev, `[ref=e1]`, `[ref=e1]: Ada`, 1),
			"- main:\n  - form:\n    - textbox \"Name\" [ref=e1]: Ada\n# removed 1 line(s): - textbox \"Name\" [ref=e1]", true},
		{"text appears", prev + ": Welcome", "- main:\n  - status: Welcome\n# removed 1 line(s): - status", true},
		{"added at top level", prev + "\n- dialog \"Hi\"", "- dialog \"Hi\"", true},
	}
	for _, tc := range tests {
		got, changed := Diff(prev, tc.next)
		if changed != tc.changed || got != tc.want {
			t.Errorf("%s: Diff = (%q, %v), want (%q, %v)", tc.name, got, changed, tc.want, tc.changed)
		}
	}
}
