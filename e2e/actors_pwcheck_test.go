//go:build pwcheck

package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlaywrightCheckRequestsAndActors (make playwright-check): a flow
// that signs in and creates an item with request steps and sees it in the
// page, and the two actors' chat (actors_test.go), each replayed green by
// e2e-mcp run, converted, pass under the pinned @playwright/test: the
// request steps as page.request (the context's cookies), bob as a context
// of the test's browser with the project's baseURL.
func TestPlaywrightCheckRequestsAndActors(t *testing.T) {
	dir := pwcheckDir(t)
	dev := requestApp(t, dir)
	writeFiles(t, dir, map[string]string{
		"chat.yaml": chatFlow("chat", dev, "Chat as bob"),
		"items.yaml": "name: items\n" + dev + `steps:
  - request: {method: POST, url: /api/login, json: {name: ada}}
  - request: {method: POST, url: /api/items, json: {name: milk}, expect: {status: 201, body: {item: {name: milk, owner: ada}}}}
  - navigate: /items.html
  - expect: {target: role=listitem, check: text, expected: milk}
  - request: {url: /api/items, expect: {body: {items: [{name: milk}]}}}
  - request: {url: /items.html, expect: {body: Your list}}
`,
	})
	files := []string{filepath.Join(dir, "chat.yaml"), filepath.Join(dir, "items.yaml")}
	env, _ := runEnvironment(t)
	if out, code := runFlows(t, env, files...); code != 0 {
		t.Fatalf("e2e-mcp run: exit %d:\n%s", code, out)
	}
	conv := filepath.Join(dir, "converted")
	if o, err := exec.Command(bin, append([]string{"convert"}, append(files, "--to", "playwright", "--out", conv)...)...).CombinedOutput(); err != nil {
		t.Fatalf("e2e-mcp convert: %v\n%s", err, o)
	}
	for _, s := range []string{"chat.spec.ts", "items.spec.ts"} {
		t.Logf("%s:\n%s", s, readFile(t, filepath.Join(conv, s)))
	}
	r, code := playwrightTest(t, filepath.Join(conv, "playwright.config.ts"))
	if code != 0 || r.Stats.Expected != 2 || r.Stats.Unexpected != 0 {
		var fails []string
		for _, s := range r.Suites {
			fails = append(fails, s.failures()...)
		}
		for _, e := range r.Errors {
			fails = append(fails, e.Message)
		}
		t.Fatalf("the specs do not pass (exit %d): %+v\n%s", code, r.Stats, strings.Join(fails, "\n"))
	}
}
