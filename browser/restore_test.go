package browser

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/internal/gocalls"
)

// talksToBrowser are the calls that send the browser commands: a deferred
// function that makes one is putting something back, or letting it go.
var talksToBrowser = map[string]bool{
	"callOn": true, "Call": true, "CallBrowser": true, "Run": true, "evalEngine": true, "evalIn": true, "act": true,
	"applyEmulation": true, "applyNetworkState": true, "applyMedia": true, "Navigate": true, "leaveScratch": true,
	"unthrottle": true, "enableGuard": true, "HoldStill": true,
	// browser/netguard's calls through its seam (browser/netguard.go).
	"EnableGuard": true, "Eval": true, "OpenBlank": true, "ReadBlob": true,
}

// detaching are the calls that give a restore its context: detached (in
// browser and netguard, each cdpcall.Detached), cdpcall.Detached itself,
// and the seams' RestoreContext, which packages below browser get it from.
var detaching = map[string]bool{"detached": true, "Detached": true, "RestoreContext": true}

// TestRestoresDetached: every deferred function of the package (and of
// those below it) that talks to the browser takes its context from
// detached (a seam's RestoreContext below), since on the call's own
// context a restore fails at once when the client cancels the call and the
// tab stays changed for every later one (throttled, held still); and no
// code but cdpcall.Detached detaches a context from a call's.
func TestRestoresDetached(t *testing.T) {
	restores := 0
	eachSource(t, []string{"."}, func(fset *token.FileSet, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				return n.Name.Name != "Detached" || f.Name.Name != "cdpcall"
			case *ast.CallExpr:
				if calleeName(n) == "WithoutCancel" {
					t.Errorf("%s: context.WithoutCancel outside cdpcall.Detached: use detached(ctx)", fset.Position(n.Pos()))
				}
			case *ast.DeferStmt:
				talks, made := false, false
				ast.Inspect(n.Call, func(m ast.Node) bool {
					if c, ok := m.(*ast.CallExpr); ok {
						talks = talks || talksToBrowser[calleeName(c)]
						made = made || detaching[calleeName(c)]
						if calleeName(c) == "Background" {
							t.Errorf("%s: a deferred function on context.Background(): use detached(ctx)", fset.Position(c.Pos()))
						}
					}
					return true
				})
				switch {
				case talks && !made:
					t.Errorf("%s: a deferred function talks to the browser on the call's context: take one from detached(ctx)", fset.Position(n.Pos()))
				case talks:
					restores++
				}
			}
			return true
		})
	})
	if restores < 6 {
		t.Errorf("found %d deferred restores; the scan no longer sees them", restores)
	}
}

// calleeName is the name of the function a call calls: f, x.f, f[T].
func calleeName(c *ast.CallExpr) string {
	fn := c.Fun
	if ix, ok := fn.(*ast.IndexExpr); ok {
		fn = ix.X
	}
	switch f := fn.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// eachSource parses every Go file but the tests in dirs (and the packages
// below them) and gives it to
// fn; it returns how many there were.
func eachSource(t *testing.T, dirs []string, fn func(fset *token.FileSet, f *ast.File)) int {
	t.Helper()
	n := 0
	for _, dir := range dirs {
		files, err := gocalls.Sources(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			fn(fset, f)
			n++
		}
	}
	return n
}
