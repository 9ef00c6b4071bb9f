//go:build !linux

package devserver

import (
	"fmt"
	"os"
	"os/exec"
)

// SupervisorArg names the verb supervisor of Linux; elsewhere verbs run
// directly (no parent-death signal to build it on), and a server killed
// with SIGKILL can leave a verb running.
const SupervisorArg = "__e2e-mcp-verb"

// UseSupervisor does nothing here.
func UseSupervisor(string) {}

func supervised(string, []string) *exec.Cmd { return nil }

// Supervise is not used here.
func Supervise([]string) int {
	fmt.Fprintln(os.Stderr, "the verb supervisor runs on Linux only")
	return 2
}
