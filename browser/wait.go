package browser

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/e2e-mcp/e2e-mcp/browser/selector"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
)

// MaxWait caps the timeout of a wait or check, and the plain time of a
// wait: longer than that, an agent is better off looking at the page.
const MaxWait = 60 * time.Second

// networkIdleQuiet is how long no request may be in flight for the page to
// count as network-idle.
const networkIdleQuiet = 500 * time.Millisecond

// evalGrace is how much longer than a wait in the page the Go side waits
// for its answer, so that the page's own timeout (which reports what it
// saw) normally comes first.
const evalGrace = 2 * time.Second

// WaitOptions say what [Page.WaitFor] waits for. Every condition set must
// hold; they are awaited in the order of the fields, within one timeout.
type WaitOptions struct {
	Time time.Duration // wait this long first (at most MaxWait)
	// URL is a glob (as Playwright's: selector.GlobSource; one starting
	// with '/' is matched against path?query#fragment) or a /regex/flags.
	URL       string
	LoadState string // load, domcontentloaded or networkidle
	Target    string // a ref or selector in State
	State     string // visible (default), hidden, attached or detached
	Text      string // visible text that must appear (case-insensitive substring)
	TextGone  string // visible text that must disappear
	// Timeout bounds the conditions; 0 means the action timeout.
	Timeout time.Duration
}

// WaitResult says what a wait saw once its conditions held.
type WaitResult struct {
	Waited time.Duration `json:"-"`
	// Met has one line per condition: what held.
	Met []string `json:"met"`
}

// checkResult is what the engine's waits and checks answer.
type checkResult struct {
	OK       bool   `json:"ok"`
	Final    bool   `json:"final"`
	TimedOut bool   `json:"timedOut"`
	Now      string `json:"now"`
	Seen     string `json:"seen"`
}

// States a target can be waited for in.
var waitStates = map[string]bool{"visible": true, "hidden": true, "attached": true, "detached": true}

// Load states a page can be waited for in.
var loadStates = map[string]bool{"load": true, "domcontentloaded": true, "networkidle": true}

// timeoutOf checks a timeout and applies the default (the action timeout).
func (p *Page) timeoutOf(d time.Duration) (time.Duration, error) {
	switch {
	case d < 0:
		return 0, newError(KindInvalidInput, "give a positive number of seconds", "timeout %s is negative", d)
	case d == 0:
		return p.m.opts.ActionTimeout, nil
	case d > MaxWait:
		return 0, newError(KindInvalidInput, fmt.Sprintf("use at most %s; for longer, wait again", MaxWait), "timeout %s is too long", d)
	}
	return d, nil
}

