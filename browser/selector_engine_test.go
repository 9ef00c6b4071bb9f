//go:build !unit

package browser

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func init() {
	pages["/selectors"] = `<!doctype html><title>Selectors</title>
<main id="main">
 <h1 id="h1">Orders</h1>
 <h2 id="h2" aria-level="3">Sub</h2>
 <form id="f" aria-label="Checkout">
  <label for="email" id="lemail">Email address</label>
  <input id="email" placeholder="you@example.com" data-testid="email-input" data-qa="mail">
  <input id="agree" type="checkbox" checked aria-label="Agree">
  <div id="mixed" role="checkbox" aria-checked="mixed" tabindex="0">Some</div>
  <button id="save" type="submit">Save</button>
  <button id="saveall" type="button">Save all</button>
  <button id="off" disabled>Disabled</button>
  <input id="sub" type="submit" value="Send it">
 </form>
 <p id="p1">Hello <b id="b1">World</b></p>
 <div id="outer"><span id="inner">Deep text</span></div>
 <img id="logo" alt="Company logo" src="data:,">
 <span id="tip" title="Helpful tip">?</span>
 <button id="hiddenbtn" style="display:none">Save hidden</button>
 <div aria-hidden="true"><button id="ah">Save</button></div>
 <ul id="list"><li id="li1">Apple</li><li id="li2">Banana</li><li id="li3">Cherry</li></ul>
 <div id="host"></div>
 <button id="pressed" aria-pressed="true">Bold</button>
 <div id="exp" role="button" aria-expanded="true">Menu</div>
 <span id="described" role="button" aria-describedby="desc">Info</span><span id="desc">More details</span>
</main>
<script>document.getElementById('host').attachShadow({mode: 'open'}).innerHTML =
  '<p id="sp">Shadow text</p><button id="sbtn">Shadow button</button>';</script>`
}

// matches evaluates sel in the page and returns the ids of what it matches.
func matches(t *testing.T, p *Page, sel, testID string) []string {
	t.Helper()
	s, err := ParseSelector(sel, testID)
	if err != nil {
		t.Fatalf("ParseSelector(%q): %v", sel, err)
	}
	parts, _ := json.Marshal(s.Parts)
	var ids []string
	if err := p.evalEngine(context.Background(), "__e2e.all("+string(parts)+").map(e => e.id || e.localName)", &ids); err != nil {
		t.Fatalf("%q: %v", sel, err)
	}
	return ids
}

func TestSelectorEngines(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/selectors")
	tests := []struct{ sel, want string }{
		// css, piercing open shadow roots, with the engine's pseudo-classes
		{`button#save`, "save"},
		{`form button`, "save saveall off"},
		{`main > h1`, "h1"},
		{`#li1 + li`, "li2"},
		{`#li1 ~ li`, "li2 li3"},
		{`#h1, #h2`, "h1 h2"},
		{`#host button`, "sbtn"},
		{`#host > p`, "sp"},
		{`li:has-text("an")`, "li2"},
		{`:text("World")`, "b1"},
		{`p:text-is("Hello")`, "p1"},
		{`li:text-matches("^b", "i")`, "li2"},
		{`#main button:visible`, "save saveall off ah sbtn pressed"},
		// text
		{`text=deep text`, "inner"},
		{`text="World"`, "b1"},
		{`text="world"`, ""},
		{`text="world"i`, "b1"},
		{`text=/^hello/i`, "p1"},
		{`"Save all"`, "saveall"},
		{`text="Send it"`, "sub"},
		{`text=Shadow text`, "sp"},
		// role
		{`role=button[name="Save"]`, "save"},
		{`role=button[name="save" i]`, "save"},
		{`role=button[name*="Save"]`, "save saveall"},
		{`role=button[name^="Save a"]`, "saveall"},
		{`role=button[name=/^save/i][include-hidden]`, "save saveall hiddenbtn ah"},
		{`role=checkbox[checked]`, "agree"},
		{`role=checkbox[checked=mixed]`, "mixed"},
		{`role=checkbox[checked=false]`, ""},
		{`role=heading[level=2]`, "h2"}, // h1-h6 keep their own level over aria-level, as for Playwright
		{`role=heading[level=3]`, ""},
		{`role=heading[level=1]`, "h1"},
		{`role=button[disabled]`, "off"},
		{`role=button[pressed]`, "pressed"},
		{`role=button[expanded=true]`, "exp"},
		{`role=button[description="More details"]`, "described"},
		{`role=button[name="Shadow button"]`, "sbtn"},
		// xpath
		{`xpath=//li[2]`, "li2"},
		{`//ul/li`, "li1 li2 li3"},
		{`#list >> xpath=/li[1]`, "li1"},
		// attributes, labels and friends
		{`data-testid=email-input`, "email"},
		{`id=li3`, "li3"},
		{`label=email`, "email"},
		{`label="Agree"`, "agree"},
		{`placeholder=you@`, "email"},
		{`alt=logo`, "logo"},
		{`title="Helpful tip"`, "tip"},
		// chains, nth, visible
		{`li >> nth=1`, "li2"},
		{`li >> nth=-1`, "li3"},
		{`li >> nth=7`, ""},
		{`button >> visible=false`, "hiddenbtn"},
		{`form >> role=button[name="Save"]`, "save"},
		{`#list >> text=cherry`, "li3"},
		{`main >> #host >> text=Shadow t`, "sp"},
		{`#host >> text=Shadow`, "sp sbtn"},
	}
	for _, tc := range tests {
		if got := strings.Join(matches(t, p, tc.sel, ""), " "); got != tc.want {
			t.Errorf("%s matches [%s], want [%s]", tc.sel, got, tc.want)
		}
	}
	if got := strings.Join(matches(t, p, `testid=mail`, "data-qa"), " "); got != "email" {
		t.Errorf("testid=mail with attribute data-qa matches [%s], want [email]", got)
	}
}

func TestSelectorErrorsInPage(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/selectors")
	ctx := context.Background()
	wantKind(t, p.Click(ctx, "li", ClickOptions{}), KindNotUnique, `"li" matches 3 elements: listitem [ref=`)
	wantKind(t, p.Click(ctx, "text=no such text", ClickOptions{}), KindElementNotFound, "no such text")
	wantKind(t, p.Click(ctx, "div:nth-child(x)", ClickOptions{}), KindInvalidInput, "is not valid CSS")
	wantKind(t, p.Click(ctx, "xpath=//[", ClickOptions{}), KindInvalidInput, "xpath")
	wantKind(t, p.Click(ctx, "text=/(/", ClickOptions{}), KindInvalidInput, "regular expression")
	wantKind(t, p.Click(ctx, `role=button[name="Save"`, ClickOptions{}), KindInvalidInput, "at position 23")
	// The candidates' refs work.
	err := p.Click(ctx, "li", ClickOptions{})
	e, _ := AsError(err)
	ref := e.Message[strings.Index(e.Message, "[ref=")+5:]
	ref = ref[:strings.IndexByte(ref, ']')]
	if err := p.Click(ctx, ref, ClickOptions{}); err != nil {
		t.Errorf("click the candidate ref %s from the not_unique error: %v", ref, err)
	}
	// Actions take selectors.
	if err := p.Type(ctx, "label=Email address", "a@b.c", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := p.Click(ctx, `role=button[name="Shadow button"]`, ClickOptions{}); err != nil {
		t.Errorf("click into a shadow root by role: %v", err)
	}
	got, _ := p.Evaluate(ctx, `(el) => el.value`, "placeholder=you@example.com")
	if string(got) != `"a@b.c"` {
		t.Errorf("value after typing by label = %s", got)
	}
}
