package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/eventlog"
	"github.com/e2e-mcp/e2e-mcp/browser/measure"
	"github.com/e2e-mcp/e2e-mcp/devserver"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/logs"
	"github.com/mark3labs/mcp-go/mcp"
	"go.uber.org/zap"
)

// A failed step answers with what is needed to find the root cause in one
// response (docs/architecture.md §6): the error with its context, then a
// screenshot, the dev server's stderr tail, the page's console errors and
// failed requests since the previous call, and on a timeout the dev-server
// command's --status answer. Every part is bounded, and one part that
// cannot be had is said in one line and never hides the others.

// Bounds of the parts of a failure response.
const (
	maxArgsBytes      = 500       // the arguments in the context line
	maxLogLineBytes   = 400       // one dev-server log line
	maxDevLogBytes    = 16 << 10  // the dev-server log part
	maxDiagConsole    = 20        // console errors shown
	maxDiagRequests   = 20        // failed requests shown
	maxStatusBytes    = 2 << 10   // the --status answer
	maxScreenshotSize = 400 << 10 // a larger screenshot is left out
	diagTimeout       = 5 * time.Second
	maxErrorHistory   = 50      // failures a session keeps for session_errors
	maxErrorMessage   = 4 << 10 // the message kept of each
)

// errorRecord is one failure in a session's history.
type errorRecord struct {
	Time      time.Time `json:"time"`
	Tool      string    `json:"tool"`
	Type      string    `json:"type"`
	Message   string    `json:"message"`
	Arguments string    `json:"arguments,omitempty"`
	// Carried names the diagnostics the response carried.
	Carried []string `json:"carried,omitempty"`
}

// diagnosable says whether a failure of this type gets the page and
// dev-server diagnostics: not for bad arguments or refused requests, where
// the message says all there is.
func diagnosable(toolset string, typ ErrorType) bool {
	if toolset == ToolsetSession {
		return false // dev-server failures carry their own stderr and logs (devError)
	}
	switch typ {
	case ErrInvalidInput, ErrSessionRequired, ErrNotAllowed, ErrCapacityExceeded, ErrBusy, ErrSessionEnded, ErrRateLimited, ErrFileChooserOpen:
		return false
	}
	return true
}

// failure builds the isError result of a failed call and records it in the
// session's error history.
func (d *Deps) failure(ctx context.Context, s *Session, tool, toolset string, req mcp.CallToolRequest, err error) *mcp.CallToolResult {
	typ, msg, hint := classify(err)
	msg, hint = s.secrets.String(msg), s.secrets.String(hint)
	now := time.Now().UTC()
	// The arguments as the answer shows them: the agent's own secrets
	// masked where they stand (a password argument, the text typed into a
	// password field), those it never saw everywhere. What every other
	// writer shows is masked again by its own set.
	masked := s.private.Positions(s.secrets.Value(req.Params.Arguments))
	args := compactArgs(masked)
	var b strings.Builder
	errorHead(&b, typ, msg, hint)
	fmt.Fprintf(&b, "Context: session %s, %s %s, at %s\n", s.ID, tool, args, now.Format("15:04:05.000Z"))
	errInfo := errorInfo(tool, typ, msg, hint)
	errInfo["session"], errInfo["arguments"], errInfo["time"] = s.ID, json.RawMessage(argsJSON(masked)), now
	structured := map[string]any{"error": errInfo}
	var images []mcp.Content
	var carried []string
	var te *ToolError
	attach := errors.As(err, &te) && len(te.Attach) > 0
	if diagnosable(toolset, typ) {
		diag := map[string]any{}
		images, carried = d.diagnose(ctx, s, typ, attach, &b, diag)
		if len(diag) > 0 {
			structured["diagnostics"] = diag
		}
	}
	s.recordError(errorRecord{Time: now, Tool: tool, Type: string(typ), Message: text.Keep(msg, maxErrorMessage), Arguments: args, Carried: carried})
	res := mcp.NewToolResultError(strings.TrimRight(b.String(), "\n"))
	res.Content = append(res.Content, images...)
	if attach {
		// Each image after its caption, so that a reader (or a report
		// rendering them) knows which is which.
		for _, a := range te.Attach {
			res.Content = append(res.Content, mcp.NewTextContent(a.Caption), mcp.NewImageContent(browser.EncodeBase64(a.Data), a.MIME))
		}
	}
	res.StructuredContent = structured
	return res
}

