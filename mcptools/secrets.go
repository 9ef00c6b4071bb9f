package mcptools

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
)

// Secrets (docs/architecture.md §12) are marked once, where they enter,
// in one of two sets of the session, by who has seen them:
//
//   - secrets the agent never saw: the flow runner's E2E_SECRET_n and
//     secret-looking variables, the operator's credentials. They are in
//     the server's set, the parent of every session's secrets, and are
//     masked in everything, answers included.
//   - what the agent itself gave, in the session's private set: the
//     values of secret-looking arguments at any depth (httpPassword,
//     apiKey...) and of credential headers given as 'Name: value' lines,
//     marked before the tool runs (markArgs, from held); a password typed
//     or filled (browser_type, browser_fill_form, a batch's steps), marked
//     by the browser when the page says the field is a password field,
//     before the text reaches the page (and the debug log of the DevTools
//     traffic); the values the storage tools write (cookies, web storage),
//     when 8 characters or longer (a token, not a theme).
//
// The agent's own answers are masked with secrets only: what they show of
// the page (snapshots, text, evaluate results, console, network, dialogs)
// is never changed for a value the agent typed, which is no secret from
// it (a password "short" must not turn the heading "Keyboard shortcuts"
// into "Keyboard •••cuts"); the arguments an answer repeats are masked
// where a secret stands in them (redact.Set.Positions). Every writer for
// people and CI masks with private, whatever the value's length, as a
// whole word when it is short (redact.WordLen): the failure's record in
// session_errors, the server's and the client's log (diagnosed; the
// server's log sink masks every open session's values as well), the step
// log and its report (steplog.go), traces, video captions, the flow and
// so the Playwright spec (record.go: a secret becomes ${E2E_SECRET_n}),
// and the flow runner's answers, JUnit file and artifacts (Deps.
// AnswersForPeople; runner/run.go). TestRedactionWriters holds the
// list to the code.

// writesValues are the storage tools whose value argument is stored in the
// browser (a cookie, a web storage item): a credential, as often as not.
var writesValues = map[string]bool{
	"browser_cookie_set": true, "browser_localstorage_set": true, "browser_sessionstorage_set": true,
}

// minPrivateLen is the shortest stored value masked by value in the
// writers others read: a token is longer, a setting ("dark", "sepia",
// "1") shorter, and masking a setting everywhere would hide the page.
const minPrivateLen = 8

// revealsValues are the tools whose answers show what the browser stores
// because the agent asked for exactly that: their answers are not masked
// by value (their arguments and the report still are).
var revealsValues = map[string]bool{
	"browser_cookie_get": true, "browser_localstorage_get": true, "browser_sessionstorage_get": true,
}

// markArgs marks the secrets a call's arguments carry.
func (s *Session) markArgs(tool string, raw any) {
	args, _ := raw.(map[string]any)
	if args == nil {
		return
	}
	if v, ok := args["value"].(string); ok && writesValues[tool] && len(v) >= minPrivateLen {
		s.private.Add(v)
	}
	markValue(s.private, "", args)
}

// headerArg is the argument that holds 'Name: value' header lines
// (browser_emulate's and browser_route's, in a batch's steps too). Only
// there is a line a header: elsewhere "Cookies: accepted" is a text the
// page shows.
const headerArg = "headers"

// headerLine splits a string of an argument named key as a header line:
// its value, and whether it carries a credential.
func headerLine(key, x string) (name, value string, secret bool) {
	if key != headerArg || strings.ContainsAny(x, "\r\n") {
		return "", "", false
	}
	return redact.HeaderLine(x)
}

// markValue marks the values of secret-looking keys and credential header
// lines in v (the value of the argument named key), at any depth.
func markValue(set *redact.Set, key string, v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if str, ok := e.(string); ok && redact.IsSecretKey(k) {
				set.Add(str)
				if key == headerArg { // a header map (browser_request's)
					set.Add(redact.CredentialParts(str)...)
				}
				continue
			}
			markValue(set, k, e)
		}
	case []any:
		for _, e := range x {
			markValue(set, key, e)
		}
	case string:
		if _, value, secret := headerLine(key, x); secret {
			set.Add(redact.CredentialParts(value)...)
		}
	}
}

// redactAnswer masks, in every text and every string of the structured
// content of an answer, the secrets its agent never saw; forPeople, what
// the agent gave too (the answer is written for people: e2e-mcp run).
func (s *Session) redactAnswer(tool string, res *mcp.CallToolResult, forPeople bool) {
	if forPeople {
		redactResult(s.private, res)
		return
	}
	if revealsValues[tool] && res != nil && !res.IsError {
		return
	}
	redactResult(s.secrets, res)
}

