package redact

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/internal/gocalls"
)

// holders are the fields that keep a URL or a command line as it was given
// (credentials and all), by the package directory that reads them: a name
// alone is that field of any value, x.Name only of a value named x (where
// the name alone means other things too). TestURLCallers finds every read.
var holders = map[string][]string{
	"../browser":                     {"RawURL", "CDP"},
	"../webdriver":                   {"base", "CDP"},
	"../cmd/e2e-mcp":                 {"CDPEndpoints", "WebDriverURLs", "ServerCommand", "OAuthIssuer", "OAuthJWKSURL", "OAuthResource", "AllowedOrigins", "BlockedOrigins", "HTTPAllowedOrigins", "ProxyServer"},
	"../cmd/e2e-mcp/internal/config": {"CDPEndpoints", "WebDriverURLs", "ServerCommand", "OAuthIssuer", "OAuthJWKSURL", "OAuthResource", "AllowedOrigins", "BlockedOrigins", "HTTPAllowedOrigins", "ProxyServer"},
	"../mcptools":                    {"ServerCommand", "Run", "CommandPath"},
	"../devserver":                   {"Run", "c.Path"},
	"../httpauth":                    {"c.url", "o.JWKSURL", "o.Issuer", "o.Resource", "o.AllowedOrigins"},
	"../netpolicy":                   {"AllowedOrigins", "BlockedOrigins"},
	// a flow's dev server (dev: run, command), which a person may have
	// written with a credential in it
	"../runner": {"Run", "Command"},
}

// rawUses are the reads of a holder that use the value itself, each with
// why: to dial it, run it, parse it or pass it on. Every other read is
// inside the argument of URL, CommandLine or Err, which show it masked. A
// read added anywhere else fails TestURLCallers until it is masked or
// listed here.
var rawUses = map[string]string{
	"launcher.webSocket: RawURL":                   "dialled (remote.NewAllocator) or asked for its websocket (webdriver.DevToolsWebSocket), and whether it names one",
	"webdriver.Grid.do: base":                      "the request's URL (New took the credentials off)",
	"webdriver.Grid.Loopback: base":                "its host name only",
	"config.Config.OperatorSecrets: CDPEndpoints":  "marks the passwords in it as the server's secrets",
	"config.Config.OperatorSecrets: WebDriverURLs": "as above",
	"config.Config.Grids: WebDriverURLs":           "parsed into grids (webdriver.New shows a bad one through URL)",
	"config.Config.Grids: CDPEndpoints":            "only whether it is set",
	"config.Config.Endpoints: CDPEndpoints":        "parsed into endpoints (a bad one is shown through URL)",
	"main.newApp: ServerCommand":                   "the dev-server command to run (mcptools shows it through CommandLine)",
	"config.Config.Validate: OAuthIssuer":          "only whether it is set",
	"config.Config.Validate: OAuthJWKSURL":         "only whether it is set",
	"config.Config.Validate: OAuthResource":        "only whether it is set",
	"config.Config.Policy: AllowedOrigins":         "parsed by netpolicy (a bad one is shown through URL)",
	"config.Config.Policy: BlockedOrigins":         "as above",
	"config.Config.pwNormalize: AllowedOrigins":    "Playwright MCP's ; separators made commas, not shown",
	"config.Config.pwNormalize: BlockedOrigins":    "as above",
	"config.Config.proxy: ProxyServer":             "parsed into the upstream proxy (a bad one is shown through URL)",
	"config.Config.OperatorSecrets: ProxyServer":   "marks the password in it as the server's secret",
	"main.guardOptions: OAuthIssuer":               "passed to httpauth: the issuer a token must name, published in the metadata",
	"main.guardOptions: OAuthJWKSURL":              "passed to httpauth, which fetches it",
	"main.guardOptions: OAuthResource":             "passed to httpauth: the tokens' audience, published in the metadata",
	"main.guardOptions: HTTPAllowedOrigins":        "parsed by httpauth (a bad one is shown through URL)",
	"mcptools.Deps.newServer: ServerCommand":       "the command to run; desc, what is shown of it, goes through CommandLine",
	"mcptools.Deps.newServer: Run":                 "the agent's run command line, to run",
	"mcptools.Deps.newServer: CommandPath":         "the agent's command, to run",
	"devserver.NewManaged: Run":                    "split into words and checked",
	"devserver.Managed.launch: Run":                "the command line to run (shown through CommandLine)",
	"devserver.Command.Do: c.Path":                 "the command to run",
	"httpauth.jwksCache.fetch: c.url":              "the request's URL",
	"httpauth.newVerifier: o.Issuer":               "the issuer a token must name",
	"httpauth.newVerifier: o.Resource":             "the tokens' audience",
	"httpauth.newVerifier: o.JWKSURL":              "checked, then fetched",
	"httpauth.newJWKSCache: o.JWKSURL":             "kept to fetch",
	"httpauth.newGuard: o.AllowedOrigins":          "parsed (a bad one is shown through URL)",
	"netpolicy.New: AllowedOrigins":                "parsed (a bad one is shown through URL)",
	"netpolicy.New: BlockedOrigins":                "as above",
	"launcher.GridEndpoint: CDP":                   "the grid session's websocket, kept as the endpoint's RawURL (shown through Endpoint.String)",
	"httpauth.newMetadataDoc: o.Issuer":            "published: the authorization server clients get tokens from",
	"httpauth.newMetadataDoc: o.Resource":          "published: the resource's own URL, and where its metadata is",
	"main.runnable: CDPEndpoints":                  "only whether it is set",
	"main.runnable: WebDriverURLs":                 "only whether it is set",
	"mcptools.exportFlowTool: Run":                 "written to the flow, which replays it (a file, masked with the session's set)",
	"mcptools.exportFlowTool: CommandPath":         "as above",
	"runner.devArgs: Run":                          "passed to session_start to run (mcptools shows it through CommandLine)",
	"runner.devArgs: Command":                      "as above",
}

