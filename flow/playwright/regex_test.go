package playwright

import (
	"strings"
	"testing"
)

// TestGoRegex: a route's pattern in Go's syntax becomes a JavaScript
// RegExp of the same matches, whatever JavaScript would make of the text.
func TestGoRegex(t *testing.T) {
	for _, c := range []struct{ src, flags, want string }{
		{`/api/users/\d+$`, "", `/\/api\/users\/[0-9]+$/u`},
		{`(?i)/API/x`, "", `/\/[Aa][Pp][Ii]\/[Xx]/u`},
		{`k`, "i", `/[Kk` + "\u212a" + `]/u`},
		{`(?P<id>\d{2,4})\z`, "", `/(?:[0-9]{2,4})$/u`},
		{`\x{1F600}+|é`, "", `/(?:😀+|é)/u`},
		{`(?s)a.b(?-s:.)`, "", `/a[^]b[^\n]/u`},
		{`(?m)^x$`, "", `/(?<=^|\n)x(?=$|\n)/u`},
		{`^*a|\b+`, "", `/(?:(?:^)*a|(?:\b)+)/u`},
		{`\Q(a)\E[[:alpha:]-]*?`, "", `/\(a\)[\-A-Za-z]*?/u`},
		{`[^/]{3}/?`, "", `/[\u{0}-\.0-\u{10ffff}]{3}\/?/u`},
		{"a\tb\u2028", "", `/a\u{9}b\u{2028}/u`},
	} {
		got, err := GoRegex(c.src, c.flags)
		if err != nil || got != c.want {
			t.Errorf("GoRegex(%q, %q) = %s, %v\nwant %s", c.src, c.flags, got, err, c.want)
		}
	}
	// \pN is Unicode's digits, as Go's tables have them, not JavaScript's "pN".
	if got, err := GoRegex(`\pN`, ""); err != nil || !strings.HasPrefix(got, "/[0-9²") || strings.Contains(got, `\p`) {
		t.Errorf("GoRegex(\\pN) = %s, %v", got, err)
	}
	for _, bad := range [][2]string{{`a(`, ""}, {`(?<=a)b`, ""}, {`a`, "g"}} {
		if _, err := GoRegex(bad[0], bad[1]); err == nil {
			t.Errorf("GoRegex(%q, %q): no error", bad[0], bad[1])
		}
	}
}

// TestRegexNeverBreaksTheSpec: a JavaScript regular expression is a
// literal only when JavaScript surely parses it; else new RegExp, which
// fails at its step and not as a syntax error of the whole spec.
func TestRegexNeverBreaksTheSpec(t *testing.T) {
	for _, c := range []struct{ src, flags string }{
		{`[`, ""}, {`(`, ""}, {`a)`, ""}, {`*x`, ""}, {`^*`, ""}, {`\b+`, ""}, {`(?i)x`, ""}, {`(?P<n>x)`, ""},
		{`(?<n>x)\k<n>`, ""}, {`\Q(\E`, ""}, {`\pL`, "u"}, {`x`, "ii"}, {`x`, "uv"}, {`x`, "q"}, {`(a)\1`, ""},
		{`a{2}{3}`, ""}, {`[z-a]`, ""}, {`\`, ""}, {`a|{2}`, ""},
	} {
		if got := Regex(c.src, c.flags); !strings.HasPrefix(got, "new RegExp(") {
			t.Errorf("Regex(%q, %q) = %s: a literal JavaScript may not parse", c.src, c.flags, got)
		}
	}
	for _, c := range []struct{ src, flags, want string }{
		{`^\/done$`, "", `/^\/done$/`},
		{`wel+come`, "i", `/wel+come/i`},
		{`(?:a|b)[^/]*\.png`, "", `/(?:a|b)[^\/]*\.png/`},
		{`\d{2,}-\w\s\S\B`, "gm", `/\d{2,}-\w\s\S\B/gm`},
	} {
		if got := Regex(c.src, c.flags); got != c.want {
			t.Errorf("Regex(%q, %q) = %s, want %s", c.src, c.flags, got, c.want)
		}
	}
}
