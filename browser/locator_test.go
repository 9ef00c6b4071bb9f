//go:build !unit

package browser

import (
	"context"
	"testing"
)

func init() {
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
	locs, fp := p.StepTargets(ctx, []string{gone, save, "text=Only here"}, save)
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

// refsByName is the refs of a snapshot of p by their role and name.
func refsByName(t *testing.T, p *Page) map[string][]string {
	t.Helper()
	byName := map[string][]string{}
	for ref, info := range snapshot(t, p, SnapshotOptions{}).Refs {
		byName[info.Role+" "+info.Name] = append(byName[info.Role+" "+info.Name], ref)
	}
	return byName
}
