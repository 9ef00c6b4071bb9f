package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// The redaction table (mcptools/secrets.go, package redact): every kind of
// secret an agent or a flow hands the server, against every writer the
// server has. One session enters each kind the way an agent does, fails
// calls whose context lines would show them, and then every writer's output
// is read: the answers (text and structured content), session_errors, the
// client's log, the server's log at debug level (the DevTools traffic
// included), the flow, the Playwright spec, the report, the trace (its
// requests included); then the flow runner replays a flow with
// E2E_SECRET_1 and writes its stdout, JUnit file, artifacts, report,
// trace and (--heal) repaired flow. No secret may appear in any of them.
// The agent's answers show the page as it is (words_test.go): this page
// echoes none of the values, so they must appear there only where the
// agent's own secret stands masked (a failure's arguments, fill_form's
// password field, the headers browser_emulate lists).
//
// TestRedactionWriters (mcptools) holds the code's list of writers to this
// table: a writer added without a row here fails it.

// secretKinds are the values entered, one per kind of secret.
var secretKinds = map[string]string{
	"typed password":              "Typed-PW-7x1q",
	"filled password":             "Filled-PW-8y2w",
	"batch password":              "Batch-PW-9z3e",
	"http password":               "Http-PW-4q5r",
	"emulate Authorization":       "emu-tok-5r6t",
	"route Authorization":         "route-tok-6s7y",
	"cookie value":                "cookie-val-7t8u",
	"storage value":               "storage-val-8u9i",
	"E2E_SECRET_1 (flow runner)":  "env-secret-9v0o",
	"secret-looking env variable": "ci-token-1a2s",
	"demonstrated password":       "demopw4k7z",
}

