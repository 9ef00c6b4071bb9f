package devserver

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitCommandLine(t *testing.T) {
	port := func(name string) (string, bool) {
		if name == "PORT" {
			return "4321", true
		}
		return "", false
	}
	cases := []struct {
		in   string
		want []string
	}{
		{"npm run dev -- --port $PORT", []string{"npm", "run", "dev", "--", "--port", "4321"}},
		{`vite --port=${PORT} --host "127.0.0.1"`, []string{"vite", "--port=4321", "--host", "127.0.0.1"}},
		{`echo '$PORT' "$PORT" \$PORT $HOME ${X} $ 'a b'c`, []string{"echo", "$PORT", "4321", "$PORT", "$HOME", "${X}", "$", "a bc"}},
		{`a "x \" \\ \n" b\ c '' ""`, []string{"a", `x " \ \n`, "b c", "", ""}},
		{"  PORT=9 FOO='a b' cmd   arg\t", []string{"PORT=9", "FOO=a b", "cmd", "arg"}},
		{`python3 -c "print(\"$PORT\")"`, []string{"python3", "-c", `print("4321")`}},
	}
	for _, c := range cases {
		got, err := splitCommandLine(c.in, port)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitCommandLine(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{`a 'b`, `a "b`} {
		if _, err := splitCommandLine(bad, nil); err == nil {
			t.Errorf("splitCommandLine(%q): no error", bad)
		}
	}
	assigns, argv := splitAssignments([]string{"PORT=9", "FOO=a b", "cmd", "X=1"})
	if !reflect.DeepEqual(assigns, []string{"PORT=9", "FOO=a b"}) || !reflect.DeepEqual(argv, []string{"cmd", "X=1"}) {
		t.Fatalf("splitAssignments: %q %q", assigns, argv)
	}
}

// FuzzSplitCommandLine: any command line splits or is refused, never a
// panic; words single-quoted and joined again split back to themselves.
func FuzzSplitCommandLine(f *testing.F) {
	for _, s := range []string{"npm run dev -- --port $PORT", `a "b c" 'd'`, `x\`, `"unterminated`, "${", "$", "a\x00b", "PORT=1 cmd"} {
		f.Add(s)
	}
	none := func(string) (string, bool) { return "", false }
	f.Fuzz(func(t *testing.T, s string) {
		words, err := splitCommandLine(s, none)
		if err != nil {
			return
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
		again, err := splitCommandLine(strings.Join(quoted, " "), none)
		if err != nil || !reflect.DeepEqual(again, words) && len(words) > 0 {
			t.Fatalf("split %q = %q; quoted and split again: %q, %v", s, words, again, err)
		}
	})
}
