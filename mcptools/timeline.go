package mcptools

import (
	"context"
	"slices"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/eventlog"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
)

// Timeline is what the open tabs of a session recorded: the requests with
// their timings, the console's errors, how each action waited for its
// element. The flow runner compares the timelines of a flow's failed
// attempt and of the retry that passed, to say why the flow was flaky
// (e2e-mcp run --retries). Texts are masked with the session's secrets.
type Timeline struct {
	// At is when it was read: a request still in flight had not answered
	// by then.
	At       time.Time
	Requests []TimelineRequest
	// Console holds the console errors and uncaught exceptions.
	Console []TimelineMessage
	Waits   []TimelineWait
}

// TimelineRequest is one request of a page.
type TimelineRequest struct {
	Method, URL string
	// Status is the HTTP status (0 without a response), Failure Chrome's
	// reason for a request that got no complete response.
	Status  int64
	Failure string
	Start   time.Time
	// Took is how long it took to its end; Done is false while in flight.
	Took time.Duration
	Done bool
}

// Failed reports whether the request failed or got an HTTP error status.
func (r TimelineRequest) Failed() bool { return r.Failure != "" || r.Status >= 400 }

// TimelineMessage is a console error or an uncaught exception.
type TimelineMessage struct {
	// Level is error or exception.
	Level, Text string
	Time        time.Time
}

// TimelineWait is how an action waited for its element: the element's
// states while it waited (WaitState), and whether it became actionable.
type TimelineWait struct {
	Target string
	Start  time.Time
	Took   time.Duration
	States []WaitState
	Ready  bool
}

// WaitState is one state of the element an action waited on: Code is
// "missing" (its target matched nothing yet) or the page engine's refusal
// (not_visible, disabled, covered, not_stable...), Message its words, At
// when it began from the wait's start.
type WaitState struct {
	Code, Message string
	At            time.Duration
}

// WaitMissing is the code of a target that matched no element yet.
const WaitMissing = eventlog.WaitMissing

// maxTimelineText bounds a text of the timeline (a URL, a message).
const maxTimelineText = 2000

// SessionTimeline reads the timeline of session id's open tabs (the flow
// runner's sessions), holding the session for the length of the read. It
// changes nothing: the console messages stay unread for the agent.
func (d *Deps) SessionTimeline(ctx context.Context, id string) (Timeline, error) {
	s, _, err := d.Sessions.acquire(ctx, id, "session_timeline")
	if err != nil {
		return Timeline{}, err
	}
	defer s.release()
	tl := Timeline{At: time.Now()}
	if s.tabs == nil || s.tabs.Gone() {
		return tl, nil
	}
	mask := func(t string) string { return s.private.String(text.Keep(t, maxTimelineText)) }
	for _, p := range s.tabs.Attached() {
		msgs, _ := p.ConsoleLog()
		for _, m := range msgs {
			if m.Level == "error" || m.Level == "exception" {
				tl.Console = append(tl.Console, TimelineMessage{Level: m.Level, Text: mask(m.Text), Time: m.Time})
			}
		}
		reqs, _, _ := p.NetworkRequests("", false)
		for _, q := range reqs {
			tl.Requests = append(tl.Requests, TimelineRequest{Method: q.Method, URL: mask(q.URL), Status: q.Status, Failure: q.Failure,
				Start: q.Start, Took: time.Duration(q.DurationMS * float64(time.Millisecond)), Done: q.Done})
		}
		for _, w := range p.ActionWaits() {
			tw := TimelineWait{Target: mask(w.Target), Start: w.Start, Took: w.Took, Ready: w.Ready}
			for _, st := range w.States {
				tw.States = append(tw.States, WaitState{Code: st.Code, Message: mask(st.Message), At: st.At})
			}
			tl.Waits = append(tl.Waits, tw)
		}
	}
	slices.SortStableFunc(tl.Console, func(a, b TimelineMessage) int { return a.Time.Compare(b.Time) })
	slices.SortStableFunc(tl.Requests, func(a, b TimelineRequest) int { return a.Start.Compare(b.Start) })
	slices.SortStableFunc(tl.Waits, func(a, b TimelineWait) int { return a.Start.Compare(b.Start) })
	return tl, nil
}
