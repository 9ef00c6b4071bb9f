package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/cli"
	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/flow/playwright"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// convertMain writes flows as Playwright Test specs with their
// playwright.config.ts in a directory. What has no Playwright equivalent
// is a comment in the spec and a warning on stderr. Exit codes: 0 written,
// 1 a flow could not be converted or written, 2 a bad command line.
func convertMain(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("convert")
	to := fs.String("to", "", "the format to write: playwright")
	out := fs.String("out", "", "the `directory` to write the specs and playwright.config.ts in (created if missing)")
	testID := fs.String("test-id-attribute", os.Getenv("E2E_MCP_TEST_ID_ATTRIBUTE"), "the attribute testid= selectors match (default data-testid)")
	help := func(w io.Writer) {
		fmt.Fprintf(w, "Usage: e2e-mcp convert FLOW.yaml... --to playwright --out DIR\n\n"+
			"Writes each flow as a Playwright Test spec (NAME.spec.ts) and a playwright.config.ts that runs\n"+
			"them all (the flows' dev servers as its webServer). Run them with: npx playwright test -c DIR\n\n")
		printFlags(w, fs)
	}
	files, err := parseFiles(fs, args)
	if err != nil {
		return flagsFailed("convert", err, help, stdout, stderr)
	}
	switch {
	case len(files) == 0:
		return usageError(stderr, "convert", "give the flow files to convert")
	case *to == "":
		return usageError(stderr, "convert", "--to is needed: --to playwright")
	case *out == "":
		return usageError(stderr, "convert", "--out is needed: the directory to write in")
	}
	if *to != "playwright" {
		fmt.Fprintf(stderr, "e2e-mcp convert: --to %q: the one format is playwright\n", *to)
		return cli.ExitUsage
	}
	var in []playwright.Input
	for _, f := range files {
		fl, err := flow.Load(f)
		if err != nil {
			fmt.Fprintf(stderr, "e2e-mcp convert: %v\n", err)
			return cli.ExitFailed
		}
		in = append(in, playwright.Input{Flow: fl, Dir: filepath.Dir(f)})
	}
	res, err := playwright.Export(in, *out, playwright.Options{TestIDAttribute: *testID})
	if err != nil {
		fmt.Fprintf(stderr, "e2e-mcp convert: %v\n", err)
		return cli.ExitFailed
	}
	write := func(name, text string) bool {
		p := filepath.Join(*out, name)
		if err := mcptools.WriteUserFile(*out, name, []byte(text)); err != nil {
			fmt.Fprintf(stderr, "e2e-mcp convert: %v\n", err)
			return false
		}
		fmt.Fprintf(stdout, "wrote %s\n", p)
		return true
	}
	for _, s := range res.Specs {
		if !write(s.File, s.Text) {
			return cli.ExitFailed
		}
	}
	if !write("playwright.config.ts", res.Config) {
		return cli.ExitFailed
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	for _, s := range res.Specs {
		if len(s.Env) > 0 {
			fmt.Fprintf(stderr, "note: %s reads %v from the environment\n", s.File, s.Env)
		}
	}
	return cli.ExitOK
}
