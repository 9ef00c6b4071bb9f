//go:build !unit

package browser

import (
	"context"
	"strings"
	"testing"
)

func init() {
	pages["/owns"] = `<!doctype html><title>Owns</title>
<div role="listbox" aria-label="Fruit" id="box"><div role="option">Apple</div></div>
<div id="elsewhere"><div role="option" id="pear">Pear</div></div>
<div role="button" tabindex="0" aria-owns="suffix">Add </div><p><span id="suffix">to cart</span></p>`
	pages["/owns-later"] = `<!doctype html><title>Owns later</title><h1>Lists</h1>
<div role="list" aria-label="Later" id="later"></div>
<div><div role="listitem" id="item">Moved item</div></div>`
}

// TestSnapshotRulesAsPlaywright: the snapshot rules issue 17 found wrong,
// each against what Playwright shows on testdata/oracle/pages/snapshots.html
// (aria/oracle-snapshots.yaml).
func TestSnapshotRulesAsPlaywright(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/oracle/snapshots")
	y := snapshot(t, p, SnapshotOptions{Full: true}).YAML
	wantLines(t, y,
		// An unnamed <svg> keeps the controls drawn in it.
		"- img:\n  - button \"Zoom in\" [ref=", "  - button \"Zoom out\" [ref=",
		// aria-owns nests the owned option under its owner.
		"- listbox \"Owned options\" [ref=", "  - option \"Near option\" [ref=", "  - option \"Away option\" [ref=",
		// Roles that take no name: no name from title or aria-label.
		"- text: Plain div with a title", "- paragraph: A paragraph with an aria-label",
		// Visible ::after content is text; hidden ::before content is not in names.
		"- text: Name *", "- textbox \"Name *\" [ref=", "- button \"Visible text\" [ref=", "- button \"Ghost text\" [ref=",
		"- button \"★ Starred\" [ref=",
		// A <figure> is named by its <figcaption>.
		"- figure \"Sales by quarter\":",
	)
	for _, bad := range []string{`generic "my title"`, `paragraph "x"`, "HIDDEN", "GHOST", "\n- option \"Away option\""} {
		if strings.Contains(y, bad) {
			t.Errorf("snapshot has %q:\n%s", bad, y)
		}
	}
}

// TestSnapshotAriaOwns: owned elements move under their owner, in names
// too, and an aria-owns set later moves them in the next snapshot.
func TestSnapshotAriaOwns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/owns")
	if _, err := p.Evaluate(ctx, `() => document.getElementById('box').setAttribute('aria-owns', 'pear')`, ""); err != nil {
		t.Fatal(err)
	}
	y := snapshot(t, p, SnapshotOptions{}).YAML
	wantLines(t, y, "- listbox \"Fruit\"", "  - option \"Apple\"", "  - option \"Pear\"", "- button \"Add to cart\" [ref=")

	// A page with no aria-owns, whose walks reuse what did not change, until
	// a script sets one.
	p = openPage(t, "/owns-later")
	if _, err := p.Changes(ctx, false); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Evaluate(ctx, `() => document.getElementById('later').setAttribute('aria-owns', 'item')`, ""); err != nil {
		t.Fatal(err)
	}
	ch, err := p.Changes(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	y = snapshot(t, p, SnapshotOptions{}).YAML
	wantLines(t, y, "- list \"Later\":\n  - listitem: Moved item")
	if !strings.Contains(ch.YAML, "Moved item") {
		t.Errorf("the changes after aria-owns was set do not show the moved item:\n%s", ch.YAML)
	}
}
