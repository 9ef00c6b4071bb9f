package netguard

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/netpolicy"
	"go.uber.org/zap"
)

// noOwners is an engine that knows no frame.
type noOwners struct{}

func (noOwners) Policy() *netpolicy.Policy    { return nil }
func (noOwners) ActionTimeout() time.Duration { return time.Second }
func (noOwners) Log() *zap.Logger             { return zap.NewNop() }
func (noOwners) Pages() []Page                { return nil }
func (noOwners) DevOrigins() []string         { return nil }

// TestBlockedBeforeTargetKnown: a block in a frame no browser context knows
// yet (a popup's first request, paused before its target is announced) is
// kept until the context that learns the target claims it; other contexts'
// blocks stay, and the kept ones are bounded.
func TestBlockedBeforeTargetKnown(t *testing.T) {
	g := NewBrowser(noOwners{}, t.Context())
	g.place("POPUP", BlockedRequest{URL: "http://blocked.test/popup", Rule: "blocked-origins http://blocked.test"})
	g.place("OTHER", BlockedRequest{URL: "http://blocked.test/other"})
	c := &Context{}
	c.Attach(g, nil)
	c.Claim("POPUP")
	got := c.TakeBlocked()
	if len(got) != 1 || got[0].URL != "http://blocked.test/popup" {
		t.Fatalf("claimed %+v, want the popup's block", got)
	}
	if again := c.TakeBlocked(); len(again) != 0 {
		t.Errorf("taken twice: %+v", again)
	}
	c.Claim("POPUP")
	if got := c.TakeBlocked(); len(got) != 0 {
		t.Errorf("a second claim found %+v", got)
	}
	for i := range 2 * maxUnplaced {
		g.place(cdp.FrameID(fmt.Sprint("F", i)), BlockedRequest{URL: "http://blocked.test/"})
	}
	if n := len(g.unplaced); n != maxUnplaced {
		t.Errorf("%d blocks kept, want at most %d", n, maxUnplaced)
	}
}

// TestBlockLogBound: a blocked request's URL is kept clipped (as
// browser's TestRecordsBoundedWhenStored holds the engine's stores).
func TestBlockLogBound(t *testing.T) {
	var b blockLog
	huge := string(make([]byte, 2*maxURLKept))
	b.add(BlockedRequest{URL: "http://blocked.test/" + huge})
	if u := b.take()[0].URL; len(u) > maxURLKept+len(text.ClipMark)+32 || !strings.Contains(u, text.ClipMark) {
		t.Errorf("a blocked request's URL kept at %d bytes (bound %d), clip mark %v", len(u), maxURLKept, strings.Contains(u, text.ClipMark))
	}
}
