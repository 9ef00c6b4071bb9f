package mcptools

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/mark3labs/mcp-go/mcp"
)

// ToolError is a failure the agent can act on: a type, what happened and
// what to do next. Handlers return it (or a *browser.Error) and it becomes an
// isError result, never a JSON-RPC error.
type ToolError struct {
	Type       ErrorType
	Message    string
	Suggestion string
	// Attach are images the answer carries, each after its caption (a
	// visual check's baseline, actual image and diff).
	Attach []Attachment
}

func (e *ToolError) Error() string { return string(e.Type) + ": " + e.Message }

func invalidInput(field, format string, args ...any) *ToolError {
	if strings.TrimSpace(field) == "" {
		field = "arguments"
	}
	return &ToolError{Type: ErrInvalidInput, Message: field + ": " + fmt.Sprintf(format, args...),
		Suggestion: "fix the argument and call again"}
}

// classify returns the type, message and suggestion for any error.
func classify(err error) (ErrorType, string, string) {
	var te *ToolError
	if errors.As(err, &te) {
		return te.Type, te.Message, te.Suggestion
	}
	if be, ok := browser.AsError(err); ok {
		msg := be.Message
		if be.Err != nil && be.Kind != browser.KindTimeout {
			msg += " (" + be.Err.Error() + ")"
		}
		return typeOf(be.Kind), msg, nextOf(be)
	}
	return ErrInternal, err.Error(), "this is a fault of e2e-mcp or the browser, not of your call: retry once, then report it"
}

// errorHead writes the head every error answer starts with, the one place
// it is rendered: the type and message, then what to do next.
func errorHead(b *strings.Builder, typ ErrorType, msg, next string) {
	fmt.Fprintf(b, "### Error\n%s: %s\n", typ, msg)
	if next != "" {
		fmt.Fprintf(b, "Next: %s\n", next)
	}
}

// errorInfo is the structured form of the same head.
func errorInfo(tool string, typ ErrorType, msg, next string) map[string]any {
	return map[string]any{"type": string(typ), "message": msg, "suggestion": next, "tool": tool}
}

// errorResult renders err as the isError result the agent sees, for a call
// that has no session to diagnose (see failure for one that has).
func errorResult(tool string, err error) *mcp.CallToolResult {
	typ, msg, next := classify(err)
	var b strings.Builder
	errorHead(&b, typ, msg, next)
	res := mcp.NewToolResultError(b.String())
	res.StructuredContent = map[string]any{"error": errorInfo(tool, typ, msg, next)}
	return res
}

// rateLimited is the error of a call over a per-client limit.
func rateLimited(what string, retry time.Duration) *ToolError {
	return &ToolError{Type: ErrRateLimited, Message: fmt.Sprintf("too many %s from this client", what),
		Suggestion: fmt.Sprintf("retry in %s", retry.Round(100*time.Millisecond))}
}

// Reading answers back (the CLI and the flow runner read only what is
// structured; the text is for agents).

// AnswerError is the error an isError result carries in structuredContent.
type AnswerError struct {
	Type    string
	Message string
	Next    string
}

// Line is "type: message (next step)".
func (e AnswerError) Line() string {
	line := e.Type + ": " + e.Message
	if e.Next != "" {
		line += " (" + e.Next + ")"
	}
	return line
}

// ResultError reads the structured error of an isError result, whether it
// was built in this process or decoded from JSON by a client; Type is
// "unknown" when there is none.
func ResultError(res *mcp.CallToolResult) AnswerError {
	sc, _ := res.StructuredContent.(map[string]any)
	e, _ := sc["error"].(map[string]any)
	out := AnswerError{Type: "unknown"}
	if t, ok := e["type"].(string); ok && t != "" {
		out.Type = t
	}
	out.Message, _ = e["message"].(string)
	out.Next, _ = e["suggestion"].(string)
	return out
}

// ResultText joins a result's text content.
func ResultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}
