package netguard

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"go.uber.org/zap"
)

// Routes: rules the requests of a session's pages (their iframes and the
// popups they open) are matched against before they leave the browser, as
// Playwright's page.route. A route answers a request itself (fulfil),
// fails it (abort), or lets it go on with its headers changed; any of the
// three after a delay. The request policy decides first: a blocked origin
// stays blocked whatever a route says.

// Route is one rule.
type Route struct {
	// Pattern is a URL glob (as Playwright's: selector.GlobSource; one
	// starting with '/' is matched against path?query) or a /regex/flags.
	Pattern string `json:"pattern"`
	// Abort fails the request with this reason (failed, aborted, timedout,
	// accessdenied, connectionrefused, ...).
	Abort string `json:"abort,omitempty"`
	// Status, ContentType and Body fulfil the request; Headers are the
	// response's headers then, else headers set on the request going on.
	Status      int               `json:"status,omitempty"`
	ContentType string            `json:"contentType,omitempty"`
	Headers     map[string]string `json:"headers,omitempty"`
	Body        []byte            `json:"-"`
	// RemoveHeaders are request headers dropped before it goes on.
	RemoveHeaders []string `json:"removeHeaders,omitempty"`
	// Delay holds the request this long before the route answers it.
	Delay time.Duration `json:"-"`
	// Times is how many requests the route answers before it goes away
	// (0: every one).
	Times int `json:"times,omitempty"`

	re   *regexp.Regexp
	rel  bool
	hits int
}

// MaxRouteDelay bounds a route's delay.
const MaxRouteDelay = time.Minute

// MaxRoutes bounds the routes of a session.
const MaxRoutes = 100

// abortReasons are the reasons a route may fail a request with, by the
// names Playwright's route.abort takes.
var abortReasons = map[string]network.ErrorReason{
	"failed": network.ErrorReasonFailed, "aborted": network.ErrorReasonAborted, "timedout": network.ErrorReasonTimedOut,
	"accessdenied": network.ErrorReasonAccessDenied, "connectionclosed": network.ErrorReasonConnectionClosed,
	"connectionreset": network.ErrorReasonConnectionReset, "connectionrefused": network.ErrorReasonConnectionRefused,
	"connectionaborted": network.ErrorReasonConnectionAborted, "connectionfailed": network.ErrorReasonConnectionFailed,
	"namenotresolved": network.ErrorReasonNameNotResolved, "internetdisconnected": network.ErrorReasonInternetDisconnected,
	"addressunreachable": network.ErrorReasonAddressUnreachable, "blockedbyclient": network.ErrorReasonBlockedByClient,
	"blockedbyresponse": network.ErrorReasonBlockedByResponse,
}

// Fulfils reports whether the route answers requests itself.
func (r *Route) Fulfils() bool { return r.Status != 0 || r.Body != nil || r.ContentType != "" }

// Action says in a few words what the route does.
func (r *Route) Action() string {
	var s string
	switch {
	case r.Abort != "":
		s = "abort (" + r.Abort + ")"
	case r.Fulfils():
		status := r.Status
		if status == 0 {
			status = http.StatusOK
		}
		s = fmt.Sprintf("fulfil %d", status)
		if r.ContentType != "" {
			s += " " + r.ContentType
		}
		s += fmt.Sprintf(", %d bytes", len(r.Body))
	default:
		s = "continue"
		if len(r.Headers) > 0 || len(r.RemoveHeaders) > 0 {
			s += " with headers changed"
		}
	}
	if r.Delay > 0 {
		s += fmt.Sprintf(" after %s", r.Delay)
	}
	if r.Times > 0 {
		s += fmt.Sprintf(", %d of %d used", r.hits, r.Times)
	}
	return s
}

// Compile checks the route, its pattern read (by the engine's URL pattern
// parser) as the regular expression src with its flags, matched against
// path?query when rel. It fails with an invalid_input [*refusal.Error].
func (r *Route) Compile(src, flags string, rel bool) error {
	for _, f := range flags {
		switch f {
		case 'i', 's', 'm':
			src = "(?" + string(f) + ")" + src
		default:
			return refusal.Invalid("use the flags i, s or m", "pattern %q: flag %q", r.Pattern, string(f))
		}
	}
	var err error
	if r.re, err = regexp.Compile(src); err != nil {
		return refusal.Invalid("write the regular expression in Go's syntax (RE2: no lookaround or backreferences)", "pattern %q: %v", r.Pattern, err)
	}
	r.rel = rel
	switch {
	case r.Abort != "" && (r.Fulfils() || len(r.Headers) > 0 || len(r.RemoveHeaders) > 0):
		return refusal.Invalid("a route either aborts, or fulfils or changes headers", "abort with a response")
	case r.Abort != "" && abortReasons[r.Abort] == "":
		return refusal.Invalid("use one of "+text.JoinOr(slices.Sorted(maps.Keys(abortReasons))), "abort reason %q", r.Abort)
	case r.Status != 0 && (r.Status < 100 || r.Status > 599):
		return refusal.Invalid("use an HTTP status from 100 to 599", "status %d", r.Status)
	case r.Delay < 0 || r.Delay > MaxRouteDelay:
		return refusal.Invalid(fmt.Sprintf("use a delay from 0 to %s", MaxRouteDelay), "delay %s", r.Delay)
	case r.Times < 0:
		return refusal.Invalid("use 0 (every request) or more", "times %d", r.Times)
	}
	return nil
}

