package runner

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadProjects: a run config's projects run every flow once each
// (setup flows too, once per project), named NAME [project], in project
// order; --project picks some; a project's storageState is relative to
// the config's directory; a bad config, or --project without one, or of
// a name it lacks, is an error saying what.
func TestLoadProjects(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"flows/login.yaml": "name: log in\nsteps: [back]\n",
		"flows/shop.yaml":  "name: shop\nneeds: login.yaml\nsteps: [back]\n",
		"cfg/e2e-mcp.yaml": "projects:\n  - name: desktop\n    use: {viewport: {width: 1280, height: 720}}\n" +
			"  - name: mobile\n    use: {device: iPhone 15, storageState: auth/m.json, headers: {X-Env: m}}\n",
		"bad/dup.yaml":     "projects: [{name: a}, {name: a}]\n",
		"bad/unknown.yaml": "projects: [{name: a, use: {zoom: 2}}]\n",
		"bad/name.yaml":    "projects: [{name: 'a[1]'}]\n",
		"bad/view.yaml":    "projects: [{name: a, use: {viewport: {width: 0, height: 5}}}]\n",
	})
	shop := filepath.Join(dir, "flows", "shop.yaml")
	cfg := filepath.Join(dir, "cfg", "e2e-mcp.yaml")
	s, err := Load(Options{Files: []string{shop}, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if got := testNames(s); got != "log in [desktop]*, shop [desktop]<log in, log in [mobile]*, shop [mobile]<log in" {
		t.Errorf("the tests: %s", got)
	}
	if s.tests[0].setup == s.tests[2].setup || s.tests[3].needs[0] != s.tests[2].setup {
		t.Error("a project's flows do not wait for its own setup flow")
	}
	if st := s.tests[3].project.Use.StorageState; st != filepath.Join(dir, "cfg", "auth", "m.json") {
		t.Errorf("mobile's storage state: %s", st)
	}
	for i, tc := range s.tests {
		if tc.session != flowSession(i) {
			t.Errorf("test %d runs in session %s", i, tc.session)
		}
	}
	s, err = Load(Options{Files: []string{shop}, Config: cfg, Projects: []string{"mobile"}})
	if err != nil || testNames(s) != "log in [mobile]*, shop [mobile]<log in" {
		t.Errorf("--project mobile: %v %v", testNames(s), err)
	}
	t.Chdir(dir) // no e2e-mcp.yaml here: no projects
	s, err = Load(Options{Files: []string{shop}})
	if err != nil || testNames(s) != "log in*, shop<log in" {
		t.Errorf("no config: %v %v", testNames(s), err)
	}
	t.Chdir(filepath.Join(dir, "cfg")) // e2e-mcp.yaml here: read
	s, err = Load(Options{Files: []string{shop}})
	if err != nil || len(s.tests) != 4 {
		t.Errorf("the default config: %v %v", testNames(s), err)
	}
	for o, want := range map[*Options]string{
		{Files: []string{shop}, Config: cfg, Projects: []string{"tablet"}}:         `--project "tablet": the projects are desktop, mobile`,
		{Files: []string{shop}, Config: filepath.Join(dir, "bad", "dup.yaml")}:     `two projects are named "a"`,
		{Files: []string{shop}, Config: filepath.Join(dir, "bad", "unknown.yaml")}: "field zoom not found",
		{Files: []string{shop}, Config: filepath.Join(dir, "bad", "name.yaml")}:    `project "a[1]": a name is one line, without [ ] or ,`,
		{Files: []string{shop}, Config: filepath.Join(dir, "bad", "view.yaml")}:    "a viewport has a width and a height of 1 or more",
		{Files: []string{shop}, Config: filepath.Join(dir, "none.yaml")}:           "--config: open",
		{Files: []string{shop}, Config: filepath.Join(dir, "flows", "login.yaml")}: "field name not found",
	} {
		if _, err := Load(*o); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s %v: %v, want %s", o.Config, o.Projects, err, want)
		}
	}
	t.Chdir(dir)
	if _, err := Load(Options{Files: []string{shop}, Projects: []string{"mobile"}}); err == nil || !strings.Contains(err.Error(), "no run config names projects") {
		t.Errorf("--project without a config: %v", err)
	}
}
