//go:build pwcheck

package playwright

import (
	"encoding/json"
	"math/rand"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestPlaywrightCheckGoRegex (make playwright-check, which has Node): the
// RegExp GoRegex writes of a route's pattern parses in Node as a spec's
// literal does and matches what Go's regexp matches, on patterns that
// exercise each kind of node Go's parser makes and on random mixes of them.
func TestPlaywrightCheckGoRegex(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed: %v", err)
	}
	patterns := []string{
		`k`, `(?i)k`, `(?i)s`, `(?i)ß`, `(?i)[a-c]x`, `(?i)Ω`, `.`, `(?s).`, `^a$`, `(?m)^a$`, `(?m)$`, `\bx\b`, `\B`,
		`a*?b`, `a{2,3}`, `a{2,}`, `a{0}`, `(a|b)+c`, `(?P<n>x)\z`, `\Ax`, `\pL+`, `\p{Greek}`, `\PN`, `[[:alpha:]]+`,
		`[^[:space:]]`, `\Q(a)\E`, `\x{1F600}`, `[^\n]`, `[\x{0}-\x{10FFFF}]`, `^*a`, `(?:)`, `a|`, `\d\D\w\W\s\S`,
		`/api/users/\d+$`, `(?i)/API/`, `[\-\]\[^]`, `\.\*\+\?\(\)\{\}\|\/`, `x{2}?`, `(?U)a+`, "\t", `é|😀`,
	}
	atoms := []string{`a`, `K`, `(?i:s)`, `.`, `\d`, `[^a-z]`, `\b`, `^`, `$`, `(?m:^)`, `(?m:$)`, `\n`, `😀`, `\pL`, `[[:punct:]]`, `/`, `\.`, `\B`, `(?s:.)`, `[^😀]`, `(?i:k)`, `(?:)`}
	ops := []string{"", "*", "+", "?", "{2}", "{1,2}", "*?", "+?"}
	r := rand.New(rand.NewSource(1))
	for range 600 {
		var b strings.Builder
		for range 1 + r.Intn(4) {
			a := atoms[r.Intn(len(atoms))]
			if r.Intn(4) == 0 {
				a = "(" + a + "|" + atoms[r.Intn(len(atoms))] + ")"
			}
			b.WriteString(a + ops[r.Intn(len(ops))])
		}
		patterns = append(patterns, b.String())
	}
	inputs := []string{"", "a", "A", "k", "K", "\u212a", "s", "S", "\u017f", "ß", "ẞ", "x", "ax", "x y", "aab", "aaab", "ac", "bc",
		"line1\nline2", "a\n", "\na", "\r", "a\u2028b", "😀", "Ωμέγα", "ω", "123", "٣", "(a)", "/api/users/12", "/API/users/x",
		"a.b*c", "é", "\t", "-]", "[^", "K/s.9!", "\nK\n"}
	type job struct {
		Re     string   `json:"re"`
		Inputs []string `json:"inputs"`
	}
	var jobs []job
	var want [][]bool
	for _, p := range patterns {
		re, err := GoRegex(p, "")
		if err != nil {
			if _, gerr := regexp.Compile(p); gerr == nil {
				t.Errorf("GoRegex(%q): %v, but Go compiles it", p, err)
			}
			continue
		}
		gore := regexp.MustCompile(p)
		var w []bool
		for _, in := range inputs {
			w = append(w, gore.MatchString(in))
		}
		jobs = append(jobs, job{re, inputs})
		want = append(want, w)
	}
	in, _ := json.Marshal(jobs)
	// Each literal is parsed as the spec's source would be: a syntax
	// error is reported, not thrown past the others.
	script := `let s = ''; process.stdin.setEncoding('utf8'); process.stdin.on('data', (d) => s += d); process.stdin.on('end', () => {
  const out = JSON.parse(s).map((j) => {
    let re;
    try { re = new Function('return ' + j.re)(); } catch (e) { return String(e); }
    return j.inputs.map((x) => re.test(x));
  });
  process.stdout.write(JSON.stringify(out));
});`
	cmd := exec.Command(node, "-e", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got []json.RawMessage
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node's answer: %v\n%s", err, out)
	}
	for i, j := range jobs {
		var matches []bool
		if err := json.Unmarshal(got[i], &matches); err != nil {
			t.Errorf("%s (of %q) does not parse in Node: %s", j.Re, patterns[i], got[i])
			continue
		}
		for k, m := range matches {
			if m != want[i][k] {
				t.Errorf("%s (of Go's %q) on %q: JavaScript %v, Go %v", j.Re, patterns[i], inputs[k], m, want[i][k])
			}
		}
	}
	t.Logf("%d patterns, %d inputs each: Node and Go agree", len(jobs), len(inputs))
}
