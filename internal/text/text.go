// Package text holds the few string helpers every package needs for what
// it shows: clipping to a size without cutting a character, and first or
// last lines.
package text

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Clip returns s when it has at most n bytes, else its longest prefix of
// whole characters within n bytes followed by "…".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n < 0 {
		n = 0
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// FirstLine is s up to its first line break.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// FirstLines is s's first n lines.
func FirstLines(s string, n int) []string {
	lines := strings.Split(s, "\n")
	return lines[:min(max(n, 0), len(lines))]
}

// LastLines is s's last n lines (a final line break does not count as an
// empty line).
func LastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-max(n, 0)):], "\n")
}

// ClipMark starts the mark Keep puts where it clipped a text: "…[clipped
// 1,048,000 bytes]".
const ClipMark = "…[clipped "

// Keep is what a store keeps of s, at most about n bytes: s itself when it
// has at most n bytes, else its longest prefix of whole characters within n
// bytes followed by a mark that says how many bytes were left out
// ("…[clipped 1,048,000 bytes]"), so that nothing shown from it claims a
// value it does not hold. A text Keep clipped before is clipped again with
// the bytes left out both times counted. The result never shares memory
// with s: a short text kept from a large one does not keep the large one
// alive.
func Keep(s string, n int) string {
	if len(s) <= n {
		return strings.Clone(s)
	}
	n = max(n, 0)
	left := len(s) - n
	if body, was, ok := cutMark(s); ok {
		if len(body) <= n {
			return strings.Clone(s)
		}
		left = len(body) - n + was
		s = body
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
		left++
	}
	return s[:n] + ClipMark + Commas(left) + " bytes]"
}

// Clipped reports whether s ends with the mark Keep puts, and how many
// bytes it says were left out.
func Clipped(s string) (int, bool) {
	_, n, ok := cutMark(s)
	return n, ok
}

// cutMark splits a text Keep clipped into what it kept and the bytes it
// says it left out.
func cutMark(s string) (string, int, bool) {
	if !strings.HasSuffix(s, " bytes]") {
		return s, 0, false
	}
	i := strings.LastIndex(s, ClipMark)
	if i < 0 {
		return s, 0, false
	}
	num := strings.ReplaceAll(s[i+len(ClipMark):len(s)-len(" bytes]")], ",", "")
	n := 0
	for _, c := range num {
		if c < '0' || c > '9' {
			return s, 0, false
		}
		n = n*10 + int(c-'0')
	}
	if num == "" {
		return s, 0, false
	}
	return s[:i], n, true
}

// Commas writes n with commas between groups of three digits: 1,048,000.
func Commas(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// JoinOr lists vs as "a, b or c" (the choices an error offers).
func JoinOr(vs []string) string {
	var b strings.Builder
	for i, v := range vs {
		switch {
		case i == 0:
		case i == len(vs)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(v)
	}
	return b.String()
}
