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

const actorsFlow = `name: chat
steps:
  - navigate: /chat.html
  - navigate: /chat.html
    actor: bob
  - group: Bob says hello
    actor: bob
    steps:
      - fill: {target: label=Message, text: Hello}
      - click: 'role=button[name="Send"]'
        fingerprint: {role: button, name: Send}
      - group: Carol answers
        actor: carol
        steps:
          - navigate: /chat.html
          - click: '#send'
            actor: bob
  - expect: {target: role=listitem, check: text, expected: 'bob: Hello'}
`

// TestActors: a step's actor is its own, else its innermost group's,
// else none; Actors lists them in the order they first act; Marshal
// writes each step's actor, which Parse reads back the same and the
// schema takes.
func TestActors(t *testing.T) {
	f, err := Parse([]byte(actorsFlow))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range f.Steps {
		got = append(got, st.Actor)
	}
	if want := []string{"", "bob", "bob", "bob", "carol", "bob", ""}; !reflect.DeepEqual(got, want) {
		t.Errorf("actors %q, want %q", got, want)
	}
	if a := f.Actors(); !reflect.DeepEqual(a, []string{"bob", "carol"}) {
		t.Errorf("Actors() = %q", a)
	}
	if f.Steps[3].Fingerprint == nil || f.Steps[3].Fingerprint.Name != "Send" {
		t.Errorf("the fingerprint beside an actor: %+v", f.Steps[3])
	}
	out, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out)
	if err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	for i := range f.Steps {
		if back.Steps[i].Actor != f.Steps[i].Actor || back.Steps[i].Action != f.Steps[i].Action {
			t.Errorf("step %d read back as %+v, was %+v:\n%s", i+1, back.Steps[i], f.Steps[i], out)
		}
	}
	doc, err := os.ReadFile("../docs/flow.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	sd, _ := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	c := jsonschema.NewCompiler()
	if err := c.AddResource("flow.schema.json", sd); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("flow.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	validate := func(src []byte) error {
		var v any
		if err := yaml.Unmarshal(src, &v); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(v)
		inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		return schema.Validate(inst)
	}
	for _, src := range [][]byte{[]byte(actorsFlow), out} {
		if err := validate(src); err != nil {
			t.Errorf("the schema refuses:\n%s\n%v", src, err)
		}
	}
	for _, bad := range []string{"  - actor: bob\n", "  - {click: a, hover: b, actor: bob}\n", "  - {click: a, actor: 'bob smith'}\n"} {
		if validate([]byte("name: x\nsteps:\n"+bad)) == nil {
			t.Errorf("the schema takes %q", bad)
		}
	}
}

// TestActorErrors: what Parse refuses of actors, with the line.
func TestActorErrors(t *testing.T) {
	for src, want := range map[string]string{
		"  - actor: bob\n":                                "line 3: a step is one action",
		"  - {click: a, actor: 'bob smith'}\n":            "line 3: an actor is a name of letters",
		"  - {click: a, actor: [bob]}\n":                  "line 3: an actor is a name of letters",
		"  - {click: a, hover: b, actor: bob}\n":          `"click" and "hover" are two`,
		"  - group: G\n    actor: 7\n    steps: [back]\n": "line 4: an actor is a name of letters",
	} {
		_, err := Parse([]byte("name: x\nsteps:\n" + src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error with %q", src, err, want)
		}
	}
}