// WaitFor waits until the page meets every condition in o, or fails with a
// timeout error that says what the page showed instead. The waits in the
// page are condition-driven (mutations, events, a light poll): one round
// trip each, however long they take.
func (p *Page) WaitFor(ctx context.Context, o WaitOptions) (WaitResult, error) {
	var res WaitResult
	timeout, err := p.timeoutOf(o.Timeout)
	if err != nil {
		return res, err
	}
	if o.Time < 0 || o.Time > MaxWait {
		return res, newError(KindInvalidInput, fmt.Sprintf("give 0 to %s", MaxWait), "time %s", o.Time)
	}
	if o.State != "" && o.Target == "" {
		return res, newError(KindInvalidInput, "give the target whose state to wait for", "state %q without a target", o.State)
	}
	state := o.State
	if state == "" {
		state = "visible"
	}
	if !waitStates[state] {
		return res, newError(KindInvalidInput, "use visible, hidden, attached or detached", "state %q", o.State)
	}
	if o.LoadState != "" && !loadStates[o.LoadState] {
		return res, newError(KindInvalidInput, "use load, domcontentloaded or networkidle", "loadState %q", o.LoadState)
	}
	var url selector.URLPattern
	if o.URL != "" {
		var err error
		if url, err = selector.ParseURLPattern(o.URL); err != nil {
			return res, err
		}
	}
	start := time.Now()

	if o.Time > 0 {
		t := time.NewTimer(o.Time)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return res, ctx.Err()
		}
		res.Met = append(res.Met, "waited "+o.Time.String())
	}
	deadline := time.Now().Add(timeout)
	if o.URL != "" {
		r, err := p.untilIn(ctx, deadline, fnWaitURL, url.Source, url.Flags, url.Rel)
		if err != nil {
			return res, err
		}
		if !r.OK {
			return res, waitTimeout(timeout, fmt.Sprintf("the URL did not match %q", o.URL), "it is "+r.Now)
		}
		res.Met = append(res.Met, "URL "+r.Now+" matches "+o.URL)
	}
	if o.LoadState != "" {
		if err := p.waitLoadState(ctx, deadline, timeout, o.LoadState); err != nil {
			return res, err
		}
		res.Met = append(res.Met, "the page reached "+o.LoadState)
	}
	if o.Target != "" {
		r, err := p.untilTarget(ctx, deadline, o.Target, func(loc located, ms int64) string {
			return fnWaitState.call(getter(loc.expr), state, ms)
		})
		if e, ok := AsError(err); ok && e.Kind == KindRefStale && (state == "detached" || state == "hidden") {
			err, r = nil, checkResult{OK: true, Now: "detached"}
		}
		if err != nil {
			return res, err
		}
		if !r.OK {
			return res, waitTimeout(timeout, fmt.Sprintf("%s did not become %s", o.Target, state), "it is "+r.Now+seenSuffix(r.Seen))
		}
		res.Met = append(res.Met, fmt.Sprintf("%s is %s%s", o.Target, r.Now, seenSuffix(r.Seen)))
	}
	for _, t := range []struct {
		text string
		gone bool
	}{{o.Text, false}, {o.TextGone, true}} {
		if t.text == "" {
			continue
		}
		parts := []selector.Part{{Engine: "text", Text: &selector.TextMatch{Mode: "lax", Value: t.text}}}
		r, err := p.untilText(ctx, deadline, parts, t.gone)
		if err != nil {
			return res, err
		}
		switch {
		case !r.OK && t.gone:
			return res, waitTimeout(timeout, fmt.Sprintf("the text %q did not go away", t.text), "it is still shown in "+r.Seen)
		case !r.OK:
			return res, waitTimeout(timeout, fmt.Sprintf("the text %q did not appear", t.text), "no visible element contains it")
		case t.gone:
			res.Met = append(res.Met, fmt.Sprintf("the text %q is gone", t.text))
		default:
			res.Met = append(res.Met, fmt.Sprintf("the text %q is shown in %s", t.text, r.Seen))
		}
	}
	res.Waited = time.Since(start)
	return res, nil
}

// waitTimeout is the error of a wait that ran out of time.
func waitTimeout(timeout time.Duration, what, saw string) *Error {
	return &Error{Kind: KindTimeout, Message: fmt.Sprintf("%s within %s: %s", what, timeout, saw),
		Hint: "take a snapshot to see the page, or wait longer (timeout, in seconds)"}
}

func seenSuffix(seen string) string {
	if seen == "" {
		return ""
	}
	return " (" + seen + ")"
}

// untilIn runs a wait of the engine in the main frame. format has one %d,
// which becomes the milliseconds left until deadline.
func (p *Page) untilIn(ctx context.Context, deadline time.Time, fn jsFn, args ...any) (checkResult, error) {
	var r checkResult
	cctx, cancel := p.callCtx(ctx, time.Until(deadline)+evalGrace)
	defer cancel()
	err := p.evalIn(cctx, p.frame, fn.call(append(args, msUntil(deadline))...), &r)
	return r, p.waitError(err)
}

// textRound bounds one round of a text wait over several frames: an
// iframe that appears meanwhile is looked in from the next round.
const textRound = time.Second

// untilText waits until the text shows in the page (gone: in none of its
// frames), its iframes included, as the snapshot shows them. A page
// without iframes takes one round trip; with them, every frame waits at
// once, in rounds of textRound, and where the text was seen names the
// frame.
func (p *Page) untilText(ctx context.Context, deadline time.Time, parts []selector.Part, gone bool) (checkResult, error) {
	for {
		frames := p.engineFrames()
		if len(frames) == 1 {
			return p.untilIn(ctx, deadline, fnWaitText, parts, gone)
		}
		round := time.Now().Add(textRound)
		if deadline.Before(round) {
			round = deadline
		}
		r, err := p.textRound(ctx, round, frames, parts, gone)
		if err != nil || r.OK || !time.Now().Before(deadline) {
			return r, err
		}
	}
}

