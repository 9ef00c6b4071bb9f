package mcptools

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/eventlog"
	"github.com/e2e-mcp/e2e-mcp/browser/selector"
	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/flow/playwright"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/e2e-mcp/e2e-mcp/trace"
	"github.com/mark3labs/mcp-go/mcp"
	"go.uber.org/zap"
)

// A session traces (browser_start_tracing to browser_stop_tracing, every
// session with --save-trace, every flow with `run --trace`): its step log
// keeps every call and a small screenshot after each action while it does
// (steplog.go), and stopping turns the calls since the start, and the
// console and network logs of its open tabs, into a trace in Playwright's
// format (package trace), which Playwright's Trace Viewer opens. Every text
// of it goes through the session's private set, as the report's do (§12):
// a password typed is masked in the action, and in the page's requests.

// traceState is a session's trace while it records.
type traceState struct {
	start time.Time
	// first is the number of the trace's first step among all the step
	// log has held: the steps it lets go from there on were the trace's.
	first int
	// save is where the session's end writes the trace (--save-trace),
	// chosen when it started, with the caller's file roots; nil when the
	// trace is the agent's (browser_stop_tracing) or the runner's.
	save *outputFile
	// testID is the attribute getByTestId reads (--test-id-attribute).
	testID string
}

// maxBodyFetch bounds the time stopping a trace spends asking Chrome for
// response bodies; what is not fetched by then is left out, and said. A
// trace built by a deadline (a session's end) gives the bodies at most half
// the time left, the rest being for the zip, the file and what follows.
// A tab's renderer answers for its bodies: one that lets a body's question
// wait bodyWait (a page in an endless loop) is asked for no more of them.
const (
	maxBodyFetch = 10 * time.Second
	bodyWait     = time.Second
)

// startTrace starts recording the session's trace.
func (d *Deps) startTrace(s *Session, save *outputFile) {
	st := &traceState{start: time.Now(), first: s.steps.dropped + len(s.steps.steps), save: save}
	if d.Browser != nil {
		st.testID = d.Browser.TestIDAttribute()
	}
	s.trace = st
}

// autoTrace starts the session's trace at its first call when every
// session traces (--save-trace, `run --trace`): once, so that an agent
// that stops it is not overruled.
func (d *Deps) autoTrace(ctx context.Context, s *Session) {
	if !d.TraceSessions || s.traceAuto {
		return
	}
	s.traceAuto = true
	if d.RecordSession != nil {
		if trace, _ := d.RecordSession(s.ID); !trace {
			return
		}
	}
	var save *outputFile
	if d.SaveTraces {
		name := fmt.Sprintf("trace-%s-%s.zip", strings.ReplaceAll(s.ID, ":", "-"), time.Now().Format("20060102-150405"))
		o, err := d.serverFile(ctx, "trace", d.traceDir(), name)
		if err != nil {
			d.Logger.Warn("the session's trace will not be saved", zap.String("session", s.ID), zap.Error(err))
		}
		save = o
	}
	d.startTrace(s, save)
}

// traceDir is the directory --save-trace writes traces to, in the first
// write root (the caller's own directory over HTTP).
func (d *Deps) traceDir() string {
	if d.Remote {
		return "traces"
	}
	return "e2e-mcp-traces"
}

// endTrace writes the trace of a session that ends while it records, when
// the server saves traces (--save-trace) and the session did something;
// otherwise the trace is dropped, as Playwright drops one never stopped.
// It runs before the session's tabs close: their logs are part of it.
func (s *Session) endTrace(ctx context.Context, log *zap.Logger) {
	st := s.trace
	s.trace = nil
	if st == nil || st.save == nil {
		return
	}
	t, n := s.buildTrace(ctx, st, "e2e-mcp session "+s.ID)
	if n.actions == 0 {
		return // nothing to watch
	}
	b, err := t.Zip()
	out := st.save
	if err == nil {
		out, _, err = st.save.createNumbered(bytes.NewReader(b))
	}
	if err != nil {
		log.Warn("the session's trace could not be saved", zap.String("session", s.ID), zap.Error(err))
		return
	}
	log.Info("trace saved", zap.String("session", s.ID), zap.String("path", out.path))
}

