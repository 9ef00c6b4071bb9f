package browser

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/selector"
)

// TestEngineEntryPoints: every entry point Go calls is one the engine
// exports, so a misspelt name fails here, not in a page.
func TestEngineEntryPoints(t *testing.T) {
	src, err := os.ReadFile("js/99_epilogue.js")
	if err != nil {
		t.Fatal(err)
	}
	exported := map[string]bool{}
	for _, m := range regexp.MustCompile(`\b([a-zA-Z]+)\b`).FindAllStringSubmatch(string(src), -1) {
		exported[m[1]] = true
	}
	f, err := parser.ParseFile(token.NewFileSet(), "engine.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		vs, ok := node.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 {
			return true
		}
		if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "jsFn" {
			return true
		}
		lit, ok := vs.Values[0].(*ast.BasicLit)
		if !ok {
			return true
		}
		name, _ := strconv.Unquote(lit.Value)
		n++
		if !exported[name] {
			t.Errorf("%s calls __e2e.%s, which js/99_epilogue.js does not export", vs.Names[0].Name, name)
		}
		return true
	})
	if n < 20 {
		t.Errorf("found %d entry points in engine.go", n)
	}
}

func TestEngineCallEncodesArguments(t *testing.T) {
	got := fnWaitText.call([]selector.Part{{Engine: "text", Text: &selector.TextMatch{Mode: "lax", Value: `a "b"`}}}, true, 250)
	want := `__e2e.waitText([{"e":"text","text":{"m":"lax","v":"a \"b\""}}], true, 250)`
	if got != want {
		t.Errorf("call = %s\nwant   %s", got, want)
	}
	if got := fnExpect.call(getter(`__e2e.resolve("e5")`), "text", map[string]any{"v": "x"}, 10); got != `__e2e.expect(() => (__e2e.resolve("e5")), "text", {"v":"x"}, 10)` {
		t.Errorf("call = %s", got)
	}
	if got := onElement("E", fnSelectOptions, []string{"Red"}); got != `(() => { const el = E; return __e2e.selectOptions(el, ["Red"]); })()` {
		t.Errorf("onElement = %s", got)
	}
}
