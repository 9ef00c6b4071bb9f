package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser/netguard"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/mark3labs/mcp-go/mcp"
)

// browser_request (--caps network) is the `request:` step of a flow: an
// HTTP call from the session's browser context (its cookies go with it,
// the cookies it is answered with stay), with expectations on its status
// and body, for a flow's setup (create the data a page then shows) and
// its checks (the API says what the page said). Playwright's
// context.request; `e2e-mcp convert` writes it as page.request.
//
// What it expects: the status given (none given: a 2xx, as Playwright's
// toBeOK), and of the body, when given, a text it contains or JSON it
// matches (MatchJSON: Playwright's toMatchObject).

// RequestParams are the arguments of browser_request.
type RequestParams struct {
	Method  string            `json:"method,omitempty" jsonschema:"GET (default), POST, PUT, PATCH, DELETE, HEAD"`
	URL     string            `json:"url" jsonschema:"Relative URLs (/api/items) go to the dev server"`
	Headers map[string]string `json:"headers,omitempty"`
	JSON    map[string]any    `json:"json,omitempty" jsonschema:"Body, sent as JSON"`
	Expect  *RequestExpect    `json:"expect,omitempty" jsonschema:"Fail unless answered so (default: any 2xx)"`
	SessionArg
}

// RequestExpect is what a request step expects of the answer.
type RequestExpect struct {
	Status int `json:"status,omitempty"`
	Body   any `json:"body,omitempty" jsonschema:"A text the body contains, or JSON it matches (objects: these keys)"`
}

// requestMethods are the methods a request step makes.
var requestMethods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodHead, http.MethodOptions}

// shownBody bounds the body an answer shows.
const shownBody = 2000

func requestTool(d *Deps) Tool {
	return define(d, "browser_request", ToolsetDiagnosis,
		"HTTP call with the session's cookies (setup, API checks); fails unless answered as expected.",
		annotations{title: "HTTP request", destructive: true, openWorld: true},
		func(ctx context.Context, s *Session, a RequestParams) (*mcp.CallToolResult, error) {
			req, err := requestOf(s, a)
			if err != nil {
				return nil, err
			}
			if _, err := s.Page(ctx, d.Browser); err != nil {
				return nil, err
			}
			res, err := s.tabs.Request(ctx, req)
			if err != nil {
				return nil, err
			}
			what := req.Method + " " + a.URL
			if msg := unexpected(a.Expect, res); msg != "" {
				return nil, &ToolError{Type: ErrExpectFailed,
					Message:    fmt.Sprintf("%s: %s; answered %d %s: %s", what, msg, res.Status, res.StatusText, bodyLine(res.Body)),
					Suggestion: "check the request (URL, method, body, headers) and what the server should answer, or change expect"}
			}
			var r response
			r.resultf("%s", answerText(res))
			if a.Expect != nil {
				r.resultf("As expected.")
			}
			r.set("status", res.Status)
			r.set("contentType", res.ContentType)
			r.set("body", text.Clip(res.Body, shownBody))
			return r.build(), nil
		})
}

// requestOf checks browser_request's arguments and makes its request.
func requestOf(s *Session, a RequestParams) (netguard.HTTPRequest, error) {
	req := netguard.HTTPRequest{Method: strings.ToUpper(strings.TrimSpace(a.Method)), Headers: map[string]string{}}
	if req.Method == "" {
		req.Method = http.MethodGet
	}
	if !slices.Contains(requestMethods, req.Method) {
		return req, invalidInput("method", "%q: use one of %s", a.Method, strings.Join(requestMethods, ", "))
	}
	u, err := s.resolveURL(a.URL)
	if err != nil {
		return req, err
	}
	if err := checkURL(u); err != nil {
		return req, err
	}
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return req, invalidInput("url", "%q: a request goes to an http(s) URL", a.URL)
	}
	req.URL = u
	for k, v := range a.Headers {
		if strings.TrimSpace(k) == "" {
			return req, invalidInput("headers", "a header has no name")
		}
		req.Headers[k] = v
	}
	if a.JSON != nil {
		if req.Method == http.MethodGet || req.Method == http.MethodHead {
			return req, invalidInput("json", "a %s request has no body: use POST, PUT or PATCH", req.Method)
		}
		if req.Body, err = json.Marshal(a.JSON); err != nil {
			return req, invalidInput("json", "%v", err)
		}
		if !hasHeader(req.Headers, "Content-Type") {
			req.Headers["Content-Type"] = "application/json"
		}
	}
	if e := a.Expect; e != nil && e.Status != 0 && (e.Status < 100 || e.Status > 599) {
		return req, invalidInput("expect.status", "%d is not an HTTP status (100 to 599)", e.Status)
	}
	return req, nil
}

