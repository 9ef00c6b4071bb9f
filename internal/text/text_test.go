package text

import (
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	cases := []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdef", 3, "abc…"},
		{"héllo", 2, "h…"}, // é is two bytes: not cut in half
		{"日本語", 4, "日…"},   // three bytes a character
		{"日本語", 6, "日本…"},
		{"abc", 0, "…"},
		{"abc", -1, "…"},
	}
	for _, c := range cases {
		got := Clip(c.s, c.n)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestLines(t *testing.T) {
	if got := FirstLine("a\nb"); got != "a" {
		t.Errorf("FirstLine = %q", got)
	}
	if got := FirstLine("one"); got != "one" {
		t.Errorf("FirstLine = %q", got)
	}
	if got := FirstLines("a\nb\nc", 2); len(got) != 2 || got[1] != "b" {
		t.Errorf("FirstLines = %q", got)
	}
	if got := FirstLines("a", 5); len(got) != 1 {
		t.Errorf("FirstLines = %q", got)
	}
	if got := LastLines("a\nb\nc\n", 2); got != "b\nc" {
		t.Errorf("LastLines = %q", got)
	}
	if got := LastLines("a", 3); got != "a" {
		t.Errorf("LastLines = %q", got)
	}
}
