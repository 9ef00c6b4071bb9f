package mcptools

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/selector"
	"github.com/e2e-mcp/e2e-mcp/flow/playwright"
	"github.com/mark3labs/mcp-go/mcp"
)

// The testing group (--caps testing): Playwright MCP's tools that write a
// test as the agent goes. Each verify tool is a browser_expect check with
// Playwright MCP's arguments, and is recorded as the expect step that
// replays it.

// GenerateLocatorParams are the arguments of browser_generate_locator.
type GenerateLocatorParams struct {
	Target  string `json:"target" jsonschema:"Ref or selector"`
	Element string `json:"element,omitempty"`
	SessionArg
}

// VerifyElementParams are the arguments of browser_verify_element_visible.
type VerifyElementParams struct {
	Role           string `json:"role" jsonschema:"Role, as the snapshot shows it"`
	AccessibleName string `json:"accessibleName" jsonschema:"Name, as the snapshot shows it"`
	SessionArg
}

// VerifyTextParams are the arguments of browser_verify_text_visible.
type VerifyTextParams struct {
	Text string `json:"text" jsonschema:"Text shown on the page"`
	SessionArg
}

// VerifyListParams are the arguments of browser_verify_list_visible.
type VerifyListParams struct {
	Target  string   `json:"target" jsonschema:"The list: ref or selector"`
	Element string   `json:"element,omitempty" jsonschema:"The list in words"`
	Items   []string `json:"items" jsonschema:"Texts the list shows"`
	SessionArg
}

// VerifyValueParams are the arguments of browser_verify_value.
type VerifyValueParams struct {
	Type    string `json:"type" jsonschema:"enum=textbox,enum=checkbox,enum=radio,enum=combobox,enum=slider"`
	Target  string `json:"target" jsonschema:"Ref or selector"`
	Element string `json:"element,omitempty"`
	Value   string `json:"value" jsonschema:"Value; checkbox and radio: true or false"`
	SessionArg
}

func testingTools(d *Deps) []Tool {
	return []Tool{
		define(d, "browser_generate_locator", ToolsetReading,
			"The locator a recorded flow uses for an element, and as Playwright code.",
			annotations{title: "Generate a locator", readOnly: true, idempotent: true},
			func(ctx context.Context, s *Session, a GenerateLocatorParams) (*mcp.CallToolResult, error) {
				if err := needTarget("target", a.Target); err != nil {
					return nil, err
				}
				p, err := s.Page(ctx, d.Browser)
				if err != nil {
					return nil, err
				}
				loc := s.flowLocator(ctx, p, a.Target)
				if selector.IsRef(loc) {
					return nil, &ToolError{Type: ErrRefNotFound, Message: "ref " + a.Target + " is not in any snapshot this session took of the page",
						Suggestion: "take a snapshot and use one of its refs, or give a selector"}
				}
				code, err := playwright.Locator(loc, d.Browser.TestIDAttribute())
				if err != nil {
					if _, ok := browser.AsError(err); ok {
						return nil, err // a bad selector: the answer browser_click gives it
					}
					return nil, invalidInput("target", "%v", err)
				}
				var r response
				r.resultf("%s\n%s", loc, code)
				r.set("locator", loc)
				r.set("playwright", code)
				return r.build(), nil
			}),
		verifyTool(d, "browser_verify_element_visible", "Assert an element of this role and name is visible; recorded as an expect step.", "Verify element visible",
			func(ctx context.Context, s *Session, p *browser.Page, a VerifyElementParams) ([]expectStep, error) {
				if a.Role == "" {
					return nil, invalidInput("role", "empty: give the role the snapshot shows, e.g. button")
				}
				sel := "role=" + a.Role
				if a.AccessibleName != "" {
					sel += "[name=" + strconv.Quote(a.AccessibleName) + "]"
				}
				return []expectStep{{target: sel, check: "visible", first: true}}, nil
			}),
		verifyTool(d, "browser_verify_text_visible", "Assert a text is visible on the page; recorded as an expect step.", "Verify text visible",
			func(ctx context.Context, s *Session, p *browser.Page, a VerifyTextParams) ([]expectStep, error) {
				if strings.TrimSpace(a.Text) == "" {
					return nil, invalidInput("text", "empty: give a text the page shows")
				}
				return []expectStep{{target: textSelector(a.Text) + " >> visible=true", check: "visible", first: true}}, nil
			}),
		verifyTool(d, "browser_verify_list_visible", "Assert a list shows each of the items; recorded as expect steps.", "Verify list visible",
			func(ctx context.Context, s *Session, p *browser.Page, a VerifyListParams) ([]expectStep, error) {
				if err := needTarget("target", a.Target); err != nil {
					return nil, err
				}
				if len(a.Items) == 0 {
					return nil, invalidInput("items", "empty: give the texts the list shows")
				}
				loc := s.flowLocator(ctx, p, a.Target)
				steps := []expectStep{{target: a.Target, record: loc, check: "visible"}}
				for _, it := range a.Items {
					steps = append(steps, expectStep{target: a.Target, record: loc, check: "text", expected: it})
				}
				return steps, nil
			}),
		verifyTool(d, "browser_verify_value", "Assert a field's value or checked state; recorded as an expect step.", "Verify value",
			func(ctx context.Context, s *Session, p *browser.Page, a VerifyValueParams) ([]expectStep, error) {
				if err := needTarget("target", a.Target); err != nil {
					return nil, err
				}
				st := expectStep{target: a.Target, record: s.flowLocator(ctx, p, a.Target)}
				switch a.Type {
				case "checkbox", "radio":
					switch a.Value {
					case "true":
						st.check = "checked"
					case "false":
						st.check = "unchecked"
					default:
						return nil, invalidInput("value", "%q: a checkbox or radio's value is true or false", a.Value)
					}
				default:
					st.check, st.expected = "value", literalValue(a.Value)
				}
				return []expectStep{st}, nil
			}),
	}
}

