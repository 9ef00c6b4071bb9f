//go:build pwcheck

package e2e

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPlaywrightCheckGroups (make playwright-check): a flow with nested
// groups, a route made in one group and removed outside it, and a secret
// typed in a group replays under e2e-mcp run; converted, its spec (each
// group a test.step, the route's matcher a let of the test's top) parses
// and passes under the pinned @playwright/test; with the app's button
// changed it fails at the click's line, inside its test.step.
func TestPlaywrightCheckGroups(t *testing.T) {
	dir := pwcheckDir(t)
	python, _ := signUpApp(t, dir)
	flowFile := filepath.Join(dir, "grouped.yaml")
	writeFiles(t, dir, map[string]string{"grouped.yaml": `name: grouped sign-up
dev:
  run: ` + python + ` app.py $PORT
  cwd: .
steps:
  - navigate: /
  - group: Mocks
    steps:
      - route: {pattern: /api/signup, status: 200, contentType: application/json, body: '{"name":"Grace"}'}
  - group: Fill the form
    steps:
      - type: {target: 'role=textbox[name="Name"]', text: Ada}
      - group: The password
        steps:
          - type: {target: label=Password, text: '${E2E_SECRET_1}'}
      - click: 'role=button[name="Sign up"]'
  - expect: {target: role=status, check: text, expected: 'Welcome, Grace!'}
  - unroute: /api/signup
`})
	secret := "E2E_SECRET_1=hunter2"
	env, _ := runEnvironment(t)
	if out, code := runFlows(t, append(env, secret), flowFile); code != 0 {
		t.Fatalf("e2e-mcp run of the grouped flow: exit %d:\n%s", code, out)
	}
	conv := filepath.Join(dir, "converted")
	if o, err := exec.Command(bin, "convert", flowFile, "--to", "playwright", "--out", conv).CombinedOutput(); err != nil {
		t.Fatalf("e2e-mcp convert: %v\n%s", err, o)
	}
	spec := filepath.Join(conv, "grouped-sign-up.spec.ts")
	text := readFile(t, spec)
	t.Logf("the converted spec:\n%s", text)
	mustContain(t, "the spec", text, "  let route1;\n", "await test.step('Fill the form', async () => {", "    await test.step('The password', async () => {",
		"await page.context().unroute(route1);")
	config := filepath.Join(conv, "playwright.config.ts")
	r, code := playwrightTest(t, config, secret)
	if code != 0 || r.Stats.Expected != 1 || r.Stats.Unexpected != 0 {
		var fails []string
		for _, s := range r.Suites {
			fails = append(fails, s.failures()...)
		}
		for _, e := range r.Errors {
			fails = append(fails, e.Message)
		}
		t.Fatalf("the grouped spec does not pass (exit %d): %+v\n%s", code, r.Stats, strings.Join(fails, "\n"))
	}

	// The button changes: the spec fails at the click, in its test.step.
	writeFiles(t, dir, map[string]string{"label.txt": "Register"})
	r, code = playwrightTest(t, config, secret)
	var fails []string
	for _, s := range r.Suites {
		fails = append(fails, s.failures()...)
	}
	want := spec + ":" + strconv.Itoa(lineOf(t, spec, 5)) + " "
	if code == 0 || r.Stats.Unexpected != 1 || len(fails) == 0 || !strings.HasPrefix(fails[0], want) {
		t.Fatalf("the changed app: exit %d, %+v; want the first failure at %s:\n%s", code, r.Stats, want, strings.Join(fails, "\n"))
	}
	if left := appProcesses(dir); len(left) > 0 {
		t.Errorf("dev servers left: %v", left)
	}
}
