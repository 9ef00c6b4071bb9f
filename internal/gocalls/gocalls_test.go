package gocalls

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSources: a tree's sources are its own and its sub-packages', never
// its tests' or testdata's.
func TestSources(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"a.go", "a_test.go", "sub/b.go", "sub/deeper/c.go", "testdata/d.go", ".hidden/e.go", "sub/notes.md"} {
		path := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Sources(root)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i], _ = filepath.Rel(root, got[i])
	}
	want := []string{"a.go", filepath.Join("sub", "b.go"), filepath.Join("sub", "deeper", "c.go")}
	if !slices.Equal(got, want) {
		t.Errorf("Sources = %v, want %v", got, want)
	}
}
