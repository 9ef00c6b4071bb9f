package browser

// What browser does with browser/keyboard: its keys sent to a tab over CDP
// (pressChord, pressKey, sendKey, PressKey). The package's refusals come
// back as they are: AsError reads them as invalid_input errors.

import (
	"context"
	"strings"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/keyboard"
)

// pressChord holds the chord's modifiers down, presses its key, and lets go
// of the modifiers in reverse order, as a user would.
func (p *Page) pressChord(ctx context.Context, c keyboard.Chord) error {
	var held int64
	for _, m := range c.Mods {
		held |= m.Modifier
		if err := p.sendKey(ctx, m, input.DispatchKeyEventTypeRawKeyDown, held); err != nil {
			return err
		}
	}
	k := c.Key
	if held&keyboard.ModShift != 0 && k.Shifted != "" {
		k.Key, k.Text = k.Shifted, k.Shifted
	}
	if held&^keyboard.ModShift != 0 {
		// With Control, Alt or Meta held a key runs a shortcut; it types
		// nothing, and a letter is the lower-case one unless Shift is held
		// (Control+A is key "a", as on a keyboard).
		k.Text = ""
		if held&keyboard.ModShift == 0 && len(k.Key) == 1 && k.Key >= "A" && k.Key <= "Z" {
			k.Key = strings.ToLower(k.Key)
		}
	}
	err := p.sendKey(ctx, k, input.DispatchKeyEventTypeKeyDown, held)
	if err == nil {
		err = p.sendKey(ctx, k, input.DispatchKeyEventTypeKeyUp, held)
	}
	for i := len(c.Mods) - 1; i >= 0; i-- {
		held &^= c.Mods[i].Modifier
		if uerr := p.sendKey(ctx, c.Mods[i], input.DispatchKeyEventTypeKeyUp, held); err == nil {
			err = uerr
		}
	}
	return err
}

// pressKey presses and releases one key with no modifiers.
func (p *Page) pressKey(ctx context.Context, k keyboard.Key) error {
	return p.pressChord(ctx, keyboard.Chord{Key: k})
}

// sendKey sends one key event. A keyDown of a key that types nothing is a
// rawKeyDown, so that the browser does not make up text for it.
func (p *Page) sendKey(ctx context.Context, k keyboard.Key, typ input.DispatchKeyEventType, mods int64) error {
	params := input.DispatchKeyEventParams{Type: typ, Modifiers: mods, Key: k.Key, Code: k.Code,
		WindowsVirtualKeyCode: k.VK, NativeVirtualKeyCode: k.VK, Location: k.Location}
	if typ == input.DispatchKeyEventTypeKeyDown {
		if k.Text == "" {
			params.Type = input.DispatchKeyEventTypeRawKeyDown
		} else {
			params.Text, params.UnmodifiedText = k.Text, k.Text
		}
	}
	_, err := chromedp.Call(ctx, input.DispatchKeyEvent, params)
	return err
}

// PressKey presses a key or a combination ("Enter", "Control+A",
// "Shift+Tab") in the focused element, then waits for what it started.
func (p *Page) PressKey(ctx context.Context, key string) error {
	c, err := keyboard.ParseChord(key)
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
