package mcptools

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
)

// ClickParams are the arguments of browser_click.
type ClickParams struct {
	Target      string   `json:"target" jsonschema:"Ref or selector"`
	Element     string   `json:"element,omitempty"`
	DoubleClick bool     `json:"doubleClick,omitempty"`
	Button      string   `json:"button,omitempty" jsonschema:"enum=left,enum=right,enum=middle"`
	Modifiers   []string `json:"modifiers,omitempty" jsonschema:"Held keys: Alt, Control, ControlOrMeta, Meta, Shift"`
	SessionArg
}

func clickTool(d *Deps) Tool {
	return define(d, "browser_click", ToolsetInput,
		"Click an element (real mouse) once actionable; waits for what it starts.",
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
	Target  string `json:"target" jsonschema:"Ref or selector"`
	Text    string `json:"text"`
	Element string `json:"element,omitempty"`
	Submit  bool   `json:"submit,omitempty" jsonschema:"Press Enter afterwards"`
	Slowly  bool   `json:"slowly,omitempty" jsonschema:"Key by key at the caret, keeping the content"`
	SessionArg
}

// maxSlowRunes bounds the text typed one key at a time: each key is a few
// milliseconds, and the call holds its session all along.
const maxSlowRunes = 2000

func typeTool(d *Deps) Tool {
	return define(d, "browser_type", ToolsetInput,
		"Replace an editable element's text, optionally pressing Enter.",
		annotations{title: "Type text", destructive: true, openWorld: true},
		func(ctx context.Context, s *Session, a TypeParams) (*mcp.CallToolResult, error) {
			if a.Target == "" {
				return nil, invalidInput("target", "empty: give a ref from the snapshot (e5) or a selector")
			}
			if n := utf8.RuneCountInString(a.Text); a.Slowly && n > maxSlowRunes {
				return nil, invalidInput("text", "%d characters to type slowly; slowly (one key at a time) takes at most %d: type the rest without slowly, or in several calls", n, maxSlowRunes)
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

// TargetParams are the arguments of the tools that act on one element.
type TargetParams struct {
	Target string `json:"target" jsonschema:"Ref or selector"`
	SessionArg
}

// needTarget checks a required target argument.
func needTarget(field, target string) error {
	if target == "" {
		return invalidInput(field, "empty: give a ref from the snapshot (e5) or a selector")
	}
	return nil
}

// actionResult is the answer of an input tool: its result line, the page
// and what changed in the snapshot.
func actionResult(ctx context.Context, d *Deps, s *Session, p *browser.Page, format string, args ...any) (*mcp.CallToolResult, error) {
	var r response
	r.resultf(format, args...)
	if err := r.pageState(ctx, s, p, snapChanges, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
		return nil, err
	}
	return r.build(), nil
}

func hoverTool(d *Deps) Tool {
	return define(d, "browser_hover", ToolsetInput,
		"Hover an element once visible, stable and uncovered.",
		annotations{title: "Hover", readOnly: false, destructive: false, openWorld: true},
		func(ctx context.Context, s *Session, a TargetParams) (*mcp.CallToolResult, error) {
			if err := needTarget("target", a.Target); err != nil {
				return nil, err
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			if err := p.Hover(ctx, a.Target); err != nil {
				return nil, err
			}
			return actionResult(ctx, d, s, p, "Hovered over %s", a.Target)
		})
}

// DragParams are the arguments of browser_drag.
type DragParams struct {
	StartTarget string `json:"startTarget" jsonschema:"Element to drag: ref or selector"`
	EndTarget   string `json:"endTarget" jsonschema:"Element to drop it on: ref or selector"`
	SessionArg
}

func dragTool(d *Deps) Tool {
	return define(d, "browser_drag", ToolsetInput,
		"Drag an element onto another (HTML5 drag and drop, or pointer events).",
		annotations{title: "Drag and drop", destructive: true, openWorld: true},
		func(ctx context.Context, s *Session, a DragParams) (*mcp.CallToolResult, error) {
			if err := needTarget("startTarget", a.StartTarget); err != nil {
				return nil, err
			}
			if err := needTarget("endTarget", a.EndTarget); err != nil {
				return nil, err
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			html5, err := p.Drag(ctx, a.StartTarget, a.EndTarget)
			if err != nil {
				return nil, err
			}
			how := "pointer drag"
			if html5 {
				how = "HTML5 drag and drop"
			}
			return actionResult(ctx, d, s, p, "Dragged %s onto %s (%s)", a.StartTarget, a.EndTarget, how)
		})
}

// PressKeyParams are the arguments of browser_press_key.
type PressKeyParams struct {
	Key string `json:"key" jsonschema:"Enter, ArrowDown, Control+A, ControlOrMeta+C"`
	SessionArg
}

func pressKeyTool(d *Deps) Tool {
	return define(d, "browser_press_key", ToolsetInput,
		"Press a key or combination in the focused element (real key events).",
		annotations{title: "Press a key", destructive: true, openWorld: true},
		func(ctx context.Context, s *Session, a PressKeyParams) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			if err := p.PressKey(ctx, a.Key); err != nil {
				return nil, err
			}
			return actionResult(ctx, d, s, p, "Pressed %s", a.Key)
		})
}

// SelectOptionParams are the arguments of browser_select_option.
type SelectOptionParams struct {
	Target  string   `json:"target" jsonschema:"Ref or selector"`
	Values  []string `json:"values" jsonschema:"Option values or labels"`
	Element string   `json:"element,omitempty"`
	SessionArg
}

func selectOptionTool(d *Deps) Tool {
	return define(d, "browser_select_option", ToolsetInput,
		"Select options of a select by value or label; others are deselected.",
		annotations{title: "Select options", destructive: true, idempotent: true, openWorld: true},
		func(ctx context.Context, s *Session, a SelectOptionParams) (*mcp.CallToolResult, error) {
			if err := needTarget("target", a.Target); err != nil {
				return nil, err
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			labels, err := p.SelectOption(ctx, a.Target, a.Values)
			if err != nil {
				return nil, err
			}
			return actionResult(ctx, d, s, p, "Selected %s in %s", quoteList(labels), describe(a.Target, a.Element))
		})
}

// quoteList renders ["a" "b"] as "a", "b" (or "nothing").
func quoteList(items []string) string {
	if len(items) == 0 {
		return "nothing"
	}
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

func checkTool(d *Deps, want bool) Tool {
	name, desc, title, verb := "browser_check", "Check a checkbox, radio or switch by clicking it, unless checked.", "Check", "Checked"
	if !want {
		name, desc, title, verb = "browser_uncheck", "Uncheck a checkbox or switch by clicking it, unless it already is.", "Uncheck", "Unchecked"
	}
	return define(d, name, ToolsetInput, desc,
		annotations{title: title, destructive: true, idempotent: true, openWorld: true},
		func(ctx context.Context, s *Session, a TargetParams) (*mcp.CallToolResult, error) {
			if err := needTarget("target", a.Target); err != nil {
				return nil, err
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			clicked, err := p.SetChecked(ctx, a.Target, want)
			if err != nil {
				return nil, err
			}
			if !clicked {
				return actionResult(ctx, d, s, p, "%s was %s already: nothing to do", a.Target, strings.ToLower(verb))
			}
			return actionResult(ctx, d, s, p, "%s %s", verb, a.Target)
		})
}

// FormField is one field of browser_fill_form.
type FormField struct {
	Target string `json:"target" jsonschema:"Ref or selector"`
	Name   string `json:"name,omitempty" jsonschema:"For messages"`
	Type   string `json:"type" jsonschema:"enum=textbox,enum=checkbox,enum=radio,enum=combobox,enum=slider"`
	Value  string `json:"value" jsonschema:"Text, option, number or true/false"`
}

// FillFormParams are the arguments of browser_fill_form.
type FillFormParams struct {
	Fields []FormField `json:"fields"`
	SessionArg
}

func fillFormTool(d *Deps) Tool {
	return define(d, "browser_fill_form", ToolsetInput,
		"Fill many fields in one call: text boxes, checkboxes, radios, selects, sliders.",
		annotations{title: "Fill a form", destructive: true, idempotent: true, openWorld: true},
		func(ctx context.Context, s *Session, a FillFormParams) (*mcp.CallToolResult, error) {
			if len(a.Fields) == 0 {
				return nil, invalidInput("fields", "empty: give at least one {target, type, value}")
			}
			for i, f := range a.Fields {
				if err := needTarget(fmt.Sprintf("fields[%d].target", i), f.Target); err != nil {
					return nil, err
				}
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			var done []string
			for i, f := range a.Fields {
				what, err := fillField(ctx, p, f)
				if err != nil {
					return nil, fieldError(i, f, done, err)
				}
				done = append(done, what)
			}
			return actionResult(ctx, d, s, p, "Filled %d fields: %s", len(done), strings.Join(done, "; "))
		})
}

// fillField sets one form field and says what it did.
func fillField(ctx context.Context, p *browser.Page, f FormField) (string, error) {
	name := describe(f.Target, f.Name)
	switch f.Type {
	case "textbox":
		if err := p.Type(ctx, f.Target, f.Value, browser.TypeOptions{}); err != nil {
			return "", err
		}
		if p.LastTypeWasSecret() {
			return fmt.Sprintf("%s = %s", name, redact.Mask), nil // a password field's value, however short
		}
		return fmt.Sprintf("%s = %q", name, f.Value), nil
	case "checkbox", "radio":
		on, err := parseChecked(f.Value)
		if err != nil {
			return "", err
		}
		if _, err := p.SetChecked(ctx, f.Target, on); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %s", name, map[bool]string{true: "checked", false: "unchecked"}[on]), nil
	case "combobox":
		labels, err := p.SelectOption(ctx, f.Target, []string{f.Value})
		if e, ok := browser.AsError(err); ok && e.Reason == browser.ReasonNotSelect {
			// An editable combobox (autocomplete) takes the text.
			if err := p.Type(ctx, f.Target, f.Value, browser.TypeOptions{}); err != nil {
				return "", err
			}
			return fmt.Sprintf("%s = %q", name, f.Value), nil
		}
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s = %s", name, quoteList(labels)), nil
	case "slider":
		v, err := strconv.ParseFloat(strings.TrimSpace(f.Value), 64)
		if err != nil {
			return "", invalidInput("value", "%q is not a number", f.Value)
		}
		now, err := p.SetSlider(ctx, f.Target, v)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s = %v", name, now), nil
	}
	return "", invalidInput("type", "%q: use textbox, checkbox, radio, combobox or slider", f.Type)
}

// parseChecked reads a checkbox or radio value.
func parseChecked(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "on", "yes", "checked", "1":
		return true, nil
	case "false", "off", "no", "unchecked", "0":
		return false, nil
	}
	return false, invalidInput("value", "%q: use true or false", v)
}

// fieldError names the field that failed and what was filled before it,
// keeping the error's type.
func fieldError(i int, f FormField, done []string, err error) error {
	where := fmt.Sprintf("fields[%d] (%s)", i, describe(f.Target, f.Name))
	if len(done) > 0 {
		where += fmt.Sprintf(", after filling %d: %s", len(done), strings.Join(done, "; "))
	}
	typ, msg, hint := classify(err)
	if typ == ErrInternal {
		return fmt.Errorf("%s: %w", where, err)
	}
	return &ToolError{Type: typ, Message: where + ": " + msg, Suggestion: hint}
}

// FileUploadParams are the arguments of browser_file_upload.
type FileUploadParams struct {
	Paths  []string `json:"paths,omitempty" jsonschema:"File paths; none cancels the chooser"`
	Target string   `json:"target,omitempty" jsonschema:"File input; omit for the open file chooser"`
	SessionArg
}

func fileUploadTool(d *Deps) Tool {
	return define(d, "browser_file_upload", ToolsetInput,
		"Files for a file input (target) or the file chooser an action opened.",
		annotations{title: "Upload files", destructive: true, idempotent: true, openWorld: true},
		func(ctx context.Context, s *Session, a FileUploadParams) (*mcp.CallToolResult, error) {
			if len(a.Paths) == 0 && a.Target == "" {
				// Playwright MCP's cancel: the chooser answered with no files.
				p, err := s.PageUnderChooser(ctx, d.Browser)
				if err != nil {
					return nil, err
				}
				open, err := p.CancelFileChooser(ctx)
				if err != nil {
					return nil, err
				}
				if !open {
					return nil, &ToolError{Type: ErrInvalidInput, Message: "paths: none given, and no file chooser is open to cancel",
						Suggestion: nextSteps[browser.StepOpenChooser]}
				}
				return actionResult(ctx, d, s, p, "Cancelled the file chooser: no files chosen")
			}
			paths, err := d.uploadPaths(ctx, a.Paths)
			if err != nil {
				return nil, err
			}
			p, err := s.PageUnderChooser(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			if err := p.UploadFiles(ctx, a.Target, paths); err != nil {
				return nil, err
			}
			names := make([]string, len(paths))
			for i, pth := range paths {
				names[i] = filepath.Base(pth)
			}
			into := "the file chooser"
			if a.Target != "" {
				into = a.Target
			}
			return actionResult(ctx, d, s, p, "Chose %s for %s", quoteList(names), into)
		})
}
