package mcptools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/flow/playwright"
	"github.com/mark3labs/mcp-go/mcp"
)

// session_check_flow replays a flow in the caller's session, against its dev
// server, as `e2e-mcp run` would in CI, and answers a step whose target no
// longer finds its element with the diagnosis run gives (drift.go): the
// likely same element's locator, to paste into the flow. It heals nothing:
// the agent edits the flow.

// maxFlowFile bounds a flow file session_check_flow reads.
const maxFlowFile = 1 << 20

// FlowCheckParams are the arguments of session_check_flow.
type FlowCheckParams struct {
	Path string `json:"path,omitempty" jsonschema:"Flow file (file roots)"`
	Flow string `json:"flow,omitempty" jsonschema:"Flow YAML, instead of path"`
	SessionArg
}

func flowCheckTool(d *Deps) Tool {
	tools := toolsByName(d)
	return define(d, "session_check_flow", ToolsetSession,
		"Replay a flow in this session (its dev server); a step that no longer finds its element gets the likely same element's locator.",
		annotations{title: "Check a flow"},
		func(ctx context.Context, s *Session, a FlowCheckParams) (*mcp.CallToolResult, error) {
			f, err := d.readFlow(ctx, a)
			if err != nil {
				return nil, err
			}
			if _, err := s.Page(ctx, d.Browser); err != nil {
				return nil, err
			}
			for i, st := range f.Steps {
				s.prog.step(i, len(f.Steps), st.Action)
				t, res, err := d.flowStep(ctx, s, f, st, tools())
				if err == nil && res != nil && !res.IsError {
					continue
				}
				if err != nil && res == nil {
					var te *ToolError
					if errors.As(err, &te) && (te.Type == ErrInvalidInput || te.Type == ErrNotAllowed) {
						return nil, &ToolError{Type: te.Type, Message: fmt.Sprintf("step %d (%s): %s", i+1, st.Action, te.Message), Suggestion: te.Suggestion}
					}
					var req mcp.CallToolRequest
					req.Params.Name = t.Def.Name
					res = d.failure(ctx, s, t.Def.Name, t.Toolset, req, err)
				}
				return d.flowCheckFailed(ctx, s, f, i, st, res), nil
			}
			var r response
			r.resultf("Flow %s: all %s passed in session %s.", f.Name, plural(len(f.Steps), "step"), s.ID)
			r.set("steps", len(f.Steps))
			r.set("passed", true)
			return r.build(), nil
		})
}

// readFlow reads the flow of a session_check_flow call: a file under the file
// roots, or the YAML given.
func (d *Deps) readFlow(ctx context.Context, a FlowCheckParams) (*flow.Flow, error) {
	if (a.Path == "") == (a.Flow == "") {
		return nil, invalidInput("path", "give path (a flow file) or flow (its YAML), one of them")
	}
	src, field := []byte(a.Flow), "flow"
	if a.Path != "" {
		field = "path"
		paths, err := d.readablePaths(ctx, field, []string{a.Path})
		if err != nil {
			return nil, err
		}
		if fi, err := os.Stat(paths[0]); err == nil && fi.Size() > maxFlowFile {
			return nil, invalidInput(field, "%q is %d bytes, more than a flow may be (%d)", a.Path, fi.Size(), maxFlowFile)
		}
		if src, err = os.ReadFile(paths[0]); err != nil { //nolint:gosec // checked against the file roots
			return nil, invalidInput(field, "%v", err)
		}
	}
	f, err := flow.Parse(src)
	if err != nil {
		return nil, invalidInput(field, "not a flow: %v", err)
	}
	if a := f.Actors(); len(a) > 0 {
		return nil, invalidInput(field, "the flow has actors (%s), each a browser context of its own, and this session is one: replay it with e2e-mcp run", strings.Join(a, ", "))
	}
	return f, nil
}

// flowStep runs one step of a flow on the held session. The server's
// environment is not the flow's: a ${VAR} is refused, not read.
func (d *Deps) flowStep(ctx context.Context, s *Session, f *flow.Flow, st flow.Step, tools map[string]Tool) (Tool, *mcp.CallToolResult, error) {
	var none Tool
	name, args, err := st.Tool(func(string) (string, bool) { return "", false })
	if err != nil {
		return none, nil, invalidInput("flow", "%v: session_check_flow does not read the server's environment; run this flow with e2e-mcp run", err)
	}
	t, err := d.stepTool("flow", st.Action, name, tools)
	if err != nil {
		return t, nil, err
	}
	if u, ok := args["url"].(string); ok && s.dev == nil && f.BaseURL != "" && strings.HasPrefix(u, "/") {
		args["url"] = strings.TrimRight(f.BaseURL, "/") + u
	}
	res, err := t.Step(ctx, s, args)
	return t, res, err
}

// flowCheckFailed is a failing step's answer, which step it was, and the
// diagnosis of its target when it found nothing or more than one element.
func (d *Deps) flowCheckFailed(ctx context.Context, s *Session, f *flow.Flow, i int, st flow.Step, res *mcp.CallToolResult) *mcp.CallToolResult {
	note := fmt.Sprintf("\n### Flow check\nFlow %s: step %d of %d (%s) failed; the rest did not run.", f.Name, i+1, len(f.Steps), st.Action)
	structured := map[string]any{"failedStep": i + 1, "steps": len(f.Steps)}
	if target, ok := st.Args["target"].(string); ok && target != "" {
		if diag, err := d.diagnoseTarget(ctx, s, target, st); err == nil && diag.Text != "" {
			note += "\n### Diagnosis\n" + diag.Text
			if v := diag.Verdict; v.Best != nil && v.Best.Locator != "" {
				note += fmt.Sprintf("\nTo repair the flow, set step %d's target to: %s", i+1, v.Best.Locator)
				structured["locator"] = v.Best.Locator
				structured["healable"] = v.Heal
				// The same locator in an exported Playwright spec.
				if pw, err := playwright.Locator(v.Best.Locator, d.testIDAttribute()); err == nil {
					note += "\n(in a Playwright spec: " + pw + ")"
					structured["playwright"] = pw
				}
			}
		}
	}
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(mcp.TextContent); ok {
			tc.Text = strings.TrimRight(tc.Text, "\n") + s.private.String(note)
			res.Content[0] = tc
		}
	}
	sc, ok := res.StructuredContent.(map[string]any)
	if !ok {
		sc = map[string]any{}
		res.StructuredContent = sc
	}
	sc["flowCheck"] = structured
	return res
}