// textRound runs one round of a text wait in every frame at once, until
// round: the first frame that shows the text ends it (gone: every frame
// must be without it). A child frame that fails (it navigated, or went)
// shows nothing.
func (p *Page) textRound(ctx context.Context, round time.Time, frames []cdp.FrameID, parts []selector.Part, gone bool) (checkResult, error) {
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		f   cdp.FrameID
		r   checkResult
		err error
	}
	answers := make(chan answer, len(frames))
	for _, f := range frames {
		go func() {
			var r checkResult
			cctx, stop := p.callCtx(rctx, time.Until(round)+evalGrace)
			defer stop()
			err := p.evalIn(cctx, f, fnWaitText.call(parts, gone, msUntil(round)), &r)
			answers <- answer{f, r, err}
		}()
	}
	out := checkResult{OK: gone}
	for range frames {
		a := <-answers
		switch {
		case a.err != nil && a.f == p.frame:
			return checkResult{}, p.waitError(a.err)
		case a.err != nil:
			continue // a child frame that went shows nothing
		case !gone && a.r.OK:
			if a.f != p.frame {
				a.r.Seen = fmt.Sprintf("%s in frame f%d", a.r.Seen, p.frameNumber(a.f))
			}
			return a.r, nil
		case gone && !a.r.OK:
			out.OK = false
			if out.Seen == "" || a.f == p.frame {
				out.Seen = a.r.Seen
				if a.f != p.frame {
					out.Seen = fmt.Sprintf("%s in frame f%d", a.r.Seen, p.frameNumber(a.f))
				}
			}
		}
	}
	return out, nil
}

// engineFrames lists the main frame, then the page's other frames whose
// engine world is up.
func (p *Page) engineFrames() []cdp.FrameID {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := []cdp.FrameID{p.frame}
	for f := range p.worlds {
		if f != p.frame {
			out = append(out, f)
		}
	}
	return out
}

// untilTarget runs a wait of the engine on target, in the frame the target
// is in; build makes the expression from where the target is and the
// milliseconds left.
func (p *Page) untilTarget(ctx context.Context, deadline time.Time, target string, build func(loc located, ms int64) string) (checkResult, error) {
	var r checkResult
	cctx, cancel := p.callCtx(ctx, time.Until(deadline)+evalGrace)
	defer cancel()
	_, err := p.resolveIn(cctx, target, func(loc located) error {
		r = checkResult{}
		return p.evalIn(cctx, loc.frame, build(loc, msUntil(deadline)), &r)
	})
	return r, p.waitError(err)
}

// waitError words a wait cut off on the Go side (the page navigated in the
// middle, or stopped answering) as a timeout.
func (p *Page) waitError(err error) error {
	if e, ok := AsError(err); ok && e.Kind == KindTimeout {
		return &Error{Kind: KindTimeout, Message: "the wait did not finish: the page navigated or stopped answering",
			Hint: "take a snapshot to see where the page is, then wait again", Err: e.Err}
	}
	return err
}

func msUntil(t time.Time) int64 { return max(0, time.Until(t).Milliseconds()) }

// waitLoadState waits until the main frame's document has loaded as far as
// state says. A navigation that is still on its way counts first: the
// document it brings is the one to wait for.
func (p *Page) waitLoadState(ctx context.Context, deadline time.Time, timeout time.Duration, state string) error {
	cctx, cancel := p.callCtx(ctx, time.Until(deadline))
	err := p.waitFor(cctx, func() bool { return !p.navigationPendingLocked() })
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return waitTimeout(timeout, "the page did not reach "+state, "its navigation is still loading")
	}
	js := state
	if state == "networkidle" {
		js = "load"
	}
	r, err := p.untilIn(ctx, deadline, fnWaitLoad, js)
	if err != nil {
		return err
	}
	if !r.OK {
		return waitTimeout(timeout, "the page did not reach "+state, "its document is "+r.Now)
	}
	if state != "networkidle" {
		return nil
	}
	// Network-idle: no request in flight for networkIdleQuiet.
	cctx, cancel = p.callCtx(ctx, time.Until(deadline))
	defer cancel()
	for {
		p.mu.Lock()
		idle, since := p.networkIdleSinceLocked()
		ch := p.changed
		p.mu.Unlock()
		var quiet <-chan time.Time
		if idle {
			left := networkIdleQuiet - time.Since(since)
			if left <= 0 {
				return nil
			}
			t := time.NewTimer(left)
			defer t.Stop()
			quiet = t.C
		}
		select {
		case <-ch:
		case <-quiet:
		case <-cctx.Done():
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return waitTimeout(timeout, "the network did not go idle", p.inFlightSummary())
		}
	}
}

// navigationPendingLocked reports whether a document request of the main
// frame is on its way (a navigation that has not loaded yet).
func (p *Page) navigationPendingLocked() bool {
	l, unlock := p.logs()
	defer unlock()
	return len(l.OpenDocuments(string(p.frame))) > 0
}

