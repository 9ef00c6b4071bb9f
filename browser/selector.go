package browser

import (
	"regexp"

	"github.com/e2e-mcp/e2e-mcp/browser/selector"
)

// The seam to browser/selector, the patterns an agent writes: the engine
// parses a target here, and a syntax error or a regex argument the package
// refuses (a refusal of the package) is the agent's invalid_input error,
// as AsError reads it.

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

// RegexArg reads a tool's regular expression argument as
// [selector.RegexArg] does; a refusal is an invalid_input [*Error] with
// its message and hint.
func RegexArg(s string) (*regexp.Regexp, error) {
	re, err := selector.RegexArg(s)
	if e, ok := AsError(err); ok {
		return nil, e
	}
	return re, err
}
