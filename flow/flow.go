// Package flow is the file format of a recorded test: what an agent did
// through MCP, written so that a person can read and edit it and
// `e2e-mcp run` can replay it in CI. docs/flow.schema.json describes it.
//
//	name: sign-up
//	dev:
//	  run: python3 app.py $PORT
//	  cwd: .
//	steps:
//	  - navigate: /signup.html
//	  - type: {target: 'role=textbox[name="Name"]', text: Ada}
//	  - click: 'role=button[name="Sign up"]'
//	  - expect: {target: 'role=status', check: text, expected: 'Welcome, Ada!'}
//
// Each step is one action: a short form (the action's main argument) or a
// map of the tool's arguments. Targets are selectors, never snapshot refs.
// Text may name environment variables (${PASSWORD}) so that secrets are
// never written out.
package flow

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// Flow is one recorded test.
type Flow struct {
	Name string `yaml:"name"`
	// Dev is the dev server to start first, if any.
	Dev *Dev `yaml:"dev,omitempty"`
	// BaseURL resolves relative URLs when there is no dev server.
	BaseURL string `yaml:"baseURL,omitempty"`
	Steps   []Step `yaml:"steps"`
}

// Dev says how to start the app's dev server: a contract command, or any
// dev command line (run) with the port in $PORT.
type Dev struct {
	Run       string   `yaml:"run,omitempty"`
	Command   []string `yaml:"command,omitempty"`
	Cwd       string   `yaml:"cwd,omitempty"`
	ReadyPath string   `yaml:"readyPath,omitempty"`
}

// Step is one action and its arguments (the tool's, without browser_).
type Step struct {
	Action string
	Args   map[string]any
}

// actions maps a step's action to its tool and the argument its short form
// stands for.
var actions = map[string]struct{ tool, short string }{
	"navigate": {"browser_navigate", "url"},
	"back":     {"browser_navigate_back", ""},
	"forward":  {"browser_navigate_forward", ""},
	"reload":   {"browser_reload", ""},
	"click":    {"browser_click", "target"},
	"type":     {"browser_type", ""},
	"fill":     {"browser_fill_form", ""},
	"select":   {"browser_select_option", ""},
	"check":    {"browser_check", "target"},
	"uncheck":  {"browser_uncheck", "target"},
	"hover":    {"browser_hover", "target"},
	"drag":     {"browser_drag", ""},
	"press":    {"browser_press_key", "key"},
	"upload":   {"browser_file_upload", ""},
	"dialog":   {"browser_handle_dialog", ""},
	"resize":   {"browser_resize", ""},
	"wait":     {"browser_wait_for", ""},
	"expect":   {"browser_expect", ""},
}

// ActionOf returns the action a tool is recorded as, or "".
func ActionOf(tool string) string {
	for a, t := range actions {
		if t.tool == tool {
			return a
		}
	}
	return ""
}

// Tool is the MCP tool of a step and its arguments, with ${VAR} in text
// values taken from the environment (getenv).
func (s Step) Tool(getenv func(string) string) (string, map[string]any, error) {
	a, ok := actions[s.Action]
	if !ok {
		return "", nil, fmt.Errorf("unknown action %q (known: %s)", s.Action, strings.Join(knownActions(), ", "))
	}
	args := map[string]any{}
	for k, v := range s.Args {
		if str, ok := v.(string); ok {
			v = os.Expand(str, getenv)
		}
		args[k] = v
	}
	return a.tool, args, nil
}

func knownActions() []string {
	var out []string
	for a := range actions {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// MarshalYAML writes the short form when the step has only its main
// argument.
func (s Step) MarshalYAML() (any, error) {
	short := actions[s.Action].short
	if len(s.Args) == 0 {
		return map[string]any{s.Action: nil}, nil
	}
	if v, ok := s.Args[short]; ok && short != "" && len(s.Args) == 1 {
		return map[string]any{s.Action: v}, nil
	}
	return map[string]any{s.Action: s.Args}, nil
}

// UnmarshalYAML reads a one-key map: action: value or action: {args}.
func (s *Step) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode { // "- back"
		s.Action, s.Args = n.Value, map[string]any{}
		return s.check(n)
	}
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		return fmt.Errorf("line %d: a step is one action, e.g. `- click: 'role=button[name=\"Save\"]'`", n.Line)
	}
	s.Action, s.Args = n.Content[0].Value, map[string]any{}
	if err := s.check(n); err != nil {
		return err
	}
	v := n.Content[1]
	switch v.Kind {
	case yaml.MappingNode:
		if err := v.Decode(&s.Args); err != nil {
			return err
		}
	case yaml.ScalarNode:
		if v.Tag == "!!null" {
			break
		}
		short := actions[s.Action].short
		if short == "" {
			return fmt.Errorf("line %d: %s takes a map of arguments", n.Line, s.Action)
		}
		s.Args[short] = v.Value
	default:
		return fmt.Errorf("line %d: %s: give a value or a map of arguments", n.Line, s.Action)
	}
	return nil
}

func (s *Step) check(n *yaml.Node) error {
	if _, ok := actions[s.Action]; !ok {
		return fmt.Errorf("line %d: unknown action %q (known: %s)", n.Line, s.Action, strings.Join(knownActions(), ", "))
	}
	return nil
}

// Parse reads a flow file's text.
func Parse(b []byte) (*Flow, error) {
	var f Flow
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	if f.Name == "" {
		return nil, fmt.Errorf("the flow has no name")
	}
	if len(f.Steps) == 0 {
		return nil, fmt.Errorf("flow %s has no steps", f.Name)
	}
	return &f, nil
}

// Load reads a flow file.
func Load(path string) (*Flow, error) {
	b, err := os.ReadFile(path) //nolint:gosec // the user names the flow files to run
	if err != nil {
		return nil, err
	}
	f, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Marshal writes a flow as YAML.
func (f *Flow) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
