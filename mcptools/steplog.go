package mcptools

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/measure"
	"github.com/e2e-mcp/e2e-mcp/browser/selector"
	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/e2e-mcp/e2e-mcp/report"
	"github.com/mark3labs/mcp-go/mcp"
)

// A session logs every call on it (the layer `logged`, handler.go) for its
// report (session_report in the report group, `e2e-mcp run --report`) and
// its trace while it records one (tracing.go); otherwise nothing is
// logged: the tool, its arguments
// with secrets masked, when it ran and for how long, and how it ended: a
// clipped answer, or a failure's whole answer, images included. With
// Deps.ReportShots on, each successful action also keeps a small JPEG of the
// viewport taken after it: 7-40 KB, but one more capture, which waits for a
// frame (about 45 ms whatever the page, BenchmarkReportShot), so it is off
// but for the report group (--caps report), `run --report` and a session
// that traces (which keeps one after a failed action too). The capture
// runs after the call has answered, while the next call runs when that one
// only reads the page (shot, settleShot).
// Everything is bounded, the oldest going first and counted.
const (
	maxLoggedSteps    = 300      // steps kept
	maxLoggedShots    = 60       // screenshots kept (7-40 KB each)
	maxLoggedFailures = 10       // failure answers kept whole
	maxLoggedResult   = 2 << 10  // the text kept of a successful answer
	maxLoggedFailure  = 64 << 10 // the text kept of a failure answer
	maxLoggedArg      = 4 << 10  // a text of a call's arguments
	reportShotWidth   = 800
	reportShotQuality = 50
	reportShotTimeout = 2 * time.Second
)

// loggedStep is one call in a session's step log.
type loggedStep struct {
	tool  string
	args  map[string]any // secrets masked
	start time.Time
	took  time.Duration
	ok    bool
	// targets are the selectors of its target arguments (target,
	// startTarget, endTarget), a ref as its stable locator.
	targets map[string]string
	// page names the tab it ended in (browser.Page.ID), "" with none.
	page    string
	result  string        // a successful answer's text, clipped
	shot    *shot         // JPEG after the action, if taken
	failure []mcp.Content // a failure's whole answer
	err     AnswerError   // a failure's error, secrets masked
	cut     bool          // failure holds only the start of its text
	groups  []StepGroup   // the flow's step groups it is in (stepgroups.go)
}

// stepLog is a session's bounded log of calls.
type stepLog struct {
	steps   []loggedStep
	dropped int // the oldest steps no longer kept
	// groups are the step groups the next calls are in (SetStepGroups).
	groups []StepGroup
	// last is the newest picture taken, for a check after it that
	// changed nothing (reportShot).
	last lastShot
	// pending is the picture still being taken, if any (settleShot).
	pending *shot
}

// lastShot is a picture of a tab and the tab's paint mark when it was
// taken ("": not known).
type lastShot struct {
	page, mark string
	shot       *shot
}

// shot is a picture after a step. Its capture waits for the page's next
// frame (about 40 ms), so it is taken in the background while the next
// call runs, when that call only reads the page (readsOnly); every other
// call, and every reader of the pictures, waits for it first (settleShot).
type shot struct {
	done   chan struct{}
	cancel context.CancelFunc // gives the capture up (settleShotWithin)
	img    []byte             // JPEG; nil when the capture failed
	at     time.Time          // when the capture ended
}

// image is the picture, once taken (nil: the capture failed).
func (sh *shot) image() []byte {
	<-sh.done
	return sh.img
}

// readsOnly are the tools that may run while the picture after the step
// before them is still being taken: they read the page and draw nothing
// on it, so the picture shows the page as that step left it. A visual
// check draws (it holds animations still and masks elements): it settles
// the picture first (expectScreenshot). TestReadsOnlyTools checks the
// names.
var readsOnly = map[string]bool{"browser_expect": true, "browser_wait_for": true, "browser_snapshot": true,
	"browser_verify_element_visible": true, "browser_verify_text_visible": true, "browser_verify_list_visible": true,
	"browser_verify_value": true}

// settleShot waits for the picture being taken, if any (at most
// reportShotTimeout, the capture's own bound); a capture that failed
// leaves its step with no picture. Every call on the session but those
// that only read the page goes through it first (logged), and so does
// every reader of the step log's pictures.
func (s *Session) settleShot() { s.settleShotWithin(0) }

