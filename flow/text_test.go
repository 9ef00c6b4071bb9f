package flow

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// env is a lookup over a map, as os.LookupEnv.
func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestParts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []Part
	}{
		{"", []Part{{}}},
		{"plain", []Part{{Text: "plain"}}},
		{"${E2E_SECRET_1}", []Part{{Var: "E2E_SECRET_1"}}},
		{"Hi $NAME!", []Part{{Text: "Hi "}, {Var: "NAME"}, {Text: "!"}}},
		{"$_a1$b", []Part{{Var: "_a1"}, {Var: "b"}}},
		{"${A}${A}", []Part{{Var: "A"}, {Var: "A"}}},
		{"$100", []Part{{Text: "$100"}}},
		{"cost $", []Part{{Text: "cost $"}}},
		{"$$", []Part{{Text: "$"}}},
		{"$$$", []Part{{Text: "$$"}}},
		{"$${HOME}", []Part{{Text: "${HOME}"}}},
		{"$$HOME", []Part{{Text: "$HOME"}}},
		{"$$$HOME", []Part{{Text: "$"}, {Var: "HOME"}}},
		{`[href$=".pdf"]`, []Part{{Text: `[href$=".pdf"]`}}},
		{"a $-b $ c $1 $.", []Part{{Text: "a $-b $ c $1 $."}}},
		{"Grüße $日本", []Part{{Text: "Grüße $日本"}}},
	} {
		got, err := Parts(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Parts(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"${", "a ${HOME", "${}", "${1x}", "${a b}", "${a-b}", "x ${a.b} y", "${日本}"} {
		if _, err := Parts(bad); err == nil || !strings.Contains(err.Error(), "$${") {
			t.Errorf("Parts(%q): %v, want an error saying how to write ${", bad, err)
		}
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"":                             "",
		"plain":                        "plain",
		"$100":                         "$100",
		"cost $":                       "cost $",
		`[href$=".pdf"]`:               `[href$=".pdf"]`,
		"$":                            "$",
		"$$":                           "$$$",
		"${HOME}":                      "$${HOME}",
		"${":                           "$${",
		"PROMO-$AWS_SECRET_ACCESS_KEY": "PROMO-$$AWS_SECRET_ACCESS_KEY",
		"$_x":                          "$$_x",
		"a$$b":                         "a$$$$b",
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
		if back, err := Expand(Escape(in), env(nil)); err != nil || back != in {
			t.Errorf("Expand(Escape(%q)) = %q, %v", in, back, err)
		}
	}
}

func TestExpand(t *testing.T) {
	e := env(map[string]string{"NAME": "Ada", "EMPTY": "", "RAW": "$HOME ${X} $$"})
	for in, want := range map[string]string{
		"Hi $NAME, ${NAME}!": "Hi Ada, Ada!",
		"[$EMPTY]":           "[]",
		"$RAW":               "$HOME ${X} $$", // a value is taken as it is
		"$$NAME costs $5":    "$NAME costs $5",
	} {
		if got, err := Expand(in, e); err != nil || got != want {
			t.Errorf("Expand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	_, err := Expand("$A ${B} $NAME $A", e)
	var unset *UnsetError
	if !errors.As(err, &unset) || !reflect.DeepEqual(unset.Names, []string{"A", "B"}) || !strings.Contains(err.Error(), "A, B are not set") {
		t.Errorf("unset variables: %v", err)
	}
	if _, err := Expand("${", e); err == nil {
		t.Error("a malformed text expands")
	}
}

// TestStepTool: every text of a step is expanded, at any depth (a
// fill_form field's value), and nothing else is changed.
func TestStepTool(t *testing.T) {
	f, err := Parse([]byte(`name: x
steps:
  - fill_form: {fields: [{target: '#pw', type: textbox, value: '${E2E_SECRET_1}'}, {target: 'text=$$5', type: checkbox, value: 'true'}]}
  - type: {target: '[href$=".pdf"]', text: 'PROMO-$$AWS_KEY $NAME', slowly: true}
`))
	if err != nil {
		t.Fatal(err)
	}
	look := env(map[string]string{"E2E_SECRET_1": "pa$$word", "NAME": "Ada", "AWS_KEY": "leaked"})
	tool, args, err := f.Steps[0].Tool(look)
	want := map[string]any{"fields": []any{
		map[string]any{"target": "#pw", "type": "textbox", "value": "pa$$word"},
		map[string]any{"target": "text=$5", "type": "checkbox", "value": "true"},
	}}
	if err != nil || tool != "browser_fill_form" || !reflect.DeepEqual(args, want) {
		t.Errorf("fill_form: %s %#v %v", tool, args, err)
	}
	if f.Steps[0].Args["fields"].([]any)[0].(map[string]any)["value"] != "${E2E_SECRET_1}" {
		t.Error("Tool changed the step's own arguments")
	}
	_, args, err = f.Steps[1].Tool(look)
	if err != nil || args["text"] != "PROMO-$AWS_KEY Ada" || args["target"] != `[href$=".pdf"]` || args["slowly"] != true {
		t.Errorf("type: %#v %v", args, err)
	}
	if _, _, err := f.Steps[1].Tool(env(nil)); err == nil || !strings.Contains(err.Error(), "NAME") {
		t.Errorf("an unset variable: %v", err)
	}
}

// TestParseRefusesMalformed: a ${ that is not a reference is an error of
// the file, with its line, wherever it is in a step.
func TestParseRefusesMalformed(t *testing.T) {
	for src, want := range map[string]string{
		"name: x\nsteps:\n  - back\n  - navigate: /a?x=${\n":                                       "line 4: navigate",
		"name: x\nsteps:\n  - type:\n      target: '#a'\n      text: 'a ${b c}'\n":                 "line 5: type",
		"name: x\nsteps:\n  - fill_form:\n      fields:\n        - {target: '#a', value: '${}'}\n": "line 5: fill_form",
	} {
		_, err := Parse([]byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", src, err, want)
		}
	}
}

func TestVarsAndCheckEnv(t *testing.T) {
	f, err := Parse([]byte(`name: x
dev:
  run: app $PORT
steps:
  - navigate: /a?$$NOT
  - type: {target: '#a', text: '${E2E_SECRET_2}$E2E_SECRET_1'}
  - fill_form: {fields: [{target: '#b', type: textbox, value: '$USER_NAME'}]}
  - type: {target: '#c', text: '${E2E_SECRET_1}'}
`))
	if err != nil {
		t.Fatal(err)
	}
	names, err := f.Vars()
	if err != nil || !reflect.DeepEqual(names, []string{"E2E_SECRET_1", "E2E_SECRET_2", "USER_NAME"}) {
		t.Errorf("Vars = %v, %v", names, err)
	}
	err = f.CheckEnv(env(map[string]string{"E2E_SECRET_1": ""}))
	var unset *UnsetError
	if !errors.As(err, &unset) || !reflect.DeepEqual(unset.Names, []string{"E2E_SECRET_2", "USER_NAME"}) {
		t.Errorf("CheckEnv: %v", err)
	}
	if err := f.CheckEnv(env(map[string]string{"E2E_SECRET_1": "", "E2E_SECRET_2": "x", "USER_NAME": ""})); err != nil {
		t.Errorf("CheckEnv with every variable set (some empty): %v", err)
	}
}

// FuzzEscape: any text, escaped, reads back as itself with no variable
// set (it names none), and through a flow file (Marshal, then Parse) too;
// Escape changes only what would read otherwise.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "$", "$$", "${", "${HOME}", "$HOME", "$100", "PROMO-$AWS_SECRET_ACCESS_KEY",
		"a\nb\r\n\t'\"\\", "*/ </script>", "`${x}`", "$$$x", "${a b}", "😀$é", "\u2028$\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		esc := Escape(s)
		parts, err := Parts(esc)
		if err != nil {
			t.Fatalf("Parts(Escape(%q) = %q): %v", s, esc, err)
		}
		for _, p := range parts {
			if p.Var != "" {
				t.Fatalf("Escape(%q) = %q reads the variable %s", s, esc, p.Var)
			}
		}
		if got, err := Expand(esc, env(nil)); err != nil || got != s {
			t.Fatalf("Expand(Escape(%q)) = %q, %v", s, got, err)
		}
		if got, err := Expand(s, env(nil)); err == nil && got == s && esc != s {
			t.Fatalf("Escape(%q) = %q: changed a text that reads as itself", s, esc)
		}
		if !utf8Valid(s) {
			return // tool arguments arrive as JSON: always UTF-8
		}
		fl := &Flow{Name: "n", Steps: []Step{
			{Action: "type", Args: map[string]any{"target": esc, "text": esc}},
			{Action: "fill_form", Args: map[string]any{"fields": []any{map[string]any{"target": "#a", "type": "textbox", "value": esc}}}},
		}}
		out, err := fl.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(Marshal(%q)): %v\n%s", s, err, out)
		}
		for i, st := range back.Steps {
			_, args, err := st.Tool(env(nil))
			if err != nil {
				t.Fatalf("step %d of %q: %v\n%s", i+1, s, err, out)
			}
			got := args["text"]
			if i == 1 {
				got = args["fields"].([]any)[0].(map[string]any)["value"]
			}
			if got != s {
				t.Fatalf("step %d: %q replays as %q\n%s", i+1, s, got, out)
			}
		}
	})
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// TestNoOtherExpansion: the code that reads flows expands their texts only
// through Parts (Expand, the Playwright export's Value): a file of the
// module that imports this package and calls os.Expand or os.ExpandEnv
// would read a recorded $ as a variable again.
func TestNoOtherExpansion(t *testing.T) {
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && path != "..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		src := string(b)
		if strings.Contains(src, `"github.com/e2e-mcp/e2e-mcp/flow"`) || strings.HasPrefix(filepath.ToSlash(path), "../flow/") {
			if strings.Contains(src, "os.Expand") {
				t.Errorf("%s reads flow texts with os.Expand: use flow.Expand or flow.Parts", path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
