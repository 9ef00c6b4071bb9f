package devserver

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Verb is one of the contract's verbs; the command gets it as --<verb>.
type Verb string

// The contract's verbs (docs/dev-server.md).
const (
	Start    Verb = "start"
	Restart  Verb = "restart"
	Status   Verb = "status"
	Shutdown Verb = "shutdown"
)

// Timeouts bound each verb. The zero value of a field means its default.
type Timeouts struct {
	Start, Restart, Status, Shutdown time.Duration
}

// DefaultTimeouts are the contract's: 30, 40, 5 and 15 seconds.
var DefaultTimeouts = Timeouts{Start: 30 * time.Second, Restart: 40 * time.Second, Status: 5 * time.Second, Shutdown: 15 * time.Second}

// For returns the timeout of a verb, the default where unset.
func (t Timeouts) For(v Verb) time.Duration {
	pick := func(d, def time.Duration) time.Duration {
		if d > 0 {
			return d
		}
		return def
	}
	switch v {
	case Restart:
		return pick(t.Restart, DefaultTimeouts.Restart)
	case Status:
		return pick(t.Status, DefaultTimeouts.Status)
	case Shutdown:
		return pick(t.Shutdown, DefaultTimeouts.Shutdown)
	}
	return pick(t.Start, DefaultTimeouts.Start)
}

// Logs are the absolute paths of a dev server's log files, as reported.
type Logs struct {
	Stdout   string `json:"stdout,omitempty"`
	Stderr   string `json:"stderr,omitempty"`
	Combined string `json:"combined,omitempty"`
}

// Result is a verb's answer: the one JSON object the command printed. Fields
// a verb does not use are zero; unknown fields are kept in Raw.
type Result struct {
	Status       string          `json:"status"`
	URL          string          `json:"url,omitempty"`
	Port         int             `json:"port,omitempty"`
	PID          int             `json:"pid,omitempty"`
	StartedAt    string          `json:"startedAt,omitempty"`
	Uptime       float64         `json:"uptime,omitempty"`
	Healthy      *bool           `json:"healthy,omitempty"`
	Logs         Logs            `json:"logs,omitzero"`
	Message      string          `json:"message,omitempty"`
	Error        string          `json:"error,omitempty"`
	PreviousPID  int             `json:"previousPid,omitempty"`
	PreviousPort int             `json:"previousPort,omitempty"`
	StoppedAt    string          `json:"stoppedAt,omitempty"`
	Raw          json.RawMessage `json:"-"`
}

// Server is a dev server driven through the contract's verbs: the user's
// command ([Command]) or the built-in managed runner.
type Server interface {
	Do(ctx context.Context, verb Verb) (*Result, error)
}

// Kind classifies an [*Error].
type Kind string

// The typed failures of a contract command.
const (
	KindTimeout          Kind = "timeout"
	KindNonZeroExit      Kind = "non_zero_exit"
	KindInvalidJSON      Kind = "invalid_json"
	KindCommandNotFound  Kind = "command_not_found"
	KindPermissionDenied Kind = "permission_denied"
	KindMissingField     Kind = "missing_field"
	KindNotReady         Kind = "not_ready" // managed mode: the server never became ready
	// KindIO is the managed runner's own failure: its state directory, lock
	// or log files.
	KindIO Kind = "io_error"
)

// Error is a failed verb, with what the agent needs to see why.
type Error struct {
	Kind    Kind
	Verb    Verb
	Message string
	// ExitCode is the command's exit status (non_zero_exit).
	ExitCode int
	// Stderr is the tail of what the command wrote to stderr.
	Stderr string
	// Stdout is the command's raw output (invalid_json), bounded.
	Stdout string
	// Field names the missing or invalid field (missing_field, invalid_json).
	Field string
	// Reported is the command's own error and message from its JSON, if any.
	Reported string
	// Logs are log files the command reported before it failed, if any.
	Logs Logs
}

func (e *Error) Error() string {
	s := fmt.Sprintf("--%s: %s: %s", e.Verb, e.Kind, e.Message)
	if e.Reported != "" {
		s += " (" + e.Reported + ")"
	}
	return s
}
