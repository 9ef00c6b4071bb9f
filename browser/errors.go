package browser

import (
	"errors"
	"fmt"
)

// Kind classifies an [*Error]. The values are the error types of the tool
// responses (docs/architecture.md §6), so callers can pass them through.
type Kind string

// The kinds of failure an agent can act on.
const (
	KindRefNotFound       Kind = "ref_not_found"
	KindRefStale          Kind = "ref_stale"
	KindElementNotFound   Kind = "element_not_found"
	KindNotUnique         Kind = "not_unique"
	KindNotActionable     Kind = "not_actionable"
	KindTimeout           Kind = "timeout"
	KindNavigationFailed  Kind = "navigation_failed"
	KindScriptError       Kind = "script_error"
	KindInvalidInput      Kind = "invalid_input"
	KindBrowserCrashed    Kind = "browser_crashed"
	KindBrowserNotFound   Kind = "browser_not_found"
	KindBrowserLaunchFail Kind = "browser_launch_failed"
	KindDialogOpen        Kind = "dialog_open"
	// KindNotAllowed is a URL the request policy refuses (policy.go).
	KindNotAllowed Kind = "not_allowed"
	// KindExpectFailed is a browser_expect check that did not hold: a test
	// failure of the page, reported with what the page showed.
	KindExpectFailed Kind = "expect_failed"
)

// Error is a failure the agent can act on: what went wrong, and what to do.
type Error struct {
	Kind    Kind
	Message string
	// Hint says what to do next, for example "take a new snapshot".
	Hint string
	// Err is the underlying cause, if any.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Kind, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Kind, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrClosed is returned by a [Page] or [Manager] used after Close.
var ErrClosed = errors.New("browser: closed")

func newError(kind Kind, hint, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// AsError returns err as an [*Error] if it is one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