// inFlightSummary names the requests in flight, for a timeout message.
func (p *Page) inFlightSummary() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	l, unlock := p.logs()
	var names []string
	for id := range p.net.inflight {
		if r, ok := l.Open(id); ok && len(names) < 5 {
			names = append(names, r.Method+" "+keep(r.URL, 300))
		}
	}
	unlock()
	s := strconv.Itoa(len(p.net.inflight)) + " requests in flight"
	if len(names) > 0 {
		s += ": " + strings.Join(names, ", ")
	}
	return s
}

// Checks [Page.Expect] knows.
var expectChecks = map[string]bool{"visible": true, "hidden": true, "enabled": true, "disabled": true,
	"checked": true, "unchecked": true, "text": true, "value": true, "count": true}

// ExpectResult is what an expectation saw.
type ExpectResult struct {
	Pass bool `json:"pass"`
	// Actual is what the element showed: its state, text, value or count.
	Actual string `json:"actual"`
	// Element describes the element, when there was one.
	Element string `json:"element,omitempty"`
}

// Expect checks target (a ref or selector) until check holds or timeout
// (0: the action timeout) ends: visible, hidden, enabled, disabled,
// checked, unchecked, text (contains expected, or matches /regex/), value
// (equals expected, or matches /regex/) or count (the selector matches
// expected elements). A check that does not hold in time is an
// expect_failed error with the actual value; the result says it too.
func (p *Page) Expect(ctx context.Context, target, check, expected string, timeout time.Duration) (ExpectResult, error) {
	var res ExpectResult
	if !expectChecks[check] {
		return res, newError(KindInvalidInput, "use visible, hidden, enabled, disabled, checked, unchecked, text, value or count", "check %q", check)
	}
	timeout, err := p.timeoutOf(timeout)
	if err != nil {
		return res, err
	}
	want := map[string]any{}
	switch check {
	case "text", "value":
		want["m"], want["v"] = "contains", expected
		if check == "value" {
			want["m"] = "equals"
		}
		if src, flags, ok := selector.RegexLiteral(expected); ok {
			want["m"], want["v"], want["f"] = "regex", src, flags
		}
	case "count":
		n, err := strconv.Atoi(strings.TrimSpace(expected))
		if err != nil || n < 0 {
			return res, newError(KindInvalidInput, "give the number of elements, e.g. 3", "expected %q is not a count", expected)
		}
		want["n"] = n
	default:
		if expected != "" {
			return res, newError(KindInvalidInput, "leave out expected: only text, value and count take it", "expected with check %s", check)
		}
	}
	deadline := time.Now().Add(timeout)
	r, err := p.untilTarget(ctx, deadline, target, func(loc located, ms int64) string {
		if check == "count" && loc.sel != nil {
			return fnExpectCount.call(loc.rest, want["n"], ms)
		}
		return fnExpect.call(getter(loc.expr), check, want, ms)
	})
	if e, ok := AsError(err); ok && e.Kind == KindRefStale && (check == "hidden" || check == "count") {
		// The ref's element left the page: hidden, and none of it.
		err, r = nil, checkResult{OK: check == "hidden" || want["n"] == 0, Now: "not found"}
		if check == "count" {
			r.Now = "0"
		}
	}
	if err != nil {
		return res, err
	}
	res = ExpectResult{Pass: r.OK, Actual: r.Now, Element: r.Seen}
	if r.OK {
		return res, nil
	}
	what := target + seenSuffix(r.Seen)
	var msg string
	switch check {
	case "text":
		verb := "contain"
		if want["m"] == "regex" {
			verb = "match"
		}
		msg = fmt.Sprintf("expected the text of %s to %s %q; it is %q", what, verb, expected, text.Clip(r.Now, 500))
	case "value":
		verb := "be"
		if want["m"] == "regex" {
			verb = "match"
		}
		msg = fmt.Sprintf("expected the value of %s to %s %q; it is %q", what, verb, expected, text.Clip(r.Now, 500))
	case "count":
		msg = fmt.Sprintf("expected %s to match %s elements; it matches %s", target, strings.TrimSpace(expected), r.Now)
	default:
		msg = fmt.Sprintf("expected %s to be %s; it is %s", what, check, r.Now)
	}
	if !r.Final {
		msg += fmt.Sprintf(" (after %s)", timeout)
	}
	return res, &Error{Kind: KindExpectFailed, Message: "FAIL: " + msg,
		Hint: "this is a test failure of the page, not a tool fault: fix the app, or check the expectation with a snapshot"}
}
