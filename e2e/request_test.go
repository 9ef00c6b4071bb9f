package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// requestApp copies the request and chat app (testdata/requests/app.py)
// into dir and returns the dev: block of a flow that runs it.
func requestApp(t *testing.T, dir string) string {
	t.Helper()
	python, _ := signUpApp(t, t.TempDir()) // python3's path
	app, err := os.ReadFile("testdata/requests/app.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "app.py"), app, 0o644); err != nil {
		t.Fatal(err)
	}
	return "dev:\n  run: " + python + " app.py $PORT\n  cwd: " + dir + "\n"
}

// TestRequestSteps: an agent signs in and creates an item with
// browser_request (the context's cookie set by the answer and sent with
// the next call), sees the item in the page, and checks the API; the
// exported flow holds request steps and `e2e-mcp run` replays it green
// with a fresh dev server; convert writes page.request calls.
func TestRequestSteps(t *testing.T) {
	dir := t.TempDir()
	requestApp(t, dir)
	python, _ := signUpApp(t, t.TempDir())
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn", "E2E_MCP_CAPS=network")
	c := startClient(t, env)
	mustCall(t, c, "session_start", map[string]any{"run": python + " app.py $PORT", "cwd": dir})
	out := mustCall(t, c, "browser_request", map[string]any{"method": "POST", "url": "/api/login", "json": map[string]any{"name": "ada"}})
	mustContain(t, "login", out, "Answered 200 OK", `"user": "ada"`)
	out = mustCall(t, c, "browser_request", map[string]any{"method": "POST", "url": "/api/items", "json": map[string]any{"name": "milk"},
		"expect": map[string]any{"status": 201, "body": map[string]any{"item": map[string]any{"name": "milk", "owner": "ada"}}}})
	mustContain(t, "create", out, "Answered 201 Created", "As expected.")
	mustCall(t, c, "browser_navigate", map[string]any{"url": "/items.html"})
	mustCall(t, c, "browser_expect", map[string]any{"target": "role=listitem", "check": "text", "expected": "milk"})
	// What the agent expects and the server does not answer is a typed
	// failure naming what it got.
	res := call(t, c, "browser_request", map[string]any{"url": "/api/items", "expect": map[string]any{"body": map[string]any{"items": []any{map[string]any{"name": "bread"}}}}})
	mustContain(t, "a body that does not match", text(res), "expect_failed", `GET /api/items: the body does not match expect.body: body.items[0].name is "milk", wanted "bread"`)
	flowFile := filepath.Join(dir, "items.yaml")
	out = mustCall(t, c, "session_export_flow", map[string]any{"path": flowFile, "name": "items"})
	mustContain(t, "export", out, "Wrote flow items (4 steps)")
	_ = c.Close()
	b, err := os.ReadFile(flowFile)
	if err != nil {
		t.Fatal(err)
	}
	flowText := string(b)
	t.Logf("the exported flow:\n%s", flowText)
	mustContain(t, "the flow", flowText, "request:", "url: /api/login", "method: POST", "status: 201", "owner: ada")

	out, code := runFlows(t, env, flowFile)
	if code != 0 || !strings.Contains(out, "PASS  items") {
		t.Fatalf("the exported flow does not replay green (exit %d):\n%s", code, out)
	}

	// convert writes the same calls as Playwright's page.request.
	specDir := filepath.Join(dir, "spec")
	cmd := exec.Command(bin, "convert", flowFile, "--to", "playwright", "--out", specDir)
	cmd.Env = env
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("convert: %v\n%s", err, b)
	}
	spec, err := os.ReadFile(filepath.Join(specDir, "items.spec.ts"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "the spec", string(spec), "const response1 = await page.request.post('/api/login', { data: { 'name': 'ada' } });",
		"expect(response2.status(), 'POST /api/items').toBe(201);",
		"expect(await response2.json(), 'POST /api/items').toMatchObject({ 'item': { 'name': 'milk', 'owner': 'ada' } });")
}

// TestRequestExpectFails: a request step whose answer is not the one it
// expects fails the flow (exit 1) naming the step, the status got and
// wanted and the body; the Authorization header's token, which the app
// echoes, is masked everywhere; a body that does not match says where.
func TestRequestExpectFails(t *testing.T) {
	dir := t.TempDir()
	dev := requestApp(t, dir)
	writeFiles(t, dir, map[string]string{
		"status.yaml": "name: status\n" + dev + "steps:\n" +
			"  - request: {method: POST, url: /api/items, headers: {Authorization: 'Bearer ${API_TOKEN}'}, json: {name: milk}, expect: {status: 201}}\n",
		"body.yaml": "name: body\n" + dev + "steps:\n" +
			"  - request: {method: POST, url: /api/login, json: {name: bob}}\n" +
			"  - request: {url: /api/items, expect: {body: {items: [{name: bread}]}}}\n",
	})
	env, _ := runEnvironment(t)
	env = append(env, "API_TOKEN=tok-4c1d2e9f7a")
	junit := filepath.Join(dir, "junit.xml")
	out, code := runFlows(t, env, "--junit", junit, "--artifacts", filepath.Join(dir, "art"), filepath.Join(dir, "status.yaml"), filepath.Join(dir, "body.yaml"))
	t.Logf("run:\n%s", out)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	mustContain(t, "the run", out, "FAIL  status", "step 1, request POST /api/items", "expect_failed",
		"status 401, wanted 201", "sign in first",
		"FAIL  body", "step 2, request GET /api/items", "body.items has 0 items, wanted 1")
	files := []string{junit}
	_ = filepath.Walk(filepath.Join(dir, "art"), func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	for _, f := range append(files, "") {
		what, b := f, []byte(out)
		if f != "" {
			var err error
			if b, err = os.ReadFile(f); err != nil {
				t.Fatal(err)
			}
		} else {
			what = "the run's output"
		}
		if strings.Contains(string(b), "tok-4c1d2e9f7a") {
			t.Errorf("%s shows the token:\n%s", what, b)
		}
	}
}
