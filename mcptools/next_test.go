package mcptools

import (
	"go/scanner"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/internal/gocalls"
)

// TestEveryStepHasWords: each next step the browser package declares is
// worded here (a Step without words would leave the agent without its
// Next: line).
func TestEveryStepHasWords(t *testing.T) {
	steps := constsOf(t, "../browser/errors.go", "Step")
	for name, v := range steps {
		if nextSteps[browser.Step(v)] == "" {
			t.Errorf("browser.%s (%q) has no words in nextSteps", name, v)
		}
	}
	if len(steps) != len(nextSteps) {
		t.Errorf("browser declares %d steps, nextSteps words %d", len(steps), len(nextSteps))
	}
}

// TestNoToolNamesBelowMCP: the packages under this one know nothing of MCP:
// no string in their code names a tool (comments and tests may).
func TestNoToolNamesBelowMCP(t *testing.T) {
	var names []string
	for _, tool := range Inventory(nil) {
		names = append(names, tool.Def.Name)
	}
	for _, dir := range []string{"../browser", "../devserver", "../netpolicy"} {
		files, err := gocalls.Sources(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fset := token.NewFileSet()
			var s scanner.Scanner
			s.Init(fset.AddFile(path, -1, len(src)), src, nil, 0)
			for {
				pos, tok, lit := s.Scan()
				if tok == token.EOF {
					break
				}
				if tok != token.STRING {
					continue
				}
				for _, name := range names {
					if strings.Contains(lit, name) {
						t.Errorf("%s: a string names the tool %s: %s", fset.Position(pos), name, lit)
					}
				}
			}
		}
	}
}
