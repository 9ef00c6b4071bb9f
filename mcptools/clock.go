package mcptools

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/mark3labs/mcp-go/mcp"
)

// The time group (--caps time): the pages' fake clock.

// ClockParams are the arguments of browser_clock.
type ClockParams struct {
	Action   string `json:"action" jsonschema:"enum=install,enum=fast_forward,enum=run_for,enum=pause_at,enum=resume,enum=set_fixed_time,enum=set_system_time"`
	Time     string `json:"time,omitempty" jsonschema:"ISO 8601 (2030-01-01T09:00:00Z) or ms since the epoch; install's default: now"`
	Duration string `json:"duration,omitempty" jsonschema:"For fast_forward and run_for: 1h, 90s, 500ms"`
	SessionArg
}

func clockTool(d *Deps) Tool {
	return define(d, "browser_clock", ToolsetWaiting,
		"Fake the pages' clock (Date, timers): install at a time, fast_forward or run_for a duration, pause_at, resume, set_fixed_time.",
		annotations{title: "Control the clock"},
		func(ctx context.Context, s *Session, a ClockParams) (*mcp.CallToolResult, error) {
			at, err := clockTime(a)
			if err != nil {
				return nil, err
			}
			var dur time.Duration
			if a.Duration != "" {
				if dur, err = time.ParseDuration(a.Duration); err != nil {
					return nil, invalidInput("duration", "%q: write it as 1h, 90s or 500ms", a.Duration)
				}
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			st, err := s.tabs.Clock(ctx, p, a.Action, at, dur)
			if err != nil {
				return nil, err
			}
			var r response
			state := "running"
			if st.Paused {
				state = "paused"
			}
			r.resultf("The pages' clock is at %s (%s).", st.Time().Format(time.RFC3339), state)
			if st.Fixed != nil {
				r.resultf("Date is fixed at %s.", time.UnixMilli(int64(*st.Fixed)).UTC().Format(time.RFC3339))
			}
			r.set("clock", map[string]any{"time": st.Time().Format(time.RFC3339Nano), "paused": st.Paused})
			if err := r.pageState(ctx, s, p, snapChanges, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}

// clockTime reads browser_clock's time: ISO 8601, ms since the epoch, or
// (install only) now when left out.
func clockTime(a ClockParams) (time.Time, error) {
	needs := a.Action == devices.ClockPauseAt || a.Action == devices.ClockSetFixedTime || a.Action == devices.ClockSetSystemTime
	if strings.TrimSpace(a.Time) == "" {
		if needs {
			return time.Time{}, invalidInput("time", "%s needs the time, e.g. 2030-01-01T09:00:00Z", a.Action)
		}
		return time.Now(), nil
	}
	if ms, err := strconv.ParseInt(a.Time, 10, 64); err == nil {
		return time.UnixMilli(ms), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, a.Time); err == nil {
			return t, nil
		}
	}
	return time.Time{}, invalidInput("time", "%q: write it as 2030-01-01T09:00:00Z (ISO 8601) or ms since the epoch", a.Time)
}
