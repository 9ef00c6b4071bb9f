package measure

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// ScreenshotOptions select what a screenshot shows.
type ScreenshotOptions struct {
	Target   string // an element (ref or selector); empty means the viewport
	FullPage bool   // the whole scrollable page
	Format   string // png (default), jpeg or webp
	// Quality is the JPEG quality (0: 80).
	Quality int
	// CSSPixels sizes the image in CSS pixels: on a screen of a device
	// pixel ratio above 1 (a phone's emulation), an image of the device's
	// pixels is scaled down to one pixel a CSS pixel, the unit the mouse
	// tools' coordinates and the snapshot's boxes are in.
	CSSPixels bool
	// MaxWidth scales a viewport capture down to at most this many pixels
	// wide (0: as the viewport is); the session's report keeps such small
	// shots.
	MaxWidth int
}

// Screenshot captures the viewport, the full page or one element.
func Screenshot(ctx context.Context, t Tab, o ScreenshotOptions) ([]byte, error) {
	params := page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, FromSurface: new(true)}
	switch o.Format {
	case "", "png":
	case "jpeg", "jpg":
		q := int64(80)
		if o.Quality > 0 && o.Quality <= 100 {
			q = int64(o.Quality)
		}
		params.Format, params.Quality = page.CaptureScreenshotFormatJpeg, new(q)
	case "webp":
		params.Format = page.CaptureScreenshotFormatWebp
	default:
		return nil, refusal.Invalid("use png, jpeg or webp", "screenshot type %q", o.Format)
	}
	cctx, cancel := t.CallContext(ctx, 0)
	defer cancel()
	// scale is what a clip's scale is multiplied by: 1 keeps the device's
	// pixels, 1/ratio gives CSS pixels.
	scale := 1.0
	if o.CSSPixels {
		dpr, err := t.DevicePixelRatio(cctx)
		if err != nil {
			return nil, err
		}
		if dpr > 0 && dpr != 1 {
			scale = 1 / dpr
		}
	}
	switch {
	case o.Target != "":
		clip, err := t.Clip(cctx, o.Target)
		if err != nil {
			return nil, err
		}
		clip.Scale = scale
		params.Clip, params.CaptureBeyondViewport = clip, new(true)
	case o.FullPage:
		lm, err := chromedp.Call(cctx, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, t.CallError(cctx, err, "screenshot")
		}
		if cs := lm.CSSContentSize; cs != nil {
			params.Clip = &page.Viewport{Width: cs.Width, Height: cs.Height, Scale: scale}
			params.CaptureBeyondViewport = new(true)
		}
	case o.MaxWidth > 0 || scale != 1:
		lm, err := chromedp.Call(cctx, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, t.CallError(cctx, err, "screenshot")
		}
		if vv := lm.CSSVisualViewport; vv != nil && (scale != 1 || vv.ClientWidth > float64(o.MaxWidth)) {
			s := scale
			if o.MaxWidth > 0 && vv.ClientWidth > float64(o.MaxWidth) {
				s *= float64(o.MaxWidth) / vv.ClientWidth
			}
			params.Clip = &page.Viewport{X: vv.PageX, Y: vv.PageY, Width: vv.ClientWidth, Height: vv.ClientHeight, Scale: s}
		}
	}
	res, err := chromedp.Call(cctx, page.CaptureScreenshot, params)
	if err != nil {
		return nil, t.CallError(cctx, err, "screenshot")
	}
	return res.Data, nil
}
