package flow

// Verb is an action a step (and a CLI command of the same name) can take:
// the MCP tool it calls and the argument its short form stands for
// ("- click: '#save'" is target '#save').
type Verb struct {
	Name, Tool, Short string
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
	{"dialog", "browser_handle_dialog", ""},
	{"resize", "browser_resize", ""},
	{"emulate_media", "browser_emulate_media", ""},
	{"emulate", "browser_emulate", "device"},
	{"clock", "browser_clock", ""},
	{"route", "browser_route", ""},
	{"unroute", "browser_unroute", "pattern"},
	{"network_state", "browser_network_state_set", "state"},
	{"set_storage_state", "browser_set_storage_state", "filename"},
	{"wait", "browser_wait_for", ""},
	{"expect", "browser_expect", ""},
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
