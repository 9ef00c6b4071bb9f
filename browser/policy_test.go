//go:build !unit

package browser

import (
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
)

// TestBlockedBeforeTargetKnown: a block in a frame no browser context knows
// yet (a popup's first request, paused before its target is announced) is
// kept until the context that learns the target claims it; other contexts'
// blocks stay, and the kept ones are bounded.
func TestBlockedBeforeTargetKnown(t *testing.T) {
	m := NewManager(Options{})
	g := &browserGuard{m: m}
	g.place("POPUP", BlockedRequest{URL: "http://blocked.test/popup", Rule: "blocked-origins http://blocked.test"})
	g.place("OTHER", BlockedRequest{URL: "http://blocked.test/other"})
	tabs := &Tabs{}
	g.claim(tabs, "POPUP")
	got := tabs.guard.blocked.take()
	if len(got) != 1 || got[0].URL != "http://blocked.test/popup" {
		t.Fatalf("claimed %+v, want the popup's block", got)
	}
	if again := tabs.guard.blocked.take(); len(again) != 0 {
		t.Errorf("taken twice: %+v", again)
	}
	g.claim(tabs, "POPUP")
	if got := tabs.guard.blocked.take(); len(got) != 0 {
		t.Errorf("a second claim found %+v", got)
	}
	for i := range 2 * maxUnplaced {
		g.place(cdp.FrameID(fmt.Sprint("F", i)), BlockedRequest{URL: "http://blocked.test/"})
	}
	if n := len(g.unplaced); n != maxUnplaced {
		t.Errorf("%d blocks kept, want at most %d", n, maxUnplaced)
	}
}