func TestRedactionTable(t *testing.T) {
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("POST /api/session", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			http.Error(w, "no", http.StatusUnauthorized)
		})
	})
	dir := t.TempDir()
	env, _ := serverEnv(t) // debug level: the DevTools traffic is logged
	env = append(env, "E2E_MCP_CAPS=report,emulation,network,storage,devtools", "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_ACTION_TIMEOUT=1s")
	c, stderr := startClientLog(t, env)

	var mu sync.Mutex
	var clientLog []string
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/message" {
			b, _ := json.Marshal(n.Params)
			mu.Lock()
			clientLog = append(clientLog, string(b))
			mu.Unlock()
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	lvl := mcp.SetLevelRequest{}
	lvl.Params.Level = mcp.LoggingLevelDebug
	if err := c.SetLevel(ctx, lvl); err != nil { //nolint:staticcheck // the client's log is one of the writers
		t.Fatalf("logging/setLevel: %v", err)
	}
	cancel()

	var answers []string
	keep := func(res *mcp.CallToolResult) *mcp.CallToolResult {
		b, _ := json.Marshal(res.StructuredContent)
		answers = append(answers, text(res)+"\n"+string(b))
		return res
	}
	ok := func(tool string, args map[string]any) string {
		t.Helper()
		res := keep(call(t, c, tool, args))
		if res.IsError {
			t.Fatalf("%s: %s", tool, text(res))
		}
		return text(res)
	}
	fails := func(tool string, args map[string]any) {
		t.Helper()
		if res := keep(call(t, c, tool, args)); !res.IsError {
			t.Fatalf("%s must fail: %s", tool, text(res))
		}
	}
	k := secretKinds
	ok("browser_start_tracing", nil)
	ok("browser_navigate", map[string]any{"url": f.URL + "/secrets/login.html"})
	ok("browser_type", map[string]any{"target": "label=Password", "text": k["typed password"]})
	ok("browser_fill_form", map[string]any{"fields": []any{
		map[string]any{"target": "label=Email", "type": "textbox", "value": "ada@example.com"},
		map[string]any{"target": "label=Password", "type": "textbox", "value": k["filled password"]},
	}})
	ok("browser_batch", map[string]any{"steps": []any{
		map[string]any{"type": map[string]any{"target": "label=Password", "text": k["batch password"], "submit": true}},
		map[string]any{"wait": map[string]any{"text": "Sign-in failed"}},
	}})
	ok("browser_emulate", map[string]any{"httpUsername": "ada", "httpPassword": k["http password"],
		"headers": []any{"Authorization: Bearer " + k["emulate Authorization"], "X-Trace: on"}})
	// Failures whose context lines carry the arguments: one after binding
	// (an unknown device), one in the page (no such element).
	fails("browser_emulate", map[string]any{"httpUsername": "ada", "httpPassword": k["http password"], "device": "Nokia 3310"})
	fails("browser_type", map[string]any{"target": "#missing", "text": k["typed password"]})
	ok("browser_route", map[string]any{"pattern": "**/api/session", "headers": []any{"Authorization: Bearer " + k["route Authorization"]}})
	ok("browser_cookie_set", map[string]any{"name": "sid", "value": k["cookie value"]})
	ok("browser_localstorage_set", map[string]any{"key": "token", "value": k["storage value"]})
	ok("browser_localstorage_list", nil)
	ok("browser_network_requests", nil)
	ok("session_errors", nil)
	// A person types a password while their demonstration is recorded
	// (a key at a time, so no single call of the agent holds it).
	ok("browser_start_recording", nil)
	ok("browser_click", map[string]any{"target": "label=Password"})
	for _, r := range k["demonstrated password"] {
		ok("browser_press_key", map[string]any{"key": string(r)})
	}
	mustContain(t, "the demonstration", ok("browser_stop_recording", nil), "target: role=textbox[name=\"Password\"]", "text: ${E2E_SECRET_")

	writers := map[string]string{}
	flowFile := filepath.Join(dir, "login.yaml")
	ok("session_export_flow", map[string]any{"path": flowFile, "name": "login"})
	writers["flow file"] = readFile(t, flowFile)
	specFile := filepath.Join(dir, "login.spec.ts")
	ok("session_export_flow", map[string]any{"path": specFile, "name": "login", "format": "playwright"})
	writers["Playwright spec"] = readFile(t, specFile)
	reportFile := filepath.Join(dir, "session.html")
	ok("session_report", map[string]any{"path": reportFile})
	writers["session report"] = readFile(t, reportFile)
	traceFile := filepath.Join(dir, "session.zip")
	ok("browser_stop_tracing", map[string]any{"path": traceFile})
	writers["trace"] = readTrace(t, traceFile).all()
	mustContain(t, "the trace", writers["trace"], "/api/session", `"method":"fill"`)
	writers["answers (text and structured)"] = strings.Join(answers, "\n")
	mustContain(t, "the flow", writers["flow file"], "${E2E_SECRET_1}", "${E2E_SECRET_2}", "${E2E_SECRET_3}", "${E2E_SECRET_4}")

	// The flow runner: a password from E2E_SECRET_1 typed, a variable
	// whose name says it is a secret, a drifted step healed (its text
	// literal: a secret's step never heals onto a field that shows it),
	// then a step that fails with both secrets in its context line.
	runFlow := filepath.Join(dir, "run.yaml")
	flowText := fmt.Sprintf(`name: secret run
baseURL: %s
steps:
  - navigate: /secrets/login.html
  - type: {target: 'label=Password', text: '${E2E_SECRET_1}'}
  - type: {target: 'label=Promo code', text: '${CI_API_TOKEN}'}
  - type: {target: 'role=textbox[name="Email:"]', text: ada@example.com}
    fingerprint: {role: textbox, name: 'Email:', tag: input, within: [main, heading "Sign in"]}
  - type: {target: '#missing', text: 'pw ${E2E_SECRET_1} token ${CI_API_TOKEN}'}
`, f.URL)
	if err := os.WriteFile(runFlow, []byte(flowText), 0o644); err != nil {
		t.Fatal(err)
	}
	junit, artifacts, reports, traces := filepath.Join(dir, "junit.xml"), filepath.Join(dir, "artifacts"), filepath.Join(dir, "reports"), filepath.Join(dir, "traces")
	runEnv := append(env, "E2E_SECRET_1="+k["E2E_SECRET_1 (flow runner)"], "CI_API_TOKEN="+k["secret-looking env variable"])
	// --heal: the email field's drifted locator is healed, and the
	// repaired flow written.
	jsonFile, blobs := filepath.Join(dir, "run.json"), filepath.Join(dir, "blobs")
	out, code := runFlows(t, runEnv, runFlow, "--junit", junit, "--artifacts", artifacts, "--report", reports, "--trace", traces, "--heal",
		"--reporter", "list,html,github", "--json", jsonFile, "--blob", blobs)
	if code != 1 || !strings.Contains(out, "FAIL  secret run") {
		t.Fatalf("the run must fail at its last step (exit %d):\n%s", code, out)
	}
	writers["run's stdout and log"] = out
	writers["JUnit"] = readFile(t, junit)
	writers["artifacts"] = readTree(t, artifacts)
	writers["run report"] = readTree(t, reports)
	writers["repaired flow (run --heal)"] = readFile(t, filepath.Join(dir, "run.healed.yaml"))
	mustContain(t, "the repaired flow", writers["repaired flow (run --heal)"], `role=textbox[name="Email"]`, "${CI_API_TOKEN}")
	runTraces, _ := filepath.Glob(filepath.Join(traces, "*.zip"))
	if len(runTraces) != 1 {
		t.Fatalf("the run's traces: %v", runTraces)
	}
	writers["run trace"] = readTrace(t, runTraces[0]).all()
	mustContain(t, "the run's trace", writers["run trace"], `"method":"fill"`, "element_not_found")
	mustContain(t, "the JUnit file", writers["JUnit"], "element_not_found")
	writers["run --reporter json"] = readFile(t, jsonFile)
	mustContain(t, "the JSON report", writers["run --reporter json"], "element_not_found", `"healed"`)
	blob, err := os.ReadFile(filepath.Join(blobs, "report.zip"))
	if err != nil {
		t.Fatal(err)
	}
	writers["run --reporter blob"] = readZipDeep(t, blob)
	mustContain(t, "the blob", writers["run --reporter blob"], "e2e-mcp-blob.json", "secret run.html", `"method":"fill"`)
	merged := filepath.Join(dir, "merged")
	mout, merrs, _ := runIn(t, runEnv, dir, "merge-reports", blobs, "--report", merged, "--reporter", "list,html,github,json,junit")
	writers["merge-reports (stdout: list, github, json, junit; index, files)"] = mout + merrs + readTree(t, merged)
	mustContain(t, "merge-reports", writers["merge-reports (stdout: list, github, json, junit; index, files)"], "FAIL  secret run", "::error file=", "<testsuites>", `"flows"`)

	_ = c.Close() // the server's log is complete once it has exited
	mu.Lock()
	writers["client log"] = strings.Join(clientLog, "\n")
	mu.Unlock()
	writers["server log (debug, DevTools traffic)"] = stderr.String()
	mustContain(t, "the server's debug log", writers["server log (debug, DevTools traffic)"], "Input.insertText", "Fetch.")
	mustContain(t, "the client's log", writers["client log"], "tool failed")

	// What the agent itself stored (a cookie, a storage item) its own
	// answers may show it again; every other writer masks it.
	shownToItsAgent := map[string]bool{"cookie value": true, "storage value": true}
	names := make([]string, 0, len(writers))
	for w := range writers {
		names = append(names, w)
	}
	sort.Strings(names)
	for _, w := range names {
		for kind, v := range secretKinds {
			if shownToItsAgent[kind] && w == "answers (text and structured)" {
				continue
			}
			if strings.Contains(writers[w], v) {
				i := strings.Index(writers[w], v)
				t.Errorf("%s shows the %s: …%s…", w, kind, writers[w][max(0, i-200):min(len(writers[w]), i+60)])
			}
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readZipDeep is every file in a zip, and in the zips in it, joined.
func readZipDeep(t *testing.T, b []byte) string {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	var out strings.Builder
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		_ = r.Close()
		if err != nil {
			t.Fatal(err)
		}
		out.WriteString(f.Name + "\n")
		if strings.HasSuffix(f.Name, ".zip") {
			out.WriteString(readZipDeep(t, data))
			continue
		}
		out.Write(data)
	}
	return out.String()
}

// readTree is every file under dir, joined.
func readTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	n := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		b.WriteString(readFile(t, path))
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("%s: %d files, %v", dir, n, err)
	}
	return b.String()
}

