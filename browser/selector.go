package browser

import (
	"errors"

	"github.com/e2e-mcp/e2e-mcp/browser/selector"
)

// The seam to browser/selector, the selector grammar: the engine parses a
// target here, and a syntax error becomes the agent's invalid_input error.

// selectorHint is what an agent does about a selector that does not parse.
const selectorHint = "fix the selector (forms: css, text=, role=button[name=\"x\"], xpath=, data-testid=, label=, nth=, >>), or use a ref from a snapshot"

// ParseSelector parses a selector as [selector.Parse] does (testIDAttr is
// the attribute testid= matches, data-testid when empty); a syntax error
// is an invalid_input [*Error] that names the position and says what to do.
func ParseSelector(sel, testIDAttr string) (*selector.Selector, error) {
	s, err := selector.Parse(sel, testIDAttr)
	var se *selector.SyntaxError
	if errors.As(err, &se) {
		return nil, &Error{Kind: KindInvalidInput, Message: se.Error(), Hint: selectorHint}
	}
	return s, err
}
