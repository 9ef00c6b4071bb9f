package browser

import (
	"errors"
	"fmt"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
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
	// KindFileChooserOpen: a file chooser the page opened waits for files;
	// other page tools wait until it is answered or cancelled.
	KindFileChooserOpen Kind = "file_chooser_open"
	// KindNotFocused: keys typed into an element did not reach it (focus
	// was elsewhere and the element did not change).
	KindNotFocused Kind = "not_focused"
	// KindNotAllowed is a URL the request policy refuses (netguard.go).
	KindNotAllowed Kind = "not_allowed"
	// KindExpectFailed is a browser_expect check that did not hold: a test
	// failure of the page, reported with what the page showed.
	KindExpectFailed Kind = "expect_failed"

	// kindEnterFrame is the engine's signal, never an agent's error, that
	// a selector reached an iframe with parts left to run inside it.
	kindEnterFrame Kind = "enter_frame"
)

// Step is a next step that the tool layer words for the agent, naming its
// tools: this package knows nothing of MCP, so a hint that needs a tool's
// name is a Step (mcptools/next.go has the words).
type Step string

// The next steps an [*Error] can name.
const (
	StepSnapshot      Step = "snapshot"        // take a snapshot and use a ref from it
	StepAnswerDialog  Step = "answer-dialog"   // answer the open dialog
	StepLeaveHungPage Step = "leave-hung-page" // navigate, reload or close the tab
	StepClickOrKeys   Step = "click-or-keys"   // click it or press keys on it
	StepPressKeys     Step = "press-keys"      // press keys on it
	StepOpenChooser   Step = "open-chooser"    // click what opens the file chooser, or name the input
	StepAnswerChooser Step = "answer-chooser"  // give the open file chooser files, or cancel it
	StepNavigate      Step = "navigate"        // navigate to a URL
	StepListTabs      Step = "list-tabs"       // list the tabs and use an index
	StepCrashedTab    Step = "crashed-tab"     // call again in the current tab, navigate back
	StepTabClosed     Step = "tab-closed"      // select another tab or navigate
)

// Error is a failure the agent can act on: what went wrong, and what to do.
type Error struct {
	Kind    Kind
	Message string
	// Step is the next step that needs a tool's name; Hint adds what to do
	// in plain words ("check the selector"). Either may be empty.
	Step Step
	Hint string
	// Reason tells apart refusals of one Kind that a caller handles
	// differently (ReasonNotSelect); empty for most errors.
	Reason Reason
	// Err is the underlying cause, if any.
	Err error
	// framePart: for kindEnterFrame, the selector part to go on with
	// inside the iframe the engine stopped at.
	framePart int
}

// Reason is why the engine refused an element (its check's code).
type Reason string

// The reasons callers tell apart.
const (
	// ReasonNotSelect: the element is not a <select> (an editable
	// combobox, for example, which takes typed text instead).
	ReasonNotSelect Reason = "not_select"
	// reasonManyMatches: a selector's last part matched several elements
	// (targetError lists them).
	reasonManyMatches Reason = "many_matches"
)

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

func stepError(kind Kind, step Step, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...), Step: step}
}

// AsError returns err as an [*Error] if it is one, or if it is a refusal
// of a package below browser (a [*refusal.Error] in its chain: a device,
// key, cookie, route or selector refused, a browser not found), read as
// the *Error of the same kind, message, hint and cause; an *Error in the
// chain comes first.
//
// This is the one place refusals become this package's errors. Everything
// that classifies an error goes through AsError: the engine's own checks,
// mcptools's answers (classify), the runner. So a seam returns what the
// package below returned, as it is, and has nothing to convert or forget;
// a refusal reads the same either way (its Error() is the *Error's).
// TestOneRefusal enforces it: no package below browser declares an error
// type of its own with a message and a hint, no file of browser but this
// one names the refusal package, and no code outside this file looks for
// an *Error but through AsError.
func AsError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	if r, ok := refusal.As(err); ok {
		return &Error{Kind: Kind(r.KindOf()), Message: r.Message, Hint: r.Hint, Err: r.Err}, true
	}
	return nil, false
}
