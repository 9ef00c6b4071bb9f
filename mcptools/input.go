package mcptools

import (
	"context"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/mark3labs/mcp-go/mcp"
)

// ClickParams are the arguments of browser_click.
type ClickParams struct {
	Target      string   `json:"target" jsonschema:"Ref from the snapshot (e5, f1e3) or a selector"`
	Element     string   `json:"element,omitempty" jsonschema:"What the element is, in words, for messages"`
	DoubleClick bool     `json:"doubleClick,omitempty"`
	Button      string   `json:"button,omitempty" jsonschema:"enum=left,enum=right,enum=middle"`
	Modifiers   []string `json:"modifiers,omitempty" jsonschema:"Keys held during the click: Alt, Control, ControlOrMeta, Meta, Shift"`
	SessionArg
}

func clickTool(d *Deps) Tool {
	return define(d, "browser_click", ToolsetInput,
		"Click an element with real mouse input once it is visible, enabled and not covered; waits for what the click starts.",
		annotations{title: "Click", destructive: true, openWorld: true},
		func(ctx context.Context, s *Session, a ClickParams) (*mcp.CallToolResult, error) {
			if a.Target == "" {
				return nil, invalidInput("target", "empty: give a ref from the snapshot (e5) or a selector")
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			if err := p.Click(ctx, a.Target, browser.ClickOptions{Double: a.DoubleClick, Button: a.Button, Modifiers: a.Modifiers}); err != nil {
				return nil, err
			}
			var r response
			verb := "Clicked"
			if a.DoubleClick {
				verb = "Double-clicked"
			}
			r.resultf("%s %s", verb, describe(a.Target, a.Element))
			if err := r.pageState(ctx, s, p, snapChanges, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}

// TypeParams are the arguments of browser_type.
type TypeParams struct {
	Target  string `json:"target" jsonschema:"Ref from the snapshot (e5) or a selector of an editable element"`
	Text    string `json:"text" jsonschema:"Text that replaces the element's content"`
	Element string `json:"element,omitempty" jsonschema:"What the element is, in words, for messages"`
	Submit  bool   `json:"submit,omitempty" jsonschema:"Press Enter afterwards"`
	Slowly  bool   `json:"slowly,omitempty" jsonschema:"Type one key at a time (for pages that react to each key)"`
	SessionArg
}

func typeTool(d *Deps) Tool {
	return define(d, "browser_type", ToolsetInput,
		"Fill an editable element with text (replacing its content), optionally pressing Enter.",
		annotations{title: "Type text", destructive: true, openWorld: true},
		func(ctx context.Context, s *Session, a TypeParams) (*mcp.CallToolResult, error) {
			if a.Target == "" {
				return nil, invalidInput("target", "empty: give a ref from the snapshot (e5) or a selector")
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			if err := p.Type(ctx, a.Target, a.Text, browser.TypeOptions{Submit: a.Submit, Slowly: a.Slowly}); err != nil {
				return nil, err
			}
			var r response
			r.resultf("Typed %d characters into %s%s", len([]rune(a.Text)), describe(a.Target, a.Element), map[bool]string{true: " and pressed Enter"}[a.Submit])
			if err := r.pageState(ctx, s, p, snapChanges, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}

// describe names an element in a result line.
func describe(target, element string) string {
	if element != "" {
		return element + " (" + target + ")"
	}
	return target
}
