package mcptools

import (
	"regexp"
	"slices"
	"strconv"

	"github.com/e2e-mcp/e2e-mcp/browser/snaptext"
	"github.com/e2e-mcp/e2e-mcp/flow"
)

// What the agent read, as checks (session_export_flow assertReads). An
// agent checks much by reading: the heading of the page a click led to,
// the status a form answered with. Those reads are not calls of
// browser_expect, so a flow had no check of them. The rule, deterministic
// and sound:
//
//   - the texts are the headings, statuses and alerts of the snapshots the
//     agent received between two recorded steps (snaptext.ReadTexts), in
//     the order it read them, at most maxPendingReads;
//   - none that changes from run to run (a time, a date, a duration, a
//     long number) or that a page shows on its way (loading...):
//     volatileRE; none longer than maxReadText, none that holds a secret
//     of the session;
//   - each is checked, in the same engine call as the next step's
//     locators (before it acts), to find one visible element still: what
//     the step before left on the page and the agent saw;
//   - the export writes those after the step as `expect: {target, check:
//     visible}`, at most maxReadChecks a step, and none already checked
//     (by the agent or before) since the page last loaded.

const (
	maxPendingReads = 12
	maxReadChecks   = 3
	maxReadText     = 120
)

// volatileRE is a text that changes from run to run: a time of day, a
// date, a duration or age, a month's day, a long number (an id, a
// timestamp); or one a page shows on its way to another (loading,
// saving...), which a faster replay may never see.
var volatileRE = regexp.MustCompile(`(?i)\b\d{1,2}:\d{2}\b|\b\d{4}-\d{2}-\d{2}|\b\d{1,2}/\d{1,2}/\d{2,4}\b|` +
	`\b(ago|just now|today|yesterday|tomorrow)\b|\b\d+(\.\d+)?\s?(ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?)\b|` +
	`\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}\b|\d{6,}|` +
	`\b(loading|saving|sending|submitting|processing|uploading|please wait|in progress|pending)\b|…|\.\.\.\s*$`)

// readSelector is the selector of a text the agent read, or "" for one
// that is no check: a heading, status or alert by its name, else a status
// or alert by its text.
func readSelector(rt snaptext.ReadText) string {
	text := rt.Name
	if text == "" {
		text = rt.Text
	}
	if text == "" || len(text) > maxReadText || volatileRE.MatchString(text) {
		return ""
	}
	if rt.Name != "" {
		return "role=" + rt.Role + "[name=" + strconv.Quote(rt.Name) + "]"
	}
	return "role=" + rt.Role + " >> text=" + strconv.Quote(rt.Text)
}

// noteReads keeps what a snapshot the agent received (its text as the
// answer showed it) said of headings, statuses and alerts, until the next
// recorded step checks it.
func (s *Session) noteReads(snapshot string) {
	for _, rt := range snaptext.ReadTexts(snapshot) {
		if len(s.pendingReads) >= maxPendingReads {
			return
		}
		sel := readSelector(rt)
		if sel == "" || slices.Contains(s.pendingReads, sel) || s.private.String(sel) != sel {
			continue
		}
		s.pendingReads = append(s.pendingReads, sel)
	}
}

// takeReads keeps, after the last recorded step, the texts the agent read
// that shown says are still on the page (browser.StepAnswer.Shown, for
// pendingReads), and starts over.
func (s *Session) takeReads(shown []bool) {
	pending := s.pendingReads
	s.pendingReads = nil
	last := len(s.recorded) - 1
	if last < 0 {
		return
	}
	for i, sel := range pending {
		if i < len(shown) && shown[i] && len(s.readChecks[last]) < maxPendingReads {
			s.readChecks[last] = append(s.readChecks[last], sel)
		}
	}
}

// addStep adds a step to the session's flow, the one way a step is
// added: the oldest goes past maxRecorded, with what was read after it.
func (s *Session) addStep(st flow.Step) {
	if len(s.recorded) >= maxRecorded {
		s.recorded, s.readChecks = s.recorded[1:], s.readChecks[1:]
	}
	s.recorded = append(s.recorded, st)
	s.readChecks = append(s.readChecks, nil)
	s.recordCount++
}

// flowSteps are the session's steps as its flow has them; with
// assertReads, each followed by the checks of what the agent read after it
// (the rule above).
func (s *Session) flowSteps(assertReads bool) []flow.Step {
	steps := make([]flow.Step, 0, len(s.recorded))
	checked := map[string]bool{} // the targets checked visible since the page loaded
	for i, st := range s.recorded {
		steps = append(steps, st)
		switch st.Action {
		case "navigate", "back", "forward", "reload":
			checked = map[string]bool{}
		case "expect":
			if t, ok := st.Args["target"].(string); ok && st.Args["check"] == "visible" {
				checked[t] = true
			}
		}
		if !assertReads || i >= len(s.readChecks) {
			continue
		}
		n := 0
		for _, sel := range s.readChecks[i] {
			target := flow.Escape(sel)
			if checked[target] || n >= maxReadChecks {
				continue
			}
			checked[target] = true
			n++
			steps = append(steps, flow.Step{Action: "expect", Args: map[string]any{"target": target, "check": "visible"}})
		}
	}
	return steps
}
