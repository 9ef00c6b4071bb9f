//go:build !unit

package browser

import (
	"regexp"
	"strings"
	"testing"
)

func init() {
	pages["/depth"] = `<!doctype html><title>Depth</title>
<ul><li>text</li><li><button>Button</button></li></ul>
<iframe title="Inner" srcdoc="<ul><li><button>Deep</button></li></ul>"></iframe>
<button style="position:absolute;left:100px;top:50px;width:80px;height:40px;margin:0;padding:0;border:0">Boxed</button>`
}

// TestSnapshotDepthAsPlaywright: depth counts as Playwright's (the top
// lines are depth 0): depth 1 shows the top lines and their children, 2
// their grandchildren too, with a target its own line as the top; an
// iframe's document goes as deep as the levels left below its line.
func TestSnapshotDepthAsPlaywright(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/depth")
	norm := func(yaml string) string { return regexp.MustCompile(` \[ref=[a-z0-9]+\]`).ReplaceAllString(yaml, "") }
	one := norm(snapshot(t, p, SnapshotOptions{Depth: 1}).YAML)
	wantLines(t, one, "- list:\n  - listitem: text\n  - listitem\n", "- iframe \"Inner\":\n  - list\n")
	if strings.Contains(one, "Button") || strings.Contains(one, "Deep") {
		t.Errorf("depth 1 shows a grandchild:\n%s", one)
	}
	two := norm(snapshot(t, p, SnapshotOptions{Depth: 2}).YAML)
	wantLines(t, two, "  - listitem:\n    - button \"Button\"", "- iframe \"Inner\":\n  - list:\n    - listitem\n")
	if strings.Contains(two, "Deep") {
		t.Errorf("depth 2 shows the iframe's third level:\n%s", two)
	}
	sub := norm(snapshot(t, p, SnapshotOptions{Target: "ul", Depth: 1}).YAML)
	if want := "- list:\n  - listitem: text\n  - listitem"; strings.TrimSpace(sub) != want {
		t.Errorf("depth 1 of the list:\n%s\nwant:\n%s", sub, want)
	}
}

// TestSnapshotBoxesPerCall: a snapshot asked with Boxes has each element's
// box in CSS pixels of the viewport; the next one without does not, and
// it is not the baseline of the changes an action shows.
func TestSnapshotBoxesPerCall(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/depth")
	boxed := snapshot(t, p, SnapshotOptions{Boxes: true})
	if !regexp.MustCompile(`button "Boxed" \[ref=e\d+\] \[box=100,50,80,40\]`).MatchString(boxed.YAML) {
		t.Errorf("no box on the button:\n%s", boxed.YAML)
	}
	if plain := snapshot(t, p, SnapshotOptions{}); strings.Contains(plain.YAML, "[box=") {
		t.Errorf("a snapshot without boxes has them:\n%s", plain.YAML)
	}
}
