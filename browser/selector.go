package browser

import (
	"errors"
	"regexp"

	"github.com/e2e-mcp/e2e-mcp/browser/selector"
)

// The seam to browser/selector, the patterns an agent writes: the engine
// parses a target here, and a syntax error becomes the agent's
// invalid_input error; so does a regex argument selector.RegexArg refuses.

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

// RegexArg reads a tool's regular expression argument as
// [selector.RegexArg] does; a refusal is an invalid_input [*Error] with
// its message and hint.
func RegexArg(s string) (*regexp.Regexp, error) {
	re, err := selector.RegexArg(s)
	var bad *selector.RegexError
	if errors.As(err, &bad) {
		return nil, newError(KindInvalidInput, bad.Hint, "%s", bad.Message)
	}
	return re, err
}
