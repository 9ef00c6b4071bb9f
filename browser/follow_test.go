package browser

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestCurrentTabFollowed: every function that changes a session's current
// tab (an assignment to Tabs.current) moves the screencast with it, so a
// video shows the tab the session works in. A new way to change the
// current tab that forgets it fails here.
func TestCurrentTabFollowed(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	changers := 0
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			assigns, follows := false, false
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.AssignStmt:
					for _, l := range x.Lhs {
						if sel, ok := l.(*ast.SelectorExpr); ok && sel.Sel.Name == "current" {
							if id, ok := sel.X.(*ast.Ident); ok && id.Name == "t" {
								assigns = true
							}
						}
					}
				case *ast.CallExpr:
					if sel, ok := x.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "followQuietly" || sel.Sel.Name == "follow") {
						follows = true
					}
				}
				return true
			})
			if assigns {
				changers++
				if !follows {
					t.Errorf("%s: %s changes the current tab but does not move the screencast (t.followQuietly)", fset.Position(fn.Pos()), fn.Name.Name)
				}
			}
		}
	}
	if changers < 4 {
		t.Errorf("found %d functions that change the current tab; the scan is broken", changers)
	}
}