// settleShotWithin is settleShot waiting at most d (0: the capture's own
// bound), then giving the capture up: the session's end, whose budget a
// frozen page, which draws no frame, must not take.
func (s *Session) settleShotWithin(d time.Duration) {
	l := &s.steps
	sh := l.pending
	if sh == nil {
		return
	}
	l.pending = nil
	if d > 0 {
		t := time.NewTimer(d)
		select {
		case <-sh.done:
		case <-t.C:
			sh.cancel()
		}
		t.Stop()
	}
	if sh.image() != nil {
		return
	}
	for i := range l.steps {
		if l.steps[i].shot == sh {
			l.steps[i].shot = nil
		}
	}
	if l.last.shot == sh {
		l.last = lastShot{}
	}
}

// stillShown are the tools that do not act on the page: after one, the
// picture before it is the picture after it when the page's paint mark
// did not change (browser.Page.PaintMark). An action always gets a new one.
var stillShown = map[string]bool{"browser_expect": true, "browser_wait_for": true, "browser_audit_accessibility": true}

// logged keeps each call on the session in its step log (not the calls
// that make the report and the trace of it). It sits outside diagnosed, so
// a failure is kept with its whole answer.
func logged[T any](d *Deps, name string, next sessionFunc[T]) sessionFunc[T] {
	if name == "session_report" || name == "browser_start_tracing" || name == "browser_stop_tracing" {
		return next
	}
	return func(ctx context.Context, s *Session, req mcp.CallToolRequest, args T) (*mcp.CallToolResult, error) {
		if !readsOnly[name] {
			s.settleShot()
		}
		start := time.Now()
		res, err := next(ctx, s, req, args)
		if (d.Reports || s.trace != nil) && err == nil && res != nil && s.interruptedBy() == "" && !cancelledByClient(ctx, s) {
			s.logStep(ctx, d, name, req.Params.Arguments, start, time.Since(start), res)
		}
		return res, err
	}
}

// logStep adds a call's outcome to the step log.
func (s *Session) logStep(ctx context.Context, d *Deps, tool string, raw any, start time.Time, took time.Duration, res *mcp.CallToolResult) {
	l := &s.steps
	args := map[string]any{}
	if b, err := json.Marshal(raw); err == nil {
		_ = json.Unmarshal(b, &args)
	}
	delete(args, "sessionId")
	if _, ok := args["text"].(string); ok && tool == "browser_type" && s.tabs != nil {
		if p := s.tabs.Current(); p != nil && p.LastTypeWasSecret() {
			args["text"] = redact.Mask // however short: it stands where a password does
		}
	}
	if _, ok := args["value"].(string); ok && writesValues[tool] {
		args["value"] = redact.Mask
	}
	// A dev command line the agent gave (session_start's run and args)
	// as every message shows one: a database URL's password, a
	// DB_PASSWORD=... part, a --token value masked.
	if run, ok := args["run"].(string); ok {
		args["run"] = redact.CommandLine(run)
	}
	if list, ok := args["args"].([]any); ok {
		words := make([]string, len(list))
		for i, a := range list {
			words[i], _ = a.(string)
		}
		for i, w := range redact.CommandArgs(words) {
			list[i] = w
		}
	}
	targets := map[string]string{}
	for _, k := range []string{"target", "startTarget", "endTarget"} {
		t, ok := args[k].(string)
		if !ok {
			continue
		}
		targets[k] = s.private.String(s.locator(t))
		// A ref means nothing to a reviewer: say which element it was.
		if selector.IsRef(t) && targets[k] != t {
			args[k] = t + " = " + targets[k]
		}
	}
	st := loggedStep{tool: tool, args: keepArgs(s.private.Args(args)), start: start, took: took, ok: !res.IsError, targets: targets, groups: l.groups}
	if s.tabs != nil && !s.tabs.Gone() {
		if p := s.tabs.Current(); p != nil {
			st.page = p.ID()
		}
	}
	if res.IsError {
		st.failure = keepContent(res.Content, s.private)
		e := ResultError(res)
		st.err = AnswerError{Type: e.Type, Message: text.Keep(s.private.String(e.Message), maxLoggedResult), Next: text.Keep(s.private.String(e.Next), maxLoggedResult)}
		if s.trace != nil && flow.ActionOf(tool) != "" {
			// What the page showed when the action failed, for the trace.
			st.shot = s.reportShot(false)
		}
		failures := 0
		for i := len(l.steps) - 1; i >= 0; i-- {
			old := &l.steps[i]
			if old.failure == nil || old.cut {
				continue
			}
			if failures++; failures >= maxLoggedFailures {
				old.failure = []mcp.Content{mcp.NewTextContent(text.Keep(ResultText(&mcp.CallToolResult{Content: old.failure}), maxLoggedResult) +
					"\n(the rest of this answer is not kept: a session keeps its newest failure answers whole)")}
				old.cut = true
			}
		}
	} else if revealsValues[tool] {
		st.result = "(what the browser stores is not kept in the report)"
	} else {
		st.result = text.Keep(s.private.String(ResultText(res)), maxLoggedResult)
		if (d.ReportShots || s.trace != nil) && flow.ActionOf(tool) != "" {
			st.shot = s.reportShot(stillShown[tool])
		}
	}
	if st.shot != nil {
		shots := 0
		for i := len(l.steps) - 1; i >= 0; i-- {
			if l.steps[i].shot != nil {
				if shots++; shots >= maxLoggedShots {
					l.steps[i].shot = nil
				}
			}
		}
	}
	if len(l.steps) >= maxLoggedSteps {
		l.steps = l.steps[1:]
		l.dropped++
	}
	l.steps = append(l.steps, st)
}

