package runner

import (
	"cmp"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// Why a flaky flow flaked: when a flow fails and then passes on a retry,
// the runner compares the failed attempt with the one that passed and
// names the first step where they parted (the step the failed attempt
// failed at) and what differed before it, from what both recorded (their
// steps as the runner timed them and their sessions' timelines:
// mcptools.Timeline): a request that was slower, failed or answered
// differently, or was never sent; a console error in the failed attempt
// only; and how the failing step's action waited for its element: the
// target appearing later than the wait, still disabled, still moving (an
// animation running), another element under the point.

// attemptLog is what one attempt of a flow recorded for the comparison:
// its steps as the runner timed them, and its session's timeline (read
// only when a comparison will need it: retry.go).
type attemptLog struct {
	steps      []stepTime
	failed     bool
	failedStep int    // 0: before the first step
	step       string // the failing step in words
	headline   string // its error
	tl         mcptools.Timeline
	unread     string // why the timeline could not be read
}

// stepTime is one step of an attempt: when it ran, on what, and whether it
// passed.
type stepTime struct {
	n          int // 1-based
	what       string
	target     string // its target argument, if any
	start, end time.Time
	ok         bool
}

// The kinds of difference diverge finds.
const (
	causeSlowRequest     = "slow-request"     // answered later, or not yet
	causeFailedRequest   = "failed-request"   // failed in the failed attempt only
	causeOtherAnswer     = "other-answer"     // another status
	causeMissingRequest  = "missing-request"  // sent in the passing attempt only
	causeConsoleError    = "console-error"    // a console error in the failed attempt only
	causeLateTarget      = "late-target"      // the target appeared after the wait
	causeCovered         = "covered"          // another element under the point
	causeAnimation       = "animation"        // the target was still moving
	causeDisabled        = "disabled"         // the target was still disabled
	causeHidden          = "hidden"           // the target was still not visible
	causeOtherState      = "other-state"      // another refusal of the page engine
	causeNothingDiffered = "nothing-differed" // only the failure itself
)

// finding is one difference: its kind, its words (they follow "in the
// failing attempt"), and its weight (0 first).
type finding struct {
	kind   string
	text   string
	weight int
}

// parting is where two attempts parted: the step, and what differed.
type parting struct {
	step     int // 1-based; 0 before the first step
	what     string
	findings []finding
}

// maxFindings bounds what a diagnosis names.
const maxFindings = 3

// String is the diagnosis in one line: step 4, click X: in the failing
// attempt GET /api/cart had not answered ... and the button was still
// disabled ...
func (p parting) String() string {
	where := fmt.Sprintf("step %d, %s", p.step, p.what)
	if p.step == 0 {
		where = "before the first step (" + p.what + ")"
	}
	var texts []string
	for _, f := range p.findings {
		texts = append(texts, f.text)
	}
	switch len(texts) {
	case 0:
		return where
	case 1:
		return where + ": in the failing attempt " + texts[0]
	}
	return where + ": in the failing attempt " + strings.Join(texts[:len(texts)-1], ", ") + " and " + texts[len(texts)-1]
}

// diverge compares a failed attempt with a later one that passed.
func diverge(fail, pass *attemptLog) parting {
	p := parting{step: fail.failedStep, what: fail.step}
	fs := stepOf(fail, fail.failedStep)
	ps := stepOf(pass, fail.failedStep)
	var found []finding
	found = append(found, diffRequests(fail, pass, fs, ps)...)
	found = append(found, diffConsole(fail, pass, fs, ps, found)...)
	if w := diffWait(fail, pass, fs, ps); w != nil {
		found = append(found, *w)
	}
	slices.SortStableFunc(found, func(a, b finding) int { return cmp.Compare(a.weight, b.weight) })
	if len(found) > maxFindings {
		found = found[:maxFindings]
	}
	if len(found) == 0 {
		what := "it failed (" + fail.headline + ") and nothing else the two attempts recorded differed before it"
		if fail.unread != "" || pass.unread != "" {
			what = "it failed (" + fail.headline + "); their timelines could not be read: " + cmp.Or(fail.unread, pass.unread)
		}
		found = []finding{{kind: causeNothingDiffered, text: what}}
	}
	p.findings = found
	return p
}

// stepOf is the attempt's step n as timed; for the step 0 (before the
// first) or a step it did not reach, the span from its first record to
// when its timeline was read.
func stepOf(a *attemptLog, n int) stepTime {
	for _, s := range a.steps {
		if s.n == n {
			return s
		}
	}
	st := stepTime{n: n, end: a.tl.At}
	if len(a.steps) > 0 {
		st.start = a.steps[0].start
	}
	if st.end.IsZero() {
		st.end = time.Now()
	}
	return st
}

// slowBy is how much longer than in the passing attempt a request must
// take to count as slower, and it must take twice as long too: requests
// of one page vary by some milliseconds from run to run.
const slowBy = 250 * time.Millisecond

// diffRequests compares the requests of the failed attempt sent before
// its failing step ended with the passing attempt's, matched by method,
// path and query (a dev server of each attempt has its own port) and by
// their order among those.
func diffRequests(fail, pass *attemptLog, fs, ps stepTime) []finding {
	passBy := map[string][]mcptools.TimelineRequest{}
	for _, q := range pass.tl.Requests {
		if k, ok := requestKey(q); ok {
			passBy[k] = append(passBy[k], q)
		}
	}
	var out []finding
	seen := map[string]int{}
	for _, f := range fail.tl.Requests {
		k, ok := requestKey(f)
		if !ok || f.Start.After(fs.end) {
			continue
		}
		i := seen[k]
		seen[k]++
		if i >= len(passBy[k]) {
			switch {
			case f.Done && f.Failed():
				out = append(out, finding{causeFailedRequest, fmt.Sprintf("%s, sent in this attempt only, failed (%s)", k, requestEnd(f)), 1})
			case !f.Done:
				out = append(out, finding{causeSlowRequest, fmt.Sprintf("%s, sent in this attempt only, had not answered %s after it was sent", k, seconds(fail.tl.At.Sub(f.Start))), 3})
			}
			continue
		}
		p := passBy[k][i]
		if !p.Done {
			continue
		}
		// Did it run while the failing step waited?
		during := !f.Done || f.Start.Add(f.Took).After(fs.start)
		switch {
		case !f.Done:
			waited := fail.tl.At.Sub(f.Start)
			if slower(waited, p.Took) {
				out = append(out, finding{causeSlowRequest, fmt.Sprintf("%s had not answered %s after it was sent (it took %s in the passing attempt)", k, seconds(waited), seconds(p.Took)), 0})
			}
		case f.Failed() && !p.Failed():
			out = append(out, finding{causeFailedRequest, fmt.Sprintf("%s failed (%s; %s in the passing attempt)", k, requestEnd(f), requestEnd(p)), 1})
		case f.Status != p.Status && !p.Failed():
			out = append(out, finding{causeOtherAnswer, fmt.Sprintf("%s answered %s (%s in the passing attempt)", k, requestEnd(f), requestEnd(p)), 3})
		case slower(f.Took, p.Took):
			w := 3
			if during {
				w = 0
			}
			out = append(out, finding{causeSlowRequest, fmt.Sprintf("%s answered %s later (%s, against %s)", k, seconds(f.Took-p.Took), seconds(f.Took), seconds(p.Took)), w})
		}
	}
	// What the passing attempt had sent before the step began that the
	// failed one never sent.
	failBy := map[string]int{}
	for _, f := range fail.tl.Requests {
		if k, ok := requestKey(f); ok {
			failBy[k]++
		}
	}
	var never []string
	for k, list := range passBy {
		n := 0
		for _, p := range list {
			if p.Start.Before(ps.start) {
				n++
			}
		}
		if n > failBy[k] {
			never = append(never, k)
		}
	}
	slices.Sort(never)
	for _, k := range never {
		out = append(out, finding{causeMissingRequest, fmt.Sprintf("%s was never sent (the passing attempt sent it before this step)", k), 4})
	}
	return out
}

// slower says a request that took (or had waited) f is slower than one
// that took p.
func slower(f, p time.Duration) bool { return f-p >= slowBy && f >= 2*p }

// requestKey is a request as two attempts can match it: its method, path
// and query; ok is false for what the page did not ask its server for
// (data: URLs, the browser's favicon).
func requestKey(q mcptools.TimelineRequest) (string, bool) {
	u, err := url.Parse(q.URL)
	if err != nil || u.Host == "" || u.Path == "/favicon.ico" {
		return "", false
	}
	return q.Method + " " + u.RequestURI(), true
}

// requestEnd is how a request ended, in words.
func requestEnd(q mcptools.TimelineRequest) string {
	if q.Failure != "" {
		return q.Failure
	}
	return fmt.Sprint(q.Status)
}

// consoleOrigin is an origin in a console message: each attempt's dev
// server has its own port.
var consoleOrigin = regexp.MustCompile(`https?://[^/\s)'"]+`)

// diffConsole finds the console errors of the failed attempt, up to the
// end of its failing step, that the passing attempt did not have up to the
// end of the same step. A "Failed to load resource" error is left out when
// a failed request was found already: it says the same.
func diffConsole(fail, pass *attemptLog, fs, ps stepTime, found []finding) []finding {
	norm := func(t string) string { return consoleOrigin.ReplaceAllString(t, "") }
	had := map[string]int{}
	for _, m := range pass.tl.Console {
		if !m.Time.After(ps.end) {
			had[norm(m.Text)]++
		}
	}
	failedReq := slices.ContainsFunc(found, func(f finding) bool { return f.kind == causeFailedRequest })
	var only []string
	for _, m := range fail.tl.Console {
		if m.Time.After(fs.end) {
			continue
		}
		k := norm(m.Text)
		if had[k] > 0 {
			had[k]--
			continue
		}
		if failedReq && strings.HasPrefix(m.Text, "Failed to load resource") {
			continue
		}
		only = append(only, m.Text)
	}
	if len(only) == 0 {
		return nil
	}
	t := "the console had an error the passing attempt did not: " + text.Clip(text.FirstLine(only[0]), 200)
	if len(only) > 1 {
		t += fmt.Sprintf(" (and %d more)", len(only)-1)
	}
	return []finding{{causeConsoleError, t, 1}}
}

// diffWait says how the failing step's action waited for its element, and
// how the same step's did in the passing attempt: what the element still
// was when the wait ran out, and when it stopped being so in the passing
// attempt.
func diffWait(fail, pass *attemptLog, fs, ps stepTime) *finding {
	fw := waitIn(fail.tl.Waits, fs)
	if fw == nil || fw.Ready || len(fw.States) == 0 {
		return nil
	}
	last := fw.States[len(fw.States)-1]
	noun := targetNoun(fs.target)
	pw := waitIn(pass.tl.Waits, ps)
	ran := seconds(fw.Took)
	switch last.Code {
	case mcptools.WaitMissing:
		return &finding{causeLateTarget, fmt.Sprintf("%s had not appeared when the wait ran out after %s (%s)", noun, ran, passed(pw, last.Code, "it appeared", "it was there")), 2}
	case "covered":
		t := fmt.Sprintf("another element was under the point: %s was %s", noun, last.Message)
		if pw != nil {
			if other := stateMessage(pw, "covered"); other != "" && other != last.Message {
				t += " (" + other + " in the passing attempt, then uncovered)"
			} else {
				t += " (in the passing attempt the action reached it)"
			}
		}
		return &finding{causeCovered, t, 2}
	case "not_stable", "animating":
		return &finding{causeAnimation, fmt.Sprintf("an animation was still running: %s was still moving when the wait ran out after %s (%s)", noun, ran, passed(pw, last.Code, "it held still", "it held still")), 2}
	case "disabled":
		return &finding{causeDisabled, fmt.Sprintf("%s was still disabled when the wait ran out after %s (%s)", noun, ran, passed(pw, last.Code, "it was enabled", "it was enabled")), 2}
	case "not_visible":
		return &finding{causeHidden, fmt.Sprintf("%s was still not visible when the wait ran out after %s (%s)", noun, ran, passed(pw, last.Code, "it was shown", "it was shown")), 2}
	}
	return &finding{causeOtherState, fmt.Sprintf("%s was still %s when the wait ran out after %s", noun, last.Message, ran), 2}
}

// waitIn is the last action wait that began within the step.
func waitIn(waits []mcptools.TimelineWait, st stepTime) *mcptools.TimelineWait {
	var w *mcptools.TimelineWait
	for i := range waits {
		if !waits[i].Start.Before(st.start) && !waits[i].Start.After(st.end) {
			w = &waits[i]
		}
	}
	return w
}

// passed says, of the passing attempt's wait pw, when its element stopped
// being in the state code: "it was enabled after 0.4 s in the passing
// attempt" (after), or "it was there from the first check ..." (from).
func passed(pw *mcptools.TimelineWait, code, after, from string) string {
	if pw == nil {
		return "the passing attempt recorded no wait there"
	}
	at, had := time.Duration(0), false
	for i, s := range pw.States {
		if s.Code != code {
			continue
		}
		had = true
		at = pw.Took
		if i+1 < len(pw.States) {
			at = pw.States[i+1].At
		}
	}
	if !had {
		return from + " from the first check in the passing attempt"
	}
	return after + " after " + seconds(at) + " in the passing attempt"
}

// stateMessage is the message of the wait's last state of the code, or "".
func stateMessage(w *mcptools.TimelineWait, code string) string {
	m := ""
	for _, s := range w.States {
		if s.Code == code {
			m = s.Message
		}
	}
	return m
}

// roleTarget reads a role selector's role and name.
var roleTarget = regexp.MustCompile(`^role=([a-z]+)(?:\[name=(?:"([^"]*)"|'([^']*)')[^\]]*\])?`)

// targetNoun names a step's target in words: `the button "Save"` for a
// role selector, else "the target".
func targetNoun(target string) string {
	m := roleTarget.FindStringSubmatch(target)
	if m == nil {
		return "the target"
	}
	if name := m[2] + m[3]; name != "" {
		return fmt.Sprintf("the %s %q", m[1], name)
	}
	return "the " + m[1]
}

// seconds says a duration as a person reads it: 12 ms, 1.9 s.
func seconds(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}