// expectStep is one browser_expect check a verify tool makes: on target,
// recorded with the selector record (target itself when empty). first: a
// selector that matches several elements checks the first, as Playwright
// MCP's verify tools do.
type expectStep struct {
	target, record, check, expected string
	first                           bool
}

// verifyTool is a testing tool that checks what plan says, at once (no
// retry: Playwright MCP's verify tools look once), and records each check
// as an expect step.
func verifyTool[T sessionArgs](d *Deps, name, desc, title string,
	plan func(ctx context.Context, s *Session, p *browser.Page, a T) ([]expectStep, error)) Tool {
	return define(d, name, ToolsetWaiting, desc, annotations{title: title, readOnly: true},
		func(ctx context.Context, s *Session, a T) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			steps, err := plan(ctx, s, p, a)
			if err != nil {
				return nil, err
			}
			var r response
			for i := range steps {
				st := &steps[i]
				_, err := p.Expect(ctx, st.target, st.check, st.expected, verifyWait)
				if e, ok := browser.AsError(err); ok && e.Kind == browser.KindNotUnique && st.first {
					st.target += " >> nth=0"
					_, err = p.Expect(ctx, st.target, st.check, st.expected, verifyWait)
				}
				if err != nil {
					return nil, err
				}
				if st.record == "" || st.first {
					st.record = st.target
				}
				r.resultf("PASS: %s is %s%s.", st.record, st.check, map[bool]string{true: " " + strconv.Quote(st.expected)}[st.expected != ""])
			}
			for _, st := range steps {
				if !s.recording() {
					break
				}
				args := map[string]any{"target": st.record, "check": st.check}
				if st.expected != "" {
					args["expected"] = st.expected
				}
				s.record("browser_expect", args, preLocated{print: s.fingerprintOf(p.Fingerprint(ctx, st.target))})
			}
			return r.build(), nil
		})
}

// verifyWait is how long a verify tool's check retries: a moment, for
// what is still rendering; Playwright MCP's look once.
const verifyWait = time.Second

// textSelector is the selector of elements that show t, as Playwright's
// getByText(t) finds them: a case-insensitive substring (text=t), quoted
// when t would read as another form.
func textSelector(t string) string {
	if strings.TrimSpace(t) != t || strings.Contains(t, ">>") || strings.ContainsAny(t[:1], `"'/`) {
		return "text=" + strconv.Quote(t)
	}
	return "text=" + t
}

// literalValue is an expected value that browser_expect reads as the text
// itself: one written as /.../ would be a regular expression there.
func literalValue(v string) string {
	if len(v) >= 2 && strings.HasPrefix(v, "/") {
		return "/^" + regexp.QuoteMeta(v) + "$/"
	}
	return v
}
