package browser

import (
	"context"
	"encoding/base64"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
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
func (p *Page) Screenshot(ctx context.Context, o ScreenshotOptions) ([]byte, error) {
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
		return nil, newError(KindInvalidInput, "use png, jpeg or webp", "screenshot type %q", o.Format)
	}
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	// scale is what a clip's scale is multiplied by: 1 keeps the device's
	// pixels, 1/ratio gives CSS pixels.
	scale := 1.0
	if o.CSSPixels {
		var dpr float64
		if err := p.evalEngine(cctx, "devicePixelRatio", &dpr); err != nil {
			return nil, err
		}
		if dpr > 0 && dpr != 1 {
			scale = 1 / dpr
		}
	}
	switch {
	case o.Target != "":
		clip, err := p.elementClip(cctx, o.Target)
		if err != nil {
			return nil, err
		}
		clip.Scale = scale
		params.Clip, params.CaptureBeyondViewport = clip, new(true)
	case o.FullPage:
		lm, err := chromedp.Call(cctx, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, p.ctxError(cctx, err, "screenshot")
		}
		if cs := lm.CSSContentSize; cs != nil {
			params.Clip = &page.Viewport{Width: cs.Width, Height: cs.Height, Scale: scale}
			params.CaptureBeyondViewport = new(true)
		}
	case o.MaxWidth > 0 || scale != 1:
		lm, err := chromedp.Call(cctx, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, p.ctxError(cctx, err, "screenshot")
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
		return nil, p.ctxError(cctx, err, "screenshot")
	}
	return res.Data, nil
}

// elementClip is the box of an element in document CSS pixels (scrolled
// into view first when off screen), as a screenshot's clip.
func (p *Page) elementClip(ctx context.Context, target string) (*page.Viewport, error) {
	var box struct{ X, Y, Width, Height, ScrollX, ScrollY float64 }
	loc, err := p.resolveIn(ctx, target, func(loc located) error {
		return p.evalIn(ctx, loc.frame, fnViewRect.call(jsExpr(loc.expr)), &box)
	})
	if err != nil {
		return nil, err
	}
	if box.Width <= 0 || box.Height <= 0 {
		return nil, newError(KindNotActionable, "the element has no size: pick a visible element", "%s is not visible", target)
	}
	if loc.frame != p.frame {
		if box.X, box.Y, err = p.toViewport(ctx, loc.frame, box.X, box.Y); err != nil {
			return nil, err
		}
		var main struct{ ScrollX, ScrollY float64 }
		if err := p.evalEngine(ctx, "({scrollX: window.scrollX, scrollY: window.scrollY})", &main); err != nil {
			return nil, err
		}
		box.ScrollX, box.ScrollY = main.ScrollX, main.ScrollY
	}
	return &page.Viewport{X: box.X + box.ScrollX, Y: box.Y + box.ScrollY, Width: box.Width, Height: box.Height, Scale: 1}, nil
}

// EncodeBase64 is a helper for callers that send images as MCP content.
func EncodeBase64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// PaintMark is a token that stays the same while nothing that paints the
// page changes (js/60_paint.js), or "" when that cannot be told: equal
// marks mean a picture taken at the first still shows the page at the
// second. The first call on a document starts watching it and returns "".
func (p *Page) PaintMark(ctx context.Context) string {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	var mark string
	if err := p.evalEngine(cctx, fnPaintMark.call(), &mark); err != nil {
		return ""
	}
	return mark
}
