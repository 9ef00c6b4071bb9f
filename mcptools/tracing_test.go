package mcptools

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/eventlog"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestTraceOfTheStepLog: a trace is the calls logged since it started, each
// as the Playwright call it is (or the tool's own name), with its target's
// locator, its error said as the agent's answer said it, and the session's
// secrets masked; what the log let go is said.
func TestTraceOfTheStepLog(t *testing.T) {
	s := newSession(sessionKey{id: "t"}, "", nil)
	d := &Deps{}
	ctx := context.Background()
	ok := &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("done")}}
	s.logStep(ctx, d, "browser_navigate", map[string]any{"url": "http://app/before"}, time.Now(), 0, ok) // before the trace
	d.startTrace(s, nil)
	s.secrets.Add("pw-hunter-22")
	s.logStep(ctx, d, "browser_navigate", map[string]any{"url": "http://app/"}, time.Now(), time.Millisecond, ok)
	s.logStep(ctx, d, "browser_type", map[string]any{"target": "label=Password", "text": "pw-hunter-22"}, time.Now(), time.Millisecond, ok)
	s.logStep(ctx, d, "browser_snapshot", map[string]any{"depth": 2.0}, time.Now(), time.Millisecond, ok)
	failed := errorResult("browser_click", &ToolError{Type: ErrElementNotFound, Message: "no element matches #go", Suggestion: "take a snapshot"})
	s.logStep(ctx, d, "browser_click", map[string]any{"target": "#go"}, time.Now(), time.Millisecond, failed)

	tr, n := s.buildTrace(ctx, s.trace, "a session")
	if n.actions != 4 || len(tr.Actions) != 4 {
		t.Fatalf("%d actions: %+v", n.actions, tr.Actions)
	}
	got := []string{}
	for _, a := range tr.Actions {
		got = append(got, fmt.Sprintf("%s.%s %s|%s|%s", a.Class, a.Method, a.Title, a.Selector, a.Locator))
	}
	want := []string{
		"Frame.goto ||",
		"Frame.fill |label=Password|page.getByLabel('Password')",
		`e2e-mcp.browser_snapshot browser_snapshot depth=2||`,
		"Frame.click |#go|page.locator('#go')",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("actions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v := tr.Actions[1].Params["value"]; v != redact.Mask {
		t.Errorf("the typed password is %v in the trace", v)
	}
	if e := tr.Actions[3].Error; e == nil || e.Name != "element_not_found" || e.Message != "element_not_found: no element matches #go\nNext: take a snapshot" {
		t.Errorf("the failed click's error: %+v", e)
	}
	if tr.Actions[0].Error != nil {
		t.Errorf("a passing call has an error: %+v", tr.Actions[0].Error)
	}

	// A long trace: the log lets its oldest calls go, and the trace says how many.
	for range maxLoggedSteps {
		s.logStep(ctx, d, "browser_snapshot", map[string]any{}, time.Now(), 0, ok)
	}
	tr, _ = s.buildTrace(ctx, s.trace, "a session")
	if len(tr.Actions) != maxLoggedSteps || !strings.Contains(strings.Join(tr.Notes, "\n"), "the first 4 calls of this trace are not kept") {
		t.Errorf("%d actions, notes %q", len(tr.Actions), tr.Notes)
	}
}

// TestTraceRequestMasks: a request in a trace has the session's secrets
// masked in its URL, headers and bodies, URL-encoded ones too, and a
// credential header's value whole.
func TestTraceRequestMasks(t *testing.T) {
	secrets := redact.NewSet(nil)
	secrets.Add("pass word!1")
	d := &eventlog.RequestDetail{NetworkRequest: eventlog.NetworkRequest{Method: "POST", URL: "http://app/login?pw=pass+word%211", Status: 200, Done: true},
		RequestHeaders: map[string]string{"Authorization": "Bearer abc.def", "X-Note": "pass word!1"},
		PostData:       "user=ada&pw=pass+word%211", Body: []byte(`{"echo":"pass word!1"}`), MimeType: "application/json"}
	r := traceRequest("page@1", d, secrets)
	all := fmt.Sprintf("%s %v %s %s", r.URL, r.RequestHeaders, r.PostData, r.Body)
	for _, leak := range []string{"pass", "abc.def"} {
		if strings.Contains(all, leak) {
			t.Errorf("the request shows %q: %s", leak, all)
		}
	}
	if !strings.Contains(all, "{Authorization •••}") || !strings.Contains(all, "user=ada") {
		t.Errorf("masked too much or too little: %s", all)
	}
}
