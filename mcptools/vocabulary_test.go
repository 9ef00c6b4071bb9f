package mcptools

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/devserver"
)

// constsOf lists the values of the exported constants of type typ in a
// Go file.
func constsOf(t *testing.T, path, typ string) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 || !vs.Names[0].IsExported() {
			return true
		}
		if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != typ {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
			out[vs.Names[0].Name], _ = strconv.Unquote(lit.Value)
		}
		return true
	})
	if len(out) == 0 {
		t.Fatalf("no %s constants in %s", typ, path)
	}
	return out
}

// TestEveryKindHasAType: each failure kind the browser and devserver
// packages return has its error type in the one vocabulary.
func TestEveryKindHasAType(t *testing.T) {
	for name, v := range constsOf(t, "../browser/errors.go", "Kind") {
		if _, ok := browserTypes[browser.Kind(v)]; !ok {
			t.Errorf("browser.%s (%q) has no error type in browserTypes", name, v)
		}
	}
	for name, v := range constsOf(t, "../devserver/types.go", "Kind") {
		if _, ok := devTypes[devserver.Kind(v)]; !ok {
			t.Errorf("devserver.%s (%q) has no error type in devTypes", name, v)
		}
	}
}

// TestReadmeListsEveryErrorType: docs/tools.md's list of error types is the
// vocabulary, no more and no less.
func TestReadmeListsEveryErrorType(t *testing.T) {
	readme, err := os.ReadFile("../docs/tools.md")
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(readme), "`### Error` with a type (")
	if !ok {
		t.Fatal("docs/tools.md has no list of error types (`### Error` with a type (...))")
	}
	list, _, _ = strings.Cut(list, ")")
	listed := map[string]bool{}
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if i := strings.IndexByte(f, '`'); i >= 0 {
			f = f[i:] // "and from the dev-server command `non_zero_exit`"
		}
		listed[strings.Trim(f, "`")] = true
	}
	for name, v := range constsOf(t, "vocabulary.go", "ErrorType") {
		if !listed[v] {
			t.Errorf("docs/tools.md does not list %s (%s)", v, name)
		}
		delete(listed, v)
	}
	for v := range listed {
		t.Errorf("docs/tools.md lists %q, which is no error type", v)
	}
}
