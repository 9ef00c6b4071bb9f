package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestStepLog_Bounds: the log keeps its newest steps and counts the rest,
// keeps only the newest failure answers whole, clips every long text it
// keeps (an answer, an argument at any depth) and says so, and never holds
// a password given as an argument, even one a clip would cut in two.
func TestStepLog_Bounds(t *testing.T) {
	s := newSession(sessionKey{id: "t"}, "", nil)
	d := &Deps{}
	fail := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{mcp.NewTextContent("### Error\n" + strings.Repeat("x", 5000)),
		mcp.NewImageContent("AAAA", "image/png")}}
	for i := range maxLoggedSteps + 10 {
		res := &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(strings.Repeat("y", 10000))}}
		if i%20 == 0 {
			res = fail
		}
		s.logStep(context.Background(), d, "browser_click", map[string]any{"target": "#go", "sessionId": "t"}, time.Now(), time.Millisecond, res)
	}
	s.secrets.Add("opensesame-but-longer")
	long := strings.Repeat("v", maxLoggedArg-10) + "opensesame-but-longer" + strings.Repeat("w", 1<<20)
	s.logStep(context.Background(), d, "browser_evaluate", map[string]any{"function": long, "fields": []any{map[string]any{"value": long}}},
		time.Now(), 0, &mcp.CallToolResult{})
	s.logStep(context.Background(), d, "browser_emulate", map[string]any{"httpPassword": "opensesame"}, time.Now(), 0, &mcp.CallToolResult{})
	l := s.steps
	if len(l.steps) != maxLoggedSteps || l.dropped != 12 {
		t.Fatalf("kept %d steps, dropped %d; want %d and 12", len(l.steps), l.dropped, maxLoggedSteps)
	}
	whole := 0
	for _, st := range l.steps {
		if len(st.result) > maxLoggedResult+len(text.ClipMark)+32 || (len(st.result) > maxLoggedResult && !strings.Contains(st.result, text.ClipMark)) {
			t.Fatalf("a successful answer kept at %d bytes: %.40q", len(st.result), st.result[max(0, len(st.result)-40):])
		}
		if _, ok := st.args["sessionId"]; ok {
			t.Fatal("the session id is kept as an argument")
		}
		if st.failure != nil && !st.cut {
			whole++
			if len(st.failure) != 2 {
				t.Errorf("a whole failure answer lost its image: %d parts", len(st.failure))
			}
		}
	}
	if whole != maxLoggedFailures {
		t.Errorf("%d failure answers kept whole, want %d", whole, maxLoggedFailures)
	}
	last := l.steps[len(l.steps)-1]
	if last.args["httpPassword"] != redact.Mask {
		t.Errorf("the password argument: %v", last.args)
	}
	eval := l.steps[len(l.steps)-2]
	fn, _ := eval.args["function"].(string)
	nested := fmt.Sprint(eval.args["fields"])
	for _, got := range []string{fn, nested} {
		if len(got) > maxLoggedArg+200 || !strings.Contains(got, text.ClipMark) || strings.Contains(got, "opensesame") {
			t.Errorf("a long argument kept as %d bytes, ending %q", len(got), got[max(0, len(got)-60):])
		}
	}
}

// TestStepLogDevCommand: a dev command line the agent gave session_start
// is kept as every message shows one: a URL's password, a secret-named
// assignment and a secret flag's value masked, the rest as given.
func TestStepLogDevCommand(t *testing.T) {
	s := newSession(sessionKey{id: "t"}, "", nil)
	ok := &mcp.CallToolResult{}
	s.logStep(context.Background(), &Deps{}, "session_start", map[string]any{
		"run": "DB_PASSWORD=pw1 npm run dev -- --db postgres://app:pw2@db/app", "args": []any{"--token", "pw3", "--port", "3000"}}, time.Now(), 0, ok)
	b, _ := json.Marshal(s.steps.steps[0].args)
	for _, leak := range []string{"pw1", "pw2", "pw3"} {
		if strings.Contains(string(b), leak) {
			t.Errorf("the step log keeps %s: %s", leak, b)
		}
	}
	if !strings.Contains(string(b), "npm run dev") || !strings.Contains(string(b), "3000") {
		t.Errorf("the step log lost the command: %s", b)
	}
}

// TestReportParts: a failure answer's content becomes the report's parts in
// order, every image with a caption (its _meta caption when it has one).
func TestReportParts(t *testing.T) {
	diff := mcp.NewImageContent("iVBORw0K", "image/png")
	diff.Meta = &mcp.Meta{AdditionalFields: map[string]any{"caption": "diff against the baseline"}}
	parts := reportParts([]mcp.Content{
		mcp.NewTextContent("### Error"),
		mcp.NewImageContent("/9j/4AAQ", "image/jpeg"),
		diff,
		mcp.NewImageContent("not base64!", "image/png"),
		mcp.NewAudioContent("AAAA", "audio/wav"),
	})
	if len(parts) != 5 || parts[0].Text != "### Error" {
		t.Fatalf("parts: %+v", parts)
	}
	if im := parts[1].Image; im == nil || im.MIME != "image/jpeg" || !strings.Contains(im.Caption, "image 1 of the answer") {
		t.Errorf("the screenshot: %+v", parts[1].Image)
	}
	if im := parts[2].Image; im == nil || !strings.HasPrefix(im.Caption, "diff against the baseline") {
		t.Errorf("the captioned image: %+v", parts[2].Image)
	}
	if im := parts[3].Image; im == nil || im.Data != nil || !strings.HasPrefix(im.MIME, "undecodable") {
		t.Errorf("an undecodable image must be named, not shown: %+v", parts[3].Image)
	}
	if !strings.Contains(parts[4].Text, "AudioContent") {
		t.Errorf("an unknown content item is not named: %+v", parts[4])
	}
}