// TestURLCallers finds every read of a holder in the code and holds them
// to rawUses, both ways: a message, a log line or an answer that formats
// an endpoint, a grid, a dev command or an OAuth URL without URL,
// CommandLine or Err fails here.
func TestURLCallers(t *testing.T) {
	found := map[string]string{}
	for dir, names := range holders {
		files, err := gocalls.Sources(dir)
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files in %s: %v", dir, err)
		}
		for _, file := range files {
			fset := token.NewFileSet()
			af, err := parser.ParseFile(fset, file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range af.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				owner := af.Name.Name + "." + funcName(fd)
				for _, use := range rawReads(fd.Body, names) {
					found[owner+": "+use.name] = fset.Position(use.pos).String()
				}
			}
		}
	}
	var keys []string
	for k := range found {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := rawUses[k]; !ok {
			t.Errorf("%s (%s) reads a URL or a command line as given: show it through redact.URL, CommandLine or Err, or list in rawUses why it needs the raw value", k, found[k])
		}
	}
	for k := range rawUses {
		if _, ok := found[k]; !ok {
			t.Errorf("rawUses lists %s, which the code no longer has", k)
		}
	}
}

// use is a read of a holder.
type use struct {
	name string
	pos  token.Pos
}

// rawReads are the reads of the holders in body outside the arguments of
// URL, CommandLine and Err: not a method call on it, not an assignment to
// it.
func rawReads(body ast.Node, names []string) []use {
	var out []use
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		defer func() { stack = append(stack, n) }()
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		name := holderName(sel, names)
		if name == "" || written(sel, stack) || masked(stack) {
			return true
		}
		if len(stack) > 0 {
			if call, ok := stack[len(stack)-1].(*ast.CallExpr); ok && call.Fun == sel {
				return true // a method of the same name, such as exec.Cmd.Run
			}
		}
		out = append(out, use{name, sel.Pos()})
		return true
	})
	return out
}

// holderName is the holder sel reads ("" if none).
func holderName(sel *ast.SelectorExpr, names []string) string {
	for _, h := range names {
		recv, field, qualified := strings.Cut(h, ".")
		if !qualified {
			if sel.Sel.Name == h {
				return h
			}
			continue
		}
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == recv && sel.Sel.Name == field {
			return h
		}
	}
	return ""
}

// written says sel is assigned to (x.Run = ...), not read.
func written(sel *ast.SelectorExpr, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	as, ok := stack[len(stack)-1].(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, l := range as.Lhs {
		if l == sel {
			return true
		}
	}
	return false
}

// masked says the node on top of stack is inside the arguments of URL,
// CommandLine or Err (redact.X outside this package).
func masked(stack []ast.Node) bool {
	for _, n := range stack {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			continue
		}
		var name string
		switch f := call.Fun.(type) {
		case *ast.SelectorExpr:
			if id, ok := f.X.(*ast.Ident); ok && id.Name == "redact" {
				name = f.Sel.Name
			}
		case *ast.Ident:
			name = f.Name
		}
		if name == "URL" || name == "CommandLine" || name == "Err" {
			return true
		}
	}
	return false
}

// funcName is Recv.Name for a method, Name for a function.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}
