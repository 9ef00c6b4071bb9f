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
// package doc comment.
func TestPackageDocs(t *testing.T) {
	root := ".."
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
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
