package mcptools

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestFileURIPath(t *testing.T) {
	for _, tc := range []struct {
		uri     string
		windows bool
		want    string
		ok      bool
	}{
		{"file:///home/ann/my%20app", false, "/home/ann/my app", true},
		{"file://localhost/srv/x/../y/", false, "/srv/y", true},
		{"FILE:///tmp/a", false, "/tmp/a", true},
		{"file:///C:/Users/ann/app", true, `C:\Users\ann\app`, true},
		{"file:///c%3A/Users/x/..", true, `c:\Users`, true},
		{"file://server/share/x", false, "", false},
		{"https://example.com/x", false, "", false},
		{"file:relative/x", false, "", false},
		{"file:///home/x", true, "", false},
	} {
		got, ok := fileURIPath(tc.uri, tc.windows)
		if got != tc.want || ok != tc.ok {
			t.Errorf("fileURIPath(%q, windows=%v) = %q, %v; want %q, %v", tc.uri, tc.windows, got, ok, tc.want, tc.ok)
		}
	}
}

func TestRootDirs_Bounded(t *testing.T) {
	var roots []mcp.Root
	roots = append(roots, mcp.Root{URI: "https://example.com/"})
	for i := range maxClientRoots + 3 {
		roots = append(roots, mcp.Root{URI: fmt.Sprintf("file:///r/%d", i)})
	}
	dirs, skipped := rootDirs(roots, false)
	if len(dirs) != maxClientRoots || skipped != 4 || dirs[0] != "/r/0" {
		t.Errorf("rootDirs: %d dirs (first %q), %d skipped; want %d, /r/0, 4", len(dirs), dirs[0], skipped, maxClientRoots)
	}
}

func TestUnsafeRoot(t *testing.T) {
	t.Setenv("HOME", "/home/ann")
	for dir, want := range map[string]bool{"/": true, "/home": true, "/home/ann": true, "/home/ann/app": false, "/srv/app": false} {
		if got := unsafeRoot(dir); got != want {
			t.Errorf("unsafeRoot(%q) = %v, want %v", dir, got, want)
		}
	}
}

// Without a client session, the flag wins, else the working directory.
func TestLocalRoots_FlagAndDefault(t *testing.T) {
	d := &Deps{FileRoots: []string{"/a", "/b"}}
	fr, err := d.localRoots(context.Background())
	if err != nil || fr.String() != "/a, /b (--file-roots)" {
		t.Errorf("flag roots = %v, %v", fr, err)
	}
	fr, err = (&Deps{}).localRoots(context.Background())
	if err != nil || fr.from != fromWorkDir || !strings.HasSuffix(fr.dirs[0], "mcptools") {
		t.Errorf("default roots = %v, %v", fr, err)
	}
}
