package mcptools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	browserrec "github.com/e2e-mcp/e2e-mcp/browser/recording"
	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/mark3labs/mcp-go/mcp"
)

// Tools for a person beside the agent (--caps devtools, Playwright MCP's
// group): a highlight on an element in a headed session, and a flow the
// person demonstrates, handed back as flow steps.

// HighlightParams are the arguments of browser_highlight.
type HighlightParams struct {
	Target  string `json:"target" jsonschema:"Ref or selector"`
	Element string `json:"element,omitempty"`
	Style   string `json:"style,omitempty" jsonschema:"CSS added to the overlay's"`
	SessionArg
}

// HideHighlightParams are the arguments of browser_hide_highlight.
type HideHighlightParams struct {
	Target  string `json:"target,omitempty" jsonschema:"Element whose highlight goes; omit: all"`
	Element string `json:"element,omitempty"`
	SessionArg
}

// StopRecordingParams are the arguments of browser_stop_recording.
type StopRecordingParams struct {
	Format string `json:"format,omitempty" jsonschema:"enum=playwright"`
	SessionArg
}

func highlightTools(d *Deps) []Tool {
	return []Tool{
		define(d, "browser_highlight", ToolsetReading,
			"Draw an overlay on an element, for a person watching, until browser_hide_highlight.",
			annotations{title: "Highlight an element", readOnly: true, idempotent: true, openWorld: false},
			func(ctx context.Context, s *Session, a HighlightParams) (*mcp.CallToolResult, error) {
				if err := needTarget("target", a.Target); err != nil {
					return nil, err
				}
				p, err := s.Page(ctx, d.Browser)
				if err != nil {
					return nil, err
				}
				if err := p.Highlight(ctx, a.Target, a.Style); err != nil {
					return nil, err
				}
				var r response
				r.resultf("Highlighted %s.", describe(a.Target, a.Element))
				return r.build(), nil
			}),
		define(d, "browser_hide_highlight", ToolsetReading,
			"Remove an element's highlight, or every highlight of the page.",
			annotations{title: "Hide highlights", readOnly: true, idempotent: true, openWorld: false},
			func(ctx context.Context, s *Session, a HideHighlightParams) (*mcp.CallToolResult, error) {
				p, err := s.Page(ctx, d.Browser)
				if err != nil {
					return nil, err
				}
				n, err := p.HideHighlight(ctx, a.Target)
				if err != nil {
					return nil, err
				}
				var r response
				r.resultf("Removed %s.", plural(n, "highlight"))
				r.set("removed", n)
				return r.build(), nil
			}),
	}
}

func recordingTools(d *Deps) []Tool {
	return []Tool{
		define(d, "browser_start_recording", ToolsetSession,
			"Record what a person does in the browser; browser_stop_recording returns it as flow steps.",
			annotations{title: "Start recording a person", readOnly: true, openWorld: false},
			func(ctx context.Context, s *Session, _ SessionArg) (*mcp.CallToolResult, error) {
				p, err := s.Page(ctx, d.Browser)
				if err != nil {
					return nil, err
				}
				if s.demo != nil && s.demo != p && !s.demo.Gone() {
					return nil, &ToolError{Type: ErrInvalidInput, Message: "a recording of the person already runs in another tab of session " + s.ID,
						Suggestion: "call browser_stop_recording first, then start again in this tab"}
				}
				if err := p.StartDemo(ctx); err != nil {
					return nil, err
				}
				s.demo = p
				var r response
				r.resultf("Recording what the person does in this tab. Call browser_stop_recording when they say they are done.")
				return r.build(), nil
			}),
		define(d, "browser_stop_recording", ToolsetSession,
			"Stop recording the person: their actions as flow steps (or Playwright code), added to the session's flow.",
			annotations{title: "Stop recording a person", readOnly: true, openWorld: false},
			func(ctx context.Context, s *Session, a StopRecordingParams) (*mcp.CallToolResult, error) {
				p := s.demo
				if p == nil {
					return nil, &ToolError{Type: ErrInvalidInput, Message: "no recording of a person is running in session " + s.ID,
						Suggestion: "call browser_start_recording first, then let the person act"}
				}
				s.demo = nil
				got, ok, err := p.StopDemo(ctx)
				if err != nil && !ok {
					return nil, err
				}
				steps, secrets := s.keepDemo(got)
				f := &flow.Flow{Name: s.ID + "-demonstration", Steps: steps}
				if len(steps) == 0 {
					var r response
					r.resultf("Recording stopped: the person did nothing that records as a step.")
					r.set("steps", 0)
					return r.build(), nil
				}
				if a.Format == "playwright" {
					return exportPlaywright(ctx, d, s, f, "", false)
				}
				b, err := f.Marshal()
				if err != nil {
					return nil, err
				}
				var r response
				r.resultf("Recording stopped: %s, also added to the session's flow (session_export_flow):\n```yaml\n%s```", plural(len(steps), "step"), string(b))
				if said := secrets.say(secretVarsIn(f)); said != "" {
					r.resultf("%s", said)
				}
				r.set("flow", string(b))
				r.set("steps", len(steps))
				return r.build(), nil
			}),
	}
}

