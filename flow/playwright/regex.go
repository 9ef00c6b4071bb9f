package playwright

import (
	"fmt"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"
)

// A spec must parse whatever the flow holds: an invalid /regex/ literal is
// a syntax error of the whole file, where new RegExp(...) fails only its
// step. Two kinds of regular expressions reach a spec:
//
//   - route patterns are Go's (RE2: browser_route compiles them with
//     regexp), and JavaScript reads many of them another way or not at
//     all ((?i), (?P<name>...), \z, \pL, \Q...\E, [[:alpha:]]): GoRegex
//     translates them, node by node of Go's own parse, into a JavaScript
//     RegExp of the same matches;
//   - the rest (waits for a URL, expected texts, locators' names) are
//     JavaScript's, as the page reads them: Regex writes them as a literal
//     only when plainRegex can tell that JavaScript parses it.

// GoRegex is a route's /regex/flags (Go's syntax, flags i, s or m, as
// browser_route compiles it) as a JavaScript RegExp literal with the same
// matches, or the error browser_route gives that pattern.
func GoRegex(src, flags string) (string, error) {
	for _, f := range flags {
		if f != 'i' && f != 's' && f != 'm' {
			return "", fmt.Errorf("the route pattern's flag %q: a route takes i, s or m", string(f))
		}
		src = "(?" + string(f) + ")" + src
	}
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return "", fmt.Errorf("the route pattern is not a regular expression of Go's syntax: %v", err)
	}
	var b strings.Builder
	b.WriteByte('/')
	jsNode(&b, re)
	// u: code points, as Go matches runes, and strict parsing.
	b.WriteString("/u")
	return b.String(), nil
}

// jsNode writes a node of Go's parse in JavaScript's syntax (the u flag,
// no other): captures become plain groups (a match test needs none), case
// folding classes of the folded runes, Go's line anchors lookarounds on
// \n alone (JavaScript's m flag would also take \r, U+2028 and U+2029),
// written so that none holds inside a surrogate pair.
func jsNode(b *strings.Builder, re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpNoMatch:
		b.WriteString("[]")
	case syntax.OpEmptyMatch:
		b.WriteString("(?:)")
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				if fold := foldOrbit(r); len(fold) > 1 {
					b.WriteByte('[')
					for _, f := range fold {
						b.WriteString(classRune(f))
					}
					b.WriteByte(']')
					continue
				}
			}
			b.WriteString(literalRune(r))
		}
	case syntax.OpCharClass:
		b.WriteByte('[')
		for i := 0; i+1 < len(re.Rune); i += 2 {
			b.WriteString(classRune(re.Rune[i]))
			if re.Rune[i+1] != re.Rune[i] {
				b.WriteByte('-')
				b.WriteString(classRune(re.Rune[i+1]))
			}
		}
		b.WriteByte(']')
	case syntax.OpAnyCharNotNL:
		b.WriteString(`[^\n]`)
	case syntax.OpAnyChar:
		b.WriteString(`[^]`)
	case syntax.OpBeginLine:
		b.WriteString(`(?<=^|\n)`)
	case syntax.OpEndLine:
		b.WriteString(`(?=$|\n)`)
	case syntax.OpBeginText:
		b.WriteString("^")
	case syntax.OpEndText:
		b.WriteString("$")
	case syntax.OpWordBoundary:
		b.WriteString(`\b`)
	case syntax.OpNoWordBoundary:
		// V8 also tries the middle of a surrogate pair, where \B
		// holds; Go looks only between characters.
		b.WriteString(`(?:^|(?<=[^]))\B`)
	case syntax.OpCapture:
		b.WriteString("(?:")
		jsNode(b, re.Sub[0])
		b.WriteByte(')')
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		// The operand is a group unless it is one character: a
		// JavaScript quantifier takes neither an assertion nor a
		// lookaround.
		if sub := re.Sub[0]; sub.Op == syntax.OpCharClass || sub.Op == syntax.OpAnyChar || sub.Op == syntax.OpAnyCharNotNL ||
			sub.Op == syntax.OpLiteral && len(sub.Rune) == 1 {
			jsNode(b, sub)
		} else {
			b.WriteString("(?:")
			jsNode(b, sub)
			b.WriteByte(')')
		}
		switch re.Op {
		case syntax.OpStar:
			b.WriteByte('*')
		case syntax.OpPlus:
			b.WriteByte('+')
		case syntax.OpQuest:
			b.WriteByte('?')
		default:
			b.WriteString("{" + strconv.Itoa(re.Min))
			if re.Max != re.Min {
				b.WriteByte(',')
				if re.Max >= 0 {
					b.WriteString(strconv.Itoa(re.Max))
				}
			}
			b.WriteByte('}')
		}
		if re.Flags&syntax.NonGreedy != 0 {
			b.WriteByte('?')
		}
	case syntax.OpConcat:
		for _, s := range re.Sub {
			jsNode(b, s)
		}
	case syntax.OpAlternate:
		b.WriteString("(?:")
		for i, s := range re.Sub {
			if i > 0 {
				b.WriteByte('|')
			}
			jsNode(b, s)
		}
		b.WriteByte(')')
	default:
		// Every Op of regexp/syntax is above; one added later matches
		// nothing rather than something else.
		b.WriteString("[]")
	}
}

