package playwright

import (
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

// StepCode is the Playwright Test code of one step, as Convert writes it
// in a spec but without its comment and indentation: what a server run
// with --codegen typescript shows after an action (Playwright MCP's "Ran
// Playwright code"). A step with no Playwright equivalent is a comment
// saying so; a text that reads the environment is process.env['NAME'].
func StepCode(st flow.Step, o Options) (string, error) {
	w := &writer{o: o, use: map[string]string{}, vars: map[string]bool{}, routed: map[string]string{}, step: 1, started: true}
	args, err := decode(st.Args)
	if err != nil {
		return "", err
	}
	if err := w.stepCode(flow.Step{Action: st.Action, Args: args}, ""); err != nil {
		return "", err
	}
	lines := make([]string, len(w.body))
	for i, l := range w.body {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	return strings.Join(lines, "\n"), nil
}
