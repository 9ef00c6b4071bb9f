package runner

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/flow/playwright"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// ConvertOptions are convert's settings: cmd/e2e-mcp builds them from its
// flags, and has checked that Files, To and Out are given.
type ConvertOptions struct {
	// Files are the flow files to convert; a directory stands for the
	// flows in it (and its subdirectories), as for run.
	Files []string
	// To is the format to write: playwright, the one there is.
	To string
	// Out is the directory the specs and playwright.config.ts go in.
	Out string
	// TestIDAttribute is the attribute testid= selectors match ("" for
	// data-testid).
	TestIDAttribute string
}

// Convert writes flows as Playwright Test specs with their
// playwright.config.ts in a directory, with the setup flows they need as
// setup projects. What has no Playwright equivalent
// is a comment in the spec and a warning on stderr. It returns the exit
// code: ExitOK written, ExitFailed a flow could not be converted or
// written, ExitUsage an unknown format.
func Convert(o ConvertOptions, stdout, stderr io.Writer) int {
	if o.To != "playwright" {
		fmt.Fprintf(stderr, "e2e-mcp convert: --to %q: the one format is playwright\n", o.To)
		return ExitUsage
	}
	// Directories name every flow in them, as for run (select.go).
	files, notes, err := flowFiles(o.Files)
	if err != nil {
		fmt.Fprintf(stderr, "e2e-mcp convert: %v\n", err)
		return ExitUsage
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "note: %s\n", n)
	}
	o.Files = files
	var flows []*flow.Flow
	var keep []int
	for i, f := range o.Files {
		fl, err := flow.Load(f)
		if err != nil {
			fmt.Fprintf(stderr, "e2e-mcp convert: %v\n", err)
			return ExitFailed
		}
		flows, keep = append(flows, fl), append(keep, i)
	}
	// With the setup flows they need, each a setup project (setup.go).
	p, err := plan(o.Files, flows, keep)
	if err != nil {
		fmt.Fprintf(stderr, "e2e-mcp convert: %v\n", err)
		return ExitFailed
	}
	var in []playwright.Input
	for _, x := range p {
		in = append(in, playwright.Input{Flow: x.flow, Dir: filepath.Dir(x.file), Needs: x.needs})
	}
	res, err := playwright.Export(in, o.Out, playwright.Options{TestIDAttribute: o.TestIDAttribute})
	if err != nil {
		fmt.Fprintf(stderr, "e2e-mcp convert: %v\n", err)
		return ExitFailed
	}
	write := func(name, text string) bool {
		p := filepath.Join(o.Out, name)
		if err := mcptools.WriteUserFile(o.Out, name, []byte(text)); err != nil {
			fmt.Fprintf(stderr, "e2e-mcp convert: %v\n", err)
			return false
		}
		fmt.Fprintf(stdout, "wrote %s\n", p)
		return true
	}
	for _, s := range res.Specs {
		if !write(s.File, s.Text) {
			return ExitFailed
		}
	}
	if !write("playwright.config.ts", res.Config) {
		return ExitFailed
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	for _, s := range res.Specs {
		if len(s.Env) > 0 {
			fmt.Fprintf(stderr, "note: %s reads %v from the environment\n", s.File, s.Env)
		}
	}
	return ExitOK
}