// TestStructuredSaysNoMoreThanText: an answer's structured content never
// holds more than its text says. The app keeps a long state blob in local
// storage and sends a bearer token: browser_network_request clips the
// token in its text and browser_localstorage_list the blob, and the
// structured content has the same clipped values, not the whole ones.
func TestStructuredSaysNoMoreThanText(t *testing.T) {
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /secrets/api", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") })
	})
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=storage"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/secrets/app.html"})
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "loaded ok"})

	whole := func(res *mcp.CallToolResult) string {
		b, _ := json.Marshal(res.StructuredContent)
		return string(b)
	}
	list := call(t, c, "browser_network_requests", nil)
	id := 0
	sc, _ := list.StructuredContent.(map[string]any)
	reqs, _ := sc["requests"].([]any)
	for _, r := range reqs {
		if m, _ := r.(map[string]any); strings.HasSuffix(fmt.Sprint(m["url"]), "/secrets/api") {
			id = int(m["seq"].(float64))
		}
	}
	if id == 0 {
		t.Fatalf("no request to /secrets/api in %s", whole(list))
	}
	res := call(t, c, "browser_network_request", map[string]any{"id": id})
	mustContain(t, "the request's text", text(res), "Authorization: Bearer")
	if s := text(res) + whole(res); strings.Contains(s, "TOKEN-TAIL") {
		t.Errorf("the bearer token is shown whole:\n%s\n%s", text(res), whole(res))
	}
	res = call(t, c, "browser_localstorage_list", nil)
	mustContain(t, "the storage list", text(res), "state=")
	if s := text(res) + whole(res); strings.Contains(s, "STATE-TAIL") {
		t.Errorf("the stored blob is shown whole:\n%s\n%s", text(res), whole(res))
	}
}
