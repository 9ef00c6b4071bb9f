package mcptools

import (
	"errors"
	"path/filepath"
	"testing"
)

// TestProfileHold: a --user-data-dir is held while a browser context of
// the server runs on it: the server's contexts share it, and another
// server (here a second Profile, whose lock conflicts as another
// process's does) is refused, typed, until the last of them lets it go;
// a hold let go twice counts once.
func TestProfileHold(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "profile")
	ours, err := OpenProfile(dir)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := OpenProfile(dir)
	if err != nil {
		t.Fatalf("a second server on a profile no browser runs on: %v", err)
	}
	h1, err := ours.hold()
	if err != nil {
		t.Fatal(err)
	}
	h2, err := ours.hold()
	if err != nil {
		t.Fatalf("a second context of the same server: %v", err)
	}
	refused := func(what string) {
		t.Helper()
		h, err := theirs.hold()
		var te *ToolError
		if !errors.As(err, &te) || te.Type != ErrBrowserLaunchFail {
			if h != nil {
				h.let()
			}
			t.Fatalf("%s: another server's hold = %v, want browser_launch_failed", what, err)
		}
	}
	refused("two contexts open")
	h1.let()
	h1.let()
	refused("one context open, the other let go twice")
	h2.let()
	h, err := theirs.hold()
	if err != nil {
		t.Fatalf("another server's hold once ours closed: %v", err)
	}
	h.let()

	// A browser's death lets the hold go, as its close does.
	gone := make(chan struct{})
	h3, err := ours.hold()
	if err != nil {
		t.Fatal(err)
	}
	h3.until(gone)
	refused("a context whose browser runs")
	close(gone)
	<-h3.released
	if h, err = theirs.hold(); err != nil {
		t.Fatalf("another server's hold once our browser died: %v", err)
	}
	h.let()
}
