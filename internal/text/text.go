// Package text holds the few string helpers every package needs for what
// it shows: clipping to a size without cutting a character, and first or
// last lines.
package text

import (
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
