package mcptools

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/flow/playwright"
	"github.com/mark3labs/mcp-go/mcp"
)

// exportPlaywright writes the session's flow as a Playwright Test spec
// (session_export_flow with format playwright), and a playwright.config.ts
// beside it (whose webServer is the session's dev server, when it has
// one), unless that directory has one already: a team's config is never
// written over. The files its steps read are copied beside it when they
// lie elsewhere (placeFiles). whole: f is the session's whole flow, whose
// answer says what it left out (not a person's demonstration).
func exportPlaywright(ctx context.Context, d *Deps, s *Session, f *flow.Flow, path string, whole bool) (*mcp.CallToolResult, error) {
	o := playwright.Options{}
	if s.dev != nil {
		o.DevURL = s.dev.result.URL
	}
	if d.Browser != nil {
		o.TestIDAttribute = d.Browser.TestIDAttribute()
	}
	wd, _ := os.Getwd()
	var out *outputFile
	outDir := ""
	if path != "" {
		var err error
		if out, err = d.outputPath(ctx, "path", path, "flow-*.spec.ts"); err != nil {
			return nil, err
		}
		outDir = filepath.Dir(out.path)
	}
	stem := ""
	if out != nil {
		stem = stemOf(out.path)
		// The files are placed relative to the spec's directory.
		o.FilesDir = "."
	}
	placed := d.placeFiles(ctx, f.Steps, out, stem)
	res, err := playwright.Export([]playwright.Input{{Flow: f, Dir: wd}}, outDir, o)
	if err != nil {
		if out != nil {
			out.discard()
		}
		return nil, invalidInput("format", "%v", err)
	}
	spec := res.Specs[0]
	var r response
	if out == nil {
		r.resultf("Playwright spec of flow %s (%d steps):\n```ts\n%s```\nplaywright.config.ts:\n```ts\n%s```", f.Name, len(f.Steps), spec.Text, res.Config)
	} else {
		if err := out.write([]byte(spec.Text)); err != nil {
			return nil, err
		}
		r.resultf("Wrote the Playwright spec of flow %s (%d steps) to %s.", f.Name, len(f.Steps), out.path)
		r.set("path", out.path)
		cfg := filepath.Join(outDir, "playwright.config.ts")
		withServer := ""
		if res.WebServers > 0 {
			withServer = " (the dev server as its webServer)"
		}
		if _, err := os.Lstat(cfg); err == nil {
			r.resultf("Kept the playwright.config.ts there; `e2e-mcp convert` writes one%s.", withServer)
		} else if co, err := d.outputPath(ctx, "path", cfg, ""); err == nil {
			co.fresh = true
			if err := co.write([]byte(res.Config)); err != nil {
				return nil, err
			}
			r.resultf("Wrote %s%s. Run: npx playwright test -c %s", cfg, withServer, outDir)
			r.set("config", cfg)
		}
	}
	if len(spec.Env) > 0 {
		r.resultf("It reads %s from the environment.", strings.Join(spec.Env, ", "))
	}
	warnings := []string{}
	for _, w := range res.Warnings {
		if strings.HasSuffix(w, flow.NoChecks) && whole {
			continue // said by sayExport, with what to do
		}
		warnings = append(warnings, w)
		r.resultf("Warning: %s", w)
	}
	placed.say(&r, "spec")
	if whole {
		s.sayExport(&r, f)
	}
	r.set("steps", len(f.Steps))
	r.set("warnings", warnings)
	return r.build(), nil
}
