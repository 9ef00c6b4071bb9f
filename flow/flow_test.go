package flow

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

func TestParseAndMarshal(t *testing.T) {
	src := `name: sign-up
dev:
  run: python3 app.py $PORT
steps:
  - navigate: /signup
  - type: {target: 'label=Name', text: "${NAME}"}
  - click: 'role=button[name="Sign up"]'
  - back
  - expect: {target: 'role=status', check: text, expected: Welcome}
`
	f, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "sign-up" || f.Dev.Run != "python3 app.py $PORT" || len(f.Steps) != 5 {
		t.Fatalf("parsed: %+v", f)
	}
	tool, args, err := f.Steps[1].Tool(func(k string) string { return map[string]string{"NAME": "Ada"}[k] })
	if err != nil || tool != "browser_type" || args["text"] != "Ada" || args["target"] != "label=Name" {
		t.Errorf("type step: %s %v %v", tool, args, err)
	}
	if tool, args, _ := f.Steps[2].Tool(nil); tool != "browser_click" || args["target"] != `role=button[name="Sign up"]` {
		t.Errorf("click step: %s %v", tool, args)
	}
	if tool, _, _ := f.Steps[3].Tool(nil); tool != "browser_navigate_back" {
		t.Errorf("back step: %s", tool)
	}
	out, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(out)
	if err != nil {
		t.Fatalf("re-parse %s: %v", out, err)
	}
	if len(again.Steps) != 5 || !strings.Contains(string(out), `- click: role=button[name="Sign up"]`) {
		t.Errorf("round trip:\n%s", out)
	}
}

func TestParseErrors(t *testing.T) {
	for src, want := range map[string]string{
		"name: x\nsteps:\n  - jump: here\n":           `unknown action "jump"`,
		"name: x\nsteps: []\n":                        "has no steps",
		"steps:\n  - back\n":                          "has no name",
		"name: x\nsteps:\n  - type: Ada\n":            "type takes a map of arguments",
		"name: x\ncolour: red\nsteps:\n  - back\n":    "colour",
		"name: x\nsteps:\n  - {click: a, hover: b}\n": "a step is one action",
	} {
		if _, err := Parse([]byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error with %q", src, err, want)
		}
	}
}

// TestSchema: docs/flow.schema.json accepts what Marshal writes and what a
// person writes, and refuses an unknown action.
func TestSchema(t *testing.T) {
	doc, err := os.ReadFile("../docs/flow.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("flow.schema.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("flow.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	validate := func(src string) error {
		var v any
		if err := yaml.Unmarshal([]byte(src), &v); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(v)
		inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		return schema.Validate(inst)
	}
	f := &Flow{Name: "x", Dev: &Dev{Run: "npm run dev"}, Steps: []Step{
		{Action: "navigate", Args: map[string]any{"url": "/"}},
		{Action: "type", Args: map[string]any{"target": "label=Name", "text": "${NAME}"}},
		{Action: "click", Args: map[string]any{"target": "text=Go"}},
		{Action: "back", Args: map[string]any{}},
		{Action: "expect", Args: map[string]any{"target": "role=status", "check": "visible"}},
	}}
	out, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(string(out)); err != nil {
		t.Errorf("the schema refuses what Marshal wrote:\n%s\n%v", out, err)
	}
	if err := validate("name: x\nsteps:\n  - back\n  - click: '#go'\n"); err != nil {
		t.Errorf("the schema refuses a hand-written flow: %v", err)
	}
	if err := validate("name: x\nsteps:\n  - jump: here\n"); err == nil {
		t.Error("the schema accepts an unknown action")
	}
}
