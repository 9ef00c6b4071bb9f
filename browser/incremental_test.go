//go:build !unit

package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The incremental walk reads again only what changed; under an element of
// many children it keeps each child's part and reads only the changed
// children (reuseKids). The page below gives it such parents of every
// shape: list items, table rows, an element whose children are text nodes,
// inline and block elements mixed, a nested long list, a select.
func init() {
	var b strings.Builder
	b.WriteString(`<!doctype html><title>Many children</title><style>.gone{display:none}</style><main>
<ul id="list">`)
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "<li>Item %d <button>Act %d</button></li>\n", i, i)
	}
	b.WriteString(`<li>Nested<ul id="inner">`)
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "<li>Inner %d</li>", i)
	}
	b.WriteString(`</ul></li></ul><table><tbody id="rows">`)
	for i := 1; i <= 25; i++ {
		fmt.Fprintf(&b, "<tr><td>Row %d</td><td><input aria-label=\"Qty %d\" value=\"%d\"></td></tr>\n", i, i, i)
	}
	b.WriteString(`</tbody></table><div id="mixed">`)
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "text %d <span>span %d</span><div>block %d</div>", i, i, i)
	}
	b.WriteString(`</div><select aria-label="Pick">`)
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "<option>Option %d</option>", i)
	}
	b.WriteString(`</select><div id="host"></div></main><script>
document.getElementById('host').attachShadow({mode: 'open'}).innerHTML = '<label>Deep <input id="deep" value="one"></label>';
</script>`)
	pages["/many-children"] = b.String()
}

// TestIncrementalWalkMatchesFresh: after each kind of change a script can
// make, the page's tree read incrementally is the tree read afresh, and
// the changes answer shows the change.
func TestIncrementalWalkMatchesFresh(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/many-children")
	ctx := context.Background()
	if _, err := p.Changes(ctx, false); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name, script string
		want         []string // lines the changes answer shows
		frames       bool
	}{
		{"text of one item", `document.querySelectorAll('#list > li')[4].firstChild.data = 'Item five '`, []string{"Item five"}, false},
		{"two rows at once", `const r = document.querySelectorAll('#rows tr'); r[1].cells[0].textContent = 'Row two'; r[21].cells[0].textContent = 'Row twenty-two'`,
			[]string{"Row two", "Row twenty-two"}, false},
		{"a text node child", `document.getElementById('mixed').childNodes[3].data = 'text changed '`, []string{"text changed"}, false},
		{"an item inserted", `const l = document.getElementById('list'); const li = document.createElement('li'); li.innerHTML = 'New item <button>Act new</button>'; l.insertBefore(li, l.children[10])`,
			[]string{`button "Act new"`}, false},
		{"an item removed", `document.querySelectorAll('#list > li')[2].remove()`, []string{"removed"}, false},
		{"an item moved to the front", `const l = document.getElementById('list'); l.insertBefore(l.children[19], l.firstChild)`, nil, false},
		{"a row hidden", `document.querySelectorAll('#rows tr')[6].hidden = true`, []string{"removed"}, false},
		{"the row shown again", `document.querySelectorAll('#rows tr')[6].hidden = false`, []string{"Row 7"}, false},
		{"a class that hides", `document.querySelectorAll('#list > li')[7].classList.add('gone')`, []string{"removed"}, false},
		{"a value set as a property", `document.querySelectorAll('#rows input')[11].value = '99'`, []string{"99"}, false},
		{"a value in a shadow root", `document.getElementById('host').shadowRoot.getElementById('deep').value = 'two'`, []string{"two"}, false},
		{"a button renamed", `document.querySelectorAll('#list button')[14].textContent = 'Act renamed'`, []string{`button "Act renamed"`}, false},
		{"an item hidden from the tree", `document.querySelectorAll('#list > li')[1].setAttribute('aria-hidden', 'true')`, []string{"removed"}, false},
		{"a nested item", `document.querySelectorAll('#inner > li')[9].textContent = 'Inner changed'`, []string{"Inner changed"}, false},
		{"a span that becomes a button", `document.querySelectorAll('#mixed > span')[4].setAttribute('role', 'button')`, []string{`button "span 5"`}, false},
		{"a block that becomes inline", `document.querySelectorAll('#mixed > div')[2].style.display = 'inline'`, nil, false},
		{"a text node replaced by an element", `const m = document.getElementById('mixed'); const b = document.createElement('b'); b.textContent = 'bold now'; m.replaceChild(b, m.childNodes[6])`,
			[]string{"bold now"}, false},
		{"an option renamed", `document.querySelectorAll('option')[12].textContent = 'Option renamed'`, nil, false},
		{"an iframe added", `const li = document.createElement('li'); li.innerHTML = '<iframe srcdoc="<p>framed</p>" title="Inside"></iframe>'; document.getElementById('list').append(li)`, nil, true},
		{"the iframe removed", `document.querySelector('#list iframe').parentElement.remove()`, nil, false},
		{"after the frame, a row again", `document.querySelectorAll('#rows tr')[3].cells[0].textContent = 'Row four changed'`, []string{"Row four changed"}, false},
	}
	for _, s := range steps {
		if _, err := p.Evaluate(ctx, "() => { "+s.script+" }", ""); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		ch, err := p.Changes(ctx, true)
		if err != nil {
			t.Fatalf("%s: changes: %v", s.name, err)
		}
		for _, w := range s.want {
			if !strings.Contains(ch.YAML, w) {
				t.Errorf("%s: the changes answer (%s) lacks %q:\n%s", s.name, ch.Kind, w, ch.YAML)
			}
		}
		if ch.Frames != s.frames {
			t.Errorf("%s: frames = %v, want %v", s.name, ch.Frames, s.frames)
		}
		kept, err := p.Snapshot(ctx, SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := p.FullSnapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if kept.YAML != fresh.YAML {
			t.Fatalf("%s: the tree read incrementally differs from the tree read afresh (want: fresh, got: incremental):\n%s", s.name, lineDiff(fresh.YAML, kept.YAML))
		}
	}
}
