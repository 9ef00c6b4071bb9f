package mcptools

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/e2e-mcp/e2e-mcp/browser/eventlog"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
)

// maxEvalBytes caps the JSON of an evaluation result in a response.
const maxEvalBytes = 32 << 10

// EvaluateParams are the arguments of browser_evaluate.
type EvaluateParams struct {
	Function string `json:"function" jsonschema:"e.g. () => document.title; (el) => el.value with target"`
	Target   string `json:"target,omitempty" jsonschema:"Element passed as the argument"`
	Element  string `json:"element,omitempty"`
	SessionArg
}

func evaluateTool(d *Deps) Tool {
	return define(d, "browser_evaluate", ToolsetDiagnosis,
		"Run JavaScript in the page; returns its JSON result (awaited).",
		annotations{title: "Evaluate JavaScript", destructive: true, openWorld: true},
		func(ctx context.Context, s *Session, a EvaluateParams) (*mcp.CallToolResult, error) {
			if a.Function == "" {
				return nil, invalidInput("function", "empty: give a function such as () => document.title")
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			out, err := p.Evaluate(ctx, a.Function, a.Target)
			if err != nil {
				return nil, err
			}
			var r response
			text := string(out)
			if len(text) > maxEvalBytes {
				text = text[:maxEvalBytes]
				r.resultf("```json\n%s\n```\n(cut at %d KB of %d KB: return less, e.g. a slice or a count)", text, maxEvalBytes>>10, len(out)>>10)
			} else {
				r.resultf("```json\n%s\n```", text)
			}
			if len(out) <= maxEvalBytes {
				r.set("result", out)
			}
			return r.build(), nil
		})
}

// maxListed caps the console messages and requests one response lists (the
// newest are shown).
const maxListed = 100

// ConsoleMessagesParams are the arguments of browser_console_messages.
type ConsoleMessagesParams struct {
	Level string `json:"level,omitempty" jsonschema:"Least severe level shown (default info),enum=debug,enum=info,enum=warning,enum=error"`
	All   bool   `json:"all,omitempty" jsonschema:"Since the tab opened"`
	SessionArg
}

func consoleMessagesTool(d *Deps) Tool {
	return define(d, "browser_console_messages", ToolsetDiagnosis,
		"The page's console messages and uncaught exceptions (with stacks).",
		annotations{title: "Console messages", readOnly: true},
		func(ctx context.Context, s *Session, a ConsoleMessagesParams) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			if a.Level == "" {
				a.Level = d.ConsoleLevel // --console-level
			}
			msgs, dropped, err := p.ConsoleMessages(a.Level, a.All)
			if err != nil {
				return nil, err
			}
			level, since := a.Level, " of the current page"
			if level == "" {
				level = "info"
			}
			if a.All {
				since = " since the tab opened"
			}
			var r response
			if len(msgs) == 0 {
				r.resultf("No console messages%s at level %s or above.", since, level)
			} else {
				r.resultf("%d console messages%s at level %s or above:", len(msgs), since, level)
			}
			if dropped > 0 {
				r.resultf("(%d older messages were dropped for space.)", dropped)
			}
			shown := msgs[max(0, len(msgs)-maxListed):]
			if len(shown) < len(msgs) {
				r.resultf("(the newest %d:)", len(shown))
			}
			for i, m := range shown {
				m = shownConsole(m)
				shown[i] = m
				line := fmt.Sprintf("- [%s] %s", m.Level, m.Text)
				if m.Location != "" {
					line += " @ " + m.Location
				}
				r.resultf("%s", line)
				if m.Stack != "" {
					r.resultf("    %s", strings.ReplaceAll(m.Stack, "\n", "\n    "))
				}
			}
			if shown == nil {
				shown = []eventlog.ConsoleMessage{}
			}
			r.set("messages", shown)
			return r.build(), nil
		})
}

// NetworkRequestsParams are the arguments of browser_network_requests.
type NetworkRequestsParams struct {
	Filter     string `json:"filter,omitempty" jsonschema:"Regex (RE2) the URL must match"`
	FailedOnly bool   `json:"failedOnly,omitempty" jsonschema:"Only failures and HTTP 400+"`
	Static     *bool  `json:"static,omitempty" jsonschema:"false: no loaded static files"`
	SessionArg
}

