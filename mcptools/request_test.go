package mcptools

import (
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/netguard"
)

// TestMatchJSON: what a request step expects of a JSON body matches as
// Playwright's toMatchObject (which convert writes): an object's keys
// given, other keys let be; a list item by item, as long; numbers by value
// whatever type decoded them (YAML's int); a difference named by its path.
func TestMatchJSON(t *testing.T) {
	got := map[string]any{"items": []any{map[string]any{"id": 1.0, "name": "milk"}}, "total": 1.0, "ok": true}
	for _, c := range []struct {
		want any
		why  string
	}{
		{map[string]any{"total": 1}, ""},
		{map[string]any{"items": []any{map[string]any{"name": "milk"}}}, ""},
		{map[string]any{"ok": true, "items": []any{map[string]any{"id": 1}}}, ""},
		{map[string]any{"items": []any{}}, "body.items has 1 items, wanted 0"},
		{map[string]any{"items": []any{map[string]any{"name": "bread"}}}, `body.items[0].name is "milk", wanted "bread"`},
		{map[string]any{"missing": nil}, `body has no key "missing"`},
		{map[string]any{"total": "1"}, `body.total is 1, wanted "1"`},
		{map[string]any{"ok": map[string]any{}}, "body.ok is true, wanted an object"},
		{[]any{1}, "body is {" /* a prefix: the object shown */},
	} {
		why := MatchJSON(got, c.want)
		if c.why == "" && why != "" || c.why != "" && !strings.HasPrefix(why, c.why) {
			t.Errorf("MatchJSON(%v) = %q, want %q", c.want, why, c.why)
		}
	}
}

// TestRequestExpectations: no expectation is any 2xx; a status given is
// that status; a text body is contained; a JSON one matched, and a body
// that is not JSON said so.
func TestRequestExpectations(t *testing.T) {
	res := func(status int, body string) *netguard.HTTPResponse {
		return &netguard.HTTPResponse{Status: status, Body: body}
	}
	for _, c := range []struct {
		e    *RequestExpect
		res  *netguard.HTTPResponse
		want string
	}{
		{nil, res(204, ""), ""},
		{nil, res(302, ""), "status 302, wanted a 2xx"},
		{&RequestExpect{Status: 404}, res(404, "gone"), ""},
		{&RequestExpect{Status: 201}, res(200, ""), "status 200, wanted 201"},
		{&RequestExpect{Body: "Welcome"}, res(200, "<h1>Welcome, Ada</h1>"), ""},
		{&RequestExpect{Body: "Bye"}, res(200, "<h1>Welcome</h1>"), `the body does not contain "Bye"`},
		{&RequestExpect{Body: map[string]any{"a": 1}}, res(200, `{"a": 1, "b": 2}`), ""},
		{&RequestExpect{Body: map[string]any{"a": 1}}, res(200, `<html>`), "the body is not JSON"},
		{&RequestExpect{Body: map[string]any{"a": 2}}, res(200, `{"a": 1}`), "the body does not match expect.body: body.a is 1, wanted 2"},
	} {
		if got := unexpected(c.e, c.res); c.want == "" && got != "" || c.want != "" && !strings.HasPrefix(got, c.want) {
			t.Errorf("unexpected(%+v, %d %q) = %q, want %q", c.e, c.res.Status, c.res.Body, got, c.want)
		}
	}
}

// TestRequestHeadersMarked: a credential in browser_request's header map
// is marked, with its scheme and alone (a server that echoes the token
// shows it without "Bearer"), as header lines are.
func TestRequestHeadersMarked(t *testing.T) {
	s := newSession(sessionKey{id: "t"}, "", nil)
	s.markArgs("browser_request", map[string]any{"url": "/x", "headers": map[string]any{"Authorization": "Bearer tok-9f8e7d", "Accept": "text/plain"}})
	if got := s.private.String("Bearer tok-9f8e7d; echoed tok-9f8e7d; text/plain"); got != "•••; echoed •••; text/plain" {
		t.Errorf("masked: %q", got)
	}
}
