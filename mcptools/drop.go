package mcptools

import (
	"context"
	"path/filepath"
	"sort"

	"github.com/mark3labs/mcp-go/mcp"
)

// DropParams are the arguments of browser_drop.
type DropParams struct {
	Target  string            `json:"target" jsonschema:"Ref or selector"`
	Element string            `json:"element,omitempty"`
	Paths   []string          `json:"paths,omitempty" jsonschema:"File paths"`
	Data    map[string]string `json:"data,omitempty" jsonschema:"MIME type to text, e.g. text/plain"`
	SessionArg
}

// dropTool drops files or data on an element as from outside the page: a
// core tool, as in Playwright MCP, since drop zones (file pickers that
// take a drag) are common in the apps agents build. The flow step replays
// it.
func dropTool(d *Deps) Tool {
	return define(d, "browser_drop", ToolsetInput,
		"Drop files or data on an element, as dragged from outside the page.",
		annotations{title: "Drop files or data", destructive: true, openWorld: true},
		func(ctx context.Context, s *Session, a DropParams) (*mcp.CallToolResult, error) {
			if err := needTarget("target", a.Target); err != nil {
				return nil, err
			}
			if len(a.Paths) == 0 && len(a.Data) == 0 {
				return nil, invalidInput("paths", "give paths (files), data (MIME type to text), or both")
			}
			var paths []string
			if len(a.Paths) > 0 {
				var err error
				if paths, err = d.uploadPaths(ctx, a.Paths); err != nil {
					return nil, err
				}
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			if err := p.Drop(ctx, a.Target, paths, a.Data); err != nil {
				return nil, err
			}
			var what []string
			for _, pth := range paths {
				what = append(what, filepath.Base(pth))
			}
			for t := range a.Data {
				what = append(what, t)
			}
			sort.Strings(what[len(paths):])
			return actionResult(ctx, d, s, p, "Dropped %s on %s", quoteList(what), describe(a.Target, a.Element))
		})
}
