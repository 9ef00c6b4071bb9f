package playwright

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

// DefaultPort is the dev server's port in the config when PORT is not set.
const DefaultPort = 3100

// Input is a flow to export and the directory of its file (relative dev
// cwd and storage state paths start there).
type Input struct {
	Flow *flow.Flow
	Dir  string
	// Needs are the inputs (indices, each earlier in the list) of the
	// setup flows Flow.Needs names: the setup flow becomes a setup
	// project that saves its state, and this flow's project depends on it
	// and starts in that state.
	Needs []int
}

// Result is what Export writes in a directory: a spec per flow and the
// config that runs them.
type Result struct {
	Specs    []*Spec
	Config   string
	Warnings []string
	// WebServers is how many dev servers the config starts (webServer).
	WebServers int
}

// group is the flows that share a dev server (or a baseURL).
type group struct {
	dev     *flow.Dev
	dir     string
	baseURL string
	specs   []string
	// setups are its setup flows' specs, each a project of its own.
	setups []setupSpec
	// needs are the setup projects its specs depend on.
	needs []string
}

// setupSpec is a setup flow's spec and the setup projects it depends on.
type setupSpec struct {
	file  string
	needs []string
}

// A setup flow (one another input needs) is written as NAME.setup.ts,
// which ends by saving the page's storage state to .auth/NAME.json, and a
// setup project of its own ("setup NAME") that matches it; the project of
// a flow that needs it lists it in its dependencies, and the flow's spec
// starts in that file (test.use storageState), as Playwright's
// authentication guide sets up signed-in tests. A flow that needs several
// starts in the last one's state (a setup flow that needs another saves
// both: it started in the other's).

// setupProject is the project name of a setup flow's spec.
func setupProject(file string) string { return "setup " + strings.TrimSuffix(file, ".setup.ts") }

// stateFile is where a setup flow's spec saves its state, relative to the
// specs' directory.
func stateFile(file string) string { return ".auth/" + strings.TrimSuffix(file, ".setup.ts") + ".json" }

