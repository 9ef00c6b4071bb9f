package keyboard

import (
	"errors"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

func TestKeysParseChord(t *testing.T) {
	tests := []struct {
		in        string
		key, code string
		text      string
		vk        int64
		mods      int64
	}{
		{in: "Enter", key: "Enter", code: "Enter", text: "\r", vk: 13},
		{in: "enter", key: "Enter", code: "Enter", text: "\r", vk: 13},
		{in: "Tab", key: "Tab", code: "Tab", vk: 9},
		{in: "Escape", key: "Escape", code: "Escape", vk: 27},
		{in: "Esc", key: "Escape", code: "Escape", vk: 27},
		{in: "Backspace", key: "Backspace", code: "Backspace", vk: 8},
		{in: "ArrowDown", key: "ArrowDown", code: "ArrowDown", vk: 40},
		{in: "PageUp", key: "PageUp", code: "PageUp", vk: 33},
		{in: "Space", key: " ", code: "Space", text: " ", vk: 32},
		{in: "F1", key: "F1", code: "F1", vk: 112},
		{in: "F12", key: "F12", code: "F12", vk: 123},
		{in: "a", key: "a", code: "KeyA", text: "a", vk: 65},
		{in: "A", key: "A", code: "KeyA", text: "A", vk: 65},
		{in: "7", key: "7", code: "Digit7", text: "7", vk: 55},
		{in: "/", key: "/", code: "Slash", text: "/", vk: 191},
		{in: "?", key: "?", code: "Slash", text: "?", vk: 191},
		{in: "+", key: "+", code: "Equal", text: "+", vk: 187},
		{in: "Control+A", key: "A", code: "KeyA", text: "A", vk: 65, mods: ModControl},
		{in: "Ctrl+a", key: "a", code: "KeyA", text: "a", vk: 65, mods: ModControl},
		{in: "Shift+Tab", key: "Tab", code: "Tab", vk: 9, mods: ModShift},
		{in: "Control+Shift+ArrowLeft", key: "ArrowLeft", code: "ArrowLeft", vk: 37, mods: ModControl | ModShift},
		{in: "Alt+F4", key: "F4", code: "F4", vk: 115, mods: ModAlt},
		{in: "Meta+c", key: "c", code: "KeyC", text: "c", vk: 67, mods: ModMeta},
		{in: "Control++", key: "+", code: "Equal", text: "+", vk: 187, mods: ModControl},
		{in: "Shift", key: "Shift", code: "ShiftLeft", vk: 16},
	}
	for _, tc := range tests {
		c, err := ParseChord(tc.in)
		if err != nil {
			t.Errorf("ParseChord(%q): %v", tc.in, err)
			continue
		}
		k := c.Key
		if k.Key != tc.key || k.Code != tc.code || k.Text != tc.text || k.VK != tc.vk || c.modifiers() != tc.mods {
			t.Errorf("ParseChord(%q) = key %q code %q text %q vk %d mods %d, want %q %q %q %d %d",
				tc.in, k.Key, k.Code, k.Text, k.VK, c.modifiers(), tc.key, tc.code, tc.text, tc.vk, tc.mods)
		}
	}
}

func TestKeysControlOrMeta(t *testing.T) {
	c, err := ParseChord("ControlOrMeta+A")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"Control": ModControl, "Meta": ModMeta}[controlOrMeta()]
	if c.modifiers() != want || want == 0 {
		t.Errorf("ControlOrMeta+A: modifiers %d, want %d (%s)", c.modifiers(), want, controlOrMeta())
	}
}

func TestKeysInvalid(t *testing.T) {
	for _, in := range []string{"", "Foo", "Control+", "Control+Foo", "A+B", "Enter+a", "++a", "Control+ +a"} {
		_, err := ParseChord(in)
		var e *refusal.Error
		if !errors.As(err, &e) {
			t.Errorf("ParseChord(%q): want a refusal (*refusal.Error), got %v", in, err)
			continue
		}
		// The error teaches the key names.
		if !strings.Contains(e.Hint, "Control+A") || !strings.Contains(e.Hint, "Enter") {
			t.Errorf("ParseChord(%q): hint lacks examples: %q", in, e.Hint)
		}
	}
}

func TestKeysForRune(t *testing.T) {
	for r, want := range map[rune]Key{'a': keys["a"], 'Z': keys["Z"], '\n': Enter, ' ': keys["Space"]} {
		if got := ForRune(r); got != want {
			t.Errorf("ForRune(%q) = %+v, want %+v", r, got, want)
		}
	}
	if got := ForRune('é'); got.Key != "é" || got.Text != "é" || got.VK != 0 {
		t.Errorf("ForRune('é') = %+v, want text only", got)
	}
}

// TestClickModifiers: the held keys of a click as the Input domain's bit
// field (ControlOrMeta the modifier it is in a chord: Meta on macOS,
// Control elsewhere, as Playwright's), and a name it does not know
// refused by name.
func TestClickModifiers(t *testing.T) {
	tests := []struct {
		names []string
		bits  int64
	}{
		{nil, 0},
		{[]string{"Alt"}, 1},
		{[]string{"Control", "Shift"}, 10},
		{[]string{"ControlOrMeta"}, 2},
		{[]string{"Meta", "Meta", "Alt"}, 5},
	}
	for _, tc := range tests {
		if bits, err := ClickModifiers(tc.names); err != nil || bits != tc.bits {
			t.Errorf("ClickModifiers(%q) = %d, %v; want %d", tc.names, bits, err, tc.bits)
		}
	}
	chord, err := ParseChord("ControlOrMeta+A")
	if bits, cerr := ClickModifiers([]string{"ControlOrMeta"}); err != nil || cerr != nil || bits != chord.modifiers() {
		t.Errorf("a click's ControlOrMeta is %d, a chord's %d (%v, %v)", bits, chord.modifiers(), err, cerr)
	}
	_, err = ClickModifiers([]string{"Alt", "Option"})
	e, ok := refusal.As(err)
	if !ok || e.Kind != refusal.InvalidInput || e.Message != `modifier "Option"` || e.Hint != "use Alt, Control, ControlOrMeta, Meta or Shift" {
		t.Errorf("ClickModifiers(Option) = %#v", err)
	}
}
