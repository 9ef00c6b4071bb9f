//go:build !unit

package browser

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func init() {
	var rows strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&rows, `<tr><td>Order %d</td><td><button type="button">Ship %d</button></td></tr>`, i, i)
	}
	pages["/boxes"] = `<!doctype html><title>Boxes</title>
<style>.gone { width: 0; height: 0; padding: 0; border: 0; overflow: hidden; }</style>
<table>` + rows.String() + `</table>`
}

// TestChangesMeasureNoBoxNeedlessly: after a change, an element walked
// again only because something beside it changed (text in its row, focus)
// keeps its ref without measuring its box, which would force the layout of
// the whole changed table; an element restyled is measured again, and
// loses its ref when it has no size.
func TestChangesMeasureNoBoxNeedlessly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/boxes")
	base, err := p.Changes(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	refOf := func(yaml, name string) string {
		m := regexp.MustCompile(`button "` + name + `"[^\n]*\[ref=(e\d+)\]`).FindStringSubmatch(yaml)
		if m == nil {
			return ""
		}
		return m[1]
	}
	ship5, ship7 := refOf(base.YAML, "Ship 5"), refOf(base.YAML, "Ship 7")
	if ship5 == "" || ship7 == "" {
		t.Fatalf("no refs for the buttons:\n%s", base.YAML)
	}
	// Count what forces layout in the engine's world: box reads and the
	// scroll position.
	var ok bool
	if err := p.evalEngine(ctx, `(() => {
		globalThis.__boxReads = 0;
		const rect = Element.prototype.getBoundingClientRect;
		Element.prototype.getBoundingClientRect = function () { __boxReads++; return rect.call(this); };
		for (const k of ['scrollX', 'scrollY']) {
			const d = Object.getOwnPropertyDescriptor(window, k);
			Object.defineProperty(window, k, { configurable: true, get() { __boxReads++; return d.get.call(window); } });
		}
		return true;
	})()`, &ok); err != nil {
		t.Fatal(err)
	}
	reads := func() int {
		var n int
		if err := p.evalEngine(ctx, `__boxReads`, &n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if _, err := p.Evaluate(ctx, `() => { const row = document.querySelectorAll('tr')[4];
		row.cells[0].textContent = 'Order 5 shipped'; row.querySelector('button').focus(); }`, ""); err != nil {
		t.Fatal(err)
	}
	ch, err := p.Changes(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	wantLines(t, ch.YAML, "Order 5 shipped", `button "Ship 5" [active] [ref=`+ship5+`]`)
	if n := reads(); n != 0 {
		t.Errorf("the snapshot after a text change and a focus read %d boxes or scroll positions, want none:\n%s", n, ch.YAML)
	}
	if _, err := p.Evaluate(ctx, `() => { document.querySelectorAll('button')[6].className = 'gone'; }`, ""); err != nil {
		t.Fatal(err)
	}
	ch, err = p.Changes(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	if reads() == 0 {
		t.Errorf("a restyled button was not measured again")
	}
	wantLines(t, ch.YAML, `button "Ship 7"`)
	if strings.Contains(ch.YAML, ship7) {
		t.Errorf("a button with no size kept its ref %s:\n%s", ship7, ch.YAML)
	}
}
