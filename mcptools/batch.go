package mcptools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/mark3labs/mcp-go/mcp"
)

// browser_batch runs a list of steps in the flow format in one call, on the
// session it holds: no page state between steps, one answer at the end
// with what changed since the agent last looked, or at the first failure
// that step's own failure answer.

// maxBatchSteps bounds a batch.
const maxBatchSteps = 50

// BatchParams are the arguments of browser_batch.
type BatchParams struct {
	Steps []any `json:"steps" jsonschema:"As in a flow: {click: e5}, {type: {target, text}}, back"`
	SessionArg
}

// batchStep is a step read and checked before any runs.
type batchStep struct {
	action string
	tool   Tool
	args   map[string]any
}

// toolsByName is the inventory by tool name, made on its first use: a tool
// that runs others (browser_batch, session_check_flow) is in the
// inventory, so it cannot read it when it is defined.
func toolsByName(d *Deps) func() map[string]Tool {
	return sync.OnceValue(func() map[string]Tool {
		tools := map[string]Tool{}
		for _, t := range Inventory(d) {
			tools[t.Def.Name] = t
		}
		return tools
	})
}

// stepTool is the tool a step of a batch or a checked flow runs: one that
// can run as a step, of a capability group the server offers.
func (d *Deps) stepTool(field, action, name string, tools map[string]Tool) (Tool, error) {
	t, ok := tools[name]
	if !ok || t.Step == nil {
		return t, invalidInput(field, "%s cannot run in a batch", action)
	}
	if t.Cap != "" && !slices.Contains(d.Caps, t.Cap) {
		return t, &ToolError{Type: ErrNotAllowed, Message: fmt.Sprintf("%s: %s is in the %s capability group, which this server does not offer", field, action, t.Cap),
			Suggestion: fmt.Sprintf("restart the server with --caps %s", t.Cap)}
	}
	return t, nil
}

func batchTool(d *Deps) Tool {
	tools := toolsByName(d)
	return define(d, "browser_batch", ToolsetInput,
		"Run flow steps (navigate, click, type, expect...) in one call; stops at a failure.",
		annotations{title: "Run steps"},
		func(ctx context.Context, s *Session, a BatchParams) (*mcp.CallToolResult, error) {
			steps, err := d.batchSteps(a.Steps, tools())
			if err != nil {
				return nil, err
			}
			if _, err := s.Page(ctx, d.Browser); err != nil {
				return nil, err
			}
			var lines []string
			s.batching = true
			defer func() { s.batching = false }() // also when a step panics
			for i, st := range steps {
				s.prog.step(i, len(steps), st.action)
				res, err := st.tool.Step(ctx, s, st.args)
				if err == nil && res != nil && res.IsError {
					s.batching = false
					return batchFailed(res, i, steps), nil
				}
				if err != nil {
					s.batching = false
					var req mcp.CallToolRequest
					req.Params.Name, req.Params.Arguments = st.tool.Def.Name, st.args
					return batchFailed(d.failure(ctx, s, st.tool.Def.Name, st.tool.Toolset, req, err), i, steps), nil
				}
				lines = append(lines, fmt.Sprintf("%d. %s: %s", i+1, st.action, firstResultLine(res)))
			}
			s.batching = false
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			var r response
			r.resultf("Ran %d step(s):", len(steps))
			for _, l := range lines {
				r.resultf("%s", l)
			}
			r.set("steps", len(steps))
			if err := r.pageState(ctx, s, p, snapChanges, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}

// batchSteps reads every step before any runs: an unknown action, bad
// arguments or a tool of a group that is off refuse the whole batch.
func (d *Deps) batchSteps(raw []any, tools map[string]Tool) ([]batchStep, error) {
	if len(raw) == 0 || len(raw) > maxBatchSteps {
		return nil, invalidInput("steps", "%d steps: give 1 to %d", len(raw), maxBatchSteps)
	}
	out := make([]batchStep, 0, len(raw))
	for i, v := range raw {
		field := fmt.Sprintf("steps[%d]", i)
		st, name, args, err := flow.StepOf(v)
		if err != nil {
			return nil, invalidInput(field, "%v", err)
		}
		t, err := d.stepTool(field, st.Action, name, tools)
		if err != nil {
			return nil, err
		}
		if err := t.Check(args); err != nil {
			var te *ToolError
			if errors.As(err, &te) {
				return nil, &ToolError{Type: te.Type, Message: field + " (" + st.Action + "): " + te.Message, Suggestion: te.Suggestion}
			}
			return nil, err
		}
		out = append(out, batchStep{action: st.Action, tool: t, args: args})
	}
	return out, nil
}

// batchFailed is a failing step's own answer, with which step it was.
func batchFailed(res *mcp.CallToolResult, i int, steps []batchStep) *mcp.CallToolResult {
	note := fmt.Sprintf("\n### Batch\nStep %d of %d (%s) failed", i+1, len(steps), steps[i].action)
	if i > 0 {
		note += fmt.Sprintf("; steps 1-%d ran", i)
	}
	note += "; the rest did not run."
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(mcp.TextContent); ok {
			tc.Text = strings.TrimRight(tc.Text, "\n") + note
			res.Content[0] = tc
		}
	}
	if sc, ok := res.StructuredContent.(map[string]any); ok {
		sc["batch"] = map[string]any{"failedStep": i + 1, "steps": len(steps)}
	}
	return res
}

// firstResultLine is the first line of an answer's ### Result.
func firstResultLine(res *mcp.CallToolResult) string {
	t := ResultText(res)
	if _, after, ok := strings.Cut(t, "### Result\n"); ok {
		t = after
	}
	line, _, _ := strings.Cut(t, "\n")
	return strings.TrimSpace(line)
}