// foldOrbit is r and the runes Go's case folding takes as equal to it.
func foldOrbit(r rune) []rune {
	out := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		out = append(out, f)
	}
	return out
}

// literalRune is a rune outside a class: syntax characters (and /)
// escaped, characters that do not print as \u{...}.
func literalRune(r rune) string {
	if r < 0x80 && strings.ContainsRune(`^$\.*+?()[]{}|/`, r) {
		return `\` + string(r)
	}
	return printable(r)
}

// classRune is a rune inside a class: - and the syntax characters escaped.
func classRune(r rune) string {
	if r < 0x80 && strings.ContainsRune(`^$\.*+?()[]{}|/-`, r) {
		return `\` + string(r)
	}
	return printable(r)
}

// printable is r as it is when it prints on a line of its own, else
// \u{...} (the u flag's escape).
func printable(r rune) string {
	if r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 || r > unicode.MaxRune || !unicode.IsPrint(r) && r != ' ' {
		return fmt.Sprintf(`\u{%x}`, r)
	}
	return string(r)
}

// plainRegex reports whether JavaScript surely parses /src/flags: flags of
// the literal form, each once, without u or v (whose stricter syntax this
// does not check); groups only (...) and (?:...); escapes only of
// punctuation and of \d \w \s \b \n \r \t \f \v and their capitals (no
// backreference, \p, \k, \c, \x, \u or Go's \Q, \z); and Go's parser
// accepts it (parentheses and brackets close, every quantifier has an
// operand, ranges are in order) with no quantified assertion (^*), which
// Go takes and JavaScript does not.
func plainRegex(src, flags string) bool {
	for i, f := range flags {
		if !strings.ContainsRune("dgimsy", f) || strings.ContainsRune(flags[i+1:], f) {
			return false
		}
	}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\\':
			if i+1 >= len(src) {
				return false
			}
			c := rune(src[i+1])
			punct := c < 0x80 && (unicode.IsPunct(c) || unicode.IsSymbol(c))
			if !punct && !strings.ContainsRune("dDwWsSbBnrtfv", c) {
				return false
			}
			i++
		case '(':
			if strings.HasPrefix(src[i+1:], "?") && !strings.HasPrefix(src[i+1:], "?:") {
				return false
			}
		}
	}
	re, err := syntax.Parse(src, syntax.Perl)
	return err == nil && !quantifiedAssertion(re)
}

func quantifiedAssertion(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		switch re.Sub[0].Op {
		case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
			return true
		}
	}
	for _, s := range re.Sub {
		if quantifiedAssertion(s) {
			return true
		}
	}
	return false
}
