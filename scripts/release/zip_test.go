package main

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWriteZip: the archive holds DIR/... in name order with the given
// time and modes, and a second run over files with other mtimes gives the
// same bytes.
func TestWriteZip(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "pkg_1.0_windows_amd64")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]struct {
		body string
		mode os.FileMode
	}{"e2e-mcp.exe": {"MZ binary", 0o755}, "README.md": {"# read me\n", 0o644}, "LICENSE": {"license\n", 0o600}}
	for name, f := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(f.body), f.mode); err != nil {
			t.Fatal(err)
		}
	}
	when := time.Date(2026, 11, 25, 18, 44, 11, 0, time.UTC)
	first, second := filepath.Join(root, "a.zip"), filepath.Join(root, "b.zip")
	if err := writeZip(first, when, dir); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	for name := range files {
		if err := os.Chtimes(filepath.Join(dir, name), later, later); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeZip(second, when, dir); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(first)
	b, _ := os.ReadFile(second)
	if !bytes.Equal(a, b) {
		t.Error("two runs over the same files gave different archives")
	}
	zr, err := zip.OpenReader(first)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		if !f.Modified.Equal(when) {
			t.Errorf("%s: modified %v, want %v", f.Name, f.Modified, when)
		}
		base := filepath.Base(f.Name)
		wantMode := os.FileMode(0o644)
		if files[base].mode&0o111 != 0 {
			wantMode = 0o755
		}
		if f.Mode().Perm() != wantMode {
			t.Errorf("%s: mode %v, want %v", f.Name, f.Mode().Perm(), wantMode)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(rc)
		_ = rc.Close()
		if string(body) != files[base].body {
			t.Errorf("%s: body %q", f.Name, body)
		}
	}
	want := []string{"pkg_1.0_windows_amd64/LICENSE", "pkg_1.0_windows_amd64/README.md", "pkg_1.0_windows_amd64/e2e-mcp.exe"}
	if len(names) != len(want) || names[0] != want[0] || names[1] != want[1] || names[2] != want[2] {
		t.Errorf("entries %v, want %v", names, want)
	}
}
