// Package refusal is the one error type of the packages below browser
// (browser/devices, keyboard, storage, measure, netguard, launcher,
// selector...): a value refused or a browser not got, which the agent can
// act on. Those packages cannot build browser's *Error (they would import
// browser back), so each returns an [*Error] of this package, and browser
// reads it as its own error of the same kind, message and hint in one
// place (browser.AsError), so that no seam has to convert it. It imports
// only the standard library, and every browser package may import it.
package refusal

import (
	"errors"
	"fmt"
)

// Kind is what went wrong, as browser names its error kinds (the same
// strings); an empty Kind is [InvalidInput].
type Kind string

// The kinds the packages below browser refuse with.
const (
	// InvalidInput: a value given (a key, a device, a route...) that the
	// package does not take; the hint says what to give instead.
	InvalidInput Kind = "invalid_input"
	// NavigationFailed: a request that got no answer.
	NavigationFailed Kind = "navigation_failed"
	// BrowserNotFound: no Chrome or Chromium to launch.
	BrowserNotFound Kind = "browser_not_found"
	// BrowserLaunchFail: a browser that could not be launched or reached.
	BrowserLaunchFail Kind = "browser_launch_failed"
)

// Error is a refusal: what went wrong (Message), what to do (Hint, plain
// words; it may be empty) and the cause (Err), if any. Error() reads as
// browser's error of the same kind.
type Error struct {
	Kind    Kind
	Message string
	Hint    string
	Err     error
}

// KindOf is e's kind, [InvalidInput] when it has none.
func (e *Error) KindOf() Kind {
	if e.Kind == "" {
		return InvalidInput
	}
	return e.Kind
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.KindOf(), e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.KindOf(), e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Invalid is an [InvalidInput] refusal: the message as format says, and
// the hint.
func Invalid(hint, format string, args ...any) *Error {
	return &Error{Kind: InvalidInput, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// New is a refusal of kind: the message as format says, and the hint.
func New(kind Kind, hint, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// As returns the refusal in err's chain, if there is one.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
