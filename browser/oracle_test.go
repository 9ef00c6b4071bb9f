//go:build !unit

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

func init() { servePages(filepath.Join(oracleDir, "pages"), "/oracle/") }

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
// (parsed in Go, matched in the page, continued inside an iframe the chain
// reaches) and names what it matches in the document it ends in.
func engineMatches(p *Page, sel, pathOf string) ([]string, error) {
	ctx := context.Background()
	loc, err := p.locate(sel)
	if err != nil {
		return nil, err
	}
	for hops := 0; hops <= 8; hops++ {
		parts, err := json.Marshal(loc.rest)
		if err != nil {
			return nil, err
		}
		var got []string
		if err := p.evalIn(ctx, loc.frame, "__e2e.all("+string(parts)+").map("+pathOf+")", &got); err != nil || len(got) > 0 {
			return got, err
		}
		// Nothing here: the chain may have stopped at an iframe, to go on
		// in its document.
		var found bool
		err = p.evalIn(ctx, loc.frame, "(__e2e.one("+string(parts)+", ''), true)", &found)
		next, entered, ferr := p.enterFrame(ctx, loc, err)
		if !entered {
			return got, nil
		}
		if ferr != nil {
			return nil, ferr
		}
		loc = next
	}
	return nil, fmt.Errorf("%s: more than 8 frames deep", sel)
}

// ariaNode is one line of an aria snapshot: its key (role, name and
// attributes, or /url and the like), its inline value and its children.
type ariaNode struct {
	key, value string
	kids       []*ariaNode
}

// parseAria reads the YAML lines of a snapshot into a tree.
func parseAria(yaml string) []*ariaNode {
	root := &ariaNode{}
	type open struct {
		indent int
		n      *ariaNode
	}
	stack := []open{{-1, root}}
	for _, line := range strings.Split(strings.TrimRight(yaml, "\n"), "\n") {
		body := strings.TrimLeft(line, " ")
		if !strings.HasPrefix(body, "- ") {
			continue
		}
		indent := len(line) - len(body)
		key, value := splitAriaLine(body[2:])
		n := &ariaNode{key: key, value: value}
		for len(stack) > 1 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		parent := stack[len(stack)-1].n
		parent.kids = append(parent.kids, n)
		stack = append(stack, open{indent, n})
	}
	return root.kids
}

// splitAriaLine splits "key: value", "key:" and "key", the key possibly
// single-quoted ('combobox "a: b"':), the value possibly double-quoted.
func splitAriaLine(s string) (key, value string) {
	if strings.HasPrefix(s, "'") {
		i := 1
		for i < len(s) && (s[i] != '\'' || (i+1 < len(s) && s[i+1] == '\'')) {
			if s[i] == '\'' {
				i++
			}
			i++
		}
		key = strings.ReplaceAll(s[1:min(i, len(s))], "''", "'")
		s = s[min(i+1, len(s)):]
		return key, yamlText(strings.TrimPrefix(strings.TrimPrefix(s, ":"), " "))
	}
	inQuote := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && inQuote:
			i++
		case s[i] == '"':
			inQuote = !inQuote
		case s[i] == ':' && !inQuote && (i+1 == len(s) || s[i+1] == ' '):
			return s[:i], yamlText(strings.TrimSpace(s[i+1:]))
		}
	}
	return s, ""
}

// yamlText reads a YAML scalar as the snapshots write it: plain, or quoted.
func yamlText(s string) string {
	var v string
	if strings.HasPrefix(s, `"`) && json.Unmarshal([]byte(s), &v) == nil {
		return v
	}
	if len(s) >= 2 && strings.HasPrefix(s, "'") && strings.HasSuffix(s, "'") {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}

var (
	ariaMarkRE = regexp.MustCompile(` \[(ref=[^\]]+|active|cursor=pointer|required)\]`)
	// textLevelRoles are the roles of text-level elements (em, strong, code,
	// time...), which the engine writes as text.
	textLevelRoles = map[string]bool{"emphasis": true, "strong": true, "code": true, "time": true, "deletion": true,
		"insertion": true, "mark": true, "subscript": true, "superscript": true}
)

// canonAria writes both snapshots in one form, so that only real
// differences remain: the engine's own marks go ([ref], [active],
// [cursor=pointer], [required]); unnamed generic nodes give way to their
// content; text-level elements become text (the engine's format); an
// iframe is compared as its line alone (Playwright's default snapshot does
// not enter it); adjacent text joins, and text is compared without its
// whitespace (YAML lines do not keep the spaces between joined runs).
func canonAria(yaml string) string {
	var b strings.Builder
	var write func(ns []*ariaNode, depth int)
	write = func(ns []*ariaNode, depth int) {
		for _, n := range canonKids(ns) {
			b.WriteString(strings.Repeat("  ", depth) + "- " + n.key)
			if n.value != "" {
				b.WriteString(": " + n.value)
			}
			b.WriteString("\n")
			write(n.kids, depth+1)
		}
	}
	write(parseAria(yaml), 0)
	return b.String()
}

// canonKids rewrites a list of sibling nodes (see canonAria).
func canonKids(ns []*ariaNode) []*ariaNode {
	var out []*ariaNode
	addText := func(t string) {
		t = strings.Join(strings.Fields(t), "")
		if t == "" {
			return
		}
		if k := len(out); k > 0 && out[k-1].key == "text" {
			out[k-1].value += t
			return
		}
		out = append(out, &ariaNode{key: "text", value: t})
	}
	for _, n := range ns {
		key := ariaMarkRE.ReplaceAllString(n.key, "")
		role := key
		if i := strings.IndexAny(key, " ["); i >= 0 {
			role = key[:i]
		}
		switch {
		case key == "text":
			addText(n.value)
			continue
		case key == "generic" || textLevelRoles[key] || strings.HasPrefix(key, "generic [expanded]"):
			addText(n.value)
			for _, k := range canonKids(n.kids) {
				if k.key == "text" {
					addText(k.value)
				} else {
					out = append(out, k)
				}
			}
			continue
		case role == "iframe":
			out = append(out, &ariaNode{key: "iframe"})
			continue
		}
		c := &ariaNode{key: key, kids: canonKids(n.kids)}
		if v := strings.Join(strings.Fields(n.value), ""); v != "" {
			if strings.HasPrefix(key, "/") {
				c.value = n.value
			} else {
				c.kids = append([]*ariaNode{{key: "text", value: v}}, c.kids...)
			}
		}
		// A single text child is the node's inline value.
		if len(c.kids) == 1 && c.kids[0].key == "text" && len(c.kids[0].kids) == 0 {
			c.value, c.kids = c.kids[0].value, nil
		}
		out = append(out, c)
	}
	return out
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
		got := canonAria(snapshot(t, p, SnapshotOptions{Full: true}).YAML)
		key := page + " | "
		seen[key] = true
		_, isKnown := known[key]
		wantCanon := canonAria(string(want))
		same := got == wantCanon
		switch {
		case same && isKnown:
			t.Errorf("%s: agrees with Playwright now; remove it from differences.txt", page)
		case same:
			agree++
		case isKnown:
			listed++
		default:
			t.Errorf("aria snapshot of %s differs from Playwright's (%s), compared in one form (canonAria):\n%s", page, f, lineDiff(wantCanon, got))
		}
	}
	for key := range known {
		if !seen[key] {
			t.Errorf("differences.txt lists aria page %q, which has no golden", key)
		}
	}
	t.Logf("aria snapshots: %d pages against Playwright: %d agree, %d listed differences", len(files), agree, listed)
}
