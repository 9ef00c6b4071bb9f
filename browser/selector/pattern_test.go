package selector

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// TestParseURLPattern: a URL pattern is a /regex/flags unless it has a
// glob's ** or /*; a glob's * stops at '/', ** does not, "/**/" is any
// number of whole segments, {a,b} either alternative, \c the character c,
// and everything else in it (?, [], .) is literal, as Playwright 1.65's
// globToRegexPattern reads it (the cases were checked against it); a glob
// starting with '/' matches the path, query and fragment.
func TestParseURLPattern(t *testing.T) {
	tests := []struct {
		pattern string
		glob    bool
		rel     bool
		match   []string
		nomatch []string
	}{
		{"**/done?step=2", true, false, []string{"http://h:1/wait/done?step=2"}, []string{"http://h:1/wait/done?step=3", "http://h:1/wait/doneXstep=2"}},
		{"http://h/*/x", true, false, []string{"http://h/a/x"}, []string{"http://h/a/b/x"}},
		{"http://h/**/x", true, false, []string{"http://h/a/x", "http://h/a/b/x", "http://h/x"}, []string{"http://h/ax", "http://g/a/x"}},
		{"http://h/a**/x", true, false, []string{"http://h/ab/x", "http://h/a/b/x"}, []string{"http://h/ax"}},
		{"**/*.{png,jpg}", true, false, []string{"http://h/a.png", "http://h/b/a.jpg"}, []string{"http://h/a.{png,jpg}", "http://h/a.gif", "http://h/a.pngx"}},
		{"**/{api,v2/api}/*", true, false, []string{"http://h/api/x", "http://h/v2/api/x"}, []string{"http://h/v3/api/x/y"}},
		{`**/a\{b\}\*,c`, true, false, []string{"http://h/a{b}*,c"}, []string{"http://h/a{b}x,c", "http://h/ab"}},
		{"***.js", true, false, []string{"http://h/a/b.js"}, []string{"http://h/a/b.jsx"}},
		{"**/a[1].js", true, false, []string{"http://h/a[1].js"}, []string{"http://h/a1.js", "http://h/aX1Xjs"}},
		{"/users/*", true, true, []string{"/users/7"}, []string{"/users/7/edit", "/admin/users/7"}},
		{"/users/**", true, true, []string{"/users/7/edit"}, []string{"/admin/users/7"}},
		{"/users/", false, false, []string{"http://h/users/7"}, []string{"http://h/Users"}}, // a regular expression
		{`/USERS\/\d+/i`, false, false, []string{"http://h/users/7"}, []string{"http://h/users/x"}},
		{`/a|b/x`, true, true, []string{"/a|b/x"}, []string{"/a"}}, // x is no flag: a glob
		{`//`, true, true, []string{"//"}, []string{"/"}},          // no source: a glob
	}
	for _, tc := range tests {
		m, err := ParseURLPattern(tc.pattern)
		if err != nil {
			t.Errorf("ParseURLPattern(%q): %v", tc.pattern, err)
			continue
		}
		if m.Glob != tc.glob || m.Rel != tc.rel {
			t.Errorf("ParseURLPattern(%q) = %+v, want glob %v, rel %v", tc.pattern, m, tc.glob, tc.rel)
		}
		if m.Glob && m.Flags != "" {
			t.Errorf("ParseURLPattern(%q): a glob with flags %q", tc.pattern, m.Flags)
		}
		// These sources mean the same in Go's syntax as in JavaScript's.
		src := m.Source
		if strings.Contains(m.Flags, "i") {
			src = "(?i)" + src
		}
		re := regexp.MustCompile(src)
		for _, u := range tc.match {
			if !re.MatchString(u) {
				t.Errorf("%q (regex %s) does not match %s", tc.pattern, m.Source, u)
			}
		}
		for _, u := range tc.nomatch {
			if re.MatchString(u) {
				t.Errorf("%q (regex %s) matches %s", tc.pattern, m.Source, u)
			}
		}
	}
}

