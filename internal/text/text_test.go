package text

import (
	"strings"
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

func TestKeep(t *testing.T) {
	cases := []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdef", 3, "abc…[clipped 3 bytes]"},
		{"héllo", 2, "h…[clipped 5 bytes]"}, // é is two bytes: not cut in half
		{strings.Repeat("x", 1_048_576), 576, strings.Repeat("x", 576) + "…[clipped 1,048,000 bytes]"},
		{"abc", 0, "…[clipped 3 bytes]"},
		{"abc", -1, "…[clipped 3 bytes]"},
		// Clipped again: both cuts counted.
		{"abcdef…[clipped 10 bytes]", 4, "abcd…[clipped 12 bytes]"},
		// Kept whole once clipped: the mark stays as it was.
		{"abc…[clipped 10 bytes]", 5, "abc…[clipped 10 bytes]"},
		// Not a mark of ours.
		{"see …[clipped x bytes]", 3, "see…[clipped 21 bytes]"},
	}
	for _, c := range cases {
		got := Keep(c.s, c.n)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("Keep(%.40q, %d) = %.80q, want %.80q", c.s, c.n, got, c.want)
		}
	}
	if n, ok := Clipped("abc…[clipped 1,234 bytes]"); !ok || n != 1234 {
		t.Errorf("Clipped = %d, %v", n, ok)
	}
	if _, ok := Clipped("abc"); ok {
		t.Errorf("Clipped(abc) = true")
	}
}

func TestJoinOr(t *testing.T) {
	for want, vs := range map[string][]string{"": nil, "a": {"a"}, "a or b": {"a", "b"}, "a, b or c": {"a", "b", "c"}} {
		if got := JoinOr(vs); got != want {
			t.Errorf("JoinOr(%q) = %q, want %q", vs, got, want)
		}
	}
}
