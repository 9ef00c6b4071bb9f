package playwright

import (
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

// TestExportSetups: a setup flow (one another input needs) is written as
// NAME.setup.ts that ends by saving its storage state to .auth/NAME.json,
// with a setup project of its own; the flows that need it start in that
// file and their project depends on it, as Playwright's authentication
// guide sets it up; a setup flow that needs another depends on it too. A
// flow that needs two starts in the last one's state, with a warning; a
// flow exported without its setup flows says so.
func TestExportSetups(t *testing.T) {
	fl := func(name string, needs ...string) *flow.Flow {
		return &flow.Flow{Name: name, BaseURL: "http://localhost:9", Needs: needs, Steps: []flow.Step{
			{Action: "navigate", Args: map[string]any{"url": "/" + name}},
			{Action: "expect", Args: map[string]any{"target": "role=heading", "check": "visible"}},
		}}
	}
	in := []Input{
		{Flow: fl("log in"), Dir: "/repo/flows/setup"},
		{Flow: fl("staff", "login.yaml"), Dir: "/repo/flows/setup", Needs: []int{0}},
		{Flow: fl("checkout", "setup/login.yaml"), Dir: "/repo/flows", Needs: []int{0}},
		{Flow: fl("admin", "setup/login.yaml", "setup/staff.yaml"), Dir: "/repo/flows", Needs: []int{0, 1}},
	}
	res, err := Export(in, "/repo/e2e", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	specs := map[string]string{}
	for _, s := range res.Specs {
		files = append(files, s.File)
		specs[s.File] = s.Text
	}
	if got := strings.Join(files, " "); got != "log-in.setup.ts staff.setup.ts checkout.spec.ts admin.spec.ts" {
		t.Errorf("the files: %s", got)
	}
	save := "await page.context().storageState({ path: path.resolve(path.dirname(test.info().file), '.auth/log-in.json') });"
	if !strings.Contains(specs["log-in.setup.ts"], save) || strings.Contains(specs["log-in.setup.ts"], "storageState: ") {
		t.Errorf("the setup spec saves its state, starting in none:\n%s", specs["log-in.setup.ts"])
	}
	startIn := func(file string) string {
		return "storageState: async ({}, use, testInfo) => { await use(path.resolve(path.dirname(testInfo.file), '" + file + "')); },"
	}
	if s := specs["staff.setup.ts"]; !strings.Contains(s, startIn(".auth/log-in.json")) || !strings.Contains(s, "'.auth/staff.json') });") {
		t.Errorf("a setup flow that needs another starts in its state and saves its own:\n%s", s)
	}
	if s := specs["checkout.spec.ts"]; !strings.Contains(s, startIn(".auth/log-in.json")) || strings.Contains(s, "context().storageState") {
		t.Errorf("checkout starts in log in's state and saves none:\n%s", s)
	}
	if s := specs["admin.spec.ts"]; !strings.Contains(s, startIn(".auth/staff.json")) {
		t.Errorf("admin starts in the last setup flow's state:\n%s", s)
	}
	for _, want := range []string{
		"{ name: 'setup log-in', testMatch: 'log-in.setup.ts', use: { baseURL: 'http://localhost:9' } },",
		"{ name: 'setup staff', testMatch: 'staff.setup.ts', use: { baseURL: 'http://localhost:9' }, dependencies: ['setup log-in'] },",
		"{ name: 'checkout', testMatch: ['checkout.spec.ts', 'admin.spec.ts'], use: { baseURL: 'http://localhost:9' }, dependencies: ['setup log-in', 'setup staff'] },",
		"keep .auth/ out of version control",
	} {
		if !strings.Contains(res.Config, want) {
			t.Errorf("the config has no %s:\n%s", want, res.Config)
		}
	}
	if w := strings.Join(res.Warnings, "\n"); !strings.Contains(w, "admin: starts in the state of the last flow it needs (staff)") {
		t.Errorf("the warnings: %s", w)
	}
	alone, err := Export([]Input{{Flow: fl("checkout", "setup/login.yaml"), Dir: "/repo/flows"}}, "/repo/e2e", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(alone.Warnings, "\n"); !strings.Contains(w, "checkout: needs setup/login.yaml: its setup flows are not exported with it") ||
		strings.Contains(alone.Specs[0].Text, "storageState") || strings.Contains(alone.Config, "projects") {
		t.Errorf("a flow exported without its setup flow: %s\n%s", w, alone.Specs[0].Text)
	}
}