// keepDemo turns a person's steps into flow steps as the agent's own
// recording writes them (texts escaped, a secret field's text as a
// variable of the environment) and adds them to the session's recording.
// A secret field typed in several parts (typed, left, come back to) is
// one step, where its typing ended, with its final value as one
// variable: the page never sends the parts, and a replay fills the field
// with what it held at the end.
func (s *Session) keepDemo(steps []browserrec.DemoStep) ([]flow.Step, demoSecrets) {
	parts := map[string]int{} // a secret field's type steps
	last := map[string]int{}  // and the index of its last
	for i, st := range steps {
		if st.Action == "type" && st.Secret {
			parts[demoField(st)]++
			last[demoField(st)] = i
		}
	}
	var out []flow.Step
	var secrets demoSecrets
	for i, st := range steps {
		args := map[string]any{}
		switch st.Action {
		case "click", "check", "uncheck":
			args["target"] = st.Target
		case "type":
			if st.Secret && last[demoField(st)] != i {
				continue
			}
			args["target"], args["text"] = st.Target, st.Text
		case "select":
			vals := make([]any, len(st.Values))
			for i, v := range st.Values {
				vals[i] = v
			}
			args["target"], args["values"] = st.Target, vals
		case "press":
			args["key"] = st.Key
		default:
			continue
		}
		if t, _ := args["target"].(string); strings.TrimSpace(t) == "" && st.Action != "press" {
			continue
		}
		step := flow.Step{Action: st.Action, Args: s.flowArgs(args, flow.Escape)}
		if st.Secret {
			// The person's secret: its own variable (one a field of a
			// document), which the replay reads from the environment.
			ref := s.secretRef("\x00demonstrated secret of " + demoField(st))
			step.Args["text"] = ref
			secrets = append(secrets, demoSecret{ref: ref, target: step.Args["target"], parts: parts[demoField(st)]})
		}
		s.addStep(step)
		out = append(out, step)
	}
	return out, secrets
}

// demoField names the field a person's type step typed into: the page's
// id of it, else its locator.
func demoField(st browserrec.DemoStep) string {
	if st.Field != "" {
		return st.Field
	}
	return st.Target
}

// demoSecret is a secret field's step of a demonstration: the variable it
// was written as, its target as written, and how many parts its typing
// had.
type demoSecret struct {
	ref    string
	target any
	parts  int
}

type demoSecrets []demoSecret

// say is what the answer tells of the secrets, read off the flow as
// written (vars: the E2E_SECRET_n it reads): each variable and the field
// it fills; nothing when none was written, or when one of them is not
// read (then no claim holds).
func (ds demoSecrets) say(vars []string) string {
	if len(ds) == 0 {
		return ""
	}
	var each []string
	for _, d := range ds {
		name := strings.TrimSuffix(strings.TrimPrefix(d.ref, "${"), "}")
		if !slices.Contains(vars, name) {
			return ""
		}
		line := fmt.Sprintf("%s: what the person typed into %v", name, d.target)
		if d.parts > 1 {
			line += fmt.Sprintf(" (its final value: typed in %d parts, it is one step)", d.parts)
		}
		each = append(each, line)
	}
	return "What the person typed into password or masked fields is not in it; set in the environment of the run:\n- " + strings.Join(each, "\n- ")
}
