package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// signUpAndExport copies the sign-up app into dir, signs up through MCP
// (the password typed, the welcome text expected) and returns the client,
// ready for session_export_flow. Its file roots are dir.
func signUpAndExport(t *testing.T, dir string) (python string, must func(tool string, args map[string]any) string, try func(tool string, args map[string]any) (string, bool)) {
	t.Helper()
	python, _ = signUpApp(t, dir)
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn")
	c := startClient(t, env)
	mustCall(t, c, "session_start", map[string]any{"run": python + " app.py $PORT", "cwd": dir})
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": "/"})
	mustCall(t, c, "browser_type", map[string]any{"target": refOf(t, snap, "textbox", "Name"), "text": "Ada"})
	mustCall(t, c, "browser_type", map[string]any{"target": refOf(t, snap, "textbox", "Password"), "text": "hunter2"})
	mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "button", "Sign up")})
	mustCall(t, c, "browser_expect", map[string]any{"target": "role=status", "check": "text", "expected": "Welcome, Ada!"})
	return python, func(tool string, args map[string]any) string { return mustCall(t, c, tool, args) },
		func(tool string, args map[string]any) (string, bool) {
			r := call(t, c, tool, args)
			return text(r), r.IsError
		}
}

// TestExportPlaywright: a session that signed up exports itself as a
// Playwright Test spec under the file roots, with a playwright.config.ts
// beside it whose webServer is the session's dev server; the password is
// read from the environment; a second export keeps the config; a path
// outside the roots is refused. e2e-mcp convert writes the same spec from
// the flow file. (make playwright-check runs such specs under Playwright.)
func TestExportPlaywright(t *testing.T) {
	dir := t.TempDir()
	python, mustDo, do := signUpAndExport(t, dir)
	spec := filepath.Join(dir, "e2e", "signup.spec.ts")
	if err := os.Mkdir(filepath.Dir(spec), 0o755); err != nil {
		t.Fatal(err)
	}
	out := mustDo("session_export_flow", map[string]any{"path": spec, "name": "sign-up", "format": "playwright"})
	mustContain(t, "the export", out, "Wrote the Playwright spec of flow sign-up (5 steps) to "+spec,
		"playwright.config.ts (the dev server as its webServer)", "It reads E2E_SECRET_1 from the environment.")
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	t.Logf("the exported spec:\n%s", text)
	mustContain(t, "the spec", text, "import { test, expect } from '@playwright/test';", "test('sign-up', async ({ page }) => {",
		"await page.goto('/');",
		"await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada');",
		"await page.getByRole('textbox', { name: 'Password', exact: true }).fill(env('E2E_SECRET_1'));",
		"// step 4: click role=button[name=\"Sign up\"]\n  await page.getByRole('button', { name: 'Sign up', exact: true }).click();",
		"await expect(page.getByRole('status')).toContainText('Welcome, Ada!');")
	if strings.Contains(text, "hunter2") || regexp.MustCompile(`\be\d+\b`).MatchString(text) {
		t.Errorf("the spec holds the password or a snapshot ref:\n%s", text)
	}
	cfg, err := os.ReadFile(filepath.Join(dir, "e2e", "playwright.config.ts"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "the config", string(cfg), "command: '"+python+" app.py $PORT',", "cwd: '"+dir+"',",
		"env: { PORT: String(port) },", "reuseExistingServer: !process.env.CI,", "baseURL: `http://localhost:${port}`,",
		"executablePath: process.env.CHROMIUM || undefined", "headless: true,")

	// Again into the same directory: the config there is kept.
	if err := os.WriteFile(filepath.Join(dir, "e2e", "playwright.config.ts"), []byte("// the team's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out = mustDo("session_export_flow", map[string]any{"path": filepath.Join(dir, "e2e", "again.spec.ts"), "format": "playwright"})
	mustContain(t, "the second export", out, "Kept the playwright.config.ts there")
	if b, _ := os.ReadFile(filepath.Join(dir, "e2e", "playwright.config.ts")); string(b) != "// the team's\n" {
		t.Errorf("the team's config was written over: %s", b)
	}
	// Outside the file roots: refused, typed.
	out, isErr := do("session_export_flow", map[string]any{"path": filepath.Join(t.TempDir(), "x.spec.ts"), "format": "playwright"})
	if !isErr || !strings.Contains(out, "invalid_input") && !strings.Contains(out, "not_allowed") {
		t.Errorf("a path outside the roots: %s", out)
	}
	// Without a path: the spec and the config in the answer.
	out = mustDo("session_export_flow", map[string]any{"format": "playwright", "name": "sign-up"})
	mustContain(t, "the answer", out, "```ts\n// The flow sign-up", "webServer: {")

	// The flow file converted by e2e-mcp convert: the same spec.
	flowFile := filepath.Join(dir, "signup.yaml")
	mustDo("session_export_flow", map[string]any{"path": flowFile, "name": "sign-up"})
	conv := filepath.Join(dir, "converted")
	cmd := exec.Command(bin, "convert", flowFile, "--to", "playwright", "--out", conv)
	o, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("e2e-mcp convert: %v\n%s", err, o)
	}
	mustContain(t, "convert's output", string(o), "wrote "+filepath.Join(conv, "sign-up.spec.ts"), "reads [E2E_SECRET_1] from the environment")
	cb, err := os.ReadFile(filepath.Join(conv, "sign-up.spec.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if string(cb) != text {
		t.Errorf("convert wrote another spec than the tool:\n%s\n--- the tool's:\n%s", cb, text)
	}
	if o, err := exec.Command(bin, "convert", flowFile, "--to", "cypress", "--out", conv).CombinedOutput(); err == nil || !strings.Contains(string(o), "the one format is playwright") {
		t.Errorf("convert --to cypress: %v\n%s", err, o)
	}
}

// TestExportPlaywrightWithoutDevServer: a session without a dev server
// exports a spec whose answer and config claim no webServer: the config
// has none, and says nothing of one.
func TestExportPlaywrightWithoutDevServer(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	out := mustCall(t, c, "session_export_flow", map[string]any{"path": filepath.Join(dir, "plain.spec.ts"), "format": "playwright"})
	cfg, err := os.ReadFile(filepath.Join(dir, "playwright.config.ts"))
	if err != nil {
		t.Fatalf("no config: %v\n%s", err, out)
	}
	if strings.Contains(out, "webServer") || strings.Contains(string(cfg), "webServer") || strings.Contains(string(cfg), "dev server") {
		t.Errorf("a session without a dev server exports a webServer:\n%s\n--- the config:\n%s", out, cfg)
	}
	mustContain(t, "the answer", out, "playwright.config.ts")
}