// redactResult masks set's secrets in every text and every string of the
// structured content of res.
func redactResult(set *redact.Set, res *mcp.CallToolResult) {
	if res == nil || len(set.Values()) == 0 {
		return
	}
	for i, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			t.Text = set.String(t.Text)
			res.Content[i] = t
		}
	}
	if res.StructuredContent != nil {
		res.StructuredContent = redactStructured(set, res.StructuredContent)
	}
}

// redactStructured masks the set's values in every string of structured
// content, whatever Go types it is made of (it is read as the JSON the
// client will get).
func redactStructured(set *redact.Set, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	masked := set.Bytes(b)
	if len(masked) == len(b) && string(masked) == string(b) {
		return v
	}
	var out any
	if json.Unmarshal(masked, &out) != nil {
		return map[string]any{"redacted": true}
	}
	return out
}

// secretRef is the flow variable a secret is recorded as: each value gets
// the next E2E_SECRET_n the first time it is recorded, and keeps it.
func (s *Session) secretRef(v string) string {
	if name, ok := s.secretName(v); ok {
		return "${" + name + "}" // a --secrets value: CI sets its name
	}
	if s.secretRefs == nil {
		s.secretRefs = map[string]int{}
	}
	n, ok := s.secretRefs[v]
	if !ok {
		n = len(s.secretRefs) + 1
		s.secretRefs[v] = n
	}
	return fmt.Sprintf("${E2E_SECRET_%d}", n)
}

// flowArgs turns a call's arguments into a flow step's: every string
// written as flow text (literal, via lit), and every secret in it (the
// value of a secret-looking key, a credential header's value, a value the
// session marked, where redact.Find finds it in a string) as its
// ${E2E_SECRET_n}. A target is the page's words (a locator of the element
// acted on, which a spec writes as Playwright code and cannot read from
// the environment): only a secret the agent never saw is cut from it, not
// a value it typed that a page word happens to be (a password "password",
// a link "Change your password here").
func (s *Session) flowArgs(args map[string]any, lit func(string) string) map[string]any {
	w := flowSecrets{all: s.private.Values(), hidden: s.secrets.Values()}
	out, _ := s.flowValue(args, "", w, lit).(map[string]any)
	return out
}

// flowSecrets are the values flowArgs cuts out of texts: all of them, or
// in a target the hidden ones alone.
type flowSecrets struct{ all, hidden []string }

// targetKeys are the arguments that hold a step's target.
var targetKeys = map[string]bool{"target": true, "startTarget": true, "endTarget": true}

func (s *Session) flowValue(v any, key string, secrets flowSecrets, lit func(string) string) any {
	switch x := v.(type) {
	case string:
		if x != "" && redact.IsSecretKey(key) {
			return s.secretRef(x)
		}
		if name, value, secret := headerLine(key, x); secret {
			return lit(name+": ") + s.secretRef(value)
		}
		if targetKeys[key] {
			return s.flowText(x, secrets.hidden, lit)
		}
		return s.flowText(x, secrets.all, lit)
	case map[string]any:
		// In the order of the names: the same arguments get the same
		// E2E_SECRET_n in every export.
		out := make(map[string]any, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			out[k] = s.flowValue(x[k], k, secrets, lit)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = s.flowValue(e, key, secrets, lit)
		}
		return out
	}
	return v
}

// flowText is a string as flow text: a value that is a secret of the
// session whole is its reference (however short); a secret inside it, as
// redact.Find finds one (a word-password only as a whole word: the path
// /shortcuts keeps its "short"), is cut out and referenced, the rest
// literal.
func (s *Session) flowText(x string, secrets []string, lit func(string) string) string {
	for _, sec := range secrets {
		if x == sec {
			return s.secretRef(sec)
		}
	}
	type cut struct{ at, n int }
	var cuts []cut
	for _, sec := range secrets { // longest first: a secret inside another is part of it
		for _, r := range redact.Find(x, sec) {
			at := r[0]
			overlaps := false
			for _, c := range cuts {
				if at < c.at+c.n && c.at < at+len(sec) {
					overlaps = true
					break
				}
			}
			if !overlaps {
				cuts = append(cuts, cut{at, len(sec)})
			}
		}
	}
	if len(cuts) == 0 {
		return lit(x)
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i].at < cuts[j].at })
	var b strings.Builder
	prev := 0
	for _, c := range cuts {
		b.WriteString(lit(x[prev:c.at]))
		b.WriteString(s.secretRef(x[c.at : c.at+c.n]))
		prev = c.at + c.n
	}
	b.WriteString(lit(x[prev:]))
	return b.String()
}
