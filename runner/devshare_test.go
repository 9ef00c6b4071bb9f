package runner

import (
	"path/filepath"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

// TestDevKey: flows share a dev server when their dev: is the same once
// each cwd is resolved against its flow's file: cwd . beside and .. below
// are one; another cwd, command or ready path is another server.
func TestDevKey(t *testing.T) {
	dir := t.TempDir()
	key := func(file string, d flow.Dev) string { return devKey(devArgs(filepath.Join(dir, file), &d)) }
	base := key("a.yaml", flow.Dev{Run: "npm run dev", Cwd: "."})
	if k := key("sub/b.yaml", flow.Dev{Run: "npm run dev", Cwd: ".."}); k != base {
		t.Errorf("cwd .. below is another server: %s vs %s", k, base)
	}
	for name, k := range map[string]string{
		"another cwd":     key("sub/b.yaml", flow.Dev{Run: "npm run dev", Cwd: "."}),
		"another command": key("a.yaml", flow.Dev{Run: "npm start", Cwd: "."}),
		"a ready path":    key("a.yaml", flow.Dev{Run: "npm run dev", Cwd: ".", ReadyPath: "/health"}),
		"a contract":      key("a.yaml", flow.Dev{Command: []string{"npm", "run", "dev"}, Cwd: "."}),
	} {
		if k == base {
			t.Errorf("%s shares the server: %s", name, k)
		}
	}
}