// keepArgs are a call's arguments as the step log keeps them: each text
// within maxLoggedArg, clipped after its secrets were masked (a secret cut
// in two would not be found), the clipping said.
func keepArgs(v map[string]any) map[string]any {
	out := make(map[string]any, len(v))
	for k, x := range v {
		out[k] = keepArg(x)
	}
	return out
}

func keepArg(v any) any {
	switch x := v.(type) {
	case string:
		return text.Keep(x, maxLoggedArg)
	case map[string]any:
		return keepArgs(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = keepArg(e)
		}
		return out
	}
	return v
}

// keepContent copies an answer's content for the log, its text bounded
// and its secrets masked.
func keepContent(in []mcp.Content, secrets *redact.Set) []mcp.Content {
	out := make([]mcp.Content, 0, len(in))
	for _, c := range in {
		if t, ok := c.(mcp.TextContent); ok {
			c = mcp.NewTextContent(text.Keep(secrets.String(t.Text), maxLoggedFailure))
		}
		out = append(out, c)
	}
	return out
}

// reportShot starts a small JPEG of the current tab's viewport, taken in
// the background (shot), or is nil when there is none to take (no tab, a
// dialog up). A capture waits for the page's next frame (about 40 ms), so
// after a check (again) it is the picture before, the same shot, when the
// tab's paint mark says nothing that paints the page changed since; the
// report then says so. One capture runs at a time. Its context is its own,
// bounded: the call it follows has returned by the time it ends.
// Called by logStep only, which holds the session.
func (s *Session) reportShot(again bool) *shot {
	if s.tabs == nil || s.tabs.Gone() {
		return nil
	}
	p := s.tabs.Current()
	if p == nil || p.Gone() || p.Dialog() != nil {
		return nil
	}
	last := &s.steps.last
	// The mark is read before the capture: a change while it is taken
	// makes the next mark differ.
	mctx, cancel := context.WithTimeout(context.Background(), reportShotTimeout)
	mark := p.PaintMark(mctx)
	cancel()
	if again && mark != "" && last.mark == mark && last.page == p.ID() && last.shot != nil {
		return last.shot // still being taken, maybe
	}
	s.settleShot()
	ctx, cancel := context.WithTimeout(context.Background(), reportShotTimeout)
	sh := &shot{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(sh.done)
		defer cancel()
		img, err := p.Screenshot(ctx, measure.ScreenshotOptions{Format: "jpeg", Quality: reportShotQuality, MaxWidth: reportShotWidth})
		if err == nil {
			sh.img, sh.at = img, time.Now()
		}
	}()
	*last = lastShot{page: p.ID(), mark: mark, shot: sh}
	s.steps.pending = sh
	return sh
}

