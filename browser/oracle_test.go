package browser

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Playwright as the oracle: scripts/oracle/generate.mjs (make oracle) runs
// real Playwright over the pages of testdata/corpus and testdata/oracle/pages
// and writes its answers under testdata/oracle; these tests hold the engine
// to them, with no Node. Where the engine differs on purpose, or has not been
// brought in line yet, the case is listed in testdata/oracle/differences.txt
// with its reason; a listed case that agrees fails too, so the list stays true.

const oracleDir = "testdata/oracle"

func init() {
	files, err := filepath.Glob(filepath.Join(oracleDir, "pages", "*.html"))
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			panic(err)
		}
		pages["/oracle/"+strings.TrimSuffix(filepath.Base(f), ".html")] = string(b)
	}
}

// oracleCase is one selector of selectors.txt and Playwright's answer.
type oracleCase struct {
	Page       string   `json:"page"`
	Selector   string   `json:"selector"`
	Playwright string   `json:"playwright"`
	Match      []string `json:"match"`
	Error      string   `json:"error"`
}

// oracleDifferences reads differences.txt: "KIND | PAGE | CASE | reason"
// lines, KIND being selector or aria (CASE is empty for aria).
func oracleDifferences(t *testing.T, kind string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(oracleDir, "differences.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "# ") || line == "#" {
			continue
		}
		parts := strings.SplitN(line, " | ", 4)
		if len(parts) != 4 {
			t.Fatalf("differences.txt: %q is not KIND | PAGE | CASE | reason", line)
		}
		if parts[0] == kind {
			out[parts[1]+" | "+parts[2]] = parts[3]
		}
	}
	return out
}

// pathOfJS is the function the generator names elements with.
func pathOfJS(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "scripts", "oracle", "generate.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)// PATH_OF begin\nconst PATH_OF = `(.*?)`;\n// PATH_OF end").FindSubmatch(b)
	if m == nil {
		t.Fatal("generate.mjs has no PATH_OF block")
	}
	return string(m[1])
}

func TestOracleSelectors(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(oracleDir, "selectors.golden.json"))
	if err != nil {
		t.Fatalf("%v (make oracle writes it)", err)
	}
	var cases []oracleCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	known := oracleDifferences(t, "selector")
	pathOf := pathOfJS(t)
	opened := map[string]*Page{}
	agree, listed := 0, 0
	seen := map[string]bool{}
	for _, c := range cases {
		p := opened[c.Page]
		if p == nil {
			p = openPage(t, "/"+c.Page)
			opened[c.Page] = p
		}
		got, gotErr := engineMatches(p, c.Selector, pathOf)
		same := (gotErr != nil) == (c.Error != "") && (gotErr != nil || slices.Equal(got, c.Match))
		key := c.Page + " | " + c.Selector
		seen[key] = true
		_, isKnown := known[key]
		switch {
		case same && isKnown:
			t.Errorf("%s: agrees with Playwright now; remove it from differences.txt", key)
		case same:
			agree++
		case isKnown:
			listed++
		default:
			want := fmt.Sprint(c.Match)
			if c.Error != "" {
				want = "error: " + c.Error
			}
			have := fmt.Sprint(got)
			if gotErr != nil {
				have = "error: " + gotErr.Error()
			}
			t.Errorf("%s (Playwright: %s)\n  engine:     %s\n  Playwright: %s", key, c.Playwright, have, want)
		}
	}
	for key := range known {
		if !seen[key] {
			t.Errorf("differences.txt lists %q, which selectors.txt does not have", key)
		}
	}
	t.Logf("selectors: %d cases against Playwright: %d agree, %d listed differences", len(cases), agree, listed)
}

// engineMatches runs a selector through the engine as an action would
// (parsed in Go, matched in the page) and names what it matches.
func engineMatches(p *Page, sel, pathOf string) ([]string, error) {
	s, err := ParseSelector(sel, "data-testid")
	if err != nil {
		return nil, err
	}
	parts, err := json.Marshal(s.Parts)
	if err != nil {
		return nil, err
	}
	var got []string
	err = p.evalEngine(context.Background(), "__e2e.all("+string(parts)+").map("+pathOf+")", &got)
	return got, err
}