// isStatic is a request static: false leaves out, as Playwright MCP's: a
// resource that is not a fetch or XHR and loaded without error.
func isStatic(q eventlog.NetworkRequest) bool {
	return q.Type != "Fetch" && q.Type != "XHR" && q.Failure == "" && q.Status > 0 && q.Status < 400
}

func networkRequestsTool(d *Deps) Tool {
	return define(d, "browser_network_requests", ToolsetDiagnosis,
		"The page's network requests and their outcome.",
		annotations{title: "Network requests", readOnly: true},
		func(ctx context.Context, s *Session, a NetworkRequestsParams) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			reqs, dropped, err := p.NetworkRequests(a.Filter, a.FailedOnly)
			if err != nil {
				return nil, err
			}
			hidden := 0
			if a.Static != nil && !*a.Static {
				kept := reqs[:0:0]
				for _, q := range reqs {
					if isStatic(q) {
						hidden++
						continue
					}
					kept = append(kept, q)
				}
				reqs = kept
			}
			what := "requests"
			if a.FailedOnly {
				what = "failed requests"
			}
			if a.Filter != "" {
				what += " matching /" + a.Filter + "/"
			}
			var r response
			if len(reqs) == 0 {
				r.resultf("No %s.", what)
			} else {
				r.resultf("%d %s, oldest first:", len(reqs), what)
			}
			if dropped > 0 {
				r.resultf("(%d older requests of this tab are no longer kept: a tab keeps its newest %d, a session %d MB of console and network logs.)",
					dropped, eventlog.MaxNetworkRecords, eventlog.MaxSessionLogBytes>>20)
			}
			shown := reqs[max(0, len(reqs)-maxListed):]
			if len(shown) < len(reqs) {
				r.resultf("(the newest %d:)", len(shown))
			}
			for i, q := range shown {
				q.URL = text.Keep(q.URL, maxURLShown)
				shown[i] = q
				r.resultf("- [%d] %s", q.Seq, requestLine(q))
			}
			if hidden > 0 {
				r.resultf("(%d static request(s) not shown: static true shows them.)", hidden)
			}
			if shown == nil {
				shown = []eventlog.NetworkRequest{}
			}
			r.set("requests", shown)
			return r.build(), nil
		})
}

// requestLine renders one request: "GET url → 500 Internal Server Error
// (Fetch, 12 ms)".
func requestLine(q eventlog.NetworkRequest) string {
	var outcome string
	switch {
	case q.Failure != "":
		outcome = "failed: " + q.Failure
		if q.Status > 0 {
			outcome = fmt.Sprintf("%d, then failed: %s", q.Status, q.Failure)
		}
	case !q.Done && q.Status > 0:
		outcome = fmt.Sprintf("%d, body still loading", q.Status)
	case !q.Done:
		outcome = "in flight"
	default:
		outcome = strings.TrimSpace(fmt.Sprintf("%d %s", q.Status, q.StatusText))
	}
	var extra []string
	if q.Type != "" {
		extra = append(extra, q.Type)
	}
	if q.Done {
		extra = append(extra, fmt.Sprintf("%.0f ms", q.DurationMS))
	}
	if q.Route != "" {
		extra = append(extra, "routed by "+q.Route)
	}
	line := fmt.Sprintf("%s %s → %s", q.Method, text.Keep(q.URL, maxURLShown), outcome)
	if len(extra) > 0 {
		line += " (" + strings.Join(extra, ", ") + ")"
	}
	return line
}

// What an answer shows of a request and a console message: a clipped text
// says how much it left out (text.Keep), in the text and the structured
// content alike.
const (
	maxBodyShown    = 8 << 10 // the body and the post data
	maxURLShown     = 300
	maxHeaderShown  = 300
	maxConsoleShown = 1000
)

// shownConsole is a console message as an answer shows it.
func shownConsole(m eventlog.ConsoleMessage) eventlog.ConsoleMessage {
	m.Text, m.Location = text.Keep(m.Text, maxConsoleShown), text.Keep(m.Location, maxURLShown)
	return m
}