// Matches reports whether the route (compiled) takes rawURL.
func (r *Route) Matches(rawURL string) bool {
	if !r.rel {
		return r.re.MatchString(rawURL)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	s := u.EscapedPath()
	if u.RawQuery != "" {
		s += "?" + u.RawQuery
	}
	return r.re.MatchString(s)
}

// routeTable is a session's routes, newest first: the newest that matches
// takes a request.
type routeTable struct {
	mu     sync.Mutex
	routes []*Route
}

// take finds the route of a request, and counts the use.
func (rt *routeTable) take(rawURL string) *Route {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	for i, r := range rt.routes {
		if !r.Matches(rawURL) {
			continue
		}
		r.hits++
		cp := *r
		if r.Times > 0 && r.hits >= r.Times {
			rt.routes = slices.Delete(rt.routes, i, i+1)
		}
		return &cp
	}
	return nil
}

func (rt *routeTable) any() bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return len(rt.routes) > 0
}

// RouteInfo is a route as listed.
type RouteInfo struct {
	Pattern string `json:"pattern"`
	Action  string `json:"action"`
	Hits    int    `json:"hits"`
}

// Routes lists the session's routes, newest first.
func (c *Context) Routes() []RouteInfo {
	c.routes.mu.Lock()
	defer c.routes.mu.Unlock()
	out := make([]RouteInfo, 0, len(c.routes.routes))
	for _, r := range c.routes.routes {
		out = append(out, RouteInfo{Pattern: r.Pattern, Action: r.Action(), Hits: r.hits})
	}
	return out
}

// HasRoutes reports whether the session has routes.
func (c *Context) HasRoutes() bool { return c.routes.any() }

// AddRoute adds a compiled route for every page of the session, replacing
// one of the same pattern; it reports whether it replaced one. It fails
// with an invalid_input [*refusal.Error] when the session has MaxRoutes.
// When the route is the first, follow has the session's tabs follow the
// routes (interception starts in every tab and iframe).
func (c *Context) AddRoute(ctx context.Context, r Route, follow func(context.Context) error) (replaced bool, err error) {
	replaced, first, err := c.routes.add(r)
	if err != nil {
		return false, err
	}
	if first {
		return replaced, follow(ctx)
	}
	return replaced, nil
}

// add adds r, replacing a route of the same pattern; it says whether it
// replaced one, and whether r is the first.
func (rt *routeTable) add(r Route) (replaced, first bool, err error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	n := len(rt.routes)
	replaced = slices.ContainsFunc(rt.routes, func(o *Route) bool { return o.Pattern == r.Pattern })
	if !replaced && n >= MaxRoutes {
		return false, false, refusal.Invalid("remove some of the routes first", "the session has %d routes, the most it may", MaxRoutes)
	}
	rt.routes = slices.DeleteFunc(rt.routes, func(o *Route) bool { return o.Pattern == r.Pattern })
	rt.routes = slices.Insert(rt.routes, 0, &r)
	return replaced, n == 0, nil
}

// RemoveRoutes removes the routes of pattern ("": all of them) and says how
// many it removed. When none is left, follow has the session's tabs follow
// that (interception stops where nothing else needs it).
func (c *Context) RemoveRoutes(ctx context.Context, pattern string, follow func(context.Context) error) (int, error) {
	removed, left := c.routes.remove(pattern)
	if removed > 0 && left == 0 {
		return removed, follow(ctx)
	}
	return removed, nil
}

// remove removes the routes of pattern ("": all of them); it says how
// many it removed and how many are left.
func (rt *routeTable) remove(pattern string) (removed, left int) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	n := len(rt.routes)
	if pattern == "" {
		rt.routes = nil
	} else {
		rt.routes = slices.DeleteFunc(rt.routes, func(o *Route) bool { return o.Pattern == pattern })
	}
	return n - len(rt.routes), len(rt.routes)
}

