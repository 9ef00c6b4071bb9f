package playwright

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// unquote reads a literal Quote writes, as JavaScript reads it, and
// returns what follows it.
func unquote(t testing.TB, s string) (string, string) {
	t.Helper()
	if !strings.HasPrefix(s, "'") {
		t.Fatalf("not a single-quoted literal: %q", s)
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\'':
			return b.String(), s[i+1:]
		case '\n', '\r':
			t.Fatalf("a raw line break in the literal %q", s)
		case '\\':
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case '\\', '\'':
				b.WriteByte(s[i])
			case 'x':
				n, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
				b.WriteRune(rune(n))
				i += 2
			case 'u':
				if s[i+1] == '{' {
					end := strings.IndexByte(s[i:], '}')
					n, _ := strconv.ParseUint(s[i+2:i+end], 16, 32)
					b.WriteRune(rune(n))
					i += end
				} else {
					n, _ := strconv.ParseUint(s[i+1:i+5], 16, 16)
					b.WriteRune(rune(n))
					i += 4
				}
			default:
				t.Fatalf("escape \\%c in %q", s[i], s)
			}
		default:
			b.WriteByte(c)
		}
	}
	t.Fatalf("unterminated literal %q", s)
	return "", ""
}

// eval reads an expression Value writes, with process.env read by getenv.
func eval(t testing.TB, expr string, getenv func(string) string) string {
	t.Helper()
	var out strings.Builder
	for rest := expr; rest != ""; {
		switch {
		case strings.HasPrefix(rest, "'"):
			lit, r := unquote(t, rest)
			out.WriteString(lit)
			rest = r
		default:
			paren := strings.HasPrefix(rest, "(")
			rest = strings.TrimPrefix(rest, "(")
			if !strings.HasPrefix(rest, "process.env") {
				t.Fatalf("unexpected %q in %q", rest, expr)
			}
			rest = rest[len("process.env"):]
			var name string
			if strings.HasPrefix(rest, "[") {
				name, rest = unquote(t, rest[1:])
				rest = strings.TrimPrefix(rest, "]")
			} else {
				rest = rest[1:]
				end := strings.Index(rest, " ")
				name, rest = rest[:end], rest[end:]
			}
			if !strings.HasPrefix(rest, " ?? ''") {
				t.Fatalf("no default after process.env in %q", expr)
			}
			rest = rest[len(" ?? ''"):]
			if paren {
				rest = strings.TrimPrefix(rest, ")")
			}
			out.WriteString(getenv(name))
		}
		rest = strings.TrimPrefix(rest, " + ")
	}
	return out.String()
}

func TestQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Sign up", `'Sign up'`},
		{`it's`, `'it\'s'`},
		{`a\b`, `'a\\b'`},
		{"two\nlines\r\n\ttab", `'two\nlines\r\n\ttab'`},
		{"nul\x00 esc\x1b del\x7f", `'nul\x00 esc\x1b del\x7f'`},
		{"ls\u2028ps\u2029", `'ls\u2028ps\u2029'`},
		{"Grüße, 日本語, emoji 😀", `'Grüße, 日本語, emoji 😀'`},
		{"zwsp\u200bbom\ufeff", `'zwsp\u200bbom\ufeff'`},
		{"bad \xff byte", `'bad ` + "\uFFFD" + ` byte'`},
		{"c1\u0085", `'c1\u0085'`},
		{`"double"`, `'"double"'`},
		{"${not} `tpl`", "'${not} `tpl`'"},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "a'b", "\\", "\n\r\u2028", "\x00\x7f\u0085", "😀", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		got, rest := unquote(t, q)
		if rest != "" {
			t.Fatalf("Quote(%q) = %s: the literal ends early", s, q)
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if !utf8.ValidString(s) {
			// each bad byte is one U+FFFD
			var b strings.Builder
			for i := 0; i < len(s); {
				r, n := utf8.DecodeRuneInString(s[i:])
				b.WriteRune(r)
				i += n
			}
			want = b.String()
		}
		if got != want {
			t.Fatalf("Quote(%q) = %s reads back as %q", s, q, got)
		}
	})
}

func TestValue(t *testing.T) {
	env := map[string]string{"E2E_SECRET_1": "hunter2", "NAME": "Ada", "A-B": "dash"}
	getenv := func(k string) string { return env[k] }
	for _, c := range []struct{ in, want string }{
		{"plain", `'plain'`},
		{"${E2E_SECRET_1}", `process.env.E2E_SECRET_1 ?? ''`},
		{"Hi $NAME!", `'Hi ' + (process.env.NAME ?? '') + '!'`},
		{"${A-B}", `process.env['A-B'] ?? ''`},
		{"cost $", `'cost $'`},
		{"${NAME}${NAME}", `(process.env.NAME ?? '') + (process.env.NAME ?? '')`},
	} {
		vars := map[string]bool{}
		got := Value(c.in, vars)
		if got != c.want {
			t.Errorf("Value(%q) = %s, want %s", c.in, got, c.want)
		}
		if ev, want := eval(t, got, getenv), os.Expand(c.in, getenv); ev != want {
			t.Errorf("Value(%q) = %s evaluates to %q; e2e-mcp run reads %q", c.in, got, ev, want)
		}
	}
}

// FuzzValue: what the spec reads is what e2e-mcp run reads (os.Expand).
func FuzzValue(f *testing.F) {
	for _, s := range []string{"${X}", "$X$Y", "a$", "${}", "$$", "${a b}", "$1x", "\ue000${X}", "'${X}'\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // flows are UTF-8
		}
		getenv := func(k string) string { return fmt.Sprintf("<%s>", k) }
		expr := Value(s, nil)
		if got, want := eval(t, expr, getenv), os.Expand(s, getenv); got != want {
			t.Fatalf("Value(%q) = %s evaluates to %q, want %q", s, expr, got, want)
		}
	})
}

func TestRegex(t *testing.T) {
	for _, c := range []struct{ src, flags, want string }{
		{`sign\s*up`, "i", `/sign\s*up/i`},
		{`a/b`, "", `/a\/b/`},
		{`a\/b[^/]`, "", `/a\/b[^\/]/`},
		{`*x`, "", `new RegExp('*x')`},
		{`end\`, "", `new RegExp('end\\')`},
		{`end\\`, "", `/end\\/`},
		{"tab\\\tx", "", "new RegExp('tab\\\\\\tx')"},
		{"line\nbreak", "s", `new RegExp('line\nbreak', 's')`},
	} {
		if got := Regex(c.src, c.flags); got != c.want {
			t.Errorf("Regex(%q, %q) = %s, want %s", c.src, c.flags, got, c.want)
		}
	}
}
