//go:build unix

package devserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// dieAsServer ends this process's end of the guard's pipe, as the
// server's death does, and starts a fresh guard for the next Watch.
func dieAsServer(t *testing.T) {
	t.Helper()
	g := &theGuard
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.w == nil {
		t.Fatal("no guard runs")
	}
	_ = g.w.Close()
	g.w, g.failed = nil, false
}

// waitVerbs waits until the fixture's verbs.log reads want.
func waitVerbs(t *testing.T, state, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(filepath.Join(state, "verbs.log"))
		got := strings.Join(strings.Fields(string(b)), " ")
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("verbs: %q, want %q", got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestGuard: a dev server watched when the server dies is shut down by the
// guard (--shutdown, the server gone); one released first is left alone;
// a detached managed server is never watched.
func TestGuard(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	UseGuard(exe)
	t.Cleanup(func() { UseGuard("") })
	ctx := context.Background()

	watched, wState := fixtureCmd(t, "")
	released, rState := fixtureCmd(t, "")
	for _, c := range []*Command{watched, released} {
		if _, err := c.Do(ctx, Start); err != nil {
			t.Fatal(err)
		}
	}
	Watch(watched)
	Watch(released)()
	dieAsServer(t)
	waitVerbs(t, wState, "start shutdown")
	for deadline := time.Now().Add(10 * time.Second); len(processesWith("FIXTURE_STATE="+wState)) > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the watched dev server outlived its --shutdown: %v", processesWith("FIXTURE_STATE="+wState))
		}
	}
	// The released one runs on: its session stopped it (here: it did not).
	if len(processesWith("FIXTURE_STATE="+rState)) == 0 {
		t.Error("the guard stopped a dev server it was told to forget")
	}
	b, _ := os.ReadFile(filepath.Join(rState, "verbs.log"))
	if got := strings.Join(strings.Fields(string(b)), " "); got != "start" {
		t.Errorf("verbs of the released server: %q", got)
	}

	if release := Watch(&Managed{spec: ManagedSpec{Detach: true}}); release == nil {
		t.Error("Watch of a detached server gave no release")
	}
	theGuard.mu.Lock()
	started := theGuard.w != nil
	theGuard.mu.Unlock()
	if started {
		t.Error("a detached managed server started a guard: it outlives the server on purpose")
	}
}
