package readme

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// guideLines is how long README.md may grow: it is the guide, and the
// references live in docs/.
const guideLines = 400

// TestReadmeIsAGuide: README.md stays a guide of at most guideLines lines;
// what is longer belongs in a file of docs/ that the README links.
func TestReadmeIsAGuide(t *testing.T) {
	b, err := os.ReadFile(Path())
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > guideLines {
		t.Errorf("README.md has %d lines, more than the %d of a guide: move the reference parts into docs/ and link them", n, guideLines)
	}
}

// docFiles are the markdown files whose generated parts and links are
// checked, relative to the root.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "e2e/README.md", "examples/README.md"}
	more, err := filepath.Glob(filepath.Join(Root(), "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range more {
		files = append(files, "docs/"+filepath.Base(m))
	}
	return files
}

func read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Root(), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSectionsRegistered: every generated part of README.md and docs/*.md
// is a section of Sections, in the file it names, so a check keeps it
// fresh; and every section of Sections has its markers there.
func TestSectionsRegistered(t *testing.T) {
	start := regexp.MustCompile(`<!-- START (.+?) -->`)
	for _, rel := range docFiles(t) {
		for _, m := range start.FindAllStringSubmatch(read(t, rel), -1) {
			if got, ok := Sections[m[1]]; !ok || got != rel {
				t.Errorf("%s has the generated section %q, which readme.Sections does not give to that file (it says %q)", rel, m[1], got)
			}
		}
	}
	for name, rel := range Sections {
		if _, _, err := markers(read(t, rel), name); err != nil {
			t.Errorf("%s (section %s): %v", rel, name, err)
		}
	}
}

// TestSectionCheckers: each section of Sections is checked by exactly one
// test (a call readme.Check(t, "NAME", ...)), and 'make docs' runs exactly
// those tests, so it rewrites every generated part and nothing else.
func TestSectionCheckers(t *testing.T) {
	checkers := map[string][]string{} // section -> test functions
	root := Root()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "node_modules" || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Check" || len(call.Args) != 3 {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "readme" {
					return true
				}
				lit, ok := call.Args[1].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Errorf("%s: %s calls readme.Check with a section name that is not a literal", path, fn.Name.Name)
					return true
				}
				name, _ := strconv.Unquote(lit.Value)
				checkers[name] = append(checkers[name], fn.Name.Name)
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var tests []string
	for name := range Sections {
		switch c := checkers[name]; len(c) {
		case 1:
			tests = append(tests, c[0])
		default:
			t.Errorf("section %s is checked by %d tests %v, want one", name, len(c), c)
		}
	}
	for name, c := range checkers {
		if _, ok := Sections[name]; !ok {
			t.Errorf("%v check the section %q, which readme.Sections does not name", c, name)
		}
	}
	m := regexp.MustCompile(`(?m)^DOCS_TESTS = '\^\((.*)\)\$\$'$`).FindStringSubmatch(read(t, "Makefile"))
	if m == nil {
		t.Fatal("the Makefile has no DOCS_TESTS = '^(A|B)$$' line")
	}
	ran := strings.Split(m[1], "|")
	slices.Sort(ran)
	slices.Sort(tests)
	if !slices.Equal(ran, tests) {
		t.Errorf("make docs runs %v; the tests that check the generated sections are %v", ran, tests)
	}
}

var (
	link  = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)
	fence = regexp.MustCompile("(?ms)^```.*?^```")
)

// TestDocLinks: every relative link of README.md, e2e/README.md,
// examples/README.md and docs/*.md leads to a file that exists, and a
// #fragment to a heading of that file, so sections can move between files
// without leaving a link behind.
func TestDocLinks(t *testing.T) {
	for _, rel := range docFiles(t) {
		text := fence.ReplaceAllString(read(t, rel), "")
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			dest := rel
			if file != "" {
				dest = filepath.ToSlash(filepath.Join(filepath.Dir(rel), file))
				if _, err := os.Stat(filepath.Join(Root(), filepath.FromSlash(dest))); err != nil {
					t.Errorf("%s links %s, which does not exist", rel, target)
					continue
				}
			}
			if frag != "" && !slices.Contains(anchors(read(t, dest)), frag) {
				t.Errorf("%s links %s: %s has no heading with that anchor", rel, target, dest)
			}
		}
	}
}

// anchors returns the anchors GitHub gives the headings of a markdown
// text: lowercased, punctuation but - and _ left out, spaces as -, a
// repeated one with -1, -2...
func anchors(text string) []string {
	text = fence.ReplaceAllString(text, "")
	var out []string
	seen := map[string]int{}
	for _, line := range strings.Split(text, "\n") {
		h := strings.TrimLeft(line, "#")
		if h == line || !strings.HasPrefix(h, " ") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(h)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out = append(out, a+"-"+strconv.Itoa(n))
		} else {
			out = append(out, a)
		}
		seen[a]++
	}
	return out
}
