package browser

import (
	"reflect"
	"testing"
)

// TestParseSelectorError: a selector's syntax error is an invalid_input
// [*Error] with these exact bytes (the tools, run and convert show them),
// wherever the parser finds it: the chain, a part, a css list, a pseudo.
func TestParseSelectorError(t *testing.T) {
	const hint = `fix the selector (forms: css, text=, role=button[name="x"], xpath=, data-testid=, label=, nth=, >>), or use a ref from a snapshot`
	tests := []struct{ sel, msg string }{
		{``, `selector "": at position 0: empty selector`},
		{`text="abc`, `selector "text=\"abc": at position 5: unterminated " quote`},
		{`button >> `, `selector "button >> ": at position 10: empty part between >>`},
		{`role=button[level="2"]`, `selector "role=button[level=\"2\"]": at position 11: level wants a positive integer, got "2"`},
		{`bogus=x`, `selector "bogus=x": at position 0: unknown selector engine "bogus" (known: css, text, role, xpath, data-testid, testid, data-test-id, data-test, id, label, placeholder, alt, title, nth, visible)`},
		{`div:has-text`, `selector "div:has-text": at position 3: :has-text needs an argument, e.g. :has-text("Sign up")`},
		{`a > > b`, `selector "a > > b": at position 4: two combinators in a row`},
		{`nth=first`, `selector "nth=first": at position 4: nth= wants an integer (0 is the first, -1 the last), got "first"`},
		{`div:is(a, :text-matches("x", "q"))`, `selector "div:is(a, :text-matches(\"x\", \"q\"))": at position 23: bad regular expression flags "q"`},
	}
	for _, tc := range tests {
		s, err := ParseSelector(tc.sel, "")
		want := &Error{Kind: KindInvalidInput, Message: tc.msg, Hint: hint}
		if got, ok := err.(*Error); s != nil || !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseSelector(%q) = %v, %#v\nwant nil, %#v", tc.sel, s, err, want)
		}
		if want := "invalid_input: " + tc.msg; err != nil && err.Error() != want {
			t.Errorf("ParseSelector(%q) error text %q, want %q", tc.sel, err.Error(), want)
		}
	}
}