// stopTrace ends the session's trace and returns it, with what it counts.
func (s *Session) stopTrace(ctx context.Context, title string) (*trace.Trace, traceCounts, error) {
	st := s.trace
	if st == nil {
		msg := "Tracing is not started in session " + s.ID
		if s.lastTrace != "" {
			// Its answer may not have reached the client (cancelled).
			msg += "; its last trace " + s.lastTrace
		}
		return nil, traceCounts{}, &ToolError{Type: ErrInvalidInput, Message: msg,
			Suggestion: "call browser_start_tracing first, then act; browser_stop_tracing saves what was done since"}
	}
	s.trace = nil
	t, n := s.buildTrace(ctx, st, title)
	return t, n, nil
}

// traceCounts says what a trace holds.
type traceCounts struct {
	actions, shots, console, requests int
}

// buildTrace turns the calls since the trace started, and the console and
// network logs of the session's open tabs since then, into a trace, its
// texts masked with the session's private set.
func (s *Session) buildTrace(ctx context.Context, st *traceState, title string) (*trace.Trace, traceCounts) {
	t := &trace.Trace{Title: s.private.String(title), Browser: "chromium", Start: st.start}
	var n traceCounts
	t.TestIDAttribute = st.testID
	if lost := s.steps.dropped - st.first; lost > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("the first %d calls of this trace are not kept (a session keeps its newest %d calls)", lost, maxLoggedSteps))
	}
	s.settleShot()
	noShot := 0
	var traced []loggedStep
	for i, step := range s.steps.steps {
		if s.steps.dropped+i < st.first {
			continue // logged before the trace started
		}
		traced = append(traced, step)
		t.Actions = append(t.Actions, traceAction(step, st.testID))
		n.actions++
		if step.shot != nil {
			n.shots++
		} else if flow.ActionOf(step.tool) != "" {
			noShot++
		}
	}
	t.Actions = traceGroups(traced, t.Actions, s.private.String)
	if noShot > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d actions have no screenshot (a session keeps its newest %d; a capture can fail)", noShot, maxLoggedShots))
	}
	if s.tabs != nil && !s.tabs.Gone() {
		s.traceTabs(ctx, st, t, &n)
	}
	t.Notes = append(t.Notes, fmt.Sprintf("console and network: of the tabs open when the trace stopped (a tab keeps its newest %d requests; a text longer than its bound is clipped where it was kept, marked …[clipped N bytes]); no DOM snapshots: each action's pane shows the screenshot after it",
		eventlog.MaxNetworkRecords))
	return t, n
}

// traceTabs adds the console messages and requests of the session's open
// tabs since the trace started, with the requests' headers and, within
// the budget, their bodies.
func (s *Session) traceTabs(ctx context.Context, st *traceState, t *trace.Trace, n *traceCounts) {
	tabs := s.tabs.Attached()
	fetchUntil := time.Now().Add(maxBodyFetch)
	if d, ok := ctx.Deadline(); ok {
		fetchUntil = earlier(fetchUntil, time.Now().Add(time.Until(d)/2))
	}
	fetched, unfetched, unanswered, droppedConsole, droppedReqs := 0, 0, 0, 0, 0
	for _, i := range slices.Sorted(maps.Keys(tabs)) {
		p := tabs[i]
		page := pageRef(p.ID())
		busy := false // the tab let a body's question wait bodyWait
		msgs, lost := p.ConsoleLog()
		if lost > 0 && (len(msgs) == 0 || msgs[0].Time.After(st.start)) {
			droppedConsole += lost
		}
		for _, m := range msgs {
			if !m.Time.Before(st.start) {
				t.Console = append(t.Console, traceConsole(page, m, s.private))
				n.console++
			}
		}
		reqs, lostReqs, _ := p.NetworkRequests("", false)
		if lostReqs > 0 && (len(reqs) == 0 || !reqs[0].Start.Before(st.start)) {
			droppedReqs += lostReqs
		}
		for _, q := range reqs {
			if q.Start.Before(st.start) {
				continue
			}
			var d *eventlog.RequestDetail
			var err error
			switch {
			case busy:
				unanswered++
				if d, err = p.RequestHeaders(q.Seq); err == nil {
					d.BodyError = "not fetched: the tab did not answer (its page is busy)"
				}
			case fetched < trace.MaxBodies && time.Now().Before(fetchUntil):
				bctx, cancel := context.WithDeadline(ctx, earlier(fetchUntil, time.Now().Add(bodyWait)))
				d, err = p.RequestDetail(bctx, q.Seq)
				late := bctx.Err() != nil
				cancel()
				switch {
				case late && ctx.Err() == nil && time.Now().Before(fetchUntil):
					// Not the budget's end: the tab's own silence.
					busy = true
					unanswered++
					noBody(d, "not fetched: the tab did not answer (its page is busy)")
				case late:
					unfetched++
					noBody(d, "not fetched: the trace's bodies reached their budget")
				case err == nil:
					fetched += len(d.Body) + len(d.PostData)
				}
			default:
				unfetched++
				if d, err = p.RequestHeaders(q.Seq); err == nil {
					d.BodyError = "not fetched: the trace's bodies reached their budget"
				}
			}
			if err != nil {
				d = &eventlog.RequestDetail{NetworkRequest: q}
			}
			t.Requests = append(t.Requests, traceRequest(page, d, s.private))
			n.requests++
		}
	}
	if droppedConsole > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("up to %d console messages of this trace are not kept (a tab keeps its newest %d, a session %d MB of logs)",
			droppedConsole, eventlog.MaxConsoleRecords, eventlog.MaxSessionLogBytes>>20))
	}
	if droppedReqs > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("up to %d requests of this trace are not kept (a tab keeps its newest %d, a session %d MB of logs)",
			droppedReqs, eventlog.MaxNetworkRecords, eventlog.MaxSessionLogBytes>>20))
	}
	if unanswered > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d request and response bodies were not fetched: their tab did not answer within %s (its page is busy, as one in an endless loop is)", unanswered, bodyWait))
	}
	if unfetched > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d response bodies were not fetched: the trace's bodies reached %d MB or their time (at most %s)", unfetched, trace.MaxBodies>>20, maxBodyFetch))
	}
}

