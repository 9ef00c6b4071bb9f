// Package gocalls lists the calls in a package's Go source, each with the
// function it is in: test support for tests that enumerate the callers of
// a function (every file write goes through one writer, and each of the
// writer's callers is exercised).
package gocalls

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// Call is one call expression of the source.
type Call struct {
	File string // the file's base name
	Func string // the top-level function (or method) it is in
	// On is the name the called one is selected from (os in os.Remove,
	// d in d.outputPath); "" for a plain call.
	On   string
	Name string // the name called
}

// In lists the calls in the .go files of dir, test files left out.
func In(dir string) ([]Call, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []Call
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, decl := range af.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			ast.Inspect(fn, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					c := Call{File: filepath.Base(file), Func: fn.Name.Name}
					switch f := call.Fun.(type) {
					case *ast.Ident:
						c.Name = f.Name
					case *ast.SelectorExpr:
						c.Name = f.Sel.Name
						if id, ok := f.X.(*ast.Ident); ok {
							c.On = id.Name
						}
					}
					if c.Name != "" {
						out = append(out, c)
					}
				}
				return true
			})
		}
	}
	return out, nil
}

// Sources lists the non-test .go files of dir and of every package folder
// below it (testdata and hidden folders left out), so that a test reading
// a package's code also reads the packages split out beneath it: a check
// written against browser keeps holding when a concern of browser moves to
// browser/<name>.
func Sources(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			out = append(out, path)
		}
		return nil
	})
	return out, err
}
