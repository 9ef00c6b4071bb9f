package netguard

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
)

// Which session a frame is: the browser-level guard sends each request it
// pauses to the browser context its frame is in, and leaves to a tab's
// guard the frames one of our sessions intercepts; a remote browser's
// download goes to the tab that began it. Each is asked of the browser's
// attached pages ([Page]), as the engine lists them.

// Page is one attached page of the browser (a tab, a popup, a hidden tab:
// browser's Page) as the guards ask which frames it holds, and as a remote
// download asks the tab that began it.
type Page interface {
	// Context is the guard's state of the page's session; nil when the
	// page is no session's.
	Context() *Context
	// IsTab says whether a target is one of the page's session's tabs
	// (popups and hidden tabs included); false when the page is no
	// session's.
	IsTab(id target.ID) bool
	// Host says whether the page has a CDP session to a target (its tab's
	// own, or an out-of-process iframe's), and whether that session pauses
	// requests.
	Host(id target.ID) (guarded, ok bool)
	// Parent is the parent of a frame the page knows.
	Parent(frame cdp.FrameID) (cdp.FrameID, bool)
	// Frame is the page's main frame.
	Frame() cdp.FrameID
	// URL is the URL of the page's document.
	URL() string
	// LastMethodOf is the method of the page's latest request of u, ""
	// when it saw none.
	LastMethodOf(u string) string
	// ReadBlob reads a blob: URL in a frame of the page's (the engine's
	// readBlob, at most max bytes) into out.
	ReadBlob(ctx context.Context, frame cdp.FrameID, rawURL string, max int64, out any) error
}

// ownerOf finds the browser context a frame is in: a page target of it
// (a tab or a popup), or a frame one of its tabs knows. ok is false when
// none does.
func ownerOf(pages []Page, frame cdp.FrameID) (*Context, bool) {
	for _, p := range pages {
		c := p.Context()
		if c == nil {
			continue
		}
		if p.IsTab(target.ID(frame)) {
			return c, true
		}
		_, known := p.Parent(frame)
		if known || p.Frame() == frame {
			return c, true
		}
	}
	return nil, false
}

// isTarget reports whether a frame is a target of its own (a tab or popup,
// an out-of-process iframe), so that no session of a parent pauses its
// requests.
func isTarget(id target.ID, pages []Page, iframe func(target.ID) bool) bool {
	if iframe(id) {
		return true
	}
	for _, p := range pages {
		if p.IsTab(id) {
			return true
		}
	}
	return false
}

// maxFrameDepth bounds the walk up a frame's parents.
const maxFrameDepth = 32

// intercepted reports whether a session of ours pauses the frame's
// requests (the tab's, or an out-of-process iframe's, with Fetch on):
// then that session answers them. The frame's own target counts, else its
// parents' up to the first target. A frame nobody knows is left to
// whoever will.
func intercepted(pages []Page, frame cdp.FrameID, iframe func(target.ID) bool) bool {
	f := frame
	for range maxFrameDepth {
		id := target.ID(f)
		for _, p := range pages {
			if guarded, ok := p.Host(id); ok {
				return guarded
			}
		}
		if isTarget(id, pages, iframe) {
			return false // a popup or an iframe not attached yet
		}
		parent, ok := parentOf(pages, f)
		if !ok {
			return true
		}
		f = parent
	}
	return true
}

// parentOf finds the parent of a frame some page knows.
func parentOf(pages []Page, f cdp.FrameID) (cdp.FrameID, bool) {
	for _, p := range pages {
		if parent, ok := p.Parent(f); ok {
			return parent, true
		}
	}
	return "", false
}

// frameOwner finds the page of pages that holds the frame: the frame's
// own target (a tab or an out-of-process iframe), or a tab that knows it.
// A frame none knows is nil.
func frameOwner(pages []Page, f cdp.FrameID) Page {
	for _, p := range pages {
		if _, ok := p.Host(target.ID(f)); ok {
			return p
		}
	}
	for _, p := range pages {
		if _, known := p.Parent(f); known {
			return p
		}
	}
	return nil
}
