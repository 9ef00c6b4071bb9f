// Package keyboard is the keys of a US keyboard as Chrome's Input domain
// wants them (key value, code, text, virtual key code, modifier bit), the
// key names and combinations an agent writes (Enter, a, Control+A,
// Shift+Tab, ControlOrMeta+A) parsed into them, and the keys a click holds
// ([ClickModifiers]). It is data and parsing, no CDP: browser sends the
// keys (browser/keyboard.go) and reports this package's refusals, each an
// invalid_input [*refusal.Error] (browser.AsError). It may import the
// standard library and browser/refusal only; not browser, which imports it.
package keyboard

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// Key is one key of a US keyboard as the Input domain wants it: the DOM
// key value, the physical key code, the text it types (none for keys that
// type nothing) and its Windows virtual key code.
type Key struct {
	Key, Code, Text string
	VK              int64
	// Shifted is the key value with Shift held ("A" for "a", "!" for "1"),
	// when it differs.
	Shifted string
	// Location is 1 for the left-hand modifier keys.
	Location int64
	// Modifier is the key's bit in the Input domain's modifier field, for
	// Alt, Control, Meta and Shift.
	Modifier int64
}

// Modifier bits of the Input domain.
const (
	ModAlt     int64 = 1
	ModControl int64 = 2
	ModMeta    int64 = 4
	ModShift   int64 = 8
)

// The keys browser presses by themselves: Enter submits what was typed,
// Delete clears a selection.
var (
	Enter  = Key{Key: "Enter", Code: "Enter", Text: "\r", VK: 13}
	Delete = Key{Key: "Delete", Code: "Delete", VK: 46}
)

// keys maps key names (DOM key values, plus a few aliases) to their keys.
var keys = buildKeys()

func buildKeys() map[string]Key {
	k := map[string]Key{
		"Enter":       Enter,
		"Tab":         {Key: "Tab", Code: "Tab", VK: 9},
		"Escape":      {Key: "Escape", Code: "Escape", VK: 27},
		"Backspace":   {Key: "Backspace", Code: "Backspace", VK: 8},
		"Delete":      Delete,
		"Insert":      {Key: "Insert", Code: "Insert", VK: 45},
		"ArrowLeft":   {Key: "ArrowLeft", Code: "ArrowLeft", VK: 37},
		"ArrowUp":     {Key: "ArrowUp", Code: "ArrowUp", VK: 38},
		"ArrowRight":  {Key: "ArrowRight", Code: "ArrowRight", VK: 39},
		"ArrowDown":   {Key: "ArrowDown", Code: "ArrowDown", VK: 40},
		"Home":        {Key: "Home", Code: "Home", VK: 36},
		"End":         {Key: "End", Code: "End", VK: 35},
		"PageUp":      {Key: "PageUp", Code: "PageUp", VK: 33},
		"PageDown":    {Key: "PageDown", Code: "PageDown", VK: 34},
		"Space":       {Key: " ", Code: "Space", Text: " ", VK: 32},
		"ContextMenu": {Key: "ContextMenu", Code: "ContextMenu", VK: 93},
		"CapsLock":    {Key: "CapsLock", Code: "CapsLock", VK: 20},
		"Shift":       {Key: "Shift", Code: "ShiftLeft", VK: 16, Location: 1, Modifier: ModShift},
		"Control":     {Key: "Control", Code: "ControlLeft", VK: 17, Location: 1, Modifier: ModControl},
		"Alt":         {Key: "Alt", Code: "AltLeft", VK: 18, Location: 1, Modifier: ModAlt},
		"Meta":        {Key: "Meta", Code: "MetaLeft", VK: 91, Location: 1, Modifier: ModMeta},
	}
	for i := 1; i <= 12; i++ {
		name := fmt.Sprintf("F%d", i)
		k[name] = Key{Key: name, Code: name, VK: int64(111 + i)}
	}
	for c := 'a'; c <= 'z'; c++ {
		lower, upper := string(c), strings.ToUpper(string(c))
		def := Key{Key: lower, Code: "Key" + upper, Text: lower, VK: int64(c - 'a' + 'A'), Shifted: upper}
		k[lower] = def
		up := def
		up.Key, up.Text = upper, upper
		k[upper] = up
	}
	// Digits and punctuation: the unshifted character, the shifted one, the
	// physical key and its virtual key code.
	for _, p := range []struct {
		plain, shifted, code string
		vk                   int64
	}{
		{"0", ")", "Digit0", 48}, {"1", "!", "Digit1", 49}, {"2", "@", "Digit2", 50}, {"3", "#", "Digit3", 51},
		{"4", "$", "Digit4", 52}, {"5", "%", "Digit5", 53}, {"6", "^", "Digit6", 54}, {"7", "&", "Digit7", 55},
		{"8", "*", "Digit8", 56}, {"9", "(", "Digit9", 57},
		{";", ":", "Semicolon", 186}, {"=", "+", "Equal", 187}, {",", "<", "Comma", 188}, {"-", "_", "Minus", 189},
		{".", ">", "Period", 190}, {"/", "?", "Slash", 191}, {"`", "~", "Backquote", 192}, {"[", "{", "BracketLeft", 219},
		{"\\", "|", "Backslash", 220}, {"]", "}", "BracketRight", 221}, {"'", "\"", "Quote", 222},
	} {
		k[p.plain] = Key{Key: p.plain, Code: p.code, Text: p.plain, VK: p.vk, Shifted: p.shifted}
		k[p.shifted] = Key{Key: p.shifted, Code: p.code, Text: p.shifted, VK: p.vk}
	}
	k[" "] = k["Space"]
	// Aliases agents write.
	for alias, name := range map[string]string{"Esc": "Escape", "Return": "Enter", "Ctrl": "Control", "Cmd": "Meta",
		"Command": "Meta", "Option": "Alt", "Up": "ArrowUp", "Down": "ArrowDown", "Left": "ArrowLeft", "Right": "ArrowRight",
		"Del": "Delete", "Spacebar": "Space", "Plus": "+"} {
		k[alias] = k[name]
	}
	return k
}