// ReportInfo is what a caller adds to a session's report.
type ReportInfo struct {
	Title, Status, Summary string
	Meta                   []report.KV
	// Notes are said at the top (a failing step's diagnosis).
	Notes []string
	// Video is the session's video beside the report (run --video).
	Video *report.Video
}

// buildReport turns the session's step log and logs into a report.
func (d *Deps) buildReport(s *Session, info ReportInfo) report.Report {
	r := report.Report{Title: info.Title, Status: info.Status, Summary: info.Summary, Generated: time.Now(),
		Meta:         append([]report.KV{{Key: "session", Value: s.ID}, {Key: "started", Value: s.Created.UTC().Format("2006-01-02 15:04:05 UTC")}}, info.Meta...),
		DroppedSteps: s.steps.dropped, Notes: append([]string{}, info.Notes...), Video: info.Video}
	if r.Title == "" {
		r.Title = "e2e-mcp session " + s.ID
	}
	s.settleShot()
	failed, shotAt := 0, -1
	for i, st := range s.steps.steps {
		rs := report.Step{Tool: st.tool, Args: st.args, Start: st.start, Duration: st.took, OK: st.ok, Result: st.result}
		switch {
		case st.shot != nil && shotAt >= 0 && st.shot == s.steps.steps[shotAt].shot:
			// The page did not change since that picture: it is not
			// written twice.
			rs.ShotAs = shotAt + 1
		case st.shot != nil:
			img := st.shot.image()
			rs.Shot = &report.Image{MIME: "image/jpeg", Data: img, Caption: fmt.Sprintf("after step %d (%d KB)", i+1, (len(img)+1023)/1024)}
			shotAt = i
		}
		if !st.ok {
			failed++
			rs.Failure = reportParts(st.failure)
		}
		r.Steps = append(r.Steps, rs)
	}
	reportGroups(s.steps.steps, r.Steps, s.private.String)
	if r.Status == "" && r.Summary == "" {
		r.Summary = fmt.Sprintf("%d step(s), %d failed", len(s.steps.steps)+s.steps.dropped, failed)
		r.Meta = append(r.Meta, report.KV{Key: "steps", Value: r.Summary})
		r.Summary = ""
	}
	if !d.ReportShots {
		r.Notes = append(r.Notes, "Screenshots after each action are not kept by this server (the report group keeps them); failures carry their own.")
	}
	if s.dev != nil {
		dev := &report.Dev{Command: s.dev.desc}
		if s.dev.result != nil {
			dev.URL = s.dev.result.URL
		}
		if lines, note, err := d.devLogTail(s); err != nil {
			dev.LogNote = "unavailable: " + err.Error()
		} else {
			dev.Log, dev.LogNote = lines, "last stderr lines"+note
		}
		r.Dev = dev
	}
	if s.tabs != nil && !s.tabs.Gone() {
		reportLogs(s.tabs.Attached(), &r)
	}
	return r
}

// reportLogs puts the console and network logs of every open tab into the
// report, console messages in time order; each entry names its tab when
// there are several.
func reportLogs(tabs map[int]*browser.Page, r *report.Report) {
	order := slices.Sorted(maps.Keys(tabs))
	dropped, droppedReqs := 0, 0
	for _, i := range order {
		p, tab := tabs[i], ""
		if len(order) > 1 {
			tab = fmt.Sprintf("tab %d", i)
		}
		msgs, n := p.ConsoleLog()
		dropped += n
		for _, m := range msgs {
			r.Console = append(r.Console, report.Console{Tab: tab, Time: m.Time, Level: m.Level, Text: text.Keep(m.Text, 2000), Location: m.Location})
		}
		reqs, n, _ := p.NetworkRequests("", false)
		droppedReqs += n
		for _, q := range reqs {
			out := "in flight"
			if q.Done {
				out = requestOutcome(q)
			}
			r.Network = append(r.Network, report.Request{Tab: tab, Method: q.Method, URL: text.Keep(q.URL, 2000), Type: q.Type, Outcome: out, Failed: q.Failed()})
		}
	}
	slices.SortStableFunc(r.Console, func(a, b report.Console) int { return a.Time.Compare(b.Time) })
	which := "Of the open tab."
	if len(order) > 1 {
		which = fmt.Sprintf("Of the %d open tabs (closed tabs' logs are gone with them).", len(order))
	}
	r.ConsoleNote, r.NetworkNote = which, strings.TrimSuffix(which, ".")+", the newest kept."
	if dropped > 0 {
		r.ConsoleNote += fmt.Sprintf(" %d earlier message(s) are not kept.", dropped)
	}
	if droppedReqs > 0 {
		r.NetworkNote += fmt.Sprintf(" %d earlier request(s) are not kept.", droppedReqs)
	}
}

