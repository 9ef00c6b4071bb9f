package browser

import (
	"go/ast"
	"go/token"
	"testing"
)

// uncheckedFetch are the ways to fetch a URL that the request policy does
// not see: Network.loadNetworkResource follows redirects where neither
// the Fetch domain nor the Network events see them, and an HTTP client of
// our own fetches from this machine, past the session's guards.
var uncheckedFetch = map[string]bool{
	"network.LoadNetworkResource": true,
	"http.Get":                    true, "http.Head": true, "http.Post": true, "http.PostForm": true,
	"http.Client": true, "http.DefaultClient": true, "http.NewRequest": true, "http.NewRequestWithContext": true,
	"http.Transport": true, "http.DefaultTransport": true,
}

// TestFetchesHeldToThePolicy: the server fetches nothing for a page on its
// own: the packages that serve pages (browser, mcptools) use no way of
// fetching the policy cannot see, so that what they fetch again (a remote
// browser's download: fetchInTab) goes through a tab whose guard checks
// every hop, redirects included.
func TestFetchesHeldToThePolicy(t *testing.T) {
	scanned := eachSource(t, []string{".", "../mcptools"}, func(fset *token.FileSet, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && uncheckedFetch[x.Name+"."+sel.Sel.Name] {
					t.Errorf("%s: %s.%s fetches past the request policy: fetch what a page needs in a tab of the session (fetchInTab)", fset.Position(sel.Pos()), x.Name, sel.Sel.Name)
				}
			}
			return true
		})
	})
	if scanned < 40 {
		t.Errorf("scanned %d files", scanned)
	}
}
