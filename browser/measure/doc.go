// Package measure holds what a page is measured and pictured by: its web
// vitals (the watcher run in every document, and the reading of them), the
// accessibility audit's report, and screenshots (plain, held still for a
// visual check with the boxes of the masked elements, and labelled with the
// elements' refs, drawn here). The page engine takes the measures in the
// page and finds the elements; this package shapes what it answers, runs the
// captures and draws. It sees a tab through one interface, [Tab], adapted
// in browser/measure.go, and refuses a value it is given with a
// [*refusal.Error], which browser reads as the agent's invalid_input error
// (browser.AsError).
//
// It may import chromedp, cdproto, browser/refusal and the standard
// library; never browser (nor the tools or the transports).
package measure

import (
	"context"
	"time"

	"github.com/chromedp/cdproto/page"
)

// Tab is a page as the measures need it: contexts for its commands, what a
// failed one means, and the page engine's calls they make. Page gives it
// (browser/measure.go).
type Tab interface {
	// CallContext is a context for one call's commands on the tab
	// (chromedp commands run on it go to the tab's session), bounded by
	// the action timeout and extra, and ending with ctx.
	CallContext(ctx context.Context, extra time.Duration) (context.Context, context.CancelFunc)
	// RestoreContext is a context for putting back what a call changed:
	// ctx's values without its cancellation, bounded as a restore is.
	RestoreContext(ctx context.Context) (context.Context, context.CancelFunc)
	// CallError says what a failed command made on a CallContext means
	// (the tab gone, a timeout, ...); what names what was done.
	CallError(ctx context.Context, err error, what string) error
	// Timeout checks a timeout an agent gave; 0 is the action timeout.
	Timeout(d time.Duration) (time.Duration, error)

	// Vitals decodes into out the engine's reading of the web vitals of
	// the main frame's document (elements named with refs).
	Vitals(ctx context.Context, out any) error
	// Audit decodes into out the engine's audit of the page, or of the
	// element target names (found across frames), with at most limit
	// elements of each rule (named with refs).
	Audit(ctx context.Context, target string, limit int, out any) error
	// HoldStill stops the page's animations and hides the caret (on), or
	// gives them back.
	HoldStill(ctx context.Context, on bool) error
	// View decodes into out the viewport's scroll position, size and
	// device pixel ratio (ScrollX, ScrollY, Width, Height, DPR).
	View(ctx context.Context, out any) error
	// DevicePixelRatio is the page's window.devicePixelRatio.
	DevicePixelRatio(ctx context.Context) (float64, error)
	// Clip is the box of the element target names in document CSS pixels
	// (scrolled into view first when off screen), as a screenshot's clip.
	Clip(ctx context.Context, target string) (*page.Viewport, error)
	// InFrame reports whether target, a ref or a selector, starts in an
	// iframe's document rather than the main frame's.
	InFrame(target string) (bool, error)
	// Boxes decodes into out the boxes of the elements target, a ref or a
	// selector, names ({boxes: [{x, y, width, height}]}, in document CSS
	// pixels).
	Boxes(ctx context.Context, target string, out any) error
	// Refs are the refs of the page's interactive elements (an iframe's
	// start with f), with their roles and names, from a new snapshot.
	Refs(ctx context.Context) (map[string]Named, error)
	// RefBoxes decodes into out the boxes of the refs' elements on screen
	// and the viewport's size ({boxes, width, height}).
	RefBoxes(ctx context.Context, refs []string, out any) error
}

// Named is an element's role and accessible name.
type Named struct {
	Role, Name string
}
