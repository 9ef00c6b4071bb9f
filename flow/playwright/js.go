package playwright

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

// Quote writes s as a single-quoted TypeScript string literal. Quotes,
// backslashes, line breaks (Unicode's too), other control characters and
// characters that do not print are escaped; the rest of Unicode is kept
// as it is, and bytes that are not UTF-8 become U+FFFD, as they would when
// the flow was read.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch r {
		case '\'':
			b.WriteString(`\'`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			switch {
			case r < 0x20 || r == 0x7f:
				fmt.Fprintf(&b, `\x%02x`, r)
			case r == 0x2028 || r == 0x2029 || !unicode.IsPrint(r) && r != ' ':
				if r > 0xffff {
					fmt.Fprintf(&b, `\u{%x}`, r)
				} else {
					fmt.Fprintf(&b, `\u%04x`, r)
				}
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// envHelper is what a spec that reads the environment starts with: the
// names it reads, and env(), which fails the test when one of them is not
// set (set but empty is allowed), as e2e-mcp run fails the flow before its
// first step; the test's first line calls checkEnv().
const envHelper = `// The environment variables the flow reads. As with e2e-mcp run, the test fails
// before its first step when one is not set (set to an empty value is allowed).
const envNames: string[] = %s;
function checkEnv(): void {
  const unset = envNames.filter((name) => process.env[name] === undefined);
  if (unset.length > 0) throw new Error('environment variables the flow reads are not set: ' + unset.join(', '));
}
function env(name: string): string {
  checkEnv();
  return process.env[name] ?? '';
}
`

// pageCodeHelper is what a spec with page code (an evaluate step) starts
// with: pageCode() makes the function Playwright sends to the page out of
// the agent's text, as e2e-mcp runs it (a function called with the
// step's element, if any; or an expression), without writing the text as
// code of the spec, which a text that is not TypeScript would break.
const pageCodeHelper = `// Page code the agent ran (browser_evaluate), as e2e-mcp runs it: a function
// called with the step's element (if any), or an expression. Playwright
// sends the function's text to the page; Node only parses it.
function pageCode(src: string): (el?: unknown) => unknown {
  return new Function('return function (el) { const f = (' + src + '\n); return typeof f === "function" ? f(el) : f; }')();
}
`

// expr is a flow text's parts (flow.Parts) as a TypeScript expression: a
// literal, or the literal parts joined with env() reads of the variables.
// vars collects the names.
func expr(parts []flow.Part, vars map[string]bool) string {
	var out []string
	for _, p := range parts {
		if p.Literal() {
			if p.Text != "" || len(parts) == 1 {
				out = append(out, Quote(p.Text))
			}
			continue
		}
		if p.Row != "" {
			// The data row the test loop runs for (data.go).
			out = append(out, "row["+Quote(p.Row)+"]")
			continue
		}
		out = append(out, "env("+Quote(p.Var)+")")
		if vars != nil {
			vars[p.Var] = true
		}
	}
	return strings.Join(out, " + ")
}

// Value is a flow text as a TypeScript expression of what e2e-mcp run
// types for it: a literal ($$ read as $), or literals and env() reads of
// the variables it names (collected in vars).
func Value(text string, vars map[string]bool) (string, error) {
	parts, err := flow.Parts(text)
	if err != nil {
		return "", err
	}
	return expr(parts, vars), nil
}

// Regex is a regular expression (its source and flags, JavaScript's
// syntax) as a TypeScript expression: a /literal/ (a / in it escaped) when
// that can be written on one line and JavaScript surely parses it
// (plainRegex), else new RegExp(...), which fails at its step, not as a
// syntax error of the whole spec.
func Regex(src, flags string) string {
	var b strings.Builder
	safe := src != "" && plainRegex(src, flags)
	for i := 0; safe && i < len(src); {
		r, n := utf8.DecodeRuneInString(src[i:])
		switch {
		case r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 || r == utf8.RuneError || !unicode.IsPrint(r) && r != ' ':
			safe = false
		case r == '\\':
			// An escape is copied whole; a last backslash would escape
			// the closing /.
			r2, n2 := utf8.DecodeRuneInString(src[i+1:])
			if i+1 >= len(src) || r2 < 0x20 || r2 == 0x7f || r2 == 0x2028 || r2 == 0x2029 || r2 == utf8.RuneError || !unicode.IsPrint(r2) {
				safe = false
				break
			}
			b.WriteString(src[i : i+1+n2])
			i += 1 + n2
			continue
		case r == '/':
			b.WriteString(`\/`)
			i++
			continue
		}
		b.WriteString(src[i : i+n])
		i += n
	}
	if safe {
		return "/" + b.String() + "/" + flags
	}
	if flags == "" {
		return "new RegExp(" + Quote(src) + ")"
	}
	return "new RegExp(" + Quote(src) + ", " + Quote(flags) + ")"
}

// comment makes text safe for a // comment on one line.
func comment(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, s)
	if len(s) > 160 {
		cut := 157
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}
