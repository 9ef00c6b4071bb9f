package flow

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestDataRows: data: rows (inline or a CSV beside the flow) give one
// flow a row, named by its name field or its number, with ${row.FIELD}
// replaced by the row's field as a literal ($ in it stays a $) and the
// environment's references kept for the run; Marshal writes data: back;
// the schema takes both forms.
func TestDataRows(t *testing.T) {
	validate := schemaValidator(t)
	src := "name: sign-up\ndata:\n  - {name: ada, email: ada@example.com}\n  - {email: 'cost$HOME@x', age: 3}\n" +
		"steps:\n  - type: {target: label=Email, text: '${row.email} and ${PASSWORD}'}\n  - expect: {target: 'text=${row.email}', check: visible}\n"
	f, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(src); err != nil {
		t.Errorf("the schema refuses inline data: %v", err)
	}
	if want := []map[string]string{{"name": "ada", "email": "ada@example.com"}, {"email": "cost$HOME@x", "age": "3"}}; !reflect.DeepEqual(f.Data, want) {
		t.Errorf("the rows: %v", f.Data)
	}
	var names, texts []string
	for i := range f.Data {
		g, err := f.ForRow(i)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, g.Name)
		typed, err := Expand(g.Steps[0].Args["text"].(string), func(n string) (string, bool) { return "<" + n + ">", true })
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, typed, g.Steps[1].Args["target"].(string))
		if g.Data != nil {
			t.Errorf("a row's flow has data: %v", g.Data)
		}
	}
	if got := strings.Join(names, "|"); got != "sign-up [ada]|sign-up [row 2]" {
		t.Errorf("the names: %s", got)
	}
	if got := strings.Join(texts, "|"); got != "ada@example.com and <PASSWORD>|text=ada@example.com|cost$HOME@x and <PASSWORD>|text=cost$$HOME@x" {
		t.Errorf("the texts: %s", got)
	}
	if f.Steps[0].Args["text"] != "${row.email} and ${PASSWORD}" {
		t.Errorf("ForRow changed the flow it read: %v", f.Steps[0].Args)
	}
	out, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if g, err := Parse(out); err != nil || !reflect.DeepEqual(g.Data, f.Data) {
		t.Errorf("Marshal wrote\n%s\nread back as %v (%v)", out, g.Data, err)
	}

	dir := t.TempDir()
	csvFlow := "name: log in\ndata: users.csv\nsteps:\n  - type: {target: label=User, text: '${row.user}'}\n"
	for name, text := range map[string]string{"flow.yaml": csvFlow, "users.csv": "\ufeffuser,name\nada,Ada L\n\"b,ob\",\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err = Load(filepath.Join(dir, "flow.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []map[string]string{{"user": "ada", "name": "Ada L"}, {"user": "b,ob", "name": ""}}; !reflect.DeepEqual(f.Data, want) || f.RowName(0) != "log in [Ada L]" || f.RowName(1) != "log in [row 2]" {
		t.Errorf("the CSV's rows: %v, %s, %s", f.Data, f.RowName(0), f.RowName(1))
	}
	if out, _ := f.Marshal(); !strings.Contains(string(out), "data: users.csv\n") {
		t.Errorf("Marshal of a CSV's flow:\n%s", out)
	}
	if err := validate(csvFlow); err != nil {
		t.Errorf("the schema refuses data: users.csv: %v", err)
	}
}

// TestDataErrors: a field a row does not have, a field read with no data,
// and data that is not rows are errors naming the row and the field.
func TestDataErrors(t *testing.T) {
	steps := "steps:\n  - type: {target: label=Email, text: '${row.email}'}\n  - click: 'text=${row.name}'\n"
	for src, want := range map[string]string{
		"name: x\ndata: [{email: a}, {name: b}]\n" + steps:          "flow x: data row 1 has no field name (step 2 reads ${row.name})",
		"name: x\ndata: [{email: a, name: b}, {name: b}]\n" + steps: "flow x: data row 2 has no field email (step 1 reads ${row.email})",
		"name: x\n" + steps:                                                "flow x: step 1 reads ${row.email}, and the flow has no data: rows to read it from",
		"name: x\ndata: {email: a}\n" + steps:                              "line 2: data is a list of rows",
		"name: x\ndata: []\n" + steps:                                      "line 2: data is a list of rows",
		"name: x\ndata: [a]\n" + steps:                                     "data row 1 is not a map",
		"name: x\ndata: [{email: [a]}]\n" + steps:                          "data row 1: email is not a text or a number",
		"name: x\ndata: [{'e mail': a}]\n" + steps:                         `data row 1: "e mail" is not a field name`,
		"name: x\ndata: users.json\n" + steps:                              `data: "users.json": name a CSV file`,
		"name: x\ndata: /abs/users.csv\n" + steps:                          `data: "/abs/users.csv": name a CSV file`,
		"name: x\ndata: [{email: a}]\nsteps:\n  - click: 'text=${row.}'\n": `"${row.}" is not a variable`,
	} {
		if _, err := Parse([]byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error with %q", src, err, want)
		}
	}
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a.yaml": "name: a\ndata: a.csv\n" + steps, "a.csv": "email,name\nx,y\nz\n",
		"b.yaml": "name: b\ndata: b.csv\n" + steps, "b.csv": "email\nx\n",
		"c.yaml": "name: c\ndata: c.csv\n" + steps, "c.csv": "email,name\n",
		"d.yaml": "name: d\ndata: missing.csv\n" + steps,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for file, want := range map[string]string{
		"a.yaml": "a.yaml: data: " + filepath.Join(dir, "a.csv") + ": record on line 3: wrong number of fields",
		"b.yaml": "b.yaml: flow b: data row 1 has no field name (step 2 reads ${row.name})",
		"c.yaml": "c.csv: no rows under its line of fields",
		"d.yaml": "d.yaml: data: open " + filepath.Join(dir, "missing.csv"),
	} {
		if _, err := Load(filepath.Join(dir, file)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error with %q", file, err, want)
		}
	}
}
