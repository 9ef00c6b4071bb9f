package mcptools

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/netguard"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
)

// The network group (--caps network): routes that mock, fail, delay or
// change the requests of the session's pages, and the network state.

// maxRouteBody bounds a route's body, given inline or as a file.
const maxRouteBody = 10 << 20

// RouteParams are the arguments of browser_route (Playwright MCP's names).
type RouteParams struct {
	Pattern       string   `json:"pattern" jsonschema:"URL glob (**/api/*, /path) or /regex/"`
	Status        int      `json:"status,omitempty" jsonschema:"Fulfil with this HTTP status"`
	Body          string   `json:"body,omitempty" jsonschema:"Fulfil with this body"`
	Path          string   `json:"path,omitempty" jsonschema:"Fulfil with this file's content (a path)"`
	ContentType   string   `json:"contentType,omitempty"`
	Headers       []string `json:"headers,omitempty" jsonschema:"'Name: value' lines: the response's, or set on the request when not fulfilling"`
	RemoveHeaders string   `json:"removeHeaders,omitempty" jsonschema:"Request headers to drop, comma separated"`
	Abort         string   `json:"abort,omitempty" jsonschema:"Fail the request: failed, aborted, timedout, connectionrefused, internetdisconnected..."`
	Delay         float64  `json:"delay,omitempty" jsonschema:"Seconds to hold the request first"`
	Times         int      `json:"times,omitempty" jsonschema:"Answer this many requests, then go away"`
	SessionArg
}

func routeTool(d *Deps) Tool {
	return define(d, "browser_route", ToolsetDiagnosis,
		"Mock, fail, delay or change the session's requests matching a URL pattern, popups and iframes included.",
		annotations{title: "Route requests", idempotent: true},
		func(ctx context.Context, s *Session, a RouteParams) (*mcp.CallToolResult, error) {
			rt, err := d.routeOf(ctx, a)
			if err != nil {
				return nil, err
			}
			if _, err := s.Page(ctx, d.Browser); err != nil {
				return nil, err
			}
			replaced, err := s.tabs.AddRoute(ctx, rt)
			if err != nil {
				return nil, err
			}
			var r response
			verb := "Added"
			if replaced {
				verb = "Replaced"
			}
			r.resultf("%s route %s: %s.", verb, a.Pattern, rt.Action())
			listRoutes(&r, s.tabs.Routes())
			return r.build(), nil
		})
}

// routeOf reads browser_route's arguments into a route.
func (d *Deps) routeOf(ctx context.Context, a RouteParams) (netguard.Route, error) {
	rt := netguard.Route{Pattern: a.Pattern, Status: a.Status, ContentType: a.ContentType, Abort: a.Abort, Times: a.Times}
	if a.Delay < 0 || a.Delay > netguard.MaxRouteDelay.Seconds() {
		return rt, invalidInput("delay", "%g: use 0 to %g seconds", a.Delay, netguard.MaxRouteDelay.Seconds())
	}
	rt.Delay = time.Duration(a.Delay * float64(time.Second))
	var err error
	if rt.Headers, err = headerLines(a.Headers); err != nil {
		return rt, err
	}
	for _, h := range strings.Split(a.RemoveHeaders, ",") {
		if h = strings.TrimSpace(h); h != "" {
			rt.RemoveHeaders = append(rt.RemoveHeaders, h)
		}
	}
	switch {
	case a.Body != "" && a.Path != "":
		return rt, invalidInput("path", "give body or path, not both")
	case a.Body != "":
		if len(a.Body) > maxRouteBody {
			return rt, invalidInput("body", "%d bytes, more than %d", len(a.Body), maxRouteBody)
		}
		rt.Body = []byte(a.Body)
	case a.Path != "":
		paths, err := d.readablePaths(ctx, "path", []string{a.Path})
		if err != nil {
			return rt, err
		}
		if fi, err := os.Stat(paths[0]); err == nil && fi.Size() > maxRouteBody {
			return rt, invalidInput("path", "%q is %d bytes, more than %d", a.Path, fi.Size(), maxRouteBody)
		}
		if rt.Body, err = os.ReadFile(paths[0]); err != nil {
			return rt, invalidInput("path", "%v", err)
		}
	}
	if rt.Fulfils() && rt.Body == nil {
		rt.Body = []byte{}
	}
	return rt, nil
}

