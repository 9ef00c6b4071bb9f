package playwright

import (
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

// TestConvertDataRows: a flow with data rows is a test in a loop over
// them, named as run names each row, its ${row.FIELD} the row's field;
// a target that reads one is an error (a locator is written from the
// selector's text).
func TestConvertDataRows(t *testing.T) {
	f, err := flow.Parse([]byte("name: sign up\ndata: [{name: ada, email: ada@x}, {email: \"b'ob\"}]\nsteps:\n" +
		"  - type: {target: label=Email, text: 'to ${row.email}: ${GREETING}'}\n"))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := Convert(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"const rows: Record<string, string>[] = [\n  { 'email': 'ada@x', 'name': 'ada' },\n  { 'email': 'b\\'ob' },\n];\n",
		"for (const [i, row] of rows.entries()) {\n  test('sign up' + ' [' + (row.name?.trim() || 'row ' + (i + 1)) + ']', async ({ page }) => {\n    checkEnv();\n",
		"fill('to ' + row['email'] + ': ' + env('GREETING'));\n  });\n}\n",
	} {
		if !strings.Contains(spec.Text, want) {
			t.Errorf("the spec has no\n%s\n%s", want, spec.Text)
		}
	}
	if strings.Join(spec.Env, ",") != "GREETING" {
		t.Errorf("the spec reads %v", spec.Env)
	}
	g, err := flow.Parse([]byte("name: x\ndata: [{n: a}]\nsteps:\n  - click: 'text=${row.n}'\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Convert(g, Options{}); err == nil || !strings.Contains(err.Error(), "the target reads the data row's field ${row.n}") {
		t.Errorf("a target that reads a row: %v", err)
	}
}
