//go:build !unit

package browser

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

func init() {
	pages["/frame-locators"] = `<!doctype html><title>Frame locators</title><h1>Frames</h1>
<iframe title="Newsletter" src="/fl-form" width="300" height="60"></iframe>
<iframe name="outer" src="/fl-outer" width="320" height="120"></iframe>
<iframe id="cross" width="300" height="60"></iframe>
<iframe srcdoc="<button onclick='this.textContent=&quot;Doc clicked&quot;'>Doc button</button>" width="300" height="60"></iframe>
<script>document.getElementById('cross').src = location.protocol + '//localhost:' + location.port + '/fl-cross?session=' + Date.now();</script>`
	pages["/fl-form"] = `<!doctype html><button onclick="this.textContent='Subscribed'">Subscribe</button>`
	pages["/fl-outer"] = `<!doctype html><iframe title="Inner" src="/fl-leaf" width="300" height="60"></iframe>`
	pages["/fl-leaf"] = `<!doctype html><button onclick="this.textContent='Leaf clicked'">Leaf save</button><button>Leaf save</button>`
	pages["/fl-cross"] = `<!doctype html><button onclick="this.textContent='Cross clicked'">Cross save</button>`
	pages["/locators"] = `<!doctype html><title>Locators</title>
<button>Save</button>
<button>Delete</button><button>Delete</button>
<label for="e">Email address</label><input id="e" aria-label="Field">
<input aria-label="Field">
<span onclick="1" style="cursor:pointer">Only here</span>`
}

// TestStableLocator: the most robust selector that finds the element and
// nothing else: role and name, else label, else text; none for twins.
func TestStableLocator(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/locators")
	byName := refsByName(t, p)
	if got := p.StableLocator(ctx, byName["button Save"][0]); got != `role=button[name="Save"]` {
		t.Errorf("Save: %q", got)
	}
	if got := p.StableLocator(ctx, byName["button Delete"][0]); got != "" {
		t.Errorf("one of two Delete buttons: %q, want none unique", got)
	}
	fields := byName["textbox Field"]
	if len(fields) != 2 {
		t.Fatalf("want two textboxes named Field: %v", byName)
	}
	// label= reads the first label source that exists, as Playwright does:
	// the field's aria-label "Field" before its <label>, so it has no
	// locator its twin does not share.
	for _, r := range fields {
		if got := p.StableLocator(ctx, r); got != "" {
			t.Errorf("a field named Field: %q, want none unique", got)
		}
	}
	if got := p.StableLocator(ctx, "text=Only here"); got != "" {
		t.Errorf("a selector target: %q, want none (only refs are located)", got)
	}
}

// TestStepTargets: one engine call gives each ref's stable locator and the
// target's fingerprint, as StableLocator and Fingerprint give them, and an
// element gone from the page spoils nothing else.
func TestStepTargets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/locators")
	byName := refsByName(t, p)
	save := byName["button Save"][0]
	if _, err := p.Evaluate(ctx, "() => document.querySelectorAll('button')[1].remove()", ""); err != nil {
		t.Fatal(err)
	}
	gone := ""
	for _, r := range byName["button Delete"] {
		if p.StableLocator(ctx, r) == "" && p.Fingerprint(ctx, r) == nil {
			gone = r
		}
	}
	if gone == "" {
		t.Fatalf("no Delete button's ref reads as gone: %v", byName["button Delete"])
	}
	ans := p.StepTargets(ctx, StepQuery{Refs: []string{gone, save, "text=Only here"}, Target: save,
		Shown: []string{"role=button[name=\"Save\"]", "role=textbox[name=\"Field\"]", "text=Only here", "role=button[name=\"x"}})
	locs, fp := ans.Locators, ans.Element
	// One Save, two fields named Field, one text, a selector that does
	// not parse.
	if want := []bool{true, false, true, false}; !slices.Equal(ans.Shown, want) {
		t.Errorf("shown %v, want %v", ans.Shown, want)
	}
	if want := p.StableLocator(ctx, save); want != `role=button[name="Save"]` || locs[save] != want {
		t.Errorf("Save: %q, StableLocator %q", locs[save], want)
	}
	if l, ok := locs[gone]; ok || len(locs) != 1 {
		t.Errorf("locators %v: the removed button has %q (%v), want only Save's", locs, l, ok)
	}
	want := p.Fingerprint(ctx, save)
	if fp == nil || want == nil || fp.Role != "button" || fp.Name != "Save" || fp.Role != want.Role || fp.Name != want.Name || fp.Tag != want.Tag {
		t.Errorf("fingerprint %+v, Fingerprint %+v", fp, want)
	}
}