// Lookup finds a key by name: exactly, or ignoring case for names longer
// than one character (enter, arrowdown), since case tells "a" from "A".
func Lookup(name string) (Key, bool) {
	if k, ok := keys[name]; ok {
		return k, true
	}
	if len(name) > 1 {
		for n, k := range keys {
			if len(n) > 1 && strings.EqualFold(n, name) {
				return k, true
			}
		}
	}
	return Key{}, false
}

// ForRune is the key that types r; a character no key has (é, 你) is
// typed as text with no key code.
func ForRune(r rune) Key {
	s := string(r)
	if r == '\n' {
		return Enter
	}
	if k, ok := keys[s]; ok && len(s) == 1 {
		return k
	}
	return Key{Key: s, Text: s}
}

// Chord is a key with the modifiers held while it is pressed.
type Chord struct {
	Mods []Key
	Key  Key
}

// keyHelp lists example key names for error messages.
const keyHelp = "use a key name such as Enter, Tab, Escape, Backspace, Delete, ArrowDown, Home, PageUp, Space, F5, a, A, 1, /, " +
	"or a combination such as Control+A, Shift+Tab, ControlOrMeta+A, Alt+ArrowLeft"

// controlOrMeta is the modifier that ControlOrMeta means on this system.
func controlOrMeta() string {
	if runtime.GOOS == "darwin" {
		return "Meta"
	}
	return "Control"
}

// ParseChord parses a key or a combination: "Enter", "a", "Control+A",
// "Shift+Tab", "ControlOrMeta+A", "Control++" (the plus key).
func ParseChord(s string) (Chord, error) {
	bad := func(format string, args ...any) (Chord, error) {
		return Chord{}, refusal.Invalid(keyHelp, format, args...)
	}
	if s == "" {
		return bad("key: empty")
	}
	var names []string
	switch {
	case s == "+":
		names = []string{"+"}
	case strings.HasSuffix(s, "++"):
		names = append(strings.Split(s[:len(s)-2], "+"), "+")
	default:
		names = strings.Split(s, "+")
	}
	var c Chord
	for i, n := range names {
		if n == "" {
			return bad("key %q: empty part", s)
		}
		if i == len(names)-1 {
			k, ok := Lookup(n)
			if !ok {
				return bad("unknown key %q in %q", n, s)
			}
			c.Key = k
			break
		}
		if strings.EqualFold(n, "ControlOrMeta") {
			n = controlOrMeta()
		}
		m, ok := Lookup(n)
		if !ok || m.Modifier == 0 {
			return bad("%q in %q is not a modifier (Alt, Control, ControlOrMeta, Meta, Shift)", n, s)
		}
		c.Mods = append(c.Mods, m)
	}
	return c, nil
}

// clickModifiers are the keys a click may hold, by name, and their bits.
// ControlOrMeta means what it means in a chord: controlOrMeta.
var clickModifiers = map[string]int64{"Alt": ModAlt, "Control": ModControl, "Meta": ModMeta, "Shift": ModShift}

// ClickModifiers is the modifier bit field of the keys a click holds
// (Alt, Control, ControlOrMeta, Meta, Shift, exactly so spelt); another
// name is an invalid_input [*refusal.Error].
func ClickModifiers(names []string) (int64, error) {
	var bits int64
	for _, n := range names {
		if n == "ControlOrMeta" {
			n = controlOrMeta()
		}
		bit, ok := clickModifiers[n]
		if !ok {
			return 0, refusal.Invalid("use Alt, Control, ControlOrMeta, Meta or Shift", "modifier %q", n)
		}
		bits |= bit
	}
	return bits, nil
}

// modifiers is the modifier bit field of the chord's held keys.
func (c Chord) modifiers() int64 {
	var bits int64
	for _, m := range c.Mods {
		bits |= m.Modifier
	}
	return bits
}
