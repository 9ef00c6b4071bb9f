package playwright

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/e2e-mcp/e2e-mcp/flow"
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

// eval reads an expression Value writes, with env() read by lookup.
func eval(t testing.TB, expr string, lookup func(string) (string, bool)) (string, bool) {
	t.Helper()
	var out strings.Builder
	for rest := expr; rest != ""; {
		switch {
		case strings.HasPrefix(rest, "'"):
			lit, r := unquote(t, rest)
			out.WriteString(lit)
			rest = r
		case strings.HasPrefix(rest, "env("):
			name, r := unquote(t, rest[len("env("):])
			if !strings.HasPrefix(r, ")") {
				t.Fatalf("env( not closed in %q", expr)
			}
			rest = r[1:]
			v, ok := lookup(name)
			if !ok {
				return "", false // env() throws
			}
			out.WriteString(v)
		default:
			t.Fatalf("unexpected %q in %q", rest, expr)
		}
		if rest != "" && !strings.HasPrefix(rest, " + ") {
			t.Fatalf("unexpected %q in %q", rest, expr)
		}
		rest = strings.TrimPrefix(rest, " + ")
	}
	return out.String(), true
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
	env := map[string]string{"E2E_SECRET_1": "hunter2", "NAME": "Ada"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for _, c := range []struct{ in, want string }{
		{"plain", `'plain'`},
		{"", `''`},
		{"${E2E_SECRET_1}", `env('E2E_SECRET_1')`},
		{"Hi $NAME!", `'Hi ' + env('NAME') + '!'`},
		{"cost $", `'cost $'`},
		{"$100 $$NAME $${NAME}", `'$100 $NAME ${NAME}'`},
		{"${NAME}${NAME}", `env('NAME') + env('NAME')`},
		{"`$${x}` */ </script>", "'`${x}` */ </script>'"},
	} {
		vars := map[string]bool{}
		got, err := Value(c.in, vars)
		if err != nil || got != c.want {
			t.Errorf("Value(%q) = %s, %v; want %s", c.in, got, err, c.want)
		}
		ev, _ := eval(t, got, lookup)
		if want, _ := flow.Expand(c.in, lookup); ev != want {
			t.Errorf("Value(%q) = %s evaluates to %q; e2e-mcp run reads %q", c.in, got, ev, want)
		}
	}
	if _, err := Value("${", nil); err == nil {
		t.Error("a malformed text converts")
	}
}

// FuzzValue: what the spec reads is what e2e-mcp run reads (flow.Expand),
// and an unset variable fails both.
func FuzzValue(f *testing.F) {
	for _, s := range []string{"${X}", "$X$Y", "a$", "${}", "$$", "${a b}", "$1x", "\ue000${X}", "'${X}'\n", "$UNSET", "$$$X"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // flows are UTF-8
		}
		lookup := func(k string) (string, bool) { return fmt.Sprintf("<%s>", k), k != "UNSET" }
		want, werr := flow.Expand(s, lookup)
		expr, err := Value(s, nil)
		if (err != nil) != (werr != nil && !isUnset(werr)) {
			t.Fatalf("Value(%q): %v; Expand: %v", s, err, werr)
		}
		if err != nil {
			return
		}
		got, ok := eval(t, expr, lookup)
		if ok != (werr == nil) || ok && got != want {
			t.Fatalf("Value(%q) = %s evaluates to %q (%v), want %q (%v)", s, expr, got, ok, want, werr)
		}
	})
}

func isUnset(err error) bool {
	var u *flow.UnsetError
	return errors.As(err, &u)
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

// FuzzConvertText: whatever an agent typed, recorded (flow.Escape) and
// exported, the spec fills the field with exactly that text, on one line,
// reading no environment.
func FuzzConvertText(f *testing.F) {
	for _, s := range []string{"PROMO-$AWS_SECRET_ACCESS_KEY", "${HOME}", "$100", "$$", "${", "it's \"q\" \\", "a\nb\u2028", "*/ </script>", "`${x}`", "😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // tool arguments arrive as JSON: always UTF-8
		}
		fl := &flow.Flow{Name: "t", Steps: []flow.Step{{Action: "type", Args: map[string]any{"target": "#a", "text": flow.Escape(s)}}}}
		spec, err := Convert(fl, Options{})
		if err != nil {
			t.Fatalf("Convert(%q): %v", s, err)
		}
		const call = "  await page.locator('#a').fill("
		var line string
		for _, l := range strings.Split(spec.Text, "\n") {
			if strings.HasPrefix(l, call) {
				line = l
			}
		}
		if !strings.HasSuffix(line, ");") || len(spec.Env) > 0 {
			t.Fatalf("no fill line, or the spec reads the environment (%v):\n%s", spec.Env, spec.Text)
		}
		got, _ := eval(t, strings.TrimSuffix(strings.TrimPrefix(line, call), ");"), nil)
		if got != s {
			t.Fatalf("the spec fills %q, want %q:\n%s", got, s, spec.Text)
		}
	})
}