// headerLines reads 'Name: value' lines (browser_route, browser_emulate);
// none is nil.
func headerLines(lines []string) (map[string]string, error) {
	var out map[string]string
	for _, h := range lines {
		name, value, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, invalidInput("headers", "%q: write each header as 'Name: value'", h)
		}
		if out == nil {
			out = map[string]string{}
		}
		out[strings.TrimSpace(name)] = strings.TrimSpace(value)
	}
	return out, nil
}

// shownHeaders are headers as an answer shows them: a credential's value
// masked, however the agent gave it (the header stands where a secret
// does: Authorization, Cookie, X-Api-Key...).
func shownHeaders(h map[string]string) map[string]string {
	if h == nil {
		return nil
	}
	out := make(map[string]string, len(h))
	for k, v := range h {
		if redact.IsSecretHeader(k) {
			v = redact.Mask
		}
		out[k] = v
	}
	return out
}

// listRoutes writes the session's routes.
func listRoutes(r *response, routes []netguard.RouteInfo) {
	if len(routes) == 0 {
		r.resultf("No routes: every request goes to the network.")
	} else {
		r.resultf("Routes (newest first, the first that matches answers):")
		for _, rt := range routes {
			r.resultf("- %s → %s (%d answered)", rt.Pattern, rt.Action, rt.Hits)
		}
	}
	if routes == nil {
		routes = []netguard.RouteInfo{}
	}
	r.set("routes", routes)
}

// RouteListParams are the arguments of browser_route_list.
type RouteListParams struct {
	SessionArg
}

func routeListTool(d *Deps) Tool {
	return define(d, "browser_route_list", ToolsetDiagnosis,
		"List the session's routes and how many requests each answered.",
		annotations{title: "List routes", readOnly: true},
		func(ctx context.Context, s *Session, _ RouteListParams) (*mcp.CallToolResult, error) {
			if _, err := s.Page(ctx, d.Browser); err != nil {
				return nil, err
			}
			var r response
			listRoutes(&r, s.tabs.Routes())
			return r.build(), nil
		})
}

// UnrouteParams are the arguments of browser_unroute.
type UnrouteParams struct {
	Pattern string `json:"pattern,omitempty" jsonschema:"The route's pattern (omitted: every route)"`
	SessionArg
}

func unrouteTool(d *Deps) Tool {
	return define(d, "browser_unroute", ToolsetDiagnosis,
		"Remove a route (or all): its requests go to the network again.",
		annotations{title: "Remove routes", idempotent: true},
		func(ctx context.Context, s *Session, a UnrouteParams) (*mcp.CallToolResult, error) {
			if _, err := s.Page(ctx, d.Browser); err != nil {
				return nil, err
			}
			n, err := s.tabs.RemoveRoutes(ctx, a.Pattern)
			if err != nil {
				return nil, err
			}
			var r response
			if n == 0 && a.Pattern != "" {
				return nil, &ToolError{Type: ErrInvalidInput, Message: fmt.Sprintf("pattern: no route has the pattern %q", a.Pattern),
					Suggestion: "browser_route_list lists the routes; omit pattern to remove them all"}
			}
			r.resultf("Removed %d route(s).", n)
			listRoutes(&r, s.tabs.Routes())
			return r.build(), nil
		})
}

// NetworkStateParams are the arguments of browser_network_state_set.
type NetworkStateParams struct {
	State string `json:"state" jsonschema:"enum=online,enum=offline,enum=slow-3g,enum=fast-3g,enum=fast-4g"`
	SessionArg
}

func networkStateTool(d *Deps) Tool {
	return define(d, "browser_network_state_set",
		ToolsetDiagnosis,
		"Put every tab of the session offline, online, or on a throttled connection.",
		annotations{title: "Set network state", idempotent: true},
		func(ctx context.Context, s *Session, a NetworkStateParams) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			if err := s.tabs.SetNetworkState(ctx, a.State); err != nil {
				return nil, err
			}
			var r response
			r.resultf("The network is %s for every tab of the session.", a.State)
			r.set("state", a.State)
			if err := r.pageState(ctx, s, p, snapChanges, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}