// reportParts turns an answer's content into the report's parts, in
// order: text as text, every image with a caption (its _meta caption, title
// or name when it has one), anything else named.
func reportParts(content []mcp.Content) []report.Part {
	var parts []report.Part
	n := 0
	for _, c := range content {
		switch x := c.(type) {
		case mcp.TextContent:
			parts = append(parts, report.Part{Text: x.Text})
		case mcp.ImageContent:
			n++
			im := &report.Image{MIME: x.MIMEType}
			data, err := base64.StdEncoding.DecodeString(x.Data)
			if err == nil {
				im.Data = data
			} else {
				im.MIME = "undecodable " + x.MIMEType
			}
			im.Caption = fmt.Sprintf("image %d of the answer (%s, %d KB)", n, x.MIMEType, (len(data)+1023)/1024)
			if x.Meta != nil {
				for _, k := range []string{"caption", "title", "name"} {
					if v, ok := x.Meta.AdditionalFields[k].(string); ok && v != "" {
						im.Caption = v + " — " + im.Caption
						break
					}
				}
			}
			parts = append(parts, report.Part{Image: im})
		case mcp.EmbeddedResource:
			if r, ok := x.Resource.(mcp.TextResourceContents); ok {
				parts = append(parts, report.Part{Text: r.URI + "\n" + text.Clip(r.Text, maxLoggedFailure)})
			} else {
				parts = append(parts, report.Part{Text: "(an embedded resource)"})
			}
		default:
			parts = append(parts, report.Part{Text: fmt.Sprintf("(a %T content item)", c)})
		}
	}
	return parts
}

// renderReport is the session's report as HTML.
func (d *Deps) renderReport(s *Session, info ReportInfo) ([]byte, report.Report, error) {
	r := d.buildReport(s, info)
	b, err := report.Render(r, report.Options{Secrets: s.private})
	return b, r, err
}

// SessionReport renders the report of session id (the flow runner's
// sessions), holding it for the length of the call.
func (d *Deps) SessionReport(ctx context.Context, id string, info ReportInfo) ([]byte, error) {
	s, _, err := d.Sessions.acquire(ctx, id, "session_report")
	if err != nil {
		return nil, err
	}
	defer s.release()
	b, _, err := d.renderReport(s, info)
	return b, err
}

// SessionReportParams are the arguments of session_report.
type SessionReportParams struct {
	Path string `json:"path,omitempty" jsonschema:"File to write (file roots)"`
	SessionArg
}

func sessionReportTool(d *Deps) Tool {
	return define(d, "session_report", ToolsetSession,
		"The session's steps, screenshots, failures and logs as one HTML file.",
		annotations{title: "Session report", destructive: true, openWorld: false},
		func(ctx context.Context, s *Session, a SessionReportParams) (*mcp.CallToolResult, error) {
			b, r, err := d.renderReport(s, ReportInfo{})
			if err != nil {
				return nil, err
			}
			out, err := d.outputPath(ctx, "path", a.Path, "report-*.html")
			if err != nil {
				return nil, err
			}
			if err := out.write(b); err != nil {
				out.discard()
				return nil, err
			}
			shots := 0
			for _, st := range r.Steps {
				if st.Shot != nil {
					shots++
				}
			}
			var res response
			res.resultf("Wrote the report of session %s (%d steps, %d screenshots, %d KB) to %s", s.ID, len(r.Steps), shots, (len(b)+1023)/1024, out.path)
			res.set("path", out.path)
			res.set("steps", len(r.Steps))
			return res.build(), nil
		})
}
