//go:build !unit

package browser

import (
	"context"
	"strings"
	"testing"
	"time"
)

func init() {
	pages["/typing"] = `<!doctype html><title>Typing</title>
<button id="other">Other</button>
<label>Code <input id="code" value="bc"></label>
<div id="ed" contenteditable="true" role="textbox" aria-label="Notes"><p>world</p><p id="second">again</p></div>
<label>Steals <input id="steals" onfocus="document.getElementById('other').focus()"></label>
<label>Blurs <input id="blurs" onfocus="this.blur()"></label>
<label>Ignores <input id="ignores" onkeydown="event.preventDefault()" onbeforeinput="event.preventDefault()"></label>
<div id="ctx" role="textbox" aria-label="Context editor" tabindex="0"></div><p id="ctx-out"></p>
<div id="otp"><input aria-label="Digit 1" maxlength="1" data-i="0"><input aria-label="Digit 2" maxlength="1" data-i="1"><input aria-label="Digit 3" maxlength="1" data-i="2"></div>
<script>
// An editor on an EditContext, as Monaco's input: no size, no DOM text.
const host = document.getElementById('ctx'), ec = new EditContext();
host.editContext = ec;
const show = () => { document.getElementById('ctx-out').textContent = '[' + ec.text + ']'; };
ec.addEventListener('textupdate', show);
host.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key === 'a') { ec.updateSelection(0, ec.text.length); e.preventDefault(); }
});
ec.updateText(0, 0, 'old'); ec.updateSelection(3, 3); show();
for (const box of document.querySelectorAll('#otp input')) box.addEventListener('input', () => {
  const next = box.nextElementSibling; if (next && box.value) next.focus(); });
</script>`
}

