package browser

import (
	"context"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
)

// SetMedia makes every tab of the session, and every tab it opens later,
// see m in its media queries (a popup from the moment it is attached).
func (t *Tabs) SetMedia(ctx context.Context, m devices.Media) error {
	if err := m.Check(); err != nil {
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
func (p *Page) applyMedia(ctx context.Context, m devices.Media) error {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	params := emulation.SetEmulatedMediaParams{Media: m.Type}
	for _, f := range m.Features() {
		params.Features = append(params.Features, &emulation.MediaFeature{Name: f.Name, Value: f.Value})
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
