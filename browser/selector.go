package browser

import "github.com/e2e-mcp/e2e-mcp/browser/selector"

// The seam to browser/selector, the selector grammar: the engine parses a
// target here, and a syntax error (a refusal of the package) is the
// agent's invalid_input error, as AsError reads it.

// ParseSelector parses a selector as [selector.Parse] does (testIDAttr is
// the attribute testid= matches, data-testid when empty); a syntax error
// is an invalid_input [*Error] that names the position and says what to do.
func ParseSelector(sel, testIDAttr string) (*selector.Selector, error) {
	s, err := selector.Parse(sel, testIDAttr)
	if e, ok := AsError(err); ok {
		return nil, e
	}
	return s, err
}