// TestType_ReachesTheTarget: typing at the caret into an element that does
// not have focus focuses it and starts at its beginning, as Playwright's
// pressSequentially does (an input at position 0, an editor at its first
// position: the Lexical editor that typed nothing when its root was only
// "inside" the focused body); keys that reach nothing fail not_focused,
// saying where focus went, instead of answering that they were typed.
func TestType_ReachesTheTarget(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/typing")
	ctx := context.Background()
	value := func(js string) string {
		t.Helper()
		got, err := p.Evaluate(ctx, js, "")
		if err != nil {
			t.Fatal(err)
		}
		return string(got)
	}

	// An editor nobody focused: the keys go to its first position.
	if err := p.Type(ctx, "role=textbox[name=Notes]", "Hello ", TypeOptions{Slowly: true}); err != nil {
		t.Fatal(err)
	}
	if got := value(`() => [document.activeElement.id, document.getElementById('ed').textContent]`); got != `["ed","Hello worldagain"]` {
		t.Errorf("slowly into an unfocused editor: %s, want the text at its start", got)
	}
	// Focused now: the next keys go on at the caret.
	if err := p.Type(ctx, "role=textbox[name=Notes]", "big ", TypeOptions{Slowly: true}); err != nil {
		t.Fatal(err)
	}
	if got := value(`() => document.getElementById('ed').textContent`); got != `"Hello big worldagain"` {
		t.Errorf("slowly into the focused editor: %s, want the text at the caret", got)
	}
	// A part of the editor: its host takes focus, the keys start the part.
	if err := p.Click(ctx, "#other", ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := p.Type(ctx, "#second", "once ", TypeOptions{Slowly: true}); err != nil {
		t.Fatal(err)
	}
	if got := value(`() => [document.activeElement.id, document.getElementById('second').textContent]`); got != `["ed","once again"]` {
		t.Errorf("slowly into a paragraph of the editor: %s", got)
	}

	// An input focused only now: position 0.
	if err := p.Type(ctx, "label=Code", "a", TypeOptions{Slowly: true}); err != nil {
		t.Fatal(err)
	}
	if got := value(`() => document.getElementById('code').value`); got != `"abc"` {
		t.Errorf("slowly into an unfocused input: %s, want \"abc\"", got)
	}

	// A field that sends focus elsewhere, one that drops it, one that
	// swallows the keys while keeping focus (that one did get them).
	wantKind(t, p.Type(ctx, "label=Steals", "x", TypeOptions{Slowly: true}), KindNotFocused, `the keys went to button "Other"`)
	// Inserted text goes to the field's selection wherever focus went:
	// it did reach the field.
	if err := p.Type(ctx, "label=Steals", "x", TypeOptions{}); err != nil {
		t.Errorf("inserted text: %v", err)
	} else if got := value(`() => document.getElementById('steals').value`); got != `"x"` {
		t.Errorf("inserted text: the field holds %s", got)
	}
	wantKind(t, p.Type(ctx, "label=Blurs", "x", TypeOptions{Slowly: true}), KindNotFocused, "the keys went to <body>")
	if err := p.Type(ctx, "label=Ignores", "x", TypeOptions{Slowly: true}); err != nil {
		t.Errorf("a field that keeps focus and ignores the keys got them: %v", err)
	}

	// An EditContext's element (Monaco's input) has no size and no DOM
	// text: typing focuses it and types at its selection; replacing its
	// text selects all with the keys a user presses.
	if err := p.Type(ctx, `role=textbox[name="Context editor"]`, " and new", TypeOptions{Slowly: true}); err != nil {
		t.Fatal(err)
	}
	if got := value(`() => document.getElementById('ctx-out').textContent`); got != `"[old and new]"` {
		t.Errorf("slowly into an EditContext: %s", got)
	}
	if err := p.Type(ctx, `role=textbox[name="Context editor"]`, "replaced", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := value(`() => document.getElementById('ctx-out').textContent`); got != `"[replaced]"` {
		t.Errorf("replacing an EditContext's text: %s", got)
	}

	// A one-time-code box moves focus on as it fills: the keys reached it.
	if err := p.Type(ctx, "label=Digit 1", "47", TypeOptions{Slowly: true}); err != nil {
		t.Fatal(err)
	}
	if got := value(`() => [...document.querySelectorAll('#otp input')].map(i => i.value).join('')`); got != `"47"` {
		t.Errorf("one-time code: %s, want \"47\"", got)
	}
}

// TestExpectValueOfASecretField: a value check on a password field says
// whether it holds what was expected, never what it holds (a saved
// password the browser filled is no value the agent typed).
func TestExpectValueOfASecretField(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/typing")
	ctx := context.Background()
	if _, err := p.Evaluate(ctx, `() => { const i = document.createElement('input'); i.type = 'password'; i.id = 'pw'; i.value = 'saved-hunter2'; document.body.append(i); }`, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Expect(ctx, "#pw", "value", "saved-hunter2", time.Second); err != nil {
		t.Errorf("the right value: %v", err)
	}
	_, err := p.Expect(ctx, "#pw", "value", "other", 200*time.Millisecond)
	wantKind(t, err, KindExpectFailed, "the hidden value of a password field")
	if strings.Contains(err.Error(), "saved-hunter2") {
		t.Errorf("the failure shows the field's value: %v", err)
	}
}

func init() {
	pages["/rows"] = `<!doctype html><title>Rows</title>
<div role="grid">
<div role="row"><span role="checkbox" tabindex="0" aria-checked="false" aria-label="Select row (unchecked)" data-row="1" style="display:inline-block;width:16px;height:16px;border:1px solid"></span> Ada</div>
<div role="row"><span role="checkbox" tabindex="0" aria-checked="false" aria-label="Select row (unchecked)" data-row="2" style="display:inline-block;width:16px;height:16px;border:1px solid"></span> Grace</div>
</div>
<script>
for (const box of document.querySelectorAll('[role=checkbox]')) box.addEventListener('click', () => {
  const on = box.getAttribute('aria-checked') !== 'true';
  box.setAttribute('aria-checked', String(on));
  box.setAttribute('aria-label', 'Select row (' + (on ? 'checked' : 'unchecked') + ')');
});
</script>`
}

// TestSetCheckedReadsTheElementItClicked: a checkbox whose name says its
// state (AG Grid's row checkboxes: "... (unchecked)") is found by its
// selector before the click and by another after it: the check reads the
// element it clicked, as Playwright does, not the one the selector finds
// now (which said "did not check it" of a click that did).
func TestSetCheckedReadsTheElementItClicked(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/rows")
	ctx := context.Background()
	clicked, err := p.SetChecked(ctx, `role=checkbox[name="Select row (unchecked)"] >> nth=0`, true)
	if err != nil || !clicked {
		t.Fatalf("SetChecked = %v, %v", clicked, err)
	}
	got, _ := p.Evaluate(ctx, `() => [...document.querySelectorAll('[role=checkbox]')].map(b => b.getAttribute('aria-checked')).join()`, "")
	if string(got) != `"true,false"` {
		t.Errorf("the rows' states: %s, want the first checked", got)
	}
}
