package runner

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadDataRows: a flow with data: is a test for each row (named by
// its name field or its number, each with its own report name), in the
// order of the rows, each row again for --repeat-each; its steps read the
// row's fields; a setup flow with rows is an error naming both files.
func TestLoadDataRows(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"users.yaml": "name: sign up\ndata: users.csv\nsteps:\n  - type: {target: label=Email, text: '${row.email}'}\n",
		"users.csv":  "name,email\nada,ada@x\n,nameless@x\n",
		"solo.yaml":  "name: solo\nsteps: [back]\n",
		"setup.yaml": "name: setup\ndata: [{a: b}]\nsteps: [back]\n",
		"needy.yaml": "name: needy\nneeds: setup.yaml\nsteps: [back]\n",
	})
	s, err := Load(Options{Files: []string{filepath.Join(dir, "users.yaml"), filepath.Join(dir, "solo.yaml")}, RepeatEach: 2})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tc := range s.tests {
		text, _ := tc.flow.Steps[0].Args["text"].(string)
		got = append(got, tc.name+"|"+tc.stem+"|"+text)
	}
	want := "sign up [ada]|sign up [ada]|ada@x, sign up [row 2]|sign up [row 2]|nameless@x, solo|solo|, " +
		"sign up [ada] (2)|sign up [ada] (2)|ada@x, sign up [row 2] (2)|sign up [row 2] (2)|nameless@x, solo (2)|solo (2)|"
	if strings.Join(got, ", ") != want {
		t.Errorf("the tests:\n%s\nwant\n%s", strings.Join(got, ", "), want)
	}
	_, err = Load(Options{Files: []string{filepath.Join(dir, "needy.yaml")}})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "needy.yaml")+": needs "+filepath.Join(dir, "setup.yaml")+", which has data: rows") {
		t.Errorf("a setup flow with rows: %v", err)
	}
}