// Export converts flows into specs and a playwright.config.ts for outDir.
// Each dev server becomes a webServer on PORT (DefaultPort), +1 for each
// further one, with the baseURL of the project that runs its flows.
func Export(in []Input, outDir string, o Options) (*Result, error) {
	res := &Result{}
	var groups []*group
	names := map[string]bool{}
	setup := map[int]bool{}
	for _, x := range in {
		for _, j := range x.Needs {
			setup[j] = true
		}
	}
	files := make([]string, len(in)) // each input's spec file
	for i, x := range in {
		so := o
		ext := ".spec.ts"
		if setup[i] {
			ext = ".setup.ts"
		}
		file := strings.TrimSuffix(FileName(x.Flow.Name), ".spec.ts") + ext
		for base, k := strings.TrimSuffix(file, ext), 2; names[file]; k++ {
			file = fmt.Sprintf("%s-%d%s", base, k, ext)
		}
		names[file] = true
		files[i] = file
		if setup[i] {
			so.SaveState = stateFile(file)
		}
		var needs []string
		for _, j := range x.Needs {
			if j >= 0 && j < i {
				needs = append(needs, setupProject(files[j]))
				so.StartState = stateFile(files[j])
			}
		}
		if len(needs) > 1 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: starts in the state of the last flow it needs (%s): a Playwright test starts in one storageState file",
				x.Flow.Name, strings.TrimPrefix(needs[len(needs)-1], "setup ")))
		}
		if st := x.Flow.StorageState; st != "" && o.StorageState == "" {
			so.StorageState = relTo(outDir, x.Dir, st)
		}
		if o.FilesDir == "" {
			so.FilesDir = relTo(outDir, x.Dir, ".")
		}
		spec, err := Convert(x.Flow, so)
		if err != nil {
			return nil, fmt.Errorf("flow %s: %w", x.Flow.Name, err)
		}
		spec.File = file
		for _, wn := range spec.Warnings {
			res.Warnings = append(res.Warnings, x.Flow.Name+": "+wn)
		}
		res.Specs = append(res.Specs, spec)
		var g *group
		for _, c := range groups {
			if sameDev(c.dev, x.Flow.Dev) && (x.Flow.Dev != nil && c.dir == x.Dir || x.Flow.Dev == nil && c.baseURL == x.Flow.BaseURL) {
				g = c
			}
		}
		if g == nil {
			g = &group{dev: x.Flow.Dev, dir: x.Dir, baseURL: x.Flow.BaseURL}
			groups = append(groups, g)
		}
		if setup[i] {
			g.setups = append(g.setups, setupSpec{file: file, needs: needs})
		} else {
			g.specs = append(g.specs, file)
			for _, n := range needs {
				if !slices.Contains(g.needs, n) {
					g.needs = append(g.needs, n)
				}
			}
		}
	}
	var servers, projects, bases []string
	port := 0
	for _, g := range groups {
		base := ""
		switch {
		case g.dev != nil && g.dev.Run == "":
			base = "process.env.BASE_URL"
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: not exported: the dev server's contract command %s (start it yourself and set BASE_URL)",
				strings.Join(g.specs, ", "), strings.Join(g.dev.Command, " ")))
		case g.dev != nil:
			p := "port"
			if port > 0 {
				p = fmt.Sprintf("(port + %d)", port)
			}
			port++
			base = "`http://localhost:${" + p + "}`"
			ready := g.dev.ReadyPath
			if ready == "" {
				ready = "/"
			}
			cwd := "."
			if g.dev.Cwd != "" || g.dir != "" {
				cwd = relTo(outDir, g.dir, g.dev.Cwd)
			}
			servers = append(servers, fmt.Sprintf("{\n      command: %s,\n      cwd: %s,\n      url: `http://localhost:${%s}` + %s,\n"+
				"      env: { PORT: String(%s) },\n      reuseExistingServer: !process.env.CI,\n    }",
				Quote(g.dev.Run), Quote(cwd), p, Quote(ready), p))
		case g.baseURL != "":
			base = Quote(g.baseURL)
		}
		// Every group is a project, with a baseURL or none (its flows
		// navigate to absolute URLs): with projects, Playwright runs only
		// the specs a project matches.
		bases = append(bases, base)
		use := ""
		if base != "" {
			use = ", use: { baseURL: " + base + " }"
		}
		for _, su := range g.setups {
			projects = append(projects, fmt.Sprintf("{ name: %s, testMatch: %s%s%s }",
				Quote(setupProject(su.file)), Quote(su.file), use, dependencies(su.needs)))
		}
		if len(g.specs) > 0 {
			projects = append(projects, fmt.Sprintf("{ name: %s, testMatch: %s%s%s }",
				Quote(strings.TrimSuffix(g.specs[0], ".spec.ts")), quoteAll(g.specs), use, dependencies(g.needs)))
		}
	}
	res.WebServers = len(servers)
	var b strings.Builder
	b.WriteString("// Playwright Test's configuration of the flows e2e-mcp exported: ")
	if len(servers) > 0 {
		b.WriteString("each dev server as a\n// webServer (PORT, else " + fmt.Sprint(DefaultPort) + "), ")
	}
	b.WriteString("headless Chromium (the one at CHROMIUM, else Playwright's).\n")
	if len(setup) > 0 {
		b.WriteString("// Setup flows are setup projects: each saves its storage state in .auth/ (it holds\n" +
			"// credentials: keep .auth/ out of version control) for the projects that depend on it.\n")
	}
	b.WriteString("" +
		"import { defineConfig } from '@playwright/test';\n\n")
	if port > 0 {
		fmt.Fprintf(&b, "const port = Number(process.env.PORT) || %d;\n\n", DefaultPort)
	}
	b.WriteString("export default defineConfig({\n  testDir: '.',\n  testMatch: '*.spec.ts',\n  expect: { timeout: 5_000 },\n  use: {\n")
	if len(groups) == 1 {
		// One server (or none): its baseURL is the config's.
		if bases[0] != "" {
			fmt.Fprintf(&b, "    baseURL: %s,\n", bases[0])
		}
		if len(setup) == 0 {
			projects = nil
		}
	}
	b.WriteString("    headless: true,\n    actionTimeout: 5_000,\n    navigationTimeout: 30_000,\n" +
		"    launchOptions: { executablePath: process.env.CHROMIUM || undefined },\n")
	if o.TestIDAttribute != "" && o.TestIDAttribute != "data-testid" {
		fmt.Fprintf(&b, "    testIdAttribute: %s,\n", Quote(o.TestIDAttribute))
	}
	b.WriteString("  },\n")
	if len(projects) > 0 {
		b.WriteString("  projects: [\n    " + strings.Join(projects, ",\n    ") + ",\n  ],\n")
	}
	switch len(servers) {
	case 0:
	case 1:
		b.WriteString("  webServer: " + strings.ReplaceAll(servers[0], "\n  ", "\n") + ",\n")
	default:
		b.WriteString("  webServer: [\n    " + strings.Join(servers, ",\n    ") + ",\n  ],\n")
	}
	b.WriteString("});\n")
	res.Config = b.String()
	return res, nil
}

func sameDev(a, b *flow.Dev) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Run == b.Run && a.Cwd == b.Cwd && a.ReadyPath == b.ReadyPath && strings.Join(a.Command, "\x00") == strings.Join(b.Command, "\x00")
}

// relTo is path p (relative to dir) as seen from outDir; an absolute p
// stays as it is.
func relTo(outDir, dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.ToSlash(p) // as the flow has it
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if outDir != "" {
		if od, err := filepath.Abs(outDir); err == nil {
			if r, err := filepath.Rel(od, p); err == nil {
				return filepath.ToSlash(r)
			}
		}
	}
	return filepath.ToSlash(p)
}

// dependencies is a project's dependencies option ("" for none).
func dependencies(projects []string) string {
	if len(projects) == 0 {
		return ""
	}
	return ", dependencies: " + quoteAll(projects)
}
