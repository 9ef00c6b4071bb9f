package devices

import (
	_ "embed" // clock.js
	"encoding/json"
	"fmt"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
)

// The fake clock: Playwright's clock for the pages of a session. Installed,
// it replaces Date, performance.now and the timer functions of each
// document's own world (clock.js) with ones the agent drives: jump ahead,
// run for a while, pause at a time, fix Date. The server keeps the clock's
// state (its time at a real instant, paused or not) and browser hands it
// to every new document of the session through a script that runs before
// the page's own (ClockScript), so the time goes on across navigations and
// tabs.

// clockJS is the clock's source: a function of its starting state.
//
//go:embed clock.js
var clockJS string

// ClockState is where a session's fake clock is.
type ClockState struct {
	// Now is the clock's time in ms since the epoch at the real instant
	// RealAt (ms since the epoch).
	Now    float64  `json:"now"`
	RealAt float64  `json:"realAt"`
	Paused bool     `json:"paused"`
	Fixed  *float64 `json:"fixed"`
}

// Time is the clock's time.
func (c ClockState) Time() time.Time { return time.UnixMilli(int64(c.Now)).UTC() }

// Clock actions, as Playwright's clock names them.
const (
	ClockInstall       = "install"
	ClockFastForward   = "fast_forward"
	ClockRunFor        = "run_for"
	ClockPauseAt       = "pause_at"
	ClockResume        = "resume"
	ClockSetFixedTime  = "set_fixed_time"
	ClockSetSystemTime = "set_system_time"
)

// ClockActions are the actions browser's Tabs.Clock takes.
var ClockActions = []string{ClockInstall, ClockFastForward, ClockRunFor, ClockPauseAt, ClockResume, ClockSetFixedTime, ClockSetSystemTime}

// ClockScript is the expression that installs the clock at st in a
// document's world.
func ClockScript(st ClockState) string {
	b, _ := json.Marshal(st)
	return "(" + clockJS + ")(" + string(b) + ")"
}

// ClockCall is the expression that does a clock action in a document's
// world: install the clock at at (its time runs on from there; now is the
// real instant), or fast_forward / run_for by d, pause_at at, resume,
// set_fixed_time at (Date only), set_system_time at (no timer fires). It
// refuses (a [*refusal.Error]) an action it does not know, a duration that
// is not positive, and any action but install while the clock is not
// installed.
func ClockCall(action string, at time.Time, d time.Duration, installed bool, now time.Time) (string, error) {
	var call string
	switch action {
	case ClockInstall:
		call = ClockScript(ClockState{Now: float64(at.UnixMilli()), RealAt: float64(now.UnixMilli())})
	case ClockFastForward, ClockRunFor:
		if d <= 0 {
			return "", refusal.Invalid("give a duration such as 1h, 90s or 500ms", "%s needs a positive duration", action)
		}
		fn := "fastForward"
		if action == ClockRunFor {
			fn = "runFor"
		}
		call = fmt.Sprintf("__e2eClock.%s(%d)", fn, d.Milliseconds())
	case ClockPauseAt:
		call = fmt.Sprintf("__e2eClock.pauseAt(%d)", at.UnixMilli())
	case ClockResume:
		call = "__e2eClock.resume()"
	case ClockSetFixedTime:
		call = fmt.Sprintf("__e2eClock.setFixedTime(%d)", at.UnixMilli())
	case ClockSetSystemTime:
		call = fmt.Sprintf("__e2eClock.setSystemTime(%d)", at.UnixMilli())
	default:
		return "", refusal.Invalid("use one of "+text.JoinOr(ClockActions), "clock action %q", action)
	}
	if action != ClockInstall && !installed {
		return "", refusal.Invalid("install the clock first (action install, with the time to start at)", "the clock is not installed")
	}
	return call, nil
}