// earlier is the earlier of two times.
func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// noBody drops what was fetched of a request's bodies, saying why.
func noBody(d *eventlog.RequestDetail, why string) {
	if d != nil {
		d.Body, d.PostData, d.BodyError = nil, "", why
	}
}

// traceAction is a logged call as a trace's action.
func traceAction(st loggedStep, testID string) trace.Action {
	a := trace.Action{Page: pageRef(st.page), Start: st.start, End: st.start.Add(st.took)}
	a.Class, a.Method, a.Title, a.Params = traceCall(st)
	if sel := st.targets["target"]; sel != "" {
		a.Selector = sel
		if !selector.IsRef(sel) {
			a.Locator, _ = playwright.Locator(sel, testID)
		}
	}
	if st.shot != nil {
		a.After = &trace.Image{Data: st.shot.image(), Time: st.shot.at}
	}
	if !st.ok {
		msg := st.err.Type + ": " + st.err.Message
		if st.err.Next != "" {
			msg += "\nNext: " + st.err.Next
		}
		a.Error = &trace.Error{Name: st.err.Type, Message: msg}
	}
	return a
}

// pageRef is a tab's name in a trace.
func pageRef(id string) string {
	if id == "" {
		return ""
	}
	return "page@" + id
}

// traceCall names a call as a trace's action: the Playwright API call that
// does what the tool did, with the parameters the viewer's title of it
// reads, so that the action list reads like a Playwright test; a tool
// with no such call keeps its name, with its arguments. The tool's name
// is among the parameters either way.
func traceCall(st loggedStep) (class, method, title string, params map[string]any) {
	a := st.args
	params = map[string]any{"tool": st.tool}
	for k, v := range a {
		if k != "target" {
			params[k] = v
		}
	}
	str := func(k string) string { s, _ := a[k].(string); return s }
	set := func(c, m string, kv ...any) {
		class, method = c, m
		for i := 0; i+1 < len(kv); i += 2 {
			params[kv[i].(string)] = kv[i+1]
		}
	}
	switch st.tool {
	case "browser_navigate":
		set("Frame", "goto")
	case "browser_navigate_back":
		set("Page", "goBack")
	case "browser_navigate_forward":
		set("Page", "goForward")
	case "browser_reload":
		set("Page", "reload")
	case "browser_click":
		if b, _ := a["doubleClick"].(bool); b {
			set("Frame", "dblclick")
		} else {
			set("Frame", "click")
		}
	case "browser_type":
		if b, _ := a["slowly"].(bool); b {
			set("Frame", "type")
		} else {
			set("Frame", "fill", "value", a["text"])
			delete(params, "text")
		}
	case "browser_select_option":
		set("Frame", "selectOption", "options", a["values"])
	case "browser_check":
		set("Frame", "check")
	case "browser_uncheck":
		set("Frame", "uncheck")
	case "browser_hover":
		set("Frame", "hover")
	case "browser_drag":
		set("Frame", "dragAndDrop", "source", st.targets["startTarget"], "target", st.targets["endTarget"])
	case "browser_press_key":
		set("Page", "keyboardPress")
	case "browser_file_upload":
		set("Frame", "setInputFiles", "localPaths", a["paths"])
	case "browser_expect":
		set("Frame", "expect", "expression", expectMatcher(str("check")))
	case "browser_take_screenshot":
		set("Page", "screenshot")
	case "browser_evaluate":
		set("Frame", "evaluateExpression", "expression", a["function"])
	case "browser_resize":
		set("Page", "setViewportSize", "viewportSize", map[string]any{"width": a["width"], "height": a["height"]})
	case "browser_close":
		set("Page", "close")
	case "browser_mouse_click_xy":
		set("Page", "mouseClick")
	case "browser_mouse_move_xy":
		set("Page", "mouseMove")
	case "browser_mouse_wheel":
		set("Page", "mouseWheel")
	case "browser_handle_dialog":
		if b, _ := a["accept"].(bool); b {
			set("Dialog", "accept")
		} else {
			set("Dialog", "dismiss")
		}
	case "browser_wait_for":
		if _, ok := a["target"]; ok {
			set("Frame", "waitForSelector")
		}
	}
	if class == "" {
		class, method, title = "e2e-mcp", st.tool, st.tool+argsLine(a)
	}
	return class, method, title, params
}

