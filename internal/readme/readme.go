// Package readme keeps the generated parts of README.md and docs/*.md in
// step with the code: a test in the package that owns a generator renders
// its section, and Check fails when the file differs (or rewrites it under
// 'make docs', which sets UPDATE_DOCS=true; 'make snaps' sets
// UPDATE_TOOLSNAPS=true, which rewrites them too).
package readme

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Sections names each generated section and the file, relative to the
// repository root, that holds it between <!-- START name --> and
// <!-- END name -->. Every such marker pair in README.md and docs/*.md is
// here (TestSectionsRegistered), and each section has one test that
// checks it.
var Sections = map[string]string{
	"AUTOMATED TOOLS": "docs/tools.md",          // mcptools.TestReadmeToolTable
	"FLAGS":           "docs/flags.md",          // cmd/e2e-mcp/internal/config TestReadmeFlagTable
	"PWFLAGS":         "docs/playwright-mcp.md", // cmd/e2e-mcp/internal/config TestReadmePlaywrightTable
	"TOOL FILES":      "docs/development.md",    // mcptools.TestToolFilesTable
}

// Root is the repository's root directory.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Path is the README at the repository root.
func Path() string {
	return filepath.Join(Root(), "README.md")
}

// Check compares the text between <!-- START name --> and
// <!-- END name --> in the file Sections names with want.
func Check(t *testing.T, name, want string) {
	t.Helper()
	rel, ok := Sections[name]
	if !ok {
		t.Fatalf("no generated section %q in readme.Sections", name)
	}
	path := filepath.Join(Root(), filepath.FromSlash(rel))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", rel, err)
	}
	text := string(b)
	i, j, err := markers(text, name)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	got := text[i:j]
	if got == want {
		return
	}
	if os.Getenv("UPDATE_DOCS") == "true" || os.Getenv("UPDATE_TOOLSNAPS") == "true" {
		if err := os.WriteFile(path, []byte(text[:i]+want+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the generated section %s is out of date; run 'make docs'.\nwant:\n%s\ngot:\n%s", rel, name, want, got)
}

// markers returns where the section name's text starts and ends in text.
func markers(text, name string) (int, int, error) {
	start, end := fmt.Sprintf("<!-- START %s -->\n", name), fmt.Sprintf("<!-- END %s -->", name)
	i, j := strings.Index(text, start), strings.Index(text, end)
	if i < 0 || j < i+len(start) {
		return 0, 0, fmt.Errorf("no %q ... %q markers", strings.TrimSpace(start), end)
	}
	return i + len(start), j, nil
}
