package mcptools

import (
	"context"
	"net/url"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/mark3labs/mcp-go/mcp"
)

// NavigateParams are the arguments of browser_navigate.
type NavigateParams struct {
	URL string `json:"url" jsonschema:"Relative URLs (/login) go to the dev server"`
	SessionArg
}

func navigateTool(d *Deps) Tool {
	return define(d, "browser_navigate", ToolsetNavigation,
		"Open a URL in the current tab, wait for its load; returns its snapshot.",
		annotations{title: "Navigate to a URL", openWorld: true},
		func(ctx context.Context, s *Session, a NavigateParams) (*mcp.CallToolResult, error) {
			target, err := s.resolveURL(a.URL)
			if err != nil {
				return nil, err
			}
			if err := checkURL(target); err != nil {
				return nil, err
			}
			p, err := s.PageUnderChooser(ctx, d.Browser) // a new page leaves an open file chooser behind
			if err != nil {
				return nil, err
			}
			info, err := p.Navigate(ctx, target)
			if err != nil {
				return nil, err
			}
			var r response
			if info.Download {
				r.resultf("%s is a file: the browser downloaded it (see Downloads); the tab stays where it was.", target)
			}
			if info.Status >= 400 {
				r.resultf("The server answered HTTP %d.", info.Status)
			}
			if err := r.pageState(ctx, s, p, snapFull, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}

// resolveURL resolves a relative URL (/login, login?x=1) against the
// session's dev server; absolute URLs pass unchanged.
func (s *Session) resolveURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme != "" || raw == "" {
		return raw, nil // checkURL explains what is wrong
	}
	if s.dev == nil || s.dev.result.URL == "" {
		return "", invalidInput("url", "%q is relative, and session %s has no dev server: call session_start first, or give an absolute URL", raw, s.ID)
	}
	base, err := url.Parse(s.dev.result.URL)
	if err != nil {
		return "", invalidInput("url", "the dev server's URL %q does not parse: %v", s.dev.result.URL, err)
	}
	return base.ResolveReference(u).String(), nil
}

// checkURL accepts the URLs a browser can open for a test; everything else
// is invalid input with the reason.
func checkURL(raw string) error {
	if strings.TrimSpace(raw) == "" {
		return invalidInput("url", "empty: give an absolute URL such as http://localhost:3000/")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return invalidInput("url", "%q does not parse: %v", raw, err)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return invalidInput("url", "%q has no host", raw)
		}
	case "about", "data", "file": // file: the request policy decides (not_allowed unless --allow-file-urls)
	case "chrome": // Chromium's own pages (chrome://version), which it lets a page navigate to
	case "":
		return invalidInput("url", "%q is not absolute: add the scheme and host, e.g. http://localhost:3000%s", raw, ensureSlash(raw))
	default:
		return invalidInput("url", "scheme %q is not allowed: use http, https, about, data or chrome", u.Scheme)
	}
	return nil
}

func ensureSlash(p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	return "/" + p
}

// CloseParams are the arguments of browser_close.
type CloseParams struct {
	SessionArg
}

func closeTool(d *Deps) Tool {
	return define(d, "browser_close", ToolsetNavigation,
		"Close the session's browser; the next call opens a fresh one.",
		annotations{title: "Close the browser", destructive: true, idempotent: true},
		func(ctx context.Context, s *Session, _ CloseParams) (*mcp.CallToolResult, error) {
			var r response
			// As at the session's end, the profile (--user-data-dir) keeps
			// what the context leaves, for the next one to open on it.
			s.saveProfile(ctx, d.Logger)
			if s.closePage() {
				r.resultf("Closed the browser context of session %s.", s.ID)
			} else {
				r.resultf("Session %s had no open browser context.", s.ID)
			}
			return r.build(), nil
		})
}

// HistoryParams are the arguments of browser_navigate_back and _forward.
type HistoryParams struct {
	SessionArg
}

func historyTool(d *Deps, name, title string, delta int) Tool {
	dir := "back"
	if delta > 0 {
		dir = "forward"
	}
	return define(d, name, ToolsetNavigation,
		"Go "+dir+" in the current tab's history and wait for the load.",
		annotations{title: title, openWorld: true},
		func(ctx context.Context, s *Session, _ HistoryParams) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			if err := p.GoBack(ctx, delta); err != nil {
				return nil, err
			}
			var r response
			r.resultf("Went %s.", dir)
			if err := r.pageState(ctx, s, p, snapChanges, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}

func backTool(d *Deps) Tool    { return historyTool(d, "browser_navigate_back", "Go back", -1) }
func forwardTool(d *Deps) Tool { return historyTool(d, "browser_navigate_forward", "Go forward", 1) }

// ReloadParams are the arguments of browser_reload.
type ReloadParams struct {
	SessionArg
}

func reloadTool(d *Deps) Tool {
	return define(d, "browser_reload", ToolsetNavigation,
		"Reload the current tab and wait for it to load.",
		annotations{title: "Reload", openWorld: true},
		func(ctx context.Context, s *Session, _ ReloadParams) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			if err := p.Reload(ctx); err != nil {
				return nil, err
			}
			var r response
			r.resultf("Reloaded.")
			if err := r.pageState(ctx, s, p, snapChanges, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}

// ResizeParams are the arguments of browser_resize.
type ResizeParams struct {
	Width  int `json:"width" jsonschema:"CSS pixels"`
	Height int `json:"height" jsonschema:"CSS pixels"`
	SessionArg
}

func resizeTool(d *Deps) Tool {
	return define(d, "browser_resize", ToolsetNavigation,
		"Set the current tab's viewport, e.g. 390x844 for a phone layout.",
		annotations{title: "Resize the viewport", idempotent: true},
		func(ctx context.Context, s *Session, a ResizeParams) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			if err := p.Resize(ctx, a.Width, a.Height); err != nil {
				return nil, err
			}
			var r response
			r.resultf("Viewport is %dx%d.", a.Width, a.Height)
			if err := r.pageState(ctx, s, p, snapChanges, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}
