package mcptools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUploadPaths(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	write := func(p string) string {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	inside := write(filepath.Join(root, "a.txt"))
	secret := write(filepath.Join(outside, "secret.txt"))
	link := filepath.Join(root, "link.txt") // inside by name, outside in fact
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	d := &Deps{FileRoots: []string{root}}

	got, err := d.uploadPaths(context.Background(), []string{inside, filepath.Join(root, "sub", "..", "a.txt")})
	if err != nil || len(got) != 2 || got[0] != inside || got[1] != inside {
		t.Fatalf("uploadPaths(inside) = %v, %v", got, err)
	}
	for _, tc := range []struct {
		name, path string
		want       ErrorType
	}{
		{"outside", secret, ErrNotAllowed},
		{"dot-dot out", filepath.Join(root, "..", filepath.Base(outside), "secret.txt"), ErrNotAllowed},
		{"symlink out", link, ErrNotAllowed},
		{"missing outside: refused before looking", filepath.Join(outside, "nope"), ErrNotAllowed},
		// Relative paths start in the working directory (with
		// --file-roots, as for writes), which is outside this root.
		{"relative, from the working directory", "a.txt", ErrNotAllowed},
		{"empty", "", ErrInvalidInput},
		{"missing", filepath.Join(root, "nope.txt"), ErrInvalidInput},
		{"directory", root, ErrInvalidInput},
	} {
		_, err := d.uploadPaths(context.Background(), []string{tc.path})
		var te *ToolError
		if !errors.As(err, &te) || te.Type != tc.want {
			t.Errorf("%s: uploadPaths(%q) = %v, want %s", tc.name, tc.path, err, tc.want)
		}
	}
	if _, err := d.uploadPaths(context.Background(), nil); err == nil {
		t.Errorf("uploadPaths(nil): want invalid_input")
	}

	// Without roots, the working directory is the one.
	wd, _ := os.Getwd()
	if _, err := (&Deps{}).uploadPaths(context.Background(), []string{filepath.Join(wd, "input.go")}); err != nil {
		t.Errorf("a file in the working directory: %v", err)
	}
	if _, err := (&Deps{}).uploadPaths(context.Background(), []string{inside}); err == nil {
		t.Errorf("a file outside the working directory was allowed without roots")
	}
	// A relative path starts there, and comes back absolute.
	if got, err := (&Deps{}).uploadPaths(context.Background(), []string{"input.go"}); err != nil || len(got) != 1 || got[0] != filepath.Join(wd, "input.go") {
		t.Errorf("uploadPaths(input.go) without roots = %v, %v, want %s", got, err, filepath.Join(wd, "input.go"))
	}
	var te *ToolError
	if _, err := (&Deps{}).uploadPaths(context.Background(), []string{"../go.mod"}); !errors.As(err, &te) || te.Type != ErrNotAllowed ||
		!strings.Contains(te.Message, filepath.Join(filepath.Dir(wd), "go.mod")) {
		t.Errorf("uploadPaths(../go.mod) without roots = %v, want not_allowed naming the path it resolved to", err)
	}
}
