package mcptools

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestCallerCalls: a Caller's call goes through the tool's checks as a
// client's does (a bad argument is an invalid_input answer, not an error),
// leaves the caller's arguments as they were, and names a tool there is
// not.
func TestCallerCalls(t *testing.T) {
	c := NewCaller(testDeps())
	args := map[string]any{"url": 5}
	a, err := c.Call(context.Background(), "s1", "browser_navigate", args)
	if err != nil {
		t.Fatal(err)
	}
	if a.Err == nil || a.Err.Type != string(ErrInvalidInput) || !strings.Contains(a.Err.Message, "url") {
		t.Errorf("a bad url: %+v", a.Err)
	}
	if !strings.Contains(a.Text, "### Error\ninvalid_input: ") {
		t.Errorf("the answer's text: %q", a.Text)
	}
	if len(args) != 1 {
		t.Errorf("the call changed its arguments: %v", args)
	}
	if _, err := c.Call(context.Background(), "s1", "browser_fly", nil); err == nil || !strings.Contains(err.Error(), "no tool browser_fly") {
		t.Errorf("an unknown tool: %v", err)
	}
}

// TestReadAnswer: an answer's texts are joined, its images decoded in
// their order (one that is not base64 left out), its structured error
// read; an answer that is not an error has none.
func TestReadAnswer(t *testing.T) {
	png, jpg := []byte("\x89PNG..."), []byte("\xff\xd8...")
	res := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{
		mcp.NewTextContent("### Error\n"), mcp.NewImageContent(base64.StdEncoding.EncodeToString(png), "image/png"),
		mcp.NewImageContent("not base64!", "image/png"), mcp.NewTextContent("timeout: slow\n"),
		mcp.NewImageContent(base64.StdEncoding.EncodeToString(jpg), "image/jpeg"),
	}, StructuredContent: map[string]any{"error": map[string]any{"type": "timeout", "message": "slow", "suggestion": "wait"}}}
	a := readAnswer(res)
	if a.Text != "### Error\ntimeout: slow\n" {
		t.Errorf("text %q", a.Text)
	}
	if len(a.Images) != 2 || string(a.Images[0].Data) != string(png) || a.Images[0].MIMEType != "image/png" ||
		string(a.Images[1].Data) != string(jpg) || a.Images[1].MIMEType != "image/jpeg" {
		t.Errorf("images %+v", a.Images)
	}
	if a.Err == nil || a.Err.Line() != "timeout: slow (wait)" {
		t.Errorf("error %+v", a.Err)
	}
	if a.Structured == nil {
		t.Error("the structured content is lost")
	}
	ok := readAnswer(&mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("done")}})
	if ok.Err != nil || ok.Text != "done" {
		t.Errorf("a success: %+v", ok)
	}
	if unknown := readAnswer(&mcp.CallToolResult{IsError: true}); unknown.Err == nil || unknown.Err.Type != "unknown" {
		t.Errorf("an error answer with no structured error: %+v", unknown.Err)
	}
}
