package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestBatch: five steps of the sign-up run in one call that answers once,
// with the page's reaction; a batch failing at its third step answers as
// that step alone would (same error, same diagnostics), says which step it
// was, and runs nothing after it; a bad step refuses the batch before any
// runs.
func TestBatch(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})

	out := mustCall(t, c, "browser_batch", map[string]any{"steps": []any{
		map[string]any{"type": map[string]any{"target": "label=Name", "text": "Ada"}},
		map[string]any{"check": "label=I accept the terms"},
		map[string]any{"click": "role=button[name='Sign up']"},
		map[string]any{"wait": map[string]any{"text": "Welcome, Ada!"}},
		map[string]any{"expect": map[string]any{"target": "role=status", "check": "text", "expected": "Welcome, Ada!"}},
	}})
	mustContain(t, "the batch", out, "Ran 5 step(s):", "1. type:", "3. click:", "5. expect:", "### Snapshot", "Welcome, Ada!")
	if n := strings.Count(out, "### Snapshot"); n != 1 {
		t.Errorf("the batch answers with %d snapshots, want one:\n%s", n, out)
	}
	if n := signups(f); n != 1 {
		t.Errorf("the page signed up %d times, want once", n)
	}

	// A failure: the same answer as the step alone.
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	single := mustFail(t, c, "browser_click", map[string]any{"target": "role=button[name='Delete account']"}, "element_not_found")
	batch := mustFail(t, c, "browser_batch", map[string]any{"steps": []any{
		map[string]any{"type": map[string]any{"target": "label=Name", "text": "Grace"}},
		map[string]any{"check": "label=I accept the terms"},
		map[string]any{"click": "role=button[name='Delete account']"},
		map[string]any{"click": "role=button[name='Sign up']"},
		"reload",
	}}, "element_not_found")
	sections := regexp.MustCompile(`(?m)^### \w+`)
	stamp := regexp.MustCompile(`at \d\d:\d\d:\d\d\.\d+Z|\(JPEG, \d+ KB\)`)
	head := func(s string) string { return stamp.ReplaceAllString(strings.SplitN(s, "\n### Batch", 2)[0], "") }
	if got, want := sections.FindAllString(head(batch), -1), sections.FindAllString(head(single), -1); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("the batch's failure has sections %v, the step alone %v", got, want)
	}
	firstLines := func(s string) string { return strings.Join(strings.SplitN(s, "\n", 4)[:3], "\n") }
	if firstLines(batch) != firstLines(single) {
		t.Errorf("the batch's failure starts\n%s\nthe step alone\n%s", firstLines(batch), firstLines(single))
	}
	mustContain(t, "the batch's failure", batch, "### Batch\nStep 3 of 5 (click) failed; steps 1-2 ran; the rest did not run.")
	if n := signups(f); n != 1 {
		t.Errorf("a step after the failure ran: %d sign-ups", n)
	}
	out = mustCall(t, c, "browser_snapshot", nil)
	mustContain(t, "the page after the failed batch", out, "- text: Grace", `checkbox "I accept the terms" [checked]`)

	// Bad steps refuse the batch before any runs.
	mustFail(t, c, "browser_batch", map[string]any{"steps": []any{map[string]any{"type": map[string]any{"target": "label=Name", "text": "Bob"}}, map[string]any{"fly": "away"}}}, "invalid_input")
	mustFail(t, c, "browser_batch", map[string]any{"steps": []any{map[string]any{"click": 5}}}, "invalid_input")
	mustFail(t, c, "browser_batch", map[string]any{"steps": []any{map[string]any{"route": map[string]any{"pattern": "**"}}}}, "not_allowed")
	out = mustCall(t, c, "browser_snapshot", nil)
	if strings.Contains(out, "Bob") {
		t.Errorf("a refused batch ran its first step:\n%s", out)
	}
}

// signups counts the sign-ups the fixture site got.
func signups(f *fixture) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.signups)
}
