package measure

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"math"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// A visual check (browser_expect check screenshot) compares the page with
// a baseline image. The page side is here: screenshots taken with the
// page held still (holdStill in browser/js/60_capture.js), and the boxes
// of the masked elements in the screenshot's pixels. The comparison is
// pure Go (internal/imagediff) and runs in the caller's loop.

// VisualOptions say what a visual check captures.
type VisualOptions struct {
	Target string   // an element (ref or selector); empty: the viewport
	Masks  []string // refs or selectors whose elements are painted over
	// MaxPixels refuses, before it is taken, a screenshot of more device
	// pixels than this (0: no bound): its caller decodes and compares it.
	MaxPixels int
}

// VisualShot is one screenshot of a visual check.
type VisualShot struct {
	PNG []byte
	// Masks are the boxes of the masked elements, in the image's pixels.
	Masks []image.Rectangle
}

// CaptureStill takes screenshots for a visual check, with animations
// stopped and the caret hidden, and gives each to next until next says it
// is done (or fails) or the timeout (0: the action timeout) has passed with
// two taken. The page is given its animations back afterwards.
func CaptureStill(ctx context.Context, t Tab, o VisualOptions, timeout time.Duration, next func(VisualShot) (bool, error)) error {
	timeout, err := t.Timeout(timeout)
	if err != nil {
		return err
	}
	if err := checkMasks(t, o.Masks); err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	cctx, cancel := t.CallContext(ctx, timeout)
	defer cancel()
	if err := t.HoldStill(cctx, true); err != nil {
		return err
	}
	defer func() {
		rctx, cancel := t.RestoreContext(ctx)
		defer cancel()
		_ = t.HoldStill(rctx, false)
	}()
	for n := 0; ; n++ {
		shot, err := visualShot(cctx, t, o)
		if err != nil {
			return err
		}
		done, err := next(shot)
		if err != nil || done || (n >= 1 && !time.Now().Before(deadline)) {
			return err
		}
	}
}

// checkMasks refuses masks that are neither refs nor selectors, or refs of
// elements inside iframes, before anything is captured.
func checkMasks(t Tab, masks []string) error {
	for _, m := range masks {
		in, err := t.InFrame(m)
		if err != nil {
			return err
		}
		if in {
			return refusal.Invalid("mask the iframe element itself", "mask %s is inside an iframe", m)
		}
	}
	return nil
}

// visualShot is one screenshot of the viewport or an element, with the
// boxes of the masks where they are now.
func visualShot(ctx context.Context, t Tab, o VisualOptions) (VisualShot, error) {
	var shot VisualShot
	var view struct {
		ScrollX, ScrollY, Width, Height, DPR float64
	}
	if err := t.View(ctx, &view); err != nil {
		return shot, err
	}
	origin, width := struct{ X, Y float64 }{view.ScrollX, view.ScrollY}, view.Width
	params := page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, FromSurface: new(true)}
	if o.Target != "" {
		clip, err := t.Clip(ctx, o.Target)
		if err != nil {
			return shot, err
		}
		params.Clip, params.CaptureBeyondViewport = clip, new(true)
		origin.X, origin.Y, width = clip.X, clip.Y, clip.Width
	}
	if err := checkPixels(o, params.Clip, view.Width, view.Height, view.DPR); err != nil {
		return shot, err
	}
	var rects []struct{ X, Y, Width, Height float64 }
	for _, m := range o.Masks {
		var res struct {
			Boxes []struct{ X, Y, Width, Height float64 }
		}
		if err := t.Boxes(ctx, m, &res); err != nil {
			return shot, err
		}
		rects = append(rects, res.Boxes...)
	}
	res, err := chromedp.Call(ctx, page.CaptureScreenshot, params)
	if err != nil {
		return shot, t.CallError(ctx, err, "screenshot")
	}
	shot.PNG = res.Data
	cfg, err := png.DecodeConfig(bytes.NewReader(res.Data))
	if err != nil {
		return shot, err
	}
	scale := 1.0
	if width > 0 {
		scale = float64(cfg.Width) / width
	}
	for _, r := range rects {
		shot.Masks = append(shot.Masks, image.Rect(
			int(math.Floor((r.X-origin.X)*scale)), int(math.Floor((r.Y-origin.Y)*scale)),
			int(math.Ceil((r.X+r.Width-origin.X)*scale)), int(math.Ceil((r.Y+r.Height-origin.Y)*scale))))
	}
	return shot, nil
}

// checkPixels refuses a screenshot (of clip, else of the w by h viewport)
// of more device pixels than o.MaxPixels.
func checkPixels(o VisualOptions, clip *page.Viewport, w, h, dpr float64) error {
	what, hint := "the viewport", "make the viewport smaller, or check one element of the page (target)"
	if clip != nil {
		what, w, h, hint = o.Target, clip.Width, clip.Height, "check a smaller part of it (target), or the viewport"
	}
	if dpr <= 0 {
		dpr = 1
	}
	pw, ph := math.Ceil(w*dpr), math.Ceil(h*dpr)
	if o.MaxPixels <= 0 || pw*ph <= float64(o.MaxPixels) {
		return nil
	}
	return refusal.Invalid(hint, "a screenshot of %s would be %.0fx%.0f pixels (%.0f megapixels), more than a visual check compares (%.0f megapixels)",
		what, pw, ph, pw*ph/1e6, float64(o.MaxPixels)/1e6)
}
