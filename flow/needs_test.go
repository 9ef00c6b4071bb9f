package flow

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// TestNeeds: needs: is one path or a list of them, kept as written, and
// written back by Marshal as read; docs/flow.schema.json takes both forms.
func TestNeeds(t *testing.T) {
	validate := schemaValidator(t)
	for src, want := range map[string][]string{
		"name: x\nneeds: login.yaml\nsteps:\n  - back\n":                       {"login.yaml"},
		"name: x\nneeds: [setup/login.yml, ../admin.yaml]\nsteps:\n  - back\n": {"setup/login.yml", "../admin.yaml"},
		"name: x\nneeds:\nsteps:\n  - back\n":                                  nil,
		"name: x\nsteps:\n  - back\n":                                          nil,
	} {
		f, err := Parse([]byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if !reflect.DeepEqual(f.Needs, want) {
			t.Errorf("%q: needs %q, want %q", src, f.Needs, want)
		}
		out, err := f.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		g, err := Parse(out)
		if err != nil || !reflect.DeepEqual(g.Needs, want) {
			t.Errorf("%q: Marshal wrote\n%s\nread back as %q (%v)", src, out, g.Needs, err)
		}
		if err := validate(string(out)); err != nil {
			t.Errorf("the schema refuses what Marshal wrote:\n%s\n%v", out, err)
		}
		if err := validate(src); err != nil && want != nil {
			t.Errorf("the schema refuses %q: %v", src, err)
		}
	}
	if err := validate("name: x\nneeds: login.json\nsteps:\n  - back\n"); err == nil {
		t.Error("the schema takes a needs: that is not a YAML file")
	}
}

// TestNeedsErrors: what needs: refuses, each error with its line.
func TestNeedsErrors(t *testing.T) {
	for src, want := range map[string]string{
		"name: x\nneeds: {a: b}\nsteps:\n  - back\n":                       "line 2: needs is a flow file or a list of them",
		"name: x\nneeds: [a.yaml, [b.yaml]]\nsteps:\n  - back\n":           "line 2: needs is a flow file or a list of them",
		"name: x\nneeds: /abs/login.yaml\nsteps:\n  - back\n":              `line 2: needs: "/abs/login.yaml" is absolute`,
		"name: x\nneeds: login.json\nsteps:\n  - back\n":                   `line 2: needs: "login.json" is not a flow file`,
		"name: x\nneeds: ['']\nsteps:\n  - back\n":                         "line 2: needs: an empty path",
		"name: x\nneeds: [a.yaml, 3]\nsteps:\n  - back\n":                  "line 2: needs is a flow file",
		"name: x\nstorageState: s.json\nneeds: a.yaml\nsteps:\n  - back\n": "flow x has both storageState: and needs:",
	} {
		if _, err := Parse([]byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error with %q", src, err, want)
		}
	}
}

// schemaValidator validates a flow's YAML text against docs/flow.schema.json.
func schemaValidator(t *testing.T) func(src string) error {
	t.Helper()
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
	return func(src string) error {
		var v any
		if err := yaml.Unmarshal([]byte(src), &v); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(v)
		inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		return schema.Validate(inst)
	}
}
