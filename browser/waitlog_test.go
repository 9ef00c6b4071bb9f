//go:build !unit

package browser

import (
	"context"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/eventlog"
)

func init() {
	pages["/waits"] = `<!doctype html><title>Waits</title><button id="d" disabled>Save</button>
<script>setTimeout(() => { document.getElementById('d').disabled = false;
  const b = document.createElement('button'); b.id = 'later'; b.textContent = 'Later'; document.body.append(b); }, 200)</script>`
}

// states are a wait's state codes, in order.
func states(w eventlog.ActionWait) string {
	var out []string
	for _, s := range w.States {
		out = append(out, s.Code)
	}
	return strings.Join(out, " ")
}

// TestActionWaits: a tab keeps how each action waited for its element, in
// order: what held it back (disabled, missing, covered, with the engine's
// words), when each began, and whether the action went on. The flow runner
// compares them between a failed attempt and a passing one.
func TestActionWaits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/waits")
	if err := p.Click(ctx, "#d", ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := p.Click(ctx, "#later", ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	ws := p.ActionWaits()
	if len(ws) != 2 {
		t.Fatalf("%d waits kept, want 2: %+v", len(ws), ws)
	}
	if w := ws[0]; w.Target != "#d" || !w.Ready || states(w) != "disabled" || w.States[0].At >= w.Took {
		t.Errorf("the click on the disabled button: %+v", w)
	}
	// Enabled at 200 ms: the second click's wait, if any, was for the
	// button the page added at the same time, which was then there.
	if w := ws[1]; w.Target != "#later" || !w.Ready || ws[1].Start.Before(ws[0].Start.Add(ws[0].Took)) {
		t.Errorf("the click on the added button: %+v", w)
	}

	missing := openPage(t, "/links")
	wantKind(t, missing.Click(ctx, "#nope", ClickOptions{}), KindElementNotFound, "#nope")
	covered := openPage(t, "/overlay")
	wantKind(t, covered.Click(ctx, "#b", ClickOptions{}), KindNotActionable, "covered")
	for _, c := range []struct {
		p    *Page
		code string
		says string
	}{{missing, eventlog.WaitMissing, "#nope"}, {covered, "covered", "covered by div#overlay"}} {
		ws := c.p.ActionWaits()
		if len(ws) != 1 || ws[0].Ready || states(ws[0]) != c.code || !strings.Contains(ws[0].States[0].Message, c.says) || ws[0].Took < testManager.opts.ActionTimeout {
			t.Errorf("a wait that ran out, want %s (%s): %+v", c.code, c.says, ws)
		}
	}
}
