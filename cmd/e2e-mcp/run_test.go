package main

import (
	"testing"

	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/cli"
	"github.com/e2e-mcp/e2e-mcp/runner"
)

// TestRunExitCodes: run and convert return the runner's exit codes as
// they are, so they must be the CLI's.
func TestRunExitCodes(t *testing.T) {
	for _, c := range [][2]int{{runner.ExitOK, cli.ExitOK}, {runner.ExitFailed, cli.ExitFailed}, {runner.ExitUsage, cli.ExitUsage}} {
		if c[0] != c[1] {
			t.Errorf("the runner's exit code %d is the CLI's %d", c[0], c[1])
		}
	}
}