func hasHeader(h map[string]string, name string) bool {
	for k := range h {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// answerText says an answer in a line and its body, clipped.
func answerText(res *netguard.HTTPResponse) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Answered %d %s", res.Status, res.StatusText)
	if res.ContentType != "" {
		fmt.Fprintf(&b, " (%s)", res.ContentType)
	}
	if res.Body == "" {
		b.WriteString(", no body.")
		return b.String()
	}
	b.WriteString(":\n```\n" + text.Clip(res.Body, shownBody) + "\n```")
	return b.String()
}

// bodyLine is a body on one line, clipped, for a failure's message.
func bodyLine(body string) string {
	if strings.TrimSpace(body) == "" {
		return "no body"
	}
	return text.Clip(strings.Join(strings.Fields(body), " "), 500)
}

// unexpected says how an answer differs from what the step expects, or "".
func unexpected(e *RequestExpect, res *netguard.HTTPResponse) string {
	want := 0
	if e != nil {
		want = e.Status
	}
	switch {
	case want == 0 && (res.Status < 200 || res.Status > 299):
		return fmt.Sprintf("status %d, wanted a 2xx (give expect.status for another)", res.Status)
	case want != 0 && res.Status != want:
		return fmt.Sprintf("status %d, wanted %d", res.Status, want)
	}
	if e == nil || e.Body == nil {
		return ""
	}
	if s, ok := e.Body.(string); ok {
		if !strings.Contains(res.Body, s) {
			return fmt.Sprintf("the body does not contain %q", text.Clip(s, 200))
		}
		return ""
	}
	var got any
	if err := json.Unmarshal([]byte(res.Body), &got); err != nil {
		if res.Cut {
			return fmt.Sprintf("the body is more than %d KB, too long to match as JSON", netguard.MaxResponseBody>>10)
		}
		return "the body is not JSON, and expect.body is: give a text it should contain instead"
	}
	if why := MatchJSON(got, e.Body); why != "" {
		return "the body does not match expect.body: " + why
	}
	return ""
}

// MatchJSON says where got (decoded JSON) differs from want, or "" when it
// matches: an object matches when it has each key of want with a value
// that matches (other keys are let be), a list when it has as many items
// and each matches want's at its place, anything else when it is equal
// (numbers by value). It is Playwright's toMatchObject, which convert
// writes for it.
func MatchJSON(got, want any) string {
	return matchAt("body", normalJSON(got), normalJSON(want))
}

// normalJSON is v as JSON decodes it (YAML's ints become float64).
func normalJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	dec := json.NewDecoder(bytes.NewReader(b))
	if dec.Decode(&out) != nil {
		return v
	}
	return out
}

func matchAt(path string, got, want any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s is %s, wanted an object", path, shortJSON(got))
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s has no key %q", path, k)
			}
			if why := matchAt(path+"."+k, gv, w[k]); why != "" {
				return why
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok {
			return fmt.Sprintf("%s is %s, wanted a list", path, shortJSON(got))
		}
		if len(g) != len(w) {
			return fmt.Sprintf("%s has %d items, wanted %d", path, len(g), len(w))
		}
		for i := range w {
			if why := matchAt(fmt.Sprintf("%s[%d]", path, i), g[i], w[i]); why != "" {
				return why
			}
		}
		return ""
	}
	if got != want {
		return fmt.Sprintf("%s is %s, wanted %s", path, shortJSON(got), shortJSON(want))
	}
	return ""
}

func shortJSON(v any) string {
	b, _ := json.Marshal(v)
	return text.Clip(string(b), 200)
}
