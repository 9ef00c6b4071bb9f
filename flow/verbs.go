package flow

import (
	"fmt"
	"strings"
)

// Verb is an action a step (and a CLI command of the same name) can take:
// the MCP tool it calls and the argument its short form stands for
// ("- click: '#save'" is target '#save').
type Verb struct {
	Name, Tool, Short string
}

// FileArgs are, by action, the arguments that name files a step reads (a
// text or a list of texts). A relative one is relative to the directory
// of the flow file (Step.Tool resolves it): a flow and the files beside it
// run from any checkout, and the recorder writes a file it uploaded
// relative to the flow, copied beside it when it lay elsewhere.
var FileArgs = map[string][]string{
	"upload":            {"paths"},
	"drop":              {"paths"},
	"route":             {"path"},
	"set_storage_state": {"filename"},
}

// Verbs is the one table of actions. Flows read and write these names; the
// recorder writes the first verb of a tool; the CLI's commands of the same
// names call the same tools (a test holds it to that). "fill" replaces a
// field's text, as in Playwright and the CLI; fill_form fills many fields.
var Verbs = []Verb{
	{"navigate", "browser_navigate", "url"},
	{"back", "browser_navigate_back", ""},
	{"forward", "browser_navigate_forward", ""},
	{"reload", "browser_reload", ""},
	{"click", "browser_click", "target"},
	{"type", "browser_type", ""},
	{"fill", "browser_type", ""},
	{"fill_form", "browser_fill_form", ""},
	{"select", "browser_select_option", ""},
	{"check", "browser_check", "target"},
	{"uncheck", "browser_uncheck", "target"},
	{"hover", "browser_hover", "target"},
	{"drag", "browser_drag", ""},
	{"press", "browser_press_key", "key"},
	{"upload", "browser_file_upload", ""},
	{"drop", "browser_drop", ""},
	{"dialog", "browser_handle_dialog", ""},
	{"resize", "browser_resize", ""},
	{"emulate_media", "browser_emulate_media", ""},
	{"emulate", "browser_emulate", "device"},
	{"clock", "browser_clock", ""},
	{"init_script", "browser_add_init_script", "script"},
	{"route", "browser_route", ""},
	{"unroute", "browser_unroute", "pattern"},
	{"network_state", "browser_network_state_set", "state"},
	{"set_storage_state", "browser_set_storage_state", "filename"},
	// An HTTP call from the session's browser context, with what it
	// expects of the answer (for setup and checks).
	{"request", "browser_request", "url"},
	{"wait", "browser_wait_for", ""},
	{"expect", "browser_expect", ""},
	{"audit_a11y", "browser_audit_accessibility", "failOn"},
	// Page code the agent ran: its function, and the element it was
	// given (target), if any.
	{"evaluate", "browser_evaluate", "function"},
	// The mouse at coordinates of the viewport (the vision group).
	{"mouse_move_xy", "browser_mouse_move_xy", ""},
	{"mouse_click_xy", "browser_mouse_click_xy", ""},
	{"mouse_drag_xy", "browser_mouse_drag_xy", ""},
	{"mouse_down", "browser_mouse_down", "button"},
	{"mouse_up", "browser_mouse_up", "button"},
	{"mouse_wheel", "browser_mouse_wheel", ""},
}

// verbOf finds an action's verb. A "fill" step with fields is the form
// filling that flows recorded as "fill" before fill_form had its name.
func verbOf(action string, args map[string]any) (Verb, bool) {
	if _, ok := args["fields"]; ok && action == "fill" {
		action = "fill_form"
	}
	for _, v := range Verbs {
		if v.Name == action {
			return v, true
		}
	}
	return Verb{}, false
}

// ToolOf returns the tool of an action, or "".
func ToolOf(action string) string {
	v, _ := verbOf(action, nil)
	return v.Tool
}

// ActionOf returns the action a tool is recorded as, or "".
func ActionOf(tool string) string {
	for _, v := range Verbs {
		if v.Tool == tool {
			return v.Name
		}
	}
	return ""
}

// StepOf reads a step given as JSON (browser_batch): "back", or a one-key
// object {action: value} or {action: {args}}, as a flow file writes it. It
// returns the step's tool and arguments as they are (no ${VAR}).
func StepOf(v any) (Step, string, map[string]any, error) {
	var st Step
	switch x := v.(type) {
	case string:
		st = Step{Action: x, Args: map[string]any{}}
	case map[string]any:
		if len(x) != 1 {
			return st, "", nil, fmt.Errorf("a step is one action, e.g. {\"click\": \"e5\"} or {\"type\": {\"target\": \"e7\", \"text\": \"hi\"}}; this one has %d keys", len(x))
		}
		for k, val := range x {
			st = Step{Action: k, Args: map[string]any{}}
			switch a := val.(type) {
			case map[string]any:
				for name, arg := range a {
					if !argNameRE.MatchString(name) {
						return st, "", nil, fmt.Errorf("%s: %q is not an argument name (such as target or text)", k, name)
					}
					st.Args[name] = arg
				}
			case nil:
			default:
				verb, ok := verbOf(k, nil)
				if ok && verb.Short == "" {
					return st, "", nil, fmt.Errorf("%s takes an object of arguments", k)
				}
				st.Args[verb.Short] = a
			}
		}
	default:
		return st, "", nil, fmt.Errorf("a step is an action name or a one-key object, not %T", v)
	}
	verb, ok := verbOf(st.Action, st.Args)
	if !ok {
		return st, "", nil, fmt.Errorf("unknown action %q (known: %s)", st.Action, strings.Join(knownActions(), ", "))
	}
	return st, verb.Tool, st.Args, nil
}
