package browser

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// refusalPath is the import path of the one refusal type below browser.
const refusalPath = "github.com/e2e-mcp/e2e-mcp/browser/refusal"

// TestOneRefusal: a refusal of a package below browser reaches the agent
// typed whatever seam it comes up through, because there is one refusal
// type and one place that reads it (AsError, errors.go), and nothing to
// forget on the way:
//   - browser/refusal imports the standard library only;
//   - no package below browser but browser/refusal declares an error type
//     (a type with an Error method), nor a struct with a hint beside a
//     message, a refusal of its own the engine would not read;
//   - no file of browser but errors.go names browser/refusal: the seams
//     return what comes up as it is, and do not convert;
//   - no code of the module but errors.go looks for an *Error other than
//     through AsError (a variable of type *Error for errors.As, a type
//     assertion or switch on it), since that would miss a refusal.
func TestOneRefusal(t *testing.T) {
	var errorTypes, refusalUsers, refusalImports, lookups []string
	var below, root, module int
	eachSource(t, []string{".."}, func(fset *token.FileSet, f *ast.File) {
		name := filepath.ToSlash(fset.Position(f.Package).Filename)
		rel := strings.TrimPrefix(name, "../")
		module++
		dir := filepath.ToSlash(filepath.Dir(rel))
		switch {
		case dir == "browser":
			root++
			for _, imp := range f.Imports {
				if p, _ := strconv.Unquote(imp.Path.Value); p == refusalPath && rel != "browser/errors.go" {
					refusalUsers = append(refusalUsers, rel)
				}
			}
		case dir == "browser/refusal":
			for _, imp := range f.Imports {
				if p, _ := strconv.Unquote(imp.Path.Value); strings.Contains(strings.Split(p, "/")[0], ".") {
					refusalImports = append(refusalImports, rel+" imports "+p)
				}
			}
		case strings.HasPrefix(dir, "browser/"):
			below++
			errorTypes = append(errorTypes, ownRefusals(rel, f)...)
		}
		if rel != "browser/errors.go" {
			lookups = append(lookups, errorLookups(fset, f, f.Name.Name == "browser" && dir == "browser")...)
		}
	})
	if below < 20 || root < 20 || module < 200 {
		t.Fatalf("read %d files below browser, %d of its root, %d of the module: the walk missed the code", below, root, module)
	}
	for _, e := range errorTypes {
		t.Errorf("%s: a refusal type of its own; return a *refusal.Error (refusal.Invalid, refusal.New), which browser.AsError reads", e)
	}
	for _, f := range refusalUsers {
		t.Errorf("%s names browser/refusal: only errors.go reads a refusal (AsError); a seam returns it as it comes", f)
	}
	for _, i := range refusalImports {
		t.Errorf("%s: browser/refusal takes the standard library only, so that every package can import it", i)
	}
	for _, l := range lookups {
		t.Errorf("%s: looks for a *browser.Error without AsError, which would miss a refusal of a package below", l)
	}
}

// ownRefusals names the types of f (a file of a package below browser)
// that are error types, or structs with a Hint field beside a Message.
func ownRefusals(file string, f *ast.File) []string {
	var out []string
	fields := map[string]map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && d.Name.Name == "Error" && len(d.Recv.List) == 1 {
				out = append(out, file+": type "+recvName(d.Recv.List[0].Type)+" has an Error method")
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok {
					continue
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				fields[ts.Name.Name] = map[string]bool{}
				for _, fl := range st.Fields.List {
					for _, n := range fl.Names {
						fields[ts.Name.Name][n.Name] = true
					}
				}
			}
		}
	}
	for name, fs := range fields {
		if fs["Hint"] && (fs["Message"] || fs["Msg"]) {
			out = append(out, file+": struct "+name+" has a Message and a Hint")
		}
	}
	return out
}

// recvName is the type a method's receiver names.
func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return recvName(e.X)
	}
	return "?"
}

// errorLookups are the places in f that look for a *browser.Error by type:
// a variable declared as one (the target errors.As fills), a type
// assertion to one, a type switch case on one. inRoot: f is of package
// browser, where the type is plain Error.
func errorLookups(fset *token.FileSet, f *ast.File, inRoot bool) []string {
	isError := func(e ast.Expr) bool {
		star, ok := e.(*ast.StarExpr)
		if !ok {
			return false
		}
		switch x := star.X.(type) {
		case *ast.Ident:
			return inRoot && x.Name == "Error"
		case *ast.SelectorExpr:
			id, ok := x.X.(*ast.Ident)
			return ok && id.Name == "browser" && x.Sel.Name == "Error"
		}
		return false
	}
	var out []string
	at := func(n ast.Node, what string) {
		p := fset.Position(n.Pos())
		out = append(out, strings.TrimPrefix(filepath.ToSlash(p.Filename), "../")+":"+strconv.Itoa(p.Line)+": "+what)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			if n.Type != nil && isError(n.Type) {
				at(n, "a variable of type *Error")
			}
		case *ast.TypeAssertExpr:
			if n.Type != nil && isError(n.Type) {
				at(n, "a type assertion to *Error")
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				if isError(e) {
					at(n, "a type switch case on *Error")
				}
			}
		}
		return true
	})
	return out
}

// TestAsErrorReadsBoth: AsError finds the engine's own *Error and a
// refusal of a package below (read as the same kind, message, hint and
// cause) however deep they are wrapped, and nothing in an error that is
// neither, or in nil. The per-package tests (TestDeviceErrors and the
// others) hold each package's texts.
func TestAsErrorReadsBoth(t *testing.T) {
	own := newError(KindTimeout, "wait longer", "the page did not answer")
	if e, ok := AsError(fmt.Errorf("click: %w", own)); !ok || e != own {
		t.Errorf("a wrapped *Error: %v, %v", e, ok)
	}
	cause := errors.New("bad syntax")
	r := &refusal.Error{Kind: refusal.NavigationFailed, Message: "GET / got no answer", Hint: "start the server", Err: cause}
	e, ok := AsError(fmt.Errorf("request: %w", r))
	if !ok || e.Kind != KindNavigationFailed || e.Message != r.Message || e.Hint != r.Hint || !errors.Is(e, cause) || e.Error() != r.Error() {
		t.Errorf("a wrapped refusal became %#v", e)
	}
	if e, ok := AsError(&refusal.Error{Message: "x"}); !ok || e.Kind != KindInvalidInput {
		t.Errorf("a refusal of no kind became %v, want invalid_input", e)
	}
	for _, err := range []error{nil, errors.New("the tab crashed"), fmt.Errorf("read the cookies: %w", errors.New("gone"))} {
		if e, ok := AsError(err); ok {
			t.Errorf("AsError(%v) = %v, want none of the engine's errors", err, e)
		}
	}
}
