package mcptools

import (
	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/devserver"
)

// ErrorType is the type named in an error response: the one vocabulary of
// failures an agent sees (docs/architecture.md §6, docs/tools.md lists it).
// The packages below return kinds of their own; the tables here say what
// each becomes, so that no kind reaches an agent by a cast.
type ErrorType string

// The error types.
const (
	// The call itself.
	ErrInvalidInput     ErrorType = "invalid_input"
	ErrSessionRequired  ErrorType = "session_required"
	ErrInternal         ErrorType = "internal_error"
	ErrCapacityExceeded ErrorType = "capacity_exceeded"
	ErrRateLimited      ErrorType = "rate_limited"
	ErrNotAllowed       ErrorType = "not_allowed"
	// ErrBusy: the session is held by another call for longer than a
	// caller waits.
	ErrBusy ErrorType = "busy"
	// ErrSessionEnded: the server ended the session by itself (idle,
	// evicted), or session_end ended it during this call.
	ErrSessionEnded ErrorType = "session_ended"
	// ErrCancelled: the client cancelled the call (notifications/cancelled).
	// Its answer is never sent (the transports drop it, as the
	// specification says), and it is no failure: not in session_errors,
	// the client's log or the error metrics.
	ErrCancelled ErrorType = "cancelled"

	// The page and the browser.
	ErrRefNotFound       ErrorType = "ref_not_found"
	ErrRefStale          ErrorType = "ref_stale"
	ErrElementNotFound   ErrorType = "element_not_found"
	ErrNotUnique         ErrorType = "not_unique"
	ErrNotActionable     ErrorType = "not_actionable"
	ErrNotFocused        ErrorType = "not_focused"
	ErrTimeout           ErrorType = "timeout"
	ErrNavigationFailed  ErrorType = "navigation_failed"
	ErrScriptError       ErrorType = "script_error"
	ErrDialogOpen        ErrorType = "dialog_open"
	ErrFileChooserOpen   ErrorType = "file_chooser_open"
	ErrExpectFailed      ErrorType = "expect_failed"
	ErrBrowserCrashed    ErrorType = "browser_crashed"
	ErrBrowserNotFound   ErrorType = "browser_not_found"
	ErrBrowserLaunchFail ErrorType = "browser_launch_failed"

	// The dev-server command.
	ErrNonZeroExit      ErrorType = "non_zero_exit"
	ErrInvalidJSON      ErrorType = "invalid_json"
	ErrCommandNotFound  ErrorType = "command_not_found"
	ErrPermissionDenied ErrorType = "permission_denied"
	ErrMissingField     ErrorType = "missing_field"
	ErrNotReady         ErrorType = "not_ready"
	ErrIO               ErrorType = "io_error"
)

// browserTypes is what each of the browser's kinds is to the agent.
var browserTypes = map[browser.Kind]ErrorType{
	browser.KindRefNotFound:       ErrRefNotFound,
	browser.KindRefStale:          ErrRefStale,
	browser.KindElementNotFound:   ErrElementNotFound,
	browser.KindNotUnique:         ErrNotUnique,
	browser.KindNotActionable:     ErrNotActionable,
	browser.KindNotFocused:        ErrNotFocused,
	browser.KindTimeout:           ErrTimeout,
	browser.KindNavigationFailed:  ErrNavigationFailed,
	browser.KindScriptError:       ErrScriptError,
	browser.KindInvalidInput:      ErrInvalidInput,
	browser.KindBrowserCrashed:    ErrBrowserCrashed,
	browser.KindBrowserNotFound:   ErrBrowserNotFound,
	browser.KindBrowserLaunchFail: ErrBrowserLaunchFail,
	browser.KindDialogOpen:        ErrDialogOpen,
	browser.KindFileChooserOpen:   ErrFileChooserOpen,
	browser.KindNotAllowed:        ErrNotAllowed,
	browser.KindExpectFailed:      ErrExpectFailed,
}

// devTypes is what each failure of a dev-server command is to the agent.
var devTypes = map[devserver.Kind]ErrorType{
	devserver.KindTimeout:          ErrTimeout,
	devserver.KindNonZeroExit:      ErrNonZeroExit,
	devserver.KindInvalidJSON:      ErrInvalidJSON,
	devserver.KindCommandNotFound:  ErrCommandNotFound,
	devserver.KindPermissionDenied: ErrPermissionDenied,
	devserver.KindMissingField:     ErrMissingField,
	devserver.KindNotReady:         ErrNotReady,
	devserver.KindIO:               ErrIO,
}

// typeOf is a browser kind's error type; a kind missing from the table
// (a test forbids it) is an internal error.
func typeOf(k browser.Kind) ErrorType {
	if t, ok := browserTypes[k]; ok {
		return t
	}
	return ErrInternal
}
