package netguard

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
)

// fakePage is a page that knows a few frames and targets.
type fakePage struct {
	ctx     *Context
	frame   cdp.FrameID
	tabs    map[target.ID]bool // the session's tabs
	hosts   map[target.ID]bool // the page's CDP sessions: guarded or not
	parents map[cdp.FrameID]cdp.FrameID
}

func (p *fakePage) Context() *Context       { return p.ctx }
func (p *fakePage) IsTab(id target.ID) bool { return p.tabs[id] }
func (p *fakePage) Frame() cdp.FrameID      { return p.frame }
func (p *fakePage) URL() string             { return "" }
func (p *fakePage) LastMethodOf(string) string {
	return ""
}

func (p *fakePage) Host(id target.ID) (guarded, ok bool) {
	guarded, ok = p.hosts[id]
	return guarded, ok
}

func (p *fakePage) Parent(f cdp.FrameID) (cdp.FrameID, bool) {
	parent, ok := p.parents[f]
	return parent, ok
}

func (p *fakePage) ReadBlob(context.Context, cdp.FrameID, string, int64, any) error { return nil }

// TestFrameOwnership: a frame belongs to the session whose tab it is or
// whose tab knows it; a session of ours pauses its requests when the
// nearest target up its parents is one of our guarded sessions; a target
// not attached yet (a popup, an announced iframe) is left to the browser
// level, and a frame nobody knows to whoever will know it.
func TestFrameOwnership(t *testing.T) {
	a, b := &Context{}, &Context{}
	tabA := &fakePage{ctx: a, frame: "A", tabs: map[target.ID]bool{"A": true, "POPUP": true},
		hosts:   map[target.ID]bool{"A": true, "OOPIF": false},
		parents: map[cdp.FrameID]cdp.FrameID{"CHILD": "A", "GRANDCHILD": "CHILD", "IN-OOPIF": "OOPIF", "OOPIF": "A"}}
	tabB := &fakePage{ctx: b, frame: "B", tabs: map[target.ID]bool{"B": true}, hosts: map[target.ID]bool{"B": false},
		parents: map[cdp.FrameID]cdp.FrameID{"IN-ANNOUNCED": "ANNOUNCED"}}
	noSession := &fakePage{frame: "LONE", parents: map[cdp.FrameID]cdp.FrameID{"LONE-CHILD": "LONE"}}
	unlisted := &fakePage{ctx: b, frame: "UNLISTED"} // a tab its session does not list yet
	pages := []Page{noSession, tabA, tabB, unlisted}
	iframe := func(id target.ID) bool { return id == "ANNOUNCED" }

	for frame, want := range map[cdp.FrameID]*Context{"A": a, "POPUP": a, "GRANDCHILD": a, "B": b, "UNLISTED": b, "LONE": nil, "LONE-CHILD": nil, "NOBODY": nil} {
		got, ok := ownerOf(pages, frame)
		if got != want || ok != (want != nil) {
			t.Errorf("ownerOf(%s) = %p, %v; want %p", frame, got, ok, want)
		}
	}
	for frame, want := range map[cdp.FrameID]bool{
		"A": true, "GRANDCHILD": true, // the tab's guarded session, up the parents
		"OOPIF": false, "IN-OOPIF": false, "B": false, // sessions without Fetch on
		"POPUP":        false, // a popup not attached yet
		"IN-ANNOUNCED": false, // an iframe target announced, not attached
		"NOBODY":       true,
	} {
		if got := intercepted(pages, frame, iframe); got != want {
			t.Errorf("intercepted(%s) = %v, want %v", frame, got, want)
		}
	}
	for frame, want := range map[cdp.FrameID]Page{"A": tabA, "OOPIF": tabA, "CHILD": tabA, "IN-ANNOUNCED": tabB, "NOBODY": nil} {
		if got := frameOwner(pages, frame); got != want {
			t.Errorf("frameOwner(%s) = %v, want %v", frame, got, want)
		}
	}
	// A frame whose parents loop is walked no further than maxFrameDepth.
	loop := &fakePage{parents: map[cdp.FrameID]cdp.FrameID{"X": "Y", "Y": "X"}}
	if !intercepted([]Page{loop}, "X", iframe) {
		t.Error("a loop of parents was not left to whoever will know it")
	}
}
