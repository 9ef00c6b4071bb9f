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
	s := snapshot(t, p, SnapshotOptions{})
	byName := map[string][]string{}
	for ref, info := range s.Refs {
		byName[info.Role+" "+info.Name] = append(byName[info.Role+" "+info.Name], ref)
	}
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
