package runner

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"gopkg.in/yaml.v3"
)

// Projects, as Playwright Test's: a run config file (--config FILE, else
// e2e-mcp.yaml in the working directory when there is one) names
// projects, and the run replays the same flows in each (--project NAME
// picks some), each test named "NAME [project]":
//
//	projects:
//	  - name: desktop
//	    use: {viewport: {width: 1280, height: 720}}
//	  - name: mobile
//	    use:
//	      device: iPhone 15
//	      baseURL: https://staging.example.com
//	      storageState: auth/staging.json
//	      headers: {X-Env: staging}
//
// A project's device, viewport and headers are emulated in each session
// before its first step (browser_emulate). Its baseURL replaces the
// flow's, and its dev server: the flow runs against that URL. Its
// storageState (relative to the config's directory) is what a flow starts
// in that names none of its own and needs no setup flow (a flow's own
// wins, as test.use wins over a project's). Setup flows run once per
// project, in that project.

// DefaultConfig is the run config read when --config names none.
const DefaultConfig = "e2e-mcp.yaml"

// runConfig is a run config file.
type runConfig struct {
	Projects []project `yaml:"projects"`
	dir      string
}

// project is one project of a run config.
type project struct {
	Name string     `yaml:"name"`
	Use  projectUse `yaml:"use"`
}

// projectUse is what a project sets, with Playwright's names.
type projectUse struct {
	Device   string `yaml:"device"`
	Viewport *struct {
		Width  int `yaml:"width"`
		Height int `yaml:"height"`
	} `yaml:"viewport"`
	BaseURL      string            `yaml:"baseURL"`
	StorageState string            `yaml:"storageState"`
	Headers      map[string]string `yaml:"headers"`
}

// readConfig reads the run config: path, else DefaultConfig when it
// exists (nil, nil when it does not).
func readConfig(path string) (*runConfig, error) {
	named := path != ""
	if !named {
		path = DefaultConfig
	}
	b, err := os.ReadFile(path) //nolint:gosec // the run config the user names
	if !named && errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--config: %w", err)
	}
	var c runConfig
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if c.dir, err = filepath.Abs(filepath.Dir(path)); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, p := range c.Projects {
		switch {
		case strings.TrimSpace(p.Name) == "":
			return nil, fmt.Errorf("%s: project %d has no name", path, i+1)
		case flow.CheckName(p.Name) != nil || strings.ContainsAny(p.Name, "[],"):
			return nil, fmt.Errorf("%s: project %q: a name is one line, without [ ] or ,", path, p.Name)
		case seen[p.Name]:
			return nil, fmt.Errorf("%s: two projects are named %q", path, p.Name)
		case p.Use.Viewport != nil && (p.Use.Viewport.Width < 1 || p.Use.Viewport.Height < 1):
			return nil, fmt.Errorf("%s: project %s: a viewport has a width and a height of 1 or more", path, p.Name)
		}
		seen[p.Name] = true
	}
	return &c, nil
}

// projects are the config's projects --project picks (all when it names
// none); nil for a run without projects.
func (o Options) projects() ([]*project, error) {
	c, err := readConfig(o.Config)
	if err != nil {
		return nil, err
	}
	if c == nil || len(c.Projects) == 0 {
		if len(o.Projects) > 0 {
			return nil, fmt.Errorf("--project %s: no run config names projects (give --config FILE, or write %s)", strings.Join(o.Projects, ","), DefaultConfig)
		}
		return nil, nil
	}
	var names []string
	var out []*project
	for i := range c.Projects {
		p := &c.Projects[i]
		names = append(names, p.Name)
		if p.Use.StorageState != "" && !filepath.IsAbs(p.Use.StorageState) {
			p.Use.StorageState = filepath.Join(c.dir, p.Use.StorageState)
		}
		if len(o.Projects) == 0 || slices.Contains(o.Projects, p.Name) {
			out = append(out, p)
		}
	}
	for _, n := range o.Projects {
		if !slices.Contains(names, n) {
			return nil, fmt.Errorf("--project %q: the projects are %s", n, strings.Join(names, ", "))
		}
	}
	return out, nil
}

// inProject is the test as it runs in project p: named "NAME [p]".
func (t test) inProject(p *project) test {
	if p == nil {
		return t
	}
	t.project = p
	t.name = fmt.Sprintf("%s [%s]", t.name, p.Name)
	return t
}

// projectFlow is the flow as the project runs it: on the project's
// baseURL (no dev server) when it has one.
func (r *replay) projectFlow() {
	p := r.t.project
	if p == nil || p.Use.BaseURL == "" {
		return
	}
	g := *r.t.flow
	g.Dev, g.BaseURL = nil, p.Use.BaseURL
	r.t.flow = &g
}

// projectSettings emulates the project's device, viewport and headers in
// the session, and starts it in the project's storage state when the
// flow has none of its own. It returns false when one failed (step 0).
func (r *replay) projectSettings(n int, who string) bool {
	p := r.t.project
	if p == nil {
		return true
	}
	u := p.Use
	a := map[string]any{}
	if u.Device != "" {
		a["device"] = u.Device
	}
	if u.Viewport != nil {
		a["width"], a["height"] = u.Viewport.Width, u.Viewport.Height
	}
	if len(u.Headers) > 0 {
		var hs []string
		for k, v := range u.Headers {
			hs = append(hs, k+": "+v)
		}
		sort.Strings(hs)
		a["headers"] = hs
	}
	if len(a) > 0 {
		if ans, err := r.call("browser_emulate", a); err != nil || ans.Err != nil {
			return r.fail(n, "emulate the project "+p.Name+"'s settings"+who, ans, err)
		}
	}
	if st := u.StorageState; st != "" && r.t.flow.StorageState == "" && len(r.t.needs) == 0 {
		if ans, err := r.call("browser_set_storage_state", map[string]any{"filename": st}); err != nil || ans.Err != nil {
			return r.fail(n, "start in the project "+p.Name+"'s storage state"+who, ans, err)
		}
	}
	return true
}
