//go:build !unit

package browser

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

func init() {
	pages["/feed/one"] = `<!doctype html><title>One</title>
<script>console.log("one log"); console.warn("one warn")</script>
<iframe srcdoc="<script>console.error('one inner')</script>"></iframe>`
	pages["/feed/two"] = `<!doctype html><title>Two</title>
<script>console.info("two info"); setTimeout(() => { throw new Error("two thrown") }, 0)</script>`
}

// feed is what a Tabs.OnConsole hook was told, in order.
type feed struct {
	mu     sync.Mutex
	events []ConsoleEvent
}

func (f *feed) add(ev ConsoleEvent) {
	f.mu.Lock()
	f.events = append(f.events, ev)
	f.mu.Unlock()
}

// waitFor waits until an event says it (a message's text holds it, or
// "closed"), and returns it.
func (f *feed) waitFor(t *testing.T, what string) ConsoleEvent {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		f.mu.Lock()
		for _, ev := range f.events {
			if ev.Closed && what == "closed" || !ev.Closed && !ev.Navigated && strings.Contains(ev.Message.Text, what) {
				f.mu.Unlock()
				return ev
			}
		}
		n := len(f.events)
		f.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no event %q among the %d told", what, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestOnConsole: the hook is told every console message of a tab (its
// iframes' too, every level, uncaught exceptions) as it comes, with no
// call running, each with its document's number, which a navigation to a
// new document changes and tells; and the tab's close, after which
// nothing is told.
func TestOnConsole(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tabs, err := testManager.NewTabs(ctx)
	if err != nil {
		t.Fatalf("NewTabs: %v", err)
	}
	defer tabs.Close()
	var f feed
	tabs.OnConsole(f.add)
	p := tabs.Current()
	if _, err := p.Navigate(ctx, testServer.URL+"/feed/one"); err != nil {
		t.Fatalf("Navigate: %v", err)
	}
	log, warn, inner := f.waitFor(t, "one log"), f.waitFor(t, "one warn"), f.waitFor(t, "one inner")
	if log.Page != p || log.Message.Level != "log" || warn.Message.Level != "warning" || inner.Message.Level != "error" {
		t.Errorf("first document's messages: %+v, %+v, %+v", log, warn, inner)
	}
	if log.Doc != warn.Doc || log.Doc != inner.Doc {
		t.Errorf("one document's messages have documents %d, %d, %d", log.Doc, warn.Doc, inner.Doc)
	}
	if !strings.HasPrefix(log.Message.Location, testServer.URL+"/feed/one:2:") {
		t.Errorf("location %q, want the script's line", log.Message.Location)
	}
	if _, err := p.Navigate(ctx, testServer.URL+"/feed/two"); err != nil {
		t.Fatalf("Navigate: %v", err)
	}
	info, thrown := f.waitFor(t, "two info"), f.waitFor(t, "two thrown")
	if info.Doc <= log.Doc || thrown.Doc != info.Doc {
		t.Errorf("second document's messages have documents %d, %d; the first's %d", info.Doc, thrown.Doc, log.Doc)
	}
	if thrown.Message.Level != "exception" || info.Message.Level != "info" {
		t.Errorf("levels %q, %q", info.Message.Level, thrown.Message.Level)
	}
	// The new document was told before its first message.
	f.mu.Lock()
	told := false
	for _, ev := range f.events {
		if ev.Navigated && ev.Doc == info.Doc {
			told = true
		}
		if ev.Message.Text == "two info" {
			break
		}
	}
	f.mu.Unlock()
	if !told {
		t.Errorf("no event told document %d began before its first message", info.Doc)
	}
	// A message logged later, no call waiting for it, is told as it comes.
	if _, err := p.Evaluate(ctx, `() => { setTimeout(() => console.debug("later"), 300) }`, ""); err != nil {
		t.Fatalf("Evaluate: %v", err)
	}
	if later := f.waitFor(t, "later"); later.Doc != info.Doc || later.Message.Level != "debug" {
		t.Errorf("the later message: %+v", later)
	}
	p.Close()
	if closed := f.waitFor(t, "closed"); closed.Page != p {
		t.Errorf("closed event of another page: %+v", closed)
	}
	f.mu.Lock()
	last := f.events[len(f.events)-1]
	f.mu.Unlock()
	if !last.Closed {
		t.Errorf("an event after the close: %+v", last)
	}
}