// expectMatcher is browser_expect's check as the matcher a Playwright test
// would call.
func expectMatcher(check string) string {
	m := map[string]string{"visible": "toBeVisible", "hidden": "toBeHidden", "enabled": "toBeEnabled",
		"disabled": "toBeDisabled", "checked": "toBeChecked", "unchecked": "not.toBeChecked", "text": "toContainText",
		"value": "toHaveValue", "count": "toHaveCount", "screenshot": "toHaveScreenshot"}[check]
	if m == "" {
		return check
	}
	return m
}

// argsLine is a call's plain arguments after its name, briefly: what the
// action list shows of a tool Playwright has no call for.
func argsLine(a map[string]any) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(a)) {
		switch v := a[k].(type) {
		case string:
			parts = append(parts, k+"="+strconv.Quote(text.Clip(v, 60)))
		case float64, bool:
			parts = append(parts, fmt.Sprintf("%s=%v", k, v))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + text.Clip(strings.Join(parts, " "), 160)
}

// traceConsole is a console message as a trace's.
func traceConsole(page string, m eventlog.ConsoleMessage, secrets *redact.Set) trace.Console {
	c := trace.Console{Page: page, Time: m.Time, Level: m.Level, Text: secrets.String(m.Text),
		Exception: m.Level == "exception", Stack: secrets.String(m.Stack)}
	// Location is url:line:column; the URL has colons of its own.
	loc := secrets.String(m.Location)
	c.URL = loc
	if i := strings.LastIndexByte(loc, ':'); i > 0 {
		if col, err := strconv.Atoi(loc[i+1:]); err == nil {
			if j := strings.LastIndexByte(loc[:i], ':'); j > 0 {
				if line, err := strconv.Atoi(loc[j+1 : i]); err == nil {
					c.URL, c.Line, c.Column = loc[:j], line, col
				}
			}
		}
	}
	return c
}

// traceRequest is a request as a trace's: every text masked, a credential
// header's value whole.
func traceRequest(page string, d *eventlog.RequestDetail, secrets *redact.Set) trace.Request {
	q := d.NetworkRequest
	r := trace.Request{Page: page, Start: q.Start, Method: q.Method, URL: secrets.String(q.URL), Type: q.Type,
		Duration: time.Duration(q.DurationMS * float64(time.Millisecond)), Status: int(q.Status),
		StatusText: q.StatusText, Failure: q.Failure, MIME: d.MimeType, BodyNote: d.BodyError}
	if !q.Done {
		r.BodyNote = "in flight when the trace stopped"
	}
	hs := func(h map[string]string) []trace.Header {
		var out []trace.Header
		for _, k := range slices.Sorted(maps.Keys(h)) {
			v := secrets.String(h[k])
			if redact.IsSecretHeader(k) {
				v = redact.Mask
			}
			out = append(out, trace.Header{Name: k, Value: v})
		}
		return out
	}
	r.RequestHeaders, r.ResponseHeaders = hs(d.RequestHeaders), hs(d.ResponseHeaders)
	if d.PostData != "" {
		r.PostData = secrets.Bytes([]byte(d.PostData))
	}
	if len(d.Body) > 0 {
		r.Body = secrets.Bytes(d.Body)
	}
	return r
}

// SessionTrace stops the trace of session id (the flow runner's sessions,
// which trace from their start) and returns it as a zip, holding the
// session for the length of the call.
func (d *Deps) SessionTrace(ctx context.Context, id, title string) ([]byte, error) {
	s, _, err := d.Sessions.acquire(ctx, id, "browser_stop_tracing")
	if err != nil {
		return nil, err
	}
	defer s.release()
	if s.trace == nil {
		// A flow that failed before its first call: its trace is empty.
		d.startTrace(s, nil)
	}
	t, _, err := s.stopTrace(ctx, title)
	if err != nil {
		return nil, err
	}
	return t.Zip()
}

// StartTracingParams are the arguments of browser_start_tracing.
type StartTracingParams struct {
	SessionArg
}

func startTracingTool(d *Deps) Tool {
	return define(d, "browser_start_tracing", ToolsetSession,
		"Start recording a trace for Playwright's Trace Viewer: actions, screenshots, console, network.",
		annotations{title: "Start tracing", idempotent: true, openWorld: false},
		func(_ context.Context, s *Session, _ StartTracingParams) (*mcp.CallToolResult, error) {
			var r response
			if s.trace != nil {
				r.resultf("Session %s has been tracing since %s; the trace goes on. browser_stop_tracing saves it.", s.ID, s.trace.start.Format("15:04:05"))
				return r.build(), nil
			}
			d.startTrace(s, nil)
			r.resultf("Trace recording started for session %s: every call from now on, a screenshot after each action, and the tabs' console and network. browser_stop_tracing saves it.", s.ID)
			return r.build(), nil
		})
}

// StopTracingParams are the arguments of browser_stop_tracing.
type StopTracingParams struct {
	Path string `json:"path,omitempty" jsonschema:"Zip to write (file roots). Omit: traces/ of the output dir, else a temp file"`
	SessionArg
}

func stopTracingTool(d *Deps) Tool {
	return define(d, "browser_stop_tracing", ToolsetSession,
		"Stop the trace and save it as a zip: npx playwright show-trace opens it.",
		annotations{title: "Stop tracing", destructive: true, openWorld: false},
		func(ctx context.Context, s *Session, a StopTracingParams) (*mcp.CallToolResult, error) {
			if s.trace == nil {
				_, _, err := s.stopTrace(ctx, "")
				return nil, err
			}
			// Without path: traces/ of the output directory the operator
			// named, where Playwright MCP's go, else a temp file.
			var out *outputFile
			var err error
			if a.Path == "" {
				out, err = d.outputDirFile(ctx, "path", "traces", fmt.Sprintf("trace-%d.zip", time.Now().UnixMilli()))
			}
			if out == nil && err == nil {
				out, err = d.outputPath(ctx, "path", a.Path, "trace-*.zip")
			}
			if err != nil {
				return nil, err
			}
			t, n, err := s.stopTrace(ctx, "e2e-mcp session "+s.ID)
			if err != nil {
				out.discard()
				return nil, err
			}
			b, err := t.Zip()
			if err == nil {
				err = out.write(b)
			}
			if err != nil {
				out.discard()
				return nil, err
			}
			var r response
			r.resultf("Wrote the trace of session %s (%d actions, %d screenshots, %d console messages, %d requests; %d KB) to %s",
				s.ID, n.actions, n.shots, n.console, n.requests, (len(b)+1023)/1024, out.path)
			r.resultf("Open it with: npx playwright show-trace %s (or at https://trace.playwright.dev)", out.path)
			s.lastTrace = fmt.Sprintf("was written at %s to %s", time.Now().Format("15:04:05"), out.path)
			r.set("path", out.path)
			r.set("actions", n.actions)
			return r.build(), nil
		})
}
