package e2e

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
)

// traceZip is a trace as the test reads it: its files, and the events of
// trace.trace and trace.network.
type traceZip struct {
	files   map[string][]byte
	events  []map[string]any
	network []map[string]any
}

func readTrace(t *testing.T, path string) traceZip {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("%s is not a zip: %v", path, err)
	}
	tz := traceZip{files: map[string][]byte{}}
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		tz.files[f.Name], _ = io.ReadAll(r)
		_ = r.Close()
	}
	jsonl := func(name string) []map[string]any {
		var out []map[string]any
		for _, line := range strings.Split(strings.TrimSpace(string(tz.files[name])), "\n") {
			if line == "" {
				continue
			}
			var ev map[string]any
			if err := json.Unmarshal([]byte(line), &ev); err != nil {
				t.Fatalf("%s: %v\n%s", name, err, line)
			}
			out = append(out, ev)
		}
		return out
	}
	tz.events, tz.network = jsonl("trace.trace"), jsonl("trace.network")
	return tz
}

// all is every file of the trace joined, for what none may hold.
func (tz traceZip) all() string {
	var b strings.Builder
	for _, f := range tz.files {
		b.Write(f)
	}
	return b.String()
}

// traceAction is an action of a trace: its before event, and its after.
type traceAction struct {
	before, after map[string]any
	shot          string // the file of its screenshot, if it has one
}

func (tz traceZip) actions(t *testing.T) []traceAction {
	t.Helper()
	var out []traceAction
	byID := map[string]int{}
	for _, ev := range tz.events {
		id, _ := ev["callId"].(string)
		switch ev["type"] {
		case "before":
			byID[id] = len(out)
			out = append(out, traceAction{before: ev})
		case "after":
			out[byID[id]].after = ev
		case "screenshot":
			out[byID[id]].shot, _ = ev["file"].(string)
		}
	}
	return out
}

// profileFixture is the fixture site with the profile app's API, which
// answers 500.
func profileFixture(t *testing.T) *fixture {
	return newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("POST /api/profile", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, `{"error":"the profile store is down"}`)
		})
	})
}

// tracePassword is typed into the profile's password field: a space and a
// ! make its URL-encoded form (in the form's POST) differ from it.
const tracePassword = "Trace PW!5k w"

// recordProfile traces a session on the profile app: a navigation, two
// fills (a name, the password), a click that saves (the API answers 500),
// a wait, and a click on no such button, which fails; the page logs a
// console error, throws, and makes a request that gets no answer. It
// returns browser_stop_tracing's answer, which wrote the trace to path.
func recordProfile(t *testing.T, c *client.Client, f *fixture, path string) string {
	t.Helper()
	mustCall(t, c, "browser_start_tracing", nil)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/trace/app.html"})
	mustCall(t, c, "browser_type", map[string]any{"target": "label=Name", "text": "Ada"})
	mustCall(t, c, "browser_type", map[string]any{"target": "label=Password", "text": tracePassword})
	mustCall(t, c, "browser_click", map[string]any{"target": `role=button[name="Save"]`})
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "Save failed (500)"})
	if res := call(t, c, "browser_click", map[string]any{"target": `role=button[name="Delete"]`}); !res.IsError {
		t.Fatalf("a click on no such button passed: %s", text(res))
	}
	return mustCall(t, c, "browser_stop_tracing", map[string]any{"path": path})
}

