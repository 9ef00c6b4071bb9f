package main

import (
	"fmt"
	"io"
	"os"

	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/config"
	"github.com/e2e-mcp/e2e-mcp/runner"
)

// convertMain parses convert's command line and has the runner write the
// flows as Playwright Test specs (runner.Convert). Exit codes: 0 written,
// 1 a flow could not be converted or written, 2 a bad command line.
func convertMain(args []string, stdout, stderr io.Writer) int {
	fs := config.NewFlagSet("convert")
	var o runner.ConvertOptions
	fs.StringVar(&o.To, "to", "", "the format to write: playwright")
	fs.StringVar(&o.Out, "out", "", "the `directory` to write the specs and playwright.config.ts in (created if missing)")
	fs.StringVar(&o.TestIDAttribute, "test-id-attribute", os.Getenv("E2E_MCP_TEST_ID_ATTRIBUTE"), "the attribute testid= selectors match (default data-testid)")
	help := func(w io.Writer) {
		fmt.Fprintf(w, "Usage: e2e-mcp convert FLOW.yaml|DIR... --to playwright --out DIR\n\n"+
			"Writes each flow (a directory: every flow in it, as run finds them) as a Playwright Test spec\n"+
			"(NAME.spec.ts) and a playwright.config.ts that runs them all (the flows' dev servers as its\n"+
			"webServer). Run them with: npx playwright test -c DIR\n\n")
		config.PrintFlags(w, fs)
	}
	files, err := parseFiles(fs, args)
	if err != nil {
		return flagsFailed("convert", err, help, stdout, stderr)
	}
	o.Files = files
	switch {
	case len(files) == 0:
		return usageError(stderr, "convert", "give the flow files or directories to convert")
	case o.To == "":
		return usageError(stderr, "convert", "--to is needed: --to playwright")
	case o.Out == "":
		return usageError(stderr, "convert", "--out is needed: the directory to write in")
	}
	return runner.Convert(o, stdout, stderr)
}
