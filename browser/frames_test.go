//go:build !unit

package browser

import (
	"bytes"
	"context"
	"image/png"
	"regexp"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/measure"
)

func init() {
	pages["/frames"] = `<!doctype html><title>Frames</title><h1>Outer</h1>
<div style="height:900px">spacer</div>
<iframe id="same" src="/frame-same" width="420" height="160"></iframe>
<iframe id="cross" width="420" height="160"></iframe>
<script>document.getElementById('cross').src = location.protocol + '//localhost:' + location.port + '/frame-cross';</script>`
	pages["/frame-same"] = `<!doctype html><title>Same</title>
<button id="b" onclick="this.textContent='Same clicked'">Same button</button>
<iframe id="nested" src="/frame-leaf" width="300" height="80"></iframe>`
	pages["/frame-cross"] = `<!doctype html><title>Cross</title><p>Cross page</p>
<button id="b" style="width:120px;height:40px" onclick="this.textContent='Cross clicked'">Cross button</button>
<input id="i" aria-label="Cross field">`
	pages["/frame-leaf"] = `<!doctype html><title>Leaf</title><button onclick="this.textContent='Leaf clicked'">Leaf button</button>`
}

func refIn(t *testing.T, yaml, role, name string) string {
	t.Helper()
	m := regexp.MustCompile(`- ` + role + ` "` + regexp.QuoteMeta(name) + `"[^\n]*\[ref=(f\d+e\d+|e\d+)\]`).FindStringSubmatch(yaml)
	if m == nil {
		t.Fatalf("no %s %q in:\n%s", role, name, yaml)
	}
	return m[1]
}

func TestFrames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/frames")
	s := snapshot(t, p, SnapshotOptions{})
	p.mu.Lock()
	oopifs := len(p.frames.hosts)
	p.mu.Unlock()
	if oopifs != 1 {
		t.Fatalf("want the cross-site iframe out of process (1 iframe target), have %d: the test would not prove the OOPIF path", oopifs)
	}
	same := refIn(t, s.YAML, "button", "Same button")
	cross := refIn(t, s.YAML, "button", "Cross button")
	leaf := refIn(t, s.YAML, "button", "Leaf button")
	field := refIn(t, s.YAML, "textbox", "Cross field")
	for _, r := range []string{same, cross, leaf} {
		if !strings.HasPrefix(r, "f") {
			t.Errorf("ref %s inside an iframe has no frame prefix", r)
		}
	}
	if strings.SplitN(same, "e", 2)[0] == strings.SplitN(cross, "e", 2)[0] {
		t.Errorf("two frames share a prefix: %s %s", same, cross)
	}
	// The iframes' content sits under their iframe lines.
	if !regexp.MustCompile(`(?m)^- iframe \[ref=e\d+\]:\n  - button "Same button"`).MatchString(s.YAML) {
		t.Errorf("same-origin frame content not nested under its iframe:\n%s", s.YAML)
	}
	if again := snapshot(t, p, SnapshotOptions{}); again.YAML != s.YAML {
		t.Errorf("refs or content changed between two snapshots:\n%s\n---\n%s", s.YAML, again.YAML)
	}

	for ref, want := range map[string]string{same: "Same clicked", cross: "Cross clicked", leaf: "Leaf clicked"} {
		if err := p.Click(ctx, ref, ClickOptions{}); err != nil {
			t.Fatalf("click %s: %v", ref, err)
		}
		got, err := p.Evaluate(ctx, "(el) => el.textContent", ref)
		if err != nil || string(got) != `"`+want+`"` {
			t.Errorf("after clicking %s: %s %v, want %q", ref, got, err, want)
		}
	}
	if err := p.Type(ctx, field, "typed across sites", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, err := p.Evaluate(ctx, "(el) => el.value", field); err != nil || string(got) != `"typed across sites"` {
		t.Errorf("cross-site field value = %s %v", got, err)
	}

	// Selectors continue into the iframe they reach.
	if got, err := p.Evaluate(ctx, "(el) => el.id", `iframe#cross >> role=button[name="Cross clicked"]`); err != nil || string(got) != `"b"` {
		t.Errorf("selector into the cross-site frame: %s %v", got, err)
	}
	if err := p.Click(ctx, `#same >> #nested >> text=Leaf clicked`, ClickOptions{}); err != nil {
		t.Errorf("selector through two frames: %v", err)
	}
	wantKind(t, p.Click(ctx, `iframe >> button`, ClickOptions{}), KindNotUnique, "iframes")

	// An element screenshot inside the cross-site frame has the element's size.
	img, err := p.Screenshot(ctx, measure.ScreenshotOptions{Target: cross})
	if err != nil {
		t.Fatal(err)
	}
	if c, err := png.DecodeConfig(bytes.NewReader(img)); err != nil || c.Width != 120 || c.Height != 40 {
		t.Errorf("screenshot of the cross-site button: %dx%d %v, want 120x40", c.Width, c.Height, err)
	}
	// A subtree snapshot of a frame's element.
	sub := snapshot(t, p, SnapshotOptions{Target: cross})
	// (Its name changed with the click, so it has a new ref in the same frame.)
	if !strings.HasPrefix(sub.YAML, `- button "Cross clicked" [ref=`+strings.SplitN(cross, "e", 2)[0]+`e`) {
		t.Errorf("snapshot of %s:\n%s", cross, sub.YAML)
	}
	// Unknown frame numbers are ref_not_found.
	wantKind(t, p.Click(ctx, "f99e1", ClickOptions{}), KindRefNotFound, "f99")
}
