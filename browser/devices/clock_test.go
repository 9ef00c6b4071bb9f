package devices

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// TestClockCall: each clock action is the call of the page's clock it
// names, install the clock's script started at the time asked for (and
// the real instant given); an unknown action, a duration that is not
// positive, and an action before install are refused with what to do.
func TestClockCall(t *testing.T) {
	at := time.UnixMilli(1893488400000) // 2030-01-01T09:00:00Z
	now := time.UnixMilli(1700000000000)
	for _, c := range []struct {
		action string
		d      time.Duration
		want   string
	}{
		{ClockFastForward, 90 * time.Second, "__e2eClock.fastForward(90000)"},
		{ClockRunFor, time.Hour, "__e2eClock.runFor(3600000)"},
		{ClockPauseAt, 0, "__e2eClock.pauseAt(1893488400000)"},
		{ClockResume, 0, "__e2eClock.resume()"},
		{ClockSetFixedTime, 0, "__e2eClock.setFixedTime(1893488400000)"},
		{ClockSetSystemTime, 0, "__e2eClock.setSystemTime(1893488400000)"},
	} {
		if got, err := ClockCall(c.action, at, c.d, true, now); err != nil || got != c.want {
			t.Errorf("ClockCall(%s) = %q, %v, want %q", c.action, got, err, c.want)
		}
	}
	install, err := ClockCall(ClockInstall, at, 0, false, now)
	if err != nil || install != ClockScript(ClockState{Now: 1893488400000, RealAt: 1700000000000}) ||
		!strings.HasPrefix(install, "("+clockJS+")(") || !strings.HasSuffix(install, `{"now":1893488400000,"realAt":1700000000000,"paused":false,"fixed":null})`) {
		t.Errorf("install = %.60q...%q, %v", install, install[max(0, len(install)-80):], err)
	}
	for _, c := range []struct {
		action    string
		d         time.Duration
		installed bool
		msg, hint string
	}{
		{"rewind", 0, true, `clock action "rewind"`, "use one of " + strings.Join(ClockActions[:len(ClockActions)-1], ", ") + " or set_system_time"},
		{ClockRunFor, 0, true, "run_for needs a positive duration", "give a duration such as 1h, 90s or 500ms"},
		{ClockFastForward, -time.Second, false, "fast_forward needs a positive duration", "give a duration such as 1h, 90s or 500ms"},
		{ClockResume, 0, false, "the clock is not installed", "install the clock first (action install, with the time to start at)"},
	} {
		_, err := ClockCall(c.action, at, c.d, c.installed, now)
		var e *refusal.Error
		if !errors.As(err, &e) || e.Message != c.msg || e.Hint != c.hint {
			t.Errorf("ClockCall(%s, %v, installed %v) = %#v, want %q (hint %q)", c.action, c.d, c.installed, err, c.msg, c.hint)
		}
	}
}

// TestClockState: the state reads as the page's clock writes it, and its
// time is Now in UTC.
func TestClockState(t *testing.T) {
	var st ClockState
	if err := json.Unmarshal([]byte(`{"now":1893488400000.5,"realAt":1700000000000,"paused":true,"fixed":1893488400000}`), &st); err != nil {
		t.Fatal(err)
	}
	if !st.Paused || st.Fixed == nil || *st.Fixed != 1893488400000 || st.Time().Format(time.RFC3339) != "2030-01-01T09:00:00Z" {
		t.Errorf("state = %+v, time %v", st, st.Time())
	}
}
