package mcptools

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
)

// maxEvalBytes caps the JSON of an evaluation result in a response.
const maxEvalBytes = 32 << 10

// EvaluateParams are the arguments of browser_evaluate.
type EvaluateParams struct {
	Function string `json:"function" jsonschema:"JavaScript function, e.g. () => document.title, or (el) => el.value with target"`
	Target   string `json:"target,omitempty" jsonschema:"Element (ref or selector) passed as the argument"`
	SessionArg
}

func evaluateTool(d *Deps) Tool {
	return define(d, "browser_evaluate", ToolsetDiagnosis,
		"Run JavaScript in the page and return its JSON result; promises are awaited.",
		annotations{title: "Evaluate JavaScript", destructive: true, openWorld: true},
		func(ctx context.Context, s *Session, a EvaluateParams) (*mcp.CallToolResult, error) {
			if a.Function == "" {
				return nil, invalidInput("function", "empty: give a function such as () => document.title")
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			out, err := p.Evaluate(ctx, a.Function, a.Target)
			if err != nil {
				return nil, err
			}
			var r response
			text := string(out)
			if len(text) > maxEvalBytes {
				text = text[:maxEvalBytes]
				r.resultf("```json\n%s\n```\n(cut at %d KB of %d KB: return less, e.g. a slice or a count)", text, maxEvalBytes>>10, len(out)>>10)
			} else {
				r.resultf("```json\n%s\n```", text)
			}
			if len(out) <= maxEvalBytes {
				r.set("result", out)
			}
			return r.build(), nil
		})
}
