//go:build !unit

package browser

import (
	"context"
	"slices"
	"testing"
	"time"
)

func init() {
	pages["/drift"] = `<!doctype html><title>Drift</title>
<main><h1>Shop</h1>
<form aria-label="Sign up"><label>Email <input placeholder="you@example.com"></label><button data-testid="go">Sign up</button>
<label>Password <input type="password"></label><label>PIN <input style="-webkit-text-security: disc"></label>
<label>Notes <textarea></textarea></label><input type="submit" value="Send"></form>
<section aria-labelledby="m"><h2 id="m">Milk</h2><button data-testid="add-milk">Add</button></section>
<section aria-labelledby="b"><h2 id="b">Bread</h2><button>Add</button></section>
<nav aria-label="Menu"><a href="/help">Help</a></nav>
<div hidden><button>Hidden</button></div>
</main>`
}

// TestDriftElements: the page's elements as a changed page's diagnosis
// reads them, with the engine's role and name, where each is, and a
// locator that finds it alone (the engine counts each); the target's own
// count; no hidden element. Fingerprint describes one target the same way.
func TestDriftElements(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/drift")
	els, matched, err := p.Elements(ctx, `role=button[name="Add"]`)
	if err != nil {
		t.Fatal(err)
	}
	if matched != 2 {
		t.Errorf("the target matches %d, want 2", matched)
	}
	by := map[string]Element{}
	for _, e := range els {
		if e.Name == "Hidden" {
			t.Errorf("a hidden element: %+v", e)
		}
		if _, err := p.Expect(ctx, e.Locator, "count", "1", time.Second); err != nil {
			t.Errorf("the locator of %s %q does not find it alone: %v", e.Role, e.Name, err)
		}
		by[e.Locator] = e
	}
	email := by[`role=textbox[name="Email"]`]
	if email.Label != "Email" || email.Placeholder != "you@example.com" || email.Tag != "input" ||
		!slices.Equal(email.Within, []string{"main", `form "Sign up"`, `heading "Shop"`}) {
		t.Errorf("the email field: %+v", email)
	}
	if milk := by[`testid="add-milk"`]; milk.Name != "Add" || !slices.Equal(milk.Within, []string{"main", `region "Milk"`, `heading "Milk"`}) {
		t.Errorf("Milk's Add: %+v (all: %+v)", milk, els)
	}
	if bread := by[`role=button[name="Add"] >> nth=1`]; !slices.Equal(bread.Within, []string{"main", `region "Bread"`, `heading "Bread"`}) {
		t.Errorf("Bread's Add: %+v (all: %+v)", bread, els)
	}
	// The kind of each field, and whether it hides what is typed.
	for loc, want := range map[string][2]any{`role=textbox[name="Email"]`: {"text", false}, `role=textbox[name="Password"]`: {"password", true},
		`role=textbox[name="PIN"]`: {"text", true}, `role=textbox[name="Notes"]`: {"textarea", false}, `role=button[name="Send"]`: {"", false},
		`role=button[name="Sign up"]`: {"", false}} {
		if e, ok := by[loc]; !ok || e.Type != want[0] || e.Secret != want[1] {
			t.Errorf("the kind of %s: %q, secret %v (%v); want %q, %v", loc, e.Type, e.Secret, ok, want[0], want[1])
		}
	}
	if help := by[`role=link[name="Help"]`]; help.Href != "/help" || !slices.Contains(help.Within, `navigation "Menu"`) {
		t.Errorf("the menu's link: %+v", help)
	}
	if _, n, err := p.Elements(ctx, `role=button[name="Nope"]`); err != nil || n != 0 {
		t.Errorf("a target that finds nothing: %d, %v", n, err)
	}
	fp := p.Fingerprint(ctx, `role=button[name="Sign up"]`)
	if fp == nil || fp.TestID != "go" || fp.Role != "button" || !slices.Equal(fp.Within, []string{"main", `form "Sign up"`, `heading "Shop"`}) {
		t.Errorf("the fingerprint of Sign up: %+v", fp)
	}
	if fp := p.Fingerprint(ctx, `label=Password`); fp == nil || fp.Type != "password" || !fp.Secret {
		t.Errorf("the fingerprint of the password field: %+v", fp)
	}
	if fp := p.Fingerprint(ctx, `role=button[name="Add"]`); fp != nil {
		t.Errorf("a fingerprint of a target of two elements: %+v", fp)
	}
}