// diagnose adds the parts that are available, each on its own: a failing
// part says why in one line.
// A failure that attaches images of its own (a visual check's) gets no
// screenshot besides them.
func (d *Deps) diagnose(ctx context.Context, s *Session, typ ErrorType, attached bool, b *strings.Builder, diag map[string]any) (images []mcp.Content, carried []string) {
	part := func(name string, fn func() error) {
		defer func() {
			if r := recover(); r != nil {
				d.Logger.Error("diagnostics part panicked", zap.String("part", name), zap.Any("panic", r))
				fmt.Fprintf(b, "(%s unavailable: internal error)\n", name)
			}
		}()
		if err := fn(); err != nil {
			fmt.Fprintf(b, "(%s unavailable: %v)\n", name, err)
		}
	}
	var p *browser.Page
	if s.tabs != nil && !s.tabs.Gone() {
		if c := s.tabs.Current(); c != nil && !c.Gone() {
			p = c
		}
	}
	if p != nil && attached {
		fmt.Fprintf(b, "Screenshot at the failure: the actual image below.\n")
	} else if p != nil {
		part("screenshot", func() error {
			if dl := p.Dialog(); dl != nil {
				return fmt.Errorf("a %s dialog blocks the page", dl.Type)
			}
			cctx, cancel := context.WithTimeout(ctx, diagTimeout)
			defer cancel()
			img, err := p.Screenshot(cctx, measure.ScreenshotOptions{Format: "jpeg"})
			for try := 0; err != nil && try < 5 && strings.Contains(err.Error(), "Not attached to an active page"); try++ {
				// Chrome swaps in an error page's renderer after a failed
				// navigation; capturing works again a moment later.
				select {
				case <-cctx.Done():
				case <-time.After(100 * time.Millisecond):
				}
				img, err = p.Screenshot(cctx, measure.ScreenshotOptions{Format: "jpeg"})
			}
			if err != nil {
				return err
			}
			if len(img) > maxScreenshotSize {
				return fmt.Errorf("%d KB is over the %d KB cap; call browser_take_screenshot", len(img)>>10, maxScreenshotSize>>10)
			}
			images = append(images, mcp.NewImageContent(browser.EncodeBase64(img), "image/jpeg"))
			fmt.Fprintf(b, "Screenshot at the failure: attached (JPEG, %d KB).\n", (len(img)+1023)/1024)
			diag["screenshot"] = true
			carried = append(carried, "screenshot")
			return nil
		})
	}
	if s.dev != nil {
		part("dev server log", func() error {
			lines, note, err := d.devLogTail(s)
			if err != nil {
				return err
			}
			fmt.Fprintf(b, "### Dev server log (last %d stderr lines%s)\n```\n%s\n```\n", len(lines), note, strings.Join(lines, "\n"))
			diag["devLog"] = lines
			carried = append(carried, "dev server log")
			return nil
		})
	}
	if p != nil {
		part("console errors", func() error {
			console, dropped := p.TakeEvents()
			if len(console) == 0 {
				return nil
			}
			shown := console[max(0, len(console)-maxDiagConsole):]
			cut := len(console) - len(shown) + dropped
			fmt.Fprintf(b, "### Console errors (since the previous call: %d)\n", len(console)+dropped)
			if cut > 0 {
				fmt.Fprintf(b, "(%d earlier ones left out; browser_console_messages level=error lists the page's)\n", cut)
			}
			for _, m := range shown {
				fmt.Fprintf(b, "- %s: %s", m.Level, text.Clip(m.Text, 300))
				if m.Location != "" {
					fmt.Fprintf(b, " (%s)", text.Clip(m.Location, 120))
				}
				b.WriteByte('\n')
				if m.Stack != "" {
					for _, f := range text.FirstLines(m.Stack, 3) {
						fmt.Fprintf(b, "    %s\n", text.Clip(f, 160))
					}
				}
			}
			diag["console"] = shown
			carried = append(carried, "console errors")
			return nil
		})
		part("failed requests", func() error {
			failed := p.TakeFailedRequests()
			if len(failed) == 0 {
				return nil
			}
			shown := failed[max(0, len(failed)-maxDiagRequests):]
			fmt.Fprintf(b, "### Failed requests (since the previous call: %d)\n", len(failed))
			if cut := len(failed) - len(shown); cut > 0 {
				fmt.Fprintf(b, "(%d earlier ones left out; browser_network_requests failedOnly=true lists all kept)\n", cut)
			}
			for _, r := range shown {
				fmt.Fprintf(b, "- %s %s -> %s\n", r.Method, text.Clip(r.URL, 200), requestOutcome(r))
			}
			diag["failedRequests"] = shown
			carried = append(carried, "failed requests")
			return nil
		})
	}
	if typ == ErrTimeout && s.dev != nil {
		part("dev server status", func() error {
			cctx, cancel := context.WithTimeout(ctx, diagTimeout)
			defer cancel()
			res, err := s.dev.server.Do(cctx, devserver.Status)
			if err != nil {
				return err
			}
			raw, _ := json.Marshal(res)
			fmt.Fprintf(b, "### Dev server status (--status, on timeout)\n%s\n", text.Clip(string(raw), maxStatusBytes))
			diag["status"] = res
			carried = append(carried, "dev server status")
			return nil
		})
	}
	return images, carried
}

