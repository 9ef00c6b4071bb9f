//go:build unix

package mcptools

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestProfileChromeOn: a --user-data-dir a live Chrome of this machine
// runs on as its profile (its SingletonLock link names it) is refused as
// Playwright MCP refuses it; a link left by a Chrome that died, or made on
// another machine, holds nothing.
func TestProfileChromeOn(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	live := os.Getppid()
	for _, c := range []struct {
		name, target string
		want         int
	}{
		{"a live Chrome", host + "-" + strconv.Itoa(live), live},
		{"a Chrome that died", host + "-" + strconv.Itoa(dead.Process.Pid), 0},
		{"another machine's", "elsewhere.example-" + strconv.Itoa(live), 0},
		{"no PID", host, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "profile")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(c.target, filepath.Join(dir, "SingletonLock")); err != nil {
				t.Fatal(err)
			}
			if got := chromeOn(dir); got != c.want {
				t.Fatalf("chromeOn with SingletonLock -> %q = %d, want %d", c.target, got, c.want)
			}
			p, err := OpenProfile(dir)
			if err != nil {
				t.Fatal(err)
			}
			h, err := p.hold()
			var te *ToolError
			switch {
			case c.want == 0 && err != nil:
				t.Fatalf("hold: %v", err)
			case c.want == 0:
				h.let()
			case !errors.As(err, &te) || te.Type != ErrBrowserLaunchFail || !strings.Contains(te.Message, "already in use"):
				t.Fatalf("hold of a profile a Chrome runs on = %v, want browser_launch_failed saying it is already in use", err)
			}
		})
	}
	if got := chromeOn(t.TempDir()); got != 0 {
		t.Errorf("chromeOn of a directory with no link = %d", got)
	}
}
