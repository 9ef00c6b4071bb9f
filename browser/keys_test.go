package browser

import (
	"strings"
	"testing"
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
		{in: "Control+A", key: "A", code: "KeyA", text: "A", vk: 65, mods: modControl},
		{in: "Ctrl+a", key: "a", code: "KeyA", text: "a", vk: 65, mods: modControl},
		{in: "Shift+Tab", key: "Tab", code: "Tab", vk: 9, mods: modShift},
		{in: "Control+Shift+ArrowLeft", key: "ArrowLeft", code: "ArrowLeft", vk: 37, mods: modControl | modShift},
		{in: "Alt+F4", key: "F4", code: "F4", vk: 115, mods: modAlt},
		{in: "Meta+c", key: "c", code: "KeyC", text: "c", vk: 67, mods: modMeta},
		{in: "Control++", key: "+", code: "Equal", text: "+", vk: 187, mods: modControl},
		{in: "Shift", key: "Shift", code: "ShiftLeft", vk: 16},
	}
	for _, tc := range tests {
		c, err := parseChord(tc.in)
		if err != nil {
			t.Errorf("parseChord(%q): %v", tc.in, err)
			continue
		}
		k := c.key
		if k.key != tc.key || k.code != tc.code || k.text != tc.text || k.vk != tc.vk || c.modifiers() != tc.mods {
			t.Errorf("parseChord(%q) = key %q code %q text %q vk %d mods %d, want %q %q %q %d %d",
				tc.in, k.key, k.code, k.text, k.vk, c.modifiers(), tc.key, tc.code, tc.text, tc.vk, tc.mods)
		}
	}
}

func TestKeysControlOrMeta(t *testing.T) {
	c, err := parseChord("ControlOrMeta+A")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"Control": modControl, "Meta": modMeta}[controlOrMeta()]
	if c.modifiers() != want || want == 0 {
		t.Errorf("ControlOrMeta+A: modifiers %d, want %d (%s)", c.modifiers(), want, controlOrMeta())
	}
}

func TestKeysInvalid(t *testing.T) {
	for _, in := range []string{"", "Foo", "Control+", "Control+Foo", "A+B", "Enter+a", "++a", "Control+ +a"} {
		_, err := parseChord(in)
		e, ok := AsError(err)
		if !ok || e.Kind != KindInvalidInput {
			t.Errorf("parseChord(%q): want invalid_input, got %v", in, err)
			continue
		}
		// The error teaches the key names.
		if !strings.Contains(e.Hint, "Control+A") || !strings.Contains(e.Hint, "Enter") {
			t.Errorf("parseChord(%q): hint lacks examples: %q", in, e.Hint)
		}
	}
}

func TestKeysForRune(t *testing.T) {
	for r, want := range map[rune]keyDef{'a': keys["a"], 'Z': keys["Z"], '\n': keyEnter, ' ': keys["Space"]} {
		if got := keyForRune(r); got != want {
			t.Errorf("keyForRune(%q) = %+v, want %+v", r, got, want)
		}
	}
	if got := keyForRune('é'); got.key != "é" || got.text != "é" || got.vk != 0 {
		t.Errorf("keyForRune('é') = %+v, want text only", got)
	}
}