// devLogTail is the last lines of the dev server's stderr (or its combined
// log when it reports no stderr), each line and the whole bounded.
func (d *Deps) devLogTail(s *Session) (lines []string, note string, err error) {
	lg := s.dev.result.Logs
	path := lg.Stderr
	if path == "" {
		path, note = lg.Combined, ", combined log"
	}
	if path == "" {
		return nil, "", fmt.Errorf("the dev-server command reported no stderr log")
	}
	n := d.ErrorLogLines
	if n <= 0 {
		n = 100
	}
	c, err := logs.Read(path, logs.ReadOptions{Lines: n, Since: -1, MaxBytes: 4 * maxDevLogBytes})
	if err != nil {
		return nil, "", err
	}
	lines = c.Lines
	long := 0
	for i, l := range lines {
		if len(l) > maxLogLineBytes {
			lines[i] = l[:maxLogLineBytes] + "…"
			long++
		}
	}
	total, first := 0, len(lines)
	for first > 0 && total+len(lines[first-1])+1 <= maxDevLogBytes {
		first--
		total += len(lines[first]) + 1
	}
	if cut := first + c.Dropped; cut > 0 || c.Skipped > 0 || long > 0 {
		note += fmt.Sprintf("; cut to %d KB: %d earlier line(s) and %d long line end(s) left out, server_logs reads more", maxDevLogBytes>>10, cut, long)
	}
	return lines[first:], note, nil
}

// requestOutcome says how a failed request ended.
func requestOutcome(r eventlog.NetworkRequest) string {
	var out string
	if r.Status > 0 {
		out = fmt.Sprintf("%d %s", r.Status, r.StatusText)
	}
	if r.Failure != "" {
		out = strings.TrimSpace(out + " " + r.Failure)
	}
	return fmt.Sprintf("%s (%s, %.0f ms)", out, r.Type, r.DurationMS)
}

// compactArgs renders a call's arguments for the context line, bounded.
func compactArgs(args any) string {
	return text.Clip(string(argsJSON(args)), maxArgsBytes)
}

func argsJSON(args any) []byte {
	if args == nil {
		return []byte("{}")
	}
	b, err := json.Marshal(args)
	if err != nil {
		return []byte("{}")
	}
	return b
}

// recordError keeps a failure in the session's history, newest last.
func (s *Session) recordError(e errorRecord) {
	if len(s.errors) >= maxErrorHistory {
		s.errors = s.errors[1:]
	}
	s.errors = append(s.errors, e)
}

// SessionErrorsParams are the arguments of session_errors.
type SessionErrorsParams struct {
	SessionArg
}

func sessionErrorsTool(d *Deps) Tool {
	return define(d, "session_errors", ToolsetSession,
		"The session's failed calls, newest first.",
		annotations{title: "Error history", readOnly: true, idempotent: true, openWorld: false},
		func(_ context.Context, s *Session, _ SessionErrorsParams) (*mcp.CallToolResult, error) {
			var r response
			if len(s.errors) == 0 {
				r.resultf("No failures in session %s.", s.ID)
				r.set("errors", []errorRecord{})
				return r.build(), nil
			}
			r.resultf("%d failure(s) in session %s, newest first (the last %d are kept):", len(s.errors), s.ID, maxErrorHistory)
			out := make([]errorRecord, 0, len(s.errors))
			for i := len(s.errors) - 1; i >= 0; i-- {
				e := s.errors[i]
				out = append(out, e)
				r.resultf("%d. %s %s %s: %s", len(out), e.Time.Format("15:04:05.000Z"), e.Tool, e.Type, text.Clip(e.Message, 300))
				r.resultf("   arguments: %s", e.Arguments)
				if len(e.Carried) > 0 {
					r.resultf("   the response carried: %s", strings.Join(e.Carried, ", "))
				}
			}
			r.set("errors", out)
			return r.build(), nil
		})
}

// SessionConsoleErrors are the console errors and uncaught exceptions the
// open tabs of session id have kept, oldest first, read without marking
// them read, as a report reads them (the flow runner's sessions: a failing
// step's answer has only those since the step before).
func (d *Deps) SessionConsoleErrors(ctx context.Context, id string) ([]eventlog.ConsoleMessage, error) {
	s, _, err := d.Sessions.acquire(ctx, id, "session_console")
	if err != nil {
		return nil, err
	}
	defer s.release()
	if s.tabs == nil || s.tabs.Gone() {
		return nil, nil
	}
	var out []eventlog.ConsoleMessage
	for _, p := range s.tabs.Attached() {
		msgs, _ := p.ConsoleLog()
		for _, m := range msgs {
			if m.Level == "error" || m.Level == "exception" {
				out = append(out, m)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b eventlog.ConsoleMessage) int { return a.Time.Compare(b.Time) })
	return out, nil
}