// TestTraceOfASession: browser_start_tracing, a session's actions (a
// navigation, fills, a click, a click that fails), browser_stop_tracing:
// the zip holds each call as the Playwright call it is, with its locator
// and a screenshot after it (the failed click too), and its error; the
// page's console error and uncaught exception; its requests with headers
// and bodies, the failed one included; the password nowhere, in any form.
// Stopping a trace that is not running says how to start one.
func TestTraceOfASession(t *testing.T) {
	f := profileFixture(t)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=devtools", "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_ACTION_TIMEOUT=1s"))

	res := call(t, c, "browser_stop_tracing", nil)
	if !res.IsError || !strings.Contains(text(res), "invalid_input") || !strings.Contains(text(res), "browser_start_tracing") {
		t.Fatalf("stopping a trace never started: %s", text(res))
	}
	path := filepath.Join(dir, "profile.zip")
	out := recordProfile(t, c, f, path)
	mustContain(t, "the stop's answer", out, path, "npx playwright show-trace", "6 actions")
	if res := call(t, c, "browser_stop_tracing", nil); !res.IsError {
		t.Errorf("the trace stopped twice: %s", text(res))
	}

	tz := readTrace(t, path)
	if ev := tz.events[0]; ev["type"] != "context-options" || ev["version"] != float64(10) || ev["browserName"] != "chromium" {
		t.Fatalf("the trace's first event: %v", ev)
	}
	acts := tz.actions(t)
	want := []struct{ class, method, locator string }{
		{"Frame", "goto", ""},
		{"Frame", "fill", "getByLabel('Name')"},
		{"Frame", "fill", "getByLabel('Password')"},
		{"Frame", "click", "getByRole('button', { name: 'Save', exact: true })"},
		{"e2e-mcp", "browser_wait_for", ""},
		{"Frame", "click", "getByRole('button', { name: 'Delete', exact: true })"},
	}
	if len(acts) != len(want) {
		t.Fatalf("%d actions, want %d: %v", len(acts), len(want), acts)
	}
	for i, w := range want {
		a := acts[i]
		params, _ := a.before["params"].(map[string]any)
		sel, _ := params["selector"].(string)
		if a.before["class"] != w.class || a.before["method"] != w.method || a.after == nil ||
			(w.locator != "" && !strings.HasSuffix(sel, "internal:describe="+quoteJSON(w.locator))) {
			t.Errorf("action %d: %v / %v, want %s.%s %s", i+1, a.before, a.after, w.class, w.method, w.locator)
		}
		if failed := a.after["error"] != nil; failed != (i == 5) {
			t.Errorf("action %d: error %v", i+1, a.after["error"])
		}
		if w.class == "Frame" && a.shot == "" {
			t.Errorf("action %d has no screenshot", i+1)
		}
	}
	if p := acts[0].before["params"].(map[string]any); p["url"] != f.URL+"/trace/app.html" {
		t.Errorf("the navigation's url: %v", p)
	}
	if v := acts[1].before["params"].(map[string]any)["value"]; v != "Ada" {
		t.Errorf("the name's fill: %v", v)
	}
	if v := acts[2].before["params"].(map[string]any)["value"]; v != "•••" {
		t.Errorf("the password's fill shows %v", v)
	}
	failed := acts[5]
	if e, _ := failed.after["error"].(map[string]any); !strings.Contains(fmt.Sprint(e["message"]), "Delete") || e["name"] == "" {
		t.Errorf("the failed click's error: %v", failed.after["error"])
	}
	if _, err := jpeg.Decode(bytes.NewReader(tz.files[failed.shot])); err != nil {
		t.Errorf("the failed click's screenshot %s: %v", failed.shot, err)
	}

	var consoleErr, pageErr bool
	for _, ev := range tz.events {
		switch {
		case ev["type"] == "console" && ev["messageType"] == "error" && ev["text"] == "profile: the settings failed to load":
			consoleErr = true
		case ev["type"] == "event" && ev["method"] == "pageError" && strings.Contains(fmt.Sprint(ev["params"]), "profile: late failure"):
			pageErr = true
		}
	}
	if !consoleErr || !pageErr {
		t.Errorf("console error %v, uncaught exception %v in\n%s", consoleErr, pageErr, tz.files["trace.trace"])
	}

	var save, unreachable map[string]any
	for _, ev := range tz.network {
		e := ev["snapshot"].(map[string]any)
		switch u := e["request"].(map[string]any)["url"].(string); {
		case strings.HasSuffix(u, "/api/profile"):
			save = e
		case strings.HasSuffix(u, "/unreachable"):
			unreachable = e
		}
	}
	if save == nil || unreachable == nil {
		t.Fatalf("the save %v and the unreachable request %v in\n%s", save != nil, unreachable != nil, tz.files["trace.network"])
	}
	req, resp := save["request"].(map[string]any), save["response"].(map[string]any)
	content := resp["content"].(map[string]any)
	if resp["status"] != float64(500) || req["method"] != "POST" || len(req["headers"].([]any)) == 0 || len(resp["headers"].([]any)) == 0 {
		t.Errorf("the save: %v", save)
	}
	if body := string(tz.files[fmt.Sprint(content["_file"])]); body != `{"error":"the profile store is down"}` {
		t.Errorf("the save's response body: %q (%v)", body, content)
	}
	if pd, _ := req["postData"].(map[string]any); !strings.Contains(fmt.Sprint(pd["text"]), "name=Ada") {
		t.Errorf("the save's post data: %v", req["postData"])
	}
	if st := unreachable["response"].(map[string]any)["status"].(float64); st != -1 && st < 400 {
		t.Errorf("the unreachable request: %v", unreachable)
	}
	all := tz.all()
	for _, form := range []string{tracePassword, url.QueryEscape(tracePassword), url.PathEscape(tracePassword), strings.ReplaceAll(url.PathEscape(tracePassword), "%21", "!")} {
		if strings.Contains(all, form) {
			i := strings.Index(all, form)
			t.Errorf("the trace holds the password as %q: …%s…", form, all[max(0, i-200):i+len(form)])
		}
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestSaveTrace: with --save-trace every session traces from its first
// call and its end writes the trace to e2e-mcp-traces/ of the file root,
// whether session_end or the server's exit ends it, unless it did nothing;
// a tracing tool is not needed (nor offered) for it.
func TestSaveTrace(t *testing.T) {
	f := profileFixture(t)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_SAVE_TRACE=true", "E2E_MCP_FILE_ROOTS="+dir))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/trace/app.html"})
	mustCall(t, c, "session_end", nil)
	mustCall(t, c, "session_end", map[string]any{"sessionId": "empty"}) // nothing to watch: no file
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/trace/app.html", "sessionId": "other"})
	mustCall(t, c, "browser_type", map[string]any{"target": "label=Name", "text": "Bo", "sessionId": "other"})
	if res := call(t, c, "browser_start_tracing", nil); !res.IsError {
		t.Errorf("browser_start_tracing is offered without --caps devtools: %s", text(res))
	}
	_ = c.Close() // the server exits, ending "other"

	traces, _ := filepath.Glob(filepath.Join(dir, "e2e-mcp-traces", "*.zip"))
	if len(traces) != 2 {
		t.Fatalf("traces saved: %v", traces)
	}
	methods := map[string][]string{}
	for _, p := range traces {
		session := "default"
		if strings.Contains(filepath.Base(p), "trace-other-") {
			session = "other"
		}
		for _, a := range readTrace(t, p).actions(t) {
			methods[session] = append(methods[session], fmt.Sprint(a.before["method"]))
		}
	}
	if fmt.Sprint(methods["default"]) != "[goto]" || fmt.Sprint(methods["other"]) != "[goto fill]" {
		t.Errorf("the saved traces' actions: %v (files %v)", methods, traces)
	}
}
