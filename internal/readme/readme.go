// Package readme keeps generated sections of README.md in step with the
// code: tests render a section, and Check fails when the README differs
// (or rewrites it when UPDATE_TOOLSNAPS=true).
package readme

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Path is the README at the repository root.
func Path() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "README.md")
}

// Check compares the README's text between <!-- START name --> and
// <!-- END name --> with want.
func Check(t *testing.T, name, want string) {
	t.Helper()
	path := Path()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read README: %v", err)
	}
	start, end := fmt.Sprintf("<!-- START %s -->\n", name), fmt.Sprintf("<!-- END %s -->", name)
	text := string(b)
	i, j := strings.Index(text, start), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q ... %q markers", strings.TrimSpace(start), end)
	}
	got := text[i+len(start) : j]
	if got == want {
		return
	}
	if os.Getenv("UPDATE_TOOLSNAPS") == "true" {
		if err := os.WriteFile(path, []byte(text[:i+len(start)]+want+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md section %s is out of date; run 'make snaps'.\nwant:\n%s\ngot:\n%s", name, want, got)
}
