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

// TestRegexArgError: a regex argument refused (a flag it does not take, a
// pattern RE2 cannot compile) is an invalid_input [*Error] with these exact
// message and hint, as browser_find shows them.
func TestRegexArgError(t *testing.T) {
	const flagHint = "use the flags i, m, s (g, u, d are taken and change nothing)"
	const syntaxHint = "write the regular expression in Go's syntax (RE2: no lookaround or backreferences)"
	tests := []struct{ arg, msg, hint string }{
		{`/apples/y`, `regex "/apples/y": flag "y"`, flagHint},
		{`/a/gx`, `regex "/a/gx": flag "x"`, flagHint},
		{`/(?=a)/i`, "regex \"/(?=a)/i\": error parsing regexp: invalid or unsupported Perl syntax: `(?=`", syntaxHint},
		{`a(`, "regex \"a(\": error parsing regexp: missing closing ): `a(`", syntaxHint},
	}
	for _, tc := range tests {
		re, err := RegexArg(tc.arg)
		want := &Error{Kind: KindInvalidInput, Message: tc.msg, Hint: tc.hint}
		if got, ok := err.(*Error); re != nil || !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("RegexArg(%q) = %v, %#v\nwant nil, %#v", tc.arg, re, err, want)
		}
	}
	for arg, src := range map[string]string{`/apples/`: `apples`, `/a.b/gis`: `(?is)a.b`, `/x/ii`: `(?i)x`, `a/b`: `a/b`, `//`: ``} {
		if re, err := RegexArg(arg); err != nil || re.String() != src {
			t.Errorf("RegexArg(%q) = %v, %v; want %s", arg, re, err, src)
		}
	}
}