// NeedWide tells the browser-level guard whether the session needs the
// requests of frames not attached yet: it has routes, or is offline, and
// is not closed.
func (c *Context) NeedWide(ctx context.Context, closed bool) error {
	if !c.Attached() {
		return nil
	}
	on := c.HasRoutes() || c.offline()
	return c.SetWide(ctx, on && !closed)
}

// routeRequest answers a paused request the policy let through: by the
// session's route that takes it, else by letting it go on. The answer
// comes after the route's delay, without holding a worker.
func (g *PageGuard) routeRequest(ctx context.Context, r pausedReq) error {
	if g.blank.Load() {
		if r.e.ResourceType != network.ResourceTypeDocument {
			_, err := callOn(ctx, r.h, fetch.FailRequest, fetch.FailRequestParams{RequestID: r.e.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
			return err
		}
		_, err := callOn(ctx, r.h, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: r.e.RequestID, ResponseCode: http.StatusOK,
			ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "text/html"}}, Body: []byte("<!doctype html><title></title>")})
		return err
	}
	var rt *Route
	if c := g.tab.Context(); c != nil {
		rt = c.routes.take(r.e.Request.URL)
	}
	if rt == nil {
		_, err := callOn(ctx, r.h, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: r.e.RequestID})
		return err
	}
	g.tab.MarkRouted(network.RequestID(r.e.NetworkID), rt.Pattern)
	if rt.Delay <= 0 {
		return answerRoute(ctx, r, rt)
	}
	time.AfterFunc(rt.Delay, func() {
		ctx, cancel := context.WithTimeout(r.h.CDP(), g.tab.ActionTimeout())
		defer cancel()
		if err := answerRoute(ctx, r, rt); err != nil && ctx.Err() == nil {
			g.tab.Log().Debug("answer a delayed route", zap.String("url", r.e.Request.URL), zap.Error(err))
		}
	})
	return nil
}

// answerRoute fails, fulfils or continues a paused request as rt says.
func answerRoute(ctx context.Context, r pausedReq, rt *Route) error {
	id := r.e.RequestID
	switch {
	case rt.Abort != "":
		_, err := callPaused(ctx, r, fetch.FailRequest, fetch.FailRequestParams{RequestID: id, ErrorReason: abortReasons[rt.Abort]})
		return err
	case rt.Fulfils():
		status := rt.Status
		if status == 0 {
			status = http.StatusOK
		}
		var hs []*fetch.HeaderEntry
		if rt.ContentType != "" {
			hs = append(hs, &fetch.HeaderEntry{Name: "Content-Type", Value: rt.ContentType})
		}
		for _, k := range slices.Sorted(maps.Keys(rt.Headers)) {
			if rt.ContentType == "" || !strings.EqualFold(k, "Content-Type") {
				hs = append(hs, &fetch.HeaderEntry{Name: k, Value: rt.Headers[k]})
			}
		}
		// Chrome refuses a status with no standard phrase (419, 499)
		// unless given one, and the request would stay paused.
		phrase := http.StatusText(status)
		if phrase == "" {
			phrase = "Unknown"
		}
		_, err := callPaused(ctx, r, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: id, ResponseCode: int64(status),
			ResponsePhrase: phrase, ResponseHeaders: hs, Body: rt.Body})
		if err != nil && ctx.Err() == nil {
			// A response Chrome refused: the page gets a failed request
			// rather than one that never ends.
			_, _ = callPaused(ctx, r, fetch.FailRequest, fetch.FailRequestParams{RequestID: id, ErrorReason: network.ErrorReasonFailed})
		}
		return err
	default:
		params := fetch.ContinueRequestParams{RequestID: id}
		if len(rt.Headers) > 0 || len(rt.RemoveHeaders) > 0 {
			params.Headers = changedHeaders(r.e.Request.Headers, rt.Headers, rt.RemoveHeaders)
		}
		_, err := callPaused(ctx, r, fetch.ContinueRequest, params)
		return err
	}
}

// changedHeaders are a request's headers with set added (or replaced) and
// remove dropped, names compared without case.
func changedHeaders(orig network.Headers, set map[string]string, remove []string) []*fetch.HeaderEntry {
	drop := func(name string) bool {
		if slices.ContainsFunc(remove, func(r string) bool { return strings.EqualFold(strings.TrimSpace(r), name) }) {
			return true
		}
		for k := range set {
			if strings.EqualFold(k, name) {
				return true
			}
		}
		return false
	}
	var out []*fetch.HeaderEntry
	for _, k := range slices.Sorted(maps.Keys(orig)) {
		if !drop(k) {
			out = append(out, &fetch.HeaderEntry{Name: k, Value: fmt.Sprint(orig[k])})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(set)) {
		out = append(out, &fetch.HeaderEntry{Name: k, Value: set[k]})
	}
	return out
}