// TestGlobSource: the regular expression a glob becomes, exactly (the
// Playwright specs convert writes carry it), and the globs it refuses.
func TestGlobSource(t *testing.T) {
	for g, want := range map[string]string{
		"**/api/*":         `^.*\/api\/[^/]*$`,
		"/**/a.js":         `^\/(?:.+\/)?a\.js$`,
		"*.js?v=1":         `^[^/]*\.js\?v=1$`,
		"{a,b}+(c)|d$^":    `^(?:a|b)\+\(c\)\|d\$\^$`,
		"a,b{,c}":          `^a,b(?:|c)$`,
		`x\y\*`:            `^xy\*$`,
		`a\`:               `^a\\$`,
		"***":              `^.*$`,
		"":                 `^$`,
		"http://h:1/[x].*": `^http:\/\/h:1\/\[x\]\.[^/]*$`,
	} {
		got, err := GlobSource(g)
		if err != nil || got != want {
			t.Errorf("GlobSource(%q) = %s, %v; want %s", g, got, err, want)
		}
		if _, err := regexp.Compile(got); err != nil {
			t.Errorf("GlobSource(%q) = %s, not RE2: %v", g, got, err)
		}
	}
	for g, what := range map[string]string{
		"**/{a,{b,c}}": "alternatives do not nest",
		"**/a}":        "a '}' with no '{' before it",
		"**/{a,b":      "a '{' with no '}' after it",
	} {
		_, err := GlobSource(g)
		r, ok := refusal.As(err)
		if !ok || r.KindOf() != refusal.InvalidInput || !strings.Contains(r.Message, what) || r.Hint == "" {
			t.Errorf("GlobSource(%q) = %v, want an invalid_input refusal saying %q, with a hint", g, err, what)
		}
	}
}

// TestRegexLiteral: /source/flags with a source and the flags d, i, m, s,
// u, v (a page's RegExp's); anything else is not one.
func TestRegexLiteral(t *testing.T) {
	tests := []struct {
		s, source, flags string
		ok               bool
	}{
		{`/a+b/`, `a+b`, ``, true},
		{`/a/b/im`, `a/b`, `im`, true},
		{`/x/dimsuv`, `x`, `dimsuv`, true},
		{`//`, ``, ``, false},
		{`/x/g`, ``, ``, false},
		{`/x/I`, ``, ``, false},
		{`x/`, ``, ``, false},
		{`/x`, ``, ``, false},
	}
	for _, tc := range tests {
		source, flags, ok := RegexLiteral(tc.s)
		if source != tc.source || flags != tc.flags || ok != tc.ok {
			t.Errorf("RegexLiteral(%q) = %q, %q, %v; want %q, %q, %v", tc.s, source, flags, ok, tc.source, tc.flags, tc.ok)
		}
	}
}

// TestRegexArg: a regex argument's flags i, m, s become RE2's inline
// flags (once each), g, u, d are taken and dropped, any other letter is
// refused by name; an argument not written /pattern/flags is the pattern
// whole; a pattern RE2 cannot compile is refused.
func TestRegexArg(t *testing.T) {
	for arg, want := range map[string]string{
		`/apples/`:   `apples`,
		`/a.b/gis`:   `(?is)a.b`,
		`/x/ii`:      `(?i)x`,
		`/x/gud`:     `x`,
		`//`:         ``,
		`a/b`:        `a/b`,
		`/a/b/m`:     `(?m)a/b`,
		`apples/i`:   `apples/i`,
		`/A/i extra`: `/A/i extra`,
	} {
		re, err := RegexArg(arg)
		if err != nil || re.String() != want {
			t.Errorf("RegexArg(%q) = %v, %v; want %s", arg, re, err, want)
		}
	}
	for arg, want := range map[string]bool{`/a/`: true, `//`: true, `/a/xyz`: true, `/a/I`: false, `a`: false, `/a/i `: false} {
		if IsRegexArg(arg) != want {
			t.Errorf("IsRegexArg(%q) = %v, want %v", arg, !want, want)
		}
	}
	if re, _ := RegexArg(`/APPLES/i`); !re.MatchString("apples") {
		t.Errorf("/APPLES/i does not match apples")
	}
	for arg, msg := range map[string]string{
		`/apples/y`: `regex "/apples/y": flag "y"`,
		`/a/gx`:     `regex "/a/gx": flag "x"`,
		`/(?=a)/i`:  "regex \"/(?=a)/i\": error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
		`a(`:        "regex \"a(\": error parsing regexp: missing closing ): `a(`",
	} {
		re, err := RegexArg(arg)
		bad, ok := refusal.As(err)
		if re != nil || !ok || bad.Kind != refusal.InvalidInput || bad.Message != msg || bad.Hint == "" || err.Error() != "invalid_input: "+msg {
			t.Errorf("RegexArg(%q) = %v, %#v; want an invalid_input refusal saying %s", arg, re, err, msg)
		}
	}
}

func TestIsRef(t *testing.T) {
	for s, want := range map[string]bool{"e5": true, "f1e3": true, "e": false, "button": false, "e5 ": false, "#e5": false} {
		if IsRef(s) != want {
			t.Errorf("IsRef(%q) = %v, want %v", s, !want, want)
		}
	}
}

// TestParseRef: a ref's frame (when it names one, f0 too) and element
// numbers; a number too large for an int reads as the largest.
func TestParseRef(t *testing.T) {
	tests := []struct {
		s  string
		r  Ref
		ok bool
	}{
		{"e5", Ref{Elem: 5}, true},
		{"f1e3", Ref{InFrame: true, Frame: 1, Elem: 3}, true},
		{"f0e1", Ref{InFrame: true, Frame: 0, Elem: 1}, true},
		{"e99999999999999999999", Ref{Elem: math.MaxInt}, true},
		{"f1", Ref{}, false},
		{"fe1", Ref{}, false},
		{"E5", Ref{}, false},
		{"button", Ref{}, false},
	}
	for _, tc := range tests {
		if r, ok := ParseRef(tc.s); r != tc.r || ok != tc.ok {
			t.Errorf("ParseRef(%q) = %+v, %v; want %+v, %v", tc.s, r, ok, tc.r, tc.ok)
		}
	}
}
