package e2e

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"regexp"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// refOf finds the ref of the first snapshot line matching role and name.
func refOf(t *testing.T, snapshot, role, name string) string {
	t.Helper()
	re := regexp.MustCompile(`- ` + role + ` "` + regexp.QuoteMeta(name) + `"[^\n]*\[ref=((?:f\d+)?e\d+)\]`)
	m := re.FindStringSubmatch(snapshot)
	if m == nil {
		t.Fatalf("no %s %q with a ref in snapshot:\n%s", role, name, snapshot)
	}
	return m[1]
}

// TestSignUpFlow is the walking skeleton end to end: navigate, snapshot,
// type and click by ref, and the page's reaction in the next snapshot.
func TestSignUpFlow(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)

	out := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	for _, want := range []string{"- Page Title: Sign up", `heading "Create your account" [level=1]`, "### Snapshot"} {
		if !strings.Contains(out, want) {
			t.Errorf("navigate response lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "This text is hidden") {
		t.Errorf("snapshot shows display:none content:\n%s", out)
	}

	snap := mustCall(t, c, "browser_snapshot", nil)
	name := refOf(t, snap, "textbox", "Name")
	submit := refOf(t, snap, "button", "Sign up")

	out = mustCall(t, c, "browser_type", map[string]any{"target": name, "text": "Ada", "element": "Name box"})
	if !strings.Contains(out, "Typed 3 characters into Name box ("+name+")") {
		t.Errorf("type response:\n%s", out)
	}
	out = mustCall(t, c, "browser_click", map[string]any{"target": submit})
	if !strings.Contains(out, "Clicked "+submit) || !strings.Contains(out, "### Page") {
		t.Errorf("click response:\n%s", out)
	}

	snap = mustCall(t, c, "browser_snapshot", nil)
	if !strings.Contains(snap, "Welcome, Ada!") {
		t.Errorf("the snapshot after the click does not show the page's reaction:\n%s", snap)
	}
	if again := refOf(t, snap, "button", "Sign up"); again != submit {
		t.Errorf("the button's ref changed from %s to %s although its role and name did not", submit, again)
	}
	f.mu.Lock()
	signups := append([]string(nil), f.signups...)
	f.mu.Unlock()
	if len(signups) != 1 || signups[0] != "Ada" {
		t.Errorf("the fixture received sign-ups %q, want [Ada]", signups)
	}

	// The page's own world: evaluate sees what page scripts see.
	if out := mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => document.title"}); !strings.Contains(out, `"Sign up"`) {
		t.Errorf("evaluate: %s", out)
	}
	if out := mustCall(t, c, "browser_evaluate", map[string]any{"function": "(el) => el.value", "target": name}); !strings.Contains(out, `"Ada"`) {
		t.Errorf("evaluate on an element: %s", out)
	}

	// A screenshot is an image content item holding a PNG.
	res := call(t, c, "browser_take_screenshot", nil)
	if res.IsError {
		t.Fatalf("screenshot: %s", text(res))
	}
	var img *mcp.ImageContent
	for _, ct := range res.Content {
		if ic, ok := ct.(mcp.ImageContent); ok {
			img = &ic
		}
	}
	if img == nil || img.MIMEType != "image/png" {
		t.Fatalf("screenshot has no image/png content: %+v", res.Content)
	}
	raw, err := base64.StdEncoding.DecodeString(img.Data)
	if err != nil {
		t.Fatalf("screenshot is not base64: %v", err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfg.Width == 0 || cfg.Height == 0 {
		t.Fatalf("screenshot does not decode as PNG: %v (%dx%d)", err, cfg.Width, cfg.Height)
	}
}

// TestErrorsAreResults: what the agent can fix comes back as an isError
// result naming its type, never as a JSON-RPC error.
func TestErrorsAreResults(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	name := refOf(t, snap, "textbox", "Name")
	link := refOf(t, snap, "link", "Home")

	cases := []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"unknown ref", "browser_click", map[string]any{"target": "e999"}, "ref_not_found"},
		{"relative url", "browser_navigate", map[string]any{"url": "/signup.html"}, "invalid_input"},
		{"bad scheme", "browser_navigate", map[string]any{"url": "ftp://example.com/"}, "invalid_input"},
		{"missing argument", "browser_click", map[string]any{}, "target"},
		{"unknown argument", "browser_snapshot", map[string]any{"bogus": 1}, "bogus"},
		{"bad session id", "browser_snapshot", map[string]any{"sessionId": "no spaces please"}, "invalid_input"},
		{"not editable", "browser_type", map[string]any{"target": link, "text": "x"}, "not_actionable"},
		{"script error", "browser_evaluate", map[string]any{"function": "() => { throw new Error('boom') }"}, "boom"},
		{"unreachable", "browser_navigate", map[string]any{"url": "http://127.0.0.1:1/"}, "navigation_failed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, c, tc.tool, tc.args)
			if !res.IsError {
				t.Fatalf("want an isError result, got success:\n%s", text(res))
			}
			if !strings.Contains(text(res), tc.want) {
				t.Errorf("error does not mention %q:\n%s", tc.want, text(res))
			}
		})
	}

	// A ref from a page that is gone is stale, and says what to do.
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"})
	res := call(t, c, "browser_type", map[string]any{"target": name, "text": "x"})
	if !res.IsError || !strings.Contains(text(res), "ref_stale") || !strings.Contains(text(res), "new snapshot") {
		t.Errorf("old ref after navigation: want ref_stale with a hint, got:\n%s", text(res))
	}
}

// TestSessionsAreIsolated: a named session has its own browser context.
func TestSessionsAreIsolated(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => { localStorage.setItem('who', 'default'); document.cookie = 'who=default'; }"})
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html", "sessionId": "agent-2"})
	out := mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => [localStorage.getItem('who'), document.cookie]", "sessionId": "agent-2"})
	if !strings.Contains(out, `[null,""]`) {
		t.Errorf("session agent-2 sees the default session's storage or cookies: %s", out)
	}
	list := mustCall(t, c, "session_list", nil)
	if !strings.Contains(list, "agent-2") || !strings.Contains(list, "(yours)") {
		t.Errorf("session_list:\n%s", list)
	}
	out = mustCall(t, c, "browser_close", map[string]any{"sessionId": "agent-2"})
	if !strings.Contains(out, "Closed the browser context of session agent-2") {
		t.Errorf("close: %s", out)
	}
	// The default session is untouched by closing agent-2.
	out = mustCall(t, c, "browser_evaluate", map[string]any{"function": "() => localStorage.getItem('who')"})
	if !strings.Contains(out, `"default"`) {
		t.Errorf("default session lost its storage: %s", out)
	}
}
