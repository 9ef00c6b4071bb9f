package mcptools

import (
	"path/filepath"
	"sort"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/internal/gocalls"
)

// fsWrites are the functions of package os that make, change or remove
// files and directories.
var fsWrites = map[string]bool{
	"WriteFile": true, "Create": true, "CreateTemp": true, "OpenFile": true, "Rename": true,
	"Mkdir": true, "MkdirAll": true, "MkdirTemp": true, "Remove": true, "RemoveAll": true,
	"Symlink": true, "Link": true, "Chmod": true, "Chown": true, "Lchown": true, "Truncate": true,
	"OpenRoot": true, "CopyFS": true,
}

// fsWritesOutside lists the calls of fsWrites (those in only, if given)
// in the non-test files of dir but the writer's own (files.go), as
// "file: func os.Name".
func fsWritesOutside(t *testing.T, dir string, only map[string]bool) []string {
	t.Helper()
	calls, err := gocalls.In(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range calls {
		writer := c.File == "files.go" && dir == "."
		if c.On == "os" && fsWrites[c.Name] && (only == nil || only[c.Name]) && !writer {
			out = append(out, c.File+": "+c.Func+" os."+c.Name)
		}
	}
	sort.Strings(out)
	return out
}

// TestOneFileWriter: no code of this package writes a file but through
// the writer (files.go: outputFile.create), which keeps every write inside
// its root, in the caller's namespace over HTTP, with its documented mode.
// The few calls left name files of the server's own, each said why. The
// CLI and the flow runner (package runner) write what their user names
// (reports, artifacts, JUnit, specs) through the writer too
// (WriteUserFile).
func TestOneFileWriter(t *testing.T) {
	allowed := map[string]string{
		"roots.go: privateFilesDir os.MkdirAll": "e2e-mcp's own files directory (0700), a root, not a client's file",
		"downloads.go: moveDownload os.Remove":  "Chrome's copy of a download, in the profile the server made, once moved",
	}
	for _, w := range fsWritesOutside(t, ".", nil) {
		if _, ok := allowed[w]; !ok {
			t.Errorf("%s writes outside the writer: use outputPath, serverFile or userDirFile and outputFile.create (files.go)", w)
		}
		delete(allowed, w)
	}
	for w := range allowed {
		t.Errorf("the exception %q is gone: remove it from this test", w)
	}

	creates := map[string]bool{"WriteFile": true, "Create": true, "CreateTemp": true, "OpenFile": true, "Rename": true}
	cmdAllowed := map[string]string{
		"main.go: serve os.Create": "the CPU profile E2E_MCP_CPUPROFILE names, for make bench",
	}
	for _, w := range fsWritesOutside(t, filepath.Join("..", "cmd", "e2e-mcp"), creates) {
		if _, ok := cmdAllowed[w]; !ok {
			t.Errorf("cmd/e2e-mcp/%s writes a file outside the writer: use mcptools.WriteUserFile", w)
		}
		delete(cmdAllowed, w)
	}
	for w := range cmdAllowed {
		t.Errorf("the exception %q is gone: remove it from this test", w)
	}
	// The settings (cmd/e2e-mcp/internal/config) only read files.
	for _, w := range fsWritesOutside(t, filepath.Join("..", "cmd", "e2e-mcp", "internal", "config"), creates) {
		t.Errorf("cmd/e2e-mcp/internal/config/%s writes a file: the settings only read theirs", w)
	}
	// The MCP transports (transport/, out of cmd/e2e-mcp) write no file.
	for _, w := range fsWritesOutside(t, filepath.Join("..", "transport"), creates) {
		t.Errorf("transport/%s writes a file outside the writer: use mcptools.WriteUserFile", w)
	}
	// The CLI (cmd/e2e-mcp/internal/cli) writes a screenshot where its user
	// says through the writer; its daemon keeps its own files.
	cliAllowed := map[string]string{
		"daemon.go: startDaemon os.OpenFile":       "the session daemon's own log, in the CLI's 0700 directory",
		"daemon.go: startDaemon os.WriteFile":      "the session daemon's own pid file, beside its log",
		"shapes.go: screenshotShape os.CreateTemp": "a fresh name in the temp directory for a screenshot its user did not name; written through the writer",
	}
	for _, w := range fsWritesOutside(t, filepath.Join("..", "cmd", "e2e-mcp", "internal", "cli"), creates) {
		if _, ok := cliAllowed[w]; !ok {
			t.Errorf("cmd/e2e-mcp/internal/cli/%s writes a file outside the writer: use mcptools.WriteUserFile", w)
		}
		delete(cliAllowed, w)
	}
	for w := range cliAllowed {
		t.Errorf("the exception %q is gone: remove it from this test", w)
	}
	// The flow runner writes what run's and convert's user names.
	for _, w := range fsWritesOutside(t, filepath.Join("..", "runner"), creates) {
		t.Errorf("runner/%s writes a file outside the writer: use mcptools.WriteUserFile", w)
	}
}
