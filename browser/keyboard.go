package browser

import (
	"context"
	"fmt"
	"runtime"
	"strings"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// keyDef is one key of a US keyboard as the Input domain wants it: the DOM
// key value, the physical key code, the text it types (none for keys that
// type nothing) and its Windows virtual key code.
type keyDef struct {
	key, code, text string
	vk              int64
	// shifted is the key value with Shift held ("A" for "a", "!" for "1"),
	// when it differs.
	shifted string
	// location is 1 for the left-hand modifier keys.
	location int64
	// modifier is the key's bit in the Input domain's modifier field, for
	// Alt, Control, Meta and Shift.
	modifier int64
}

// Modifier bits of the Input domain.
const (
	modAlt     int64 = 1
	modControl int64 = 2
	modMeta    int64 = 4
	modShift   int64 = 8
)

var (
	keyEnter  = keyDef{key: "Enter", code: "Enter", text: "\r", vk: 13}
	keyDelete = keyDef{key: "Delete", code: "Delete", vk: 46}
)

// keys maps key names (DOM key values, plus a few aliases) to their keys.
var keys = buildKeys()

func buildKeys() map[string]keyDef {
	k := map[string]keyDef{
		"Enter":       keyEnter,
		"Tab":         {key: "Tab", code: "Tab", vk: 9},
		"Escape":      {key: "Escape", code: "Escape", vk: 27},
		"Backspace":   {key: "Backspace", code: "Backspace", vk: 8},
		"Delete":      keyDelete,
		"Insert":      {key: "Insert", code: "Insert", vk: 45},
		"ArrowLeft":   {key: "ArrowLeft", code: "ArrowLeft", vk: 37},
		"ArrowUp":     {key: "ArrowUp", code: "ArrowUp", vk: 38},
		"ArrowRight":  {key: "ArrowRight", code: "ArrowRight", vk: 39},
		"ArrowDown":   {key: "ArrowDown", code: "ArrowDown", vk: 40},
		"Home":        {key: "Home", code: "Home", vk: 36},
		"End":         {key: "End", code: "End", vk: 35},
		"PageUp":      {key: "PageUp", code: "PageUp", vk: 33},
		"PageDown":    {key: "PageDown", code: "PageDown", vk: 34},
		"Space":       {key: " ", code: "Space", text: " ", vk: 32},
		"ContextMenu": {key: "ContextMenu", code: "ContextMenu", vk: 93},
		"CapsLock":    {key: "CapsLock", code: "CapsLock", vk: 20},
		"Shift":       {key: "Shift", code: "ShiftLeft", vk: 16, location: 1, modifier: modShift},
		"Control":     {key: "Control", code: "ControlLeft", vk: 17, location: 1, modifier: modControl},
		"Alt":         {key: "Alt", code: "AltLeft", vk: 18, location: 1, modifier: modAlt},
		"Meta":        {key: "Meta", code: "MetaLeft", vk: 91, location: 1, modifier: modMeta},
	}
	for i := 1; i <= 12; i++ {
		name := fmt.Sprintf("F%d", i)
		k[name] = keyDef{key: name, code: name, vk: int64(111 + i)}
	}
	for c := 'a'; c <= 'z'; c++ {
		lower, upper := string(c), strings.ToUpper(string(c))
		def := keyDef{key: lower, code: "Key" + upper, text: lower, vk: int64(c - 'a' + 'A'), shifted: upper}
		k[lower] = def
		up := def
		up.key, up.text = upper, upper
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
		k[p.plain] = keyDef{key: p.plain, code: p.code, text: p.plain, vk: p.vk, shifted: p.shifted}
		k[p.shifted] = keyDef{key: p.shifted, code: p.code, text: p.shifted, vk: p.vk}
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

// lookupKey finds a key by name: exactly, or ignoring case for names longer
// than one character (enter, arrowdown), since case tells "a" from "A".
func lookupKey(name string) (keyDef, bool) {
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
	return keyDef{}, false
}

// keyForRune is the key that types r; a character no key has (é, 你) is
// typed as text with no key code.
func keyForRune(r rune) keyDef {
	s := string(r)
	if r == '\n' {
		return keyEnter
	}
	if k, ok := keys[s]; ok && len(s) == 1 {
		return k
	}
	return keyDef{key: s, text: s}
}

// chord is a key with the modifiers held while it is pressed.
type chord struct {
	mods []keyDef
	key  keyDef
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

// parseChord parses a key or a combination: "Enter", "a", "Control+A",
// "Shift+Tab", "ControlOrMeta+A", "Control++" (the plus key).
func parseChord(s string) (chord, error) {
	bad := func(format string, args ...any) (chord, error) {
		return chord{}, newError(KindInvalidInput, keyHelp, format, args...)
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
	var c chord
	for i, n := range names {
		if n == "" {
			return bad("key %q: empty part", s)
		}
		if i == len(names)-1 {
			k, ok := lookupKey(n)
			if !ok {
				return bad("unknown key %q in %q", n, s)
			}
			c.key = k
			break
		}
		if strings.EqualFold(n, "ControlOrMeta") {
			n = controlOrMeta()
		}
		m, ok := lookupKey(n)
		if !ok || m.modifier == 0 {
			return bad("%q in %q is not a modifier (Alt, Control, ControlOrMeta, Meta, Shift)", n, s)
		}
		c.mods = append(c.mods, m)
	}
	return c, nil
}

// modifiers is the modifier bit field of the chord's held keys.
func (c chord) modifiers() int64 {
	var bits int64
	for _, m := range c.mods {
		bits |= m.modifier
	}
	return bits
}

// pressChord holds the chord's modifiers down, presses its key, and lets go
// of the modifiers in reverse order, as a user would.
func (p *Page) pressChord(ctx context.Context, c chord) error {
	var held int64
	for _, m := range c.mods {
		held |= m.modifier
		if err := p.sendKey(ctx, m, input.DispatchKeyEventTypeRawKeyDown, held); err != nil {
			return err
		}
	}
	k := c.key
	if held&modShift != 0 && k.shifted != "" {
		k.key, k.text = k.shifted, k.shifted
	}
	if held&^modShift != 0 {
		// With Control, Alt or Meta held a key runs a shortcut; it types
		// nothing, and a letter is the lower-case one unless Shift is held
		// (Control+A is key "a", as on a keyboard).
		k.text = ""
		if held&modShift == 0 && len(k.key) == 1 && k.key >= "A" && k.key <= "Z" {
			k.key = strings.ToLower(k.key)
		}
	}
	err := p.sendKey(ctx, k, input.DispatchKeyEventTypeKeyDown, held)
	if err == nil {
		err = p.sendKey(ctx, k, input.DispatchKeyEventTypeKeyUp, held)
	}
	for i := len(c.mods) - 1; i >= 0; i-- {
		held &^= c.mods[i].modifier
		if uerr := p.sendKey(ctx, c.mods[i], input.DispatchKeyEventTypeKeyUp, held); err == nil {
			err = uerr
		}
	}
	return err
}

// pressKey presses and releases one key with no modifiers.
func (p *Page) pressKey(ctx context.Context, k keyDef) error {
	return p.pressChord(ctx, chord{key: k})
}

// sendKey sends one key event. A keyDown of a key that types nothing is a
// rawKeyDown, so that the browser does not make up text for it.
func (p *Page) sendKey(ctx context.Context, k keyDef, typ input.DispatchKeyEventType, mods int64) error {
	params := input.DispatchKeyEventParams{Type: typ, Modifiers: mods, Key: k.key, Code: k.code,
		WindowsVirtualKeyCode: k.vk, NativeVirtualKeyCode: k.vk, Location: k.location}
	if typ == input.DispatchKeyEventTypeKeyDown {
		if k.text == "" {
			params.Type = input.DispatchKeyEventTypeRawKeyDown
		} else {
			params.Text, params.UnmodifiedText = k.text, k.text
		}
	}
	_, err := chromedp.Call(ctx, input.DispatchKeyEvent, params)
	return err
}

// PressKey presses a key or a combination ("Enter", "Control+A",
// "Shift+Tab") in the focused element, then waits for what it started.
func (p *Page) PressKey(ctx context.Context, key string) error {
	c, err := parseChord(key)
	if err != nil {
		return err
	}
	before := p.mark()
	cctx, cancel := p.activeCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	if err := p.act(cctx, func(cctx context.Context) error { return p.pressChord(cctx, c) }); err != nil {
		return p.ctxError(cctx, err, "press "+key)
	}
	return p.settle(ctx, before)
}