// NetworkRequestParams are the arguments of browser_network_request.
type NetworkRequestParams struct {
	ID int `json:"id,omitempty" jsonschema:"Its [n] in browser_network_requests"`
	// Index is Playwright MCP's name for id.
	Index    int    `json:"index,omitempty"`
	Part     string `json:"part,omitempty" jsonschema:"enum=request-headers,enum=request-body,enum=response-headers,enum=response-body"`
	Filename string `json:"filename,omitempty" jsonschema:"Save the body here"`
	SessionArg
}

func networkRequestTool(d *Deps) Tool {
	return define(d, "browser_network_request", ToolsetDiagnosis,
		"One request's headers and body (clipped).",
		annotations{title: "Network request", readOnly: true},
		func(ctx context.Context, s *Session, a NetworkRequestParams) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			id := a.ID
			switch {
			case a.ID != 0 && a.Index != 0 && a.ID != a.Index:
				return nil, invalidInput("index", "give id or index (the same), not both")
			case a.ID == 0 && a.Index == 0:
				return nil, invalidInput("id", "give the request's [n] from browser_network_requests")
			case a.Index != 0:
				id = a.Index
			}
			q, err := p.RequestDetail(ctx, id)
			if err != nil {
				return nil, err
			}
			var r response
			r.resultf("%s", requestLine(q.NetworkRequest))
			// part: only that part, as Playwright MCP's.
			show := func(part string) bool { return a.Part == "" || a.Part == part }
			headers := func(title string, h map[string]string) {
				if !show(strings.ToLower(strings.ReplaceAll(title, " ", "-"))) {
					return
				}
				if len(h) == 0 {
					if a.Part != "" {
						r.resultf("No %s.", strings.ToLower(title))
					}
					return
				}
				r.resultf("%s:", title)
				for _, k := range slices.Sorted(maps.Keys(h)) {
					r.resultf("  %s: %s", k, headerValue(k, h[k]))
				}
			}
			headers("Request headers", q.RequestHeaders)
			headers("Response headers", q.ResponseHeaders)
			switch {
			case !show("request-body"):
			case q.PostData != "":
				r.resultf("Post data (%d bytes):\n%s", len(q.PostData), text.Keep(q.PostData, maxBodyShown))
			case a.Part != "":
				r.resultf("No request body.")
			}
			switch {
			case !show("response-body"):
			case q.BodyError != "":
				r.resultf("No body: %s.", q.BodyError)
			case q.BodyBase64 || !utf8.Valid(q.Body):
				r.resultf("Body: %d bytes of binary data (%s).", len(q.Body), q.MimeType)
			default:
				r.resultf("Body (%d bytes):\n%s", len(q.Body), text.Keep(string(q.Body), maxBodyShown))
			}
			if a.Filename != "" && q.BodyError == "" {
				out, err := d.outputPath(ctx, "filename", a.Filename, "body-*")
				if err != nil {
					return nil, err
				}
				if err := out.write(q.Body); err != nil {
					out.discard()
					return nil, err
				}
				r.resultf("Saved the body to %s.", out.path)
				r.set("path", out.path)
			}
			r.set("request", shownRequest(q))
			return r.build(), nil
		})
}

// headerValue shows a header's value, credentials clipped.
func headerValue(name, v string) string {
	if redact.IsSecretHeader(name) && len(v) > 8 {
		return text.Clip(v, 6) + fmt.Sprintf(" (%d chars)", len(v))
	}
	return text.Keep(v, maxHeaderShown)
}

// shownRequest is a request as the answer's text shows it: the structured
// content never holds more than the text says (credentials clipped, the
// URL and post data as long as shown).
func shownRequest(q *eventlog.RequestDetail) eventlog.RequestDetail {
	out := *q
	out.URL = text.Keep(q.URL, maxURLShown)
	out.PostData = text.Keep(q.PostData, maxBodyShown)
	clip := func(h map[string]string) map[string]string {
		if h == nil {
			return nil
		}
		c := make(map[string]string, len(h))
		for k, v := range h {
			c[k] = headerValue(k, v)
		}
		return c
	}
	out.RequestHeaders, out.ResponseHeaders = clip(q.RequestHeaders), clip(q.ResponseHeaders)
	return out
}
