package e2e

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackageDocs: every package of the module says what it is for in a
// package doc comment, and docs/development.md's layout table names it.
func TestPackageDocs(t *testing.T) {
	root := ".."
	listed := readmeLayout(t)
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin") {
			return filepath.SkipDir
		}
		files, _ := filepath.Glob(filepath.Join(path, "*.go"))
		pkg, documented := "", false
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ParseComments|parser.PackageClauseOnly)
			if err != nil {
				return err
			}
			pkg = af.Name.Name
			documented = documented || (af.Doc != nil && strings.TrimSpace(af.Doc.Text()) != "")
		}
		if pkg != "" && !documented {
			t.Errorf("package %s (%s) has no package doc comment", pkg, path)
		}
		if rel, _ := filepath.Rel(root, path); pkg != "" && !inLayout(listed, filepath.ToSlash(rel)) {
			t.Errorf("docs/development.md's layout table does not name %s", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// readmeLayout returns the names in the first column of docs/development.md's
// layout table ("| `logs`, `metrics` | ...").
func readmeLayout(t *testing.T) []string {
	t.Helper()
	readme, err := os.ReadFile("../docs/development.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "| package | what |")
	if !ok {
		t.Fatal("docs/development.md has no layout table (| package | what |)")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	var names []string
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, n := range strings.Split(cells[1], ",") {
			if n = strings.Trim(strings.TrimSpace(n), "`"); n != "" && n != "---" {
				names = append(names, n)
			}
		}
	}
	return names
}

// inLayout: dir is a listed package, under one ("bench/floor/bare" under
// "bench"), or matched by a listed pattern ("internal/*").
func inLayout(listed []string, dir string) bool {
	for _, n := range listed {
		if dir == n || strings.HasPrefix(dir, strings.TrimSuffix(n, "*")) && strings.HasSuffix(n, "/*") || strings.HasPrefix(dir, n+"/") {
			return true
		}
	}
	return false
}

// TestReadmeListsEveryTestFile: e2e/README.md's table names every test
// file of this package, and no file that is gone.
func TestReadmeListsEveryTestFile(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*_test.go")
	listed := map[string]bool{}
	for _, line := range strings.Split(string(readme), "\n") {
		if rest, ok := strings.CutPrefix(line, "| `"); ok {
			if name, _, ok := strings.Cut(rest, "`"); ok && strings.HasSuffix(name, "_test.go") {
				listed[name] = true
			}
		}
	}
	for _, f := range files {
		if !listed[f] {
			t.Errorf("e2e/README.md does not list %s", f)
		}
		delete(listed, f)
	}
	for f := range listed {
		t.Errorf("e2e/README.md lists %s, which is not in the package", f)
	}
}

// maxFileLines bounds a product source file (Go or the page engine's JS):
// past it, a file holds more than its name says; split it by what it does.
const maxFileLines = 800

// TestNoLongProductFiles: no product source file is over maxFileLines.
func TestNoLongProductFiles(t *testing.T) {
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			// dist: build output (make release's, the widget app's bundle).
			if path != ".." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "bin" || name == "dist") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, "_test.go") || !strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, ".js") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := strings.Count(string(b), "\n"); n > maxFileLines {
			t.Errorf("%s has %d lines, over %d: split it by what it does", path, n, maxFileLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