// TestFrameLocators: the stable locator of an element of an iframe starts
// with its frame's own (title, name, the path of its src, else its place),
// nested frames each in turn, cross-site ones too; each finds and acts on
// its element from the page. An element its frame has twins of is named
// by role and name.
func TestFrameLocators(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/frame-locators")
	var s *Snapshot
	for deadline := time.Now().Add(10 * time.Second); ; {
		s = snapshot(t, p, SnapshotOptions{})
		if strings.Contains(s.YAML, "Cross save") && strings.Contains(s.YAML, "Leaf save") || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.mu.Lock()
	oopifs := len(p.frames.hosts)
	p.mu.Unlock()
	if oopifs != 1 {
		t.Fatalf("want the cross-site iframe out of process, have %d iframe targets", oopifs)
	}
	leaf := refIn(t, s.YAML, "button", "Leaf save")
	// The iframes themselves, as the frame part of a locator names them.
	frames := map[string]string{}
	for ref, info := range s.Refs {
		if info.Role == "iframe" {
			frames[p.StableLocator(ctx, ref)] = ref
		}
	}
	for _, want := range []string{`iframe[title="Newsletter"]`, `iframe[name="outer"]`, `iframe[src*="/fl-cross"]`, `iframe >> nth=3`, `iframe[name="outer"] >> iframe[title="Inner"]`} {
		if _, ok := frames[want]; !ok {
			t.Errorf("no iframe's locator is %s: %v", want, frames)
		}
	}
	for _, c := range []struct{ ref, want, clicked string }{
		{refIn(t, s.YAML, "button", "Subscribe"), `iframe[title="Newsletter"] >> role=button[name="Subscribe"]`, "Subscribed"},
		{leaf, `iframe[name="outer"] >> iframe[title="Inner"] >> role=button[name="Leaf save"]`, ""},
		{refIn(t, s.YAML, "button", "Cross save"), `iframe[src*="/fl-cross"] >> role=button[name="Cross save"]`, "Cross clicked"},
		{refIn(t, s.YAML, "button", "Doc button"), `iframe >> nth=3 >> role=button[name="Doc button"]`, "Doc clicked"},
	} {
		got := p.StableLocator(ctx, c.ref)
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.ref, got, c.want)
			continue
		}
		if c.clicked == "" {
			continue
		}
		if err := p.Click(ctx, got, ClickOptions{}); err != nil {
			t.Errorf("click %s: %v", got, err)
			continue
		}
		if out, err := p.Evaluate(ctx, "(el) => el.textContent", c.ref); err != nil || string(out) != `"`+c.clicked+`"` {
			t.Errorf("after clicking %s: %s %v, want %q", got, out, err, c.clicked)
		}
	}
	// The twin Leaf save buttons: role and name, which a replay finds
	// twice and says so.
	if err := p.Click(ctx, p.StableLocator(ctx, leaf), ClickOptions{}); err == nil || !strings.Contains(err.Error(), "2 elements") {
		t.Errorf("a click on the twins' locator: %v, want it refused as matching 2 elements", err)
	}
}

// refsByName is the refs of a snapshot of p by their role and name.
func refsByName(t *testing.T, p *Page) map[string][]string {
	t.Helper()
	byName := map[string][]string{}
	for ref, info := range snapshot(t, p, SnapshotOptions{}).Refs {
		byName[info.Role+" "+info.Name] = append(byName[info.Role+" "+info.Name], ref)
	}
	return byName
}
