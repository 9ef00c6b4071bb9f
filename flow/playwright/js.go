package playwright

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
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

// identRE is a name that can follow process.env. as it is.
var identRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// envRef is how the spec reads an environment variable: empty when unset, as
// e2e-mcp run has it (os.Expand).
func envRef(name string) string {
	if identRE.MatchString(name) {
		return "(process.env." + name + " ?? '')"
	}
	return "(process.env[" + Quote(name) + "] ?? '')"
}

// Value is a string argument of a step as a TypeScript expression: a
// literal, or, when it names environment variables ($VAR, ${VAR}, as
// e2e-mcp run expands them with os.Expand), the literal parts joined with
// process.env reads. vars collects the names.
func Value(s string, vars map[string]bool) string {
	if !strings.Contains(s, "$") {
		return Quote(s)
	}
	// os.Expand itself decides what is a reference: each name it asks for
	// becomes a marker that cannot occur in s, and s is cut at them.
	mark := "\ue000"
	for strings.Contains(s, mark) {
		mark += "\ue001"
	}
	var names []string
	out := os.Expand(s, func(name string) string {
		names = append(names, name)
		return mark
	})
	if len(names) == 0 {
		return Quote(out)
	}
	pieces := strings.Split(out, mark)
	var parts []string
	for i, p := range pieces {
		if p != "" {
			parts = append(parts, Quote(p))
		}
		if i < len(names) {
			parts = append(parts, envRef(names[i]))
			if vars != nil {
				vars[names[i]] = true
			}
		}
	}
	if len(parts) == 1 {
		return strings.TrimSuffix(strings.TrimPrefix(parts[0], "("), ")")
	}
	return strings.Join(parts, " + ")
}

// Regex is a regular expression (its source and flags, JavaScript's
// syntax) as a TypeScript expression: a /literal/ (a / in it escaped) when
// that can be written on one line, else new RegExp(...).
func Regex(src, flags string) string {
	var b strings.Builder
	safe := src != "" && !strings.HasPrefix(src, "*")
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
