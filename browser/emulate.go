package browser

import (
	"context"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
)

// Media is what the CSS media queries of a session's pages see; an empty
// field is the browser's own value.
type Media struct {
	Type          string `json:"media,omitempty"`         // screen or print
	ColorScheme   string `json:"colorScheme,omitempty"`   // light, dark or no-preference
	ReducedMotion string `json:"reducedMotion,omitempty"` // reduce or no-preference
	ForcedColors  string `json:"forcedColors,omitempty"`  // active or none
	Contrast      string `json:"contrast,omitempty"`      // more, less or no-preference
}

// mediaValues are the values each field takes, as Playwright's emulateMedia
// names them.
var mediaValues = []struct {
	field, feature string
	values         []string
	get            func(Media) string
}{
	{"media", "", []string{"screen", "print"}, func(m Media) string { return m.Type }},
	{"colorScheme", "prefers-color-scheme", []string{"light", "dark", "no-preference"}, func(m Media) string { return m.ColorScheme }},
	{"reducedMotion", "prefers-reduced-motion", []string{"reduce", "no-preference"}, func(m Media) string { return m.ReducedMotion }},
	{"forcedColors", "forced-colors", []string{"active", "none"}, func(m Media) string { return m.ForcedColors }},
	{"contrast", "prefers-contrast", []string{"more", "less", "no-preference"}, func(m Media) string { return m.Contrast }},
}

func (m Media) check() error {
	for _, f := range mediaValues {
		v := f.get(m)
		if v == "" {
			continue
		}
		ok := false
		for _, w := range f.values {
			ok = ok || v == w
		}
		if !ok {
			return newError(KindInvalidInput, "use one of "+text.JoinOr(f.values), "%s %q", f.field, v)
		}
	}
	return nil
}

// SetMedia makes every tab of the session, and every tab it opens later,
// see m in its media queries (a popup from the moment it is attached).
func (t *Tabs) SetMedia(ctx context.Context, m Media) error {
	if err := m.check(); err != nil {
		return err
	}
	t.changeSetup(func(s *pageSetup) { s.media = m })
	for _, p := range t.livePages() {
		if err := p.applyMedia(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

// applyMedia sets the page's emulated media, then voids the snapshot's
// memo (no mutation tells it the page restyled) and waits for the frame
// that runs the page's own media listeners.
func (p *Page) applyMedia(ctx context.Context, m Media) error {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	params := emulation.SetEmulatedMediaParams{Media: m.Type}
	for _, f := range mediaValues {
		if f.feature != "" {
			params.Features = append(params.Features, &emulation.MediaFeature{Name: f.feature, Value: f.get(m)})
		}
	}
	err := p.unlessDialog(cctx, func(cctx context.Context) error {
		_, err := chromedp.Call(cctx, emulation.SetEmulatedMedia, params)
		return err
	}, false)
	if err != nil {
		return p.ctxError(cctx, err, "emulate media")
	}
	if p.Dialog() != nil {
		return nil
	}
	return p.evalEngine(cctx, fnRestyleAll.call(), nil)
}
