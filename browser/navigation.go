package browser

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// GoBack goes one step back in the tab's history (delta -1) or forward
// (+1), and waits for the page to load as a click's navigation is waited for.
func (p *Page) GoBack(ctx context.Context, delta int) error {
	p.unstick()
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	h, err := chromedp.Call(cctx, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		return p.ctxError(cctx, err, "read the history")
	}
	i := int(h.CurrentIndex) + delta
	if i < 0 || i >= len(h.Entries) {
		dir := "back"
		if delta > 0 {
			dir = "forward"
		}
		return stepError(KindNavigationFailed, StepNavigate,
			"there is no page to go %s to in this tab's history (%d entries, at %d)", dir, len(h.Entries), h.CurrentIndex+1)
	}
	before := p.mark()
	err = p.act(cctx, func(cctx context.Context) error {
		_, err := chromedp.Call(cctx, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: h.Entries[i].ID})
		return err
	})
	if err != nil {
		return p.ctxError(cctx, err, "go through the history")
	}
	return p.settle(ctx, before)
}

// Reload reloads the page and waits for it to load.
func (p *Page) Reload(ctx context.Context) error {
	p.unstick()
	cctx, cancel := p.callCtx(ctx, p.m.opts.NavigationTimeout)
	defer cancel()
	before := p.mark()
	err := p.act(cctx, func(cctx context.Context) error {
		_, err := chromedp.Call(cctx, page.Reload, page.ReloadParams{})
		return err
	})
	if err != nil {
		return p.ctxError(cctx, err, "reload")
	}
	return p.settle(ctx, before)
}

// maxViewport bounds browser_resize: beyond it Chrome's surfaces fail.
const maxViewport = 10000

// Resize sets the size of the tab's viewport in CSS pixels, as a window of
// that size would have.
func (p *Page) Resize(ctx context.Context, width, height int) error {
	if width < 1 || height < 1 || width > maxViewport || height > maxViewport {
		return newError(KindInvalidInput, fmt.Sprintf("use 1 to %d pixels, e.g. 1280x720 or 390x844 for a phone", maxViewport),
			"size %dx%d is out of range", width, height)
	}
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	err := p.act(cctx, func(cctx context.Context) error {
		_, err := chromedp.Call(cctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: int64(width), Height: int64(height), DeviceScaleFactor: 1})
		return err
	})
	if err != nil {
		return p.ctxError(cctx, err, "resize")
	}
	// The page sees the new size, and runs its resize handlers, in its
	// next rendering step: wait for that, so the response shows the page
	// as it laid itself out.
	return p.evalEngine(cctx, fmt.Sprintf(`new Promise((done) => {
		const check = () => requestAnimationFrame(() => (innerWidth === %d && innerHeight === %d) ? requestAnimationFrame(() => done(true)) : check());
		check();
	})`, width, height), nil)
}