// ariaLike turns the engine's snapshot into what Playwright's default
// ariaSnapshot() shows: no refs, no [active] or [cursor=pointer], and no
// unnamed generic nodes (their children take their place).
func ariaLike(yaml string) string {
	mark := regexp.MustCompile(` \[(ref=[^\]]+|active|cursor=pointer)\]`)
	type frame struct{ indent, drop int }
	var out []string
	var stack []frame // unnamed generics dropped: their indent and how much their children move left
	for _, line := range strings.Split(strings.TrimRight(yaml, "\n"), "\n") {
		line = mark.ReplaceAllString(line, "")
		indent := len(line) - len(strings.TrimLeft(line, " "))
		for len(stack) > 0 && indent <= stack[len(stack)-1].indent {
			stack = stack[:len(stack)-1]
		}
		shift := 0
		for _, f := range stack {
			shift += f.drop
		}
		body := strings.TrimLeft(line, " ")
		switch {
		case body == "- generic:":
			stack = append(stack, frame{indent, 2})
			continue
		case body == "- generic":
			continue
		case strings.HasPrefix(body, "- generic: "):
			body = "- text: " + strings.TrimPrefix(body, "- generic: ")
		}
		line = strings.Repeat(" ", indent-shift) + body
		// Text lines that end up side by side once the generics are gone are
		// one text, as Playwright joins them.
		if n := len(out); n > 0 && strings.HasPrefix(body, "- text: ") {
			prev := out[n-1]
			pi := len(prev) - len(strings.TrimLeft(prev, " "))
			if pi == indent-shift && strings.HasPrefix(strings.TrimLeft(prev, " "), "- text: ") {
				a := yamlText(strings.TrimPrefix(strings.TrimLeft(prev, " "), "- text: "))
				b := yamlText(strings.TrimPrefix(body, "- text: "))
				out[n-1] = strings.Repeat(" ", pi) + "- text: " + yamlQuote(a+" "+b)
				continue
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// yamlText reads a YAML scalar as the snapshots write it: plain, or
// double-quoted with JSON escapes.
func yamlText(s string) string {
	var v string
	if strings.HasPrefix(s, `"`) && json.Unmarshal([]byte(s), &v) == nil {
		return v
	}
	return s
}

// yamlQuote writes s as a snapshot does: double-quoted when plain would be
// read otherwise.
func yamlQuote(s string) string {
	if s == "" || strings.ContainsAny(s, ":#\"'{}[],&*!|>%@`") || strings.TrimSpace(s) != s ||
		regexp.MustCompile(`^[-?\d.]`).MatchString(s) {
		b, _ := json.Marshal(s)
		return string(b)
	}
	return s
}

func TestOracleAria(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(oracleDir, "aria", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no aria goldens in %s/aria (make oracle writes them): %v", oracleDir, err)
	}
	known := oracleDifferences(t, "aria")
	agree, listed := 0, 0
	seen := map[string]bool{}
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".yaml")
		kind, name, _ := strings.Cut(base, "-")
		page := kind + "/" + name
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := openPage(t, "/"+page)
		got := ariaLike(snapshot(t, p, SnapshotOptions{Full: true}).YAML)
		key := page + " | "
		seen[key] = true
		_, isKnown := known[key]
		same := got == strings.TrimRight(string(want), "\n")
		switch {
		case same && isKnown:
			t.Errorf("%s: agrees with Playwright now; remove it from differences.txt", page)
		case same:
			agree++
		case isKnown:
			listed++
		default:
			t.Errorf("aria snapshot of %s differs from Playwright's (%s):\n%s", page, f, lineDiff(string(want), got+"\n"))
		}
	}
	for key := range known {
		if !seen[key] {
			t.Errorf("differences.txt lists aria page %q, which has no golden", key)
		}
	}
	t.Logf("aria snapshots: %d pages against Playwright: %d agree, %d listed differences", len(files), agree, listed)
}
