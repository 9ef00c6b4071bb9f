package launcher

import (
	"errors"
	"fmt"
)

// Kind classifies an [*Error]; its values are those of package browser's
// kinds of the same names, which browser gives the agent.
type Kind string

// The kinds of failure to get a browser.
const (
	KindBrowserNotFound   Kind = "browser_not_found"
	KindBrowserLaunchFail Kind = "browser_launch_failed"
)

// Error is a failure to get a browser that the user can act on: what went
// wrong, and what to do.
type Error struct {
	Kind    Kind
	Message string
	// Hint says what to do in plain words; it may be empty.
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

// AsError returns err as an [*Error] if it is one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
