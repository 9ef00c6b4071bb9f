package mcptools

import (
	"context"
	"encoding/binary"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/mark3labs/mcp-go/mcp"
)

// SnapshotParams are the arguments of browser_snapshot.
type SnapshotParams struct {
	Target          string `json:"target,omitempty" jsonschema:"Only the subtree of this ref or selector"`
	Depth           int    `json:"depth,omitempty" jsonschema:"Maximum depth of the tree (0: all)"`
	InteractiveOnly bool   `json:"interactiveOnly,omitempty" jsonschema:"Only elements that have refs"`
	Diff            bool   `json:"diff,omitempty" jsonschema:"Only what changed since your previous snapshot of this page"`
	SessionArg
}

func snapshotTool(d *Deps) Tool {
	return define(d, "browser_snapshot", ToolsetReading,
		"Accessibility snapshot of the page as YAML; elements you can act on carry refs (e5) for other tools.",
		annotations{title: "Page snapshot", readOnly: true, idempotent: true},
		func(ctx context.Context, s *Session, a SnapshotParams) (*mcp.CallToolResult, error) {
			if a.Depth < 0 {
				return nil, invalidInput("depth", "%d: use 0 (no limit) or more", a.Depth)
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			if a.Diff && (a.Target != "" || a.Depth != 0 || a.InteractiveOnly) {
				return nil, invalidInput("diff", "compares whole-page snapshots: leave out target, depth and interactiveOnly")
			}
			var r response
			mode := snapFull
			if a.Diff {
				mode = snapDiff
			}
			opts := browser.SnapshotOptions{Target: a.Target, Depth: a.Depth, InteractiveOnly: a.InteractiveOnly}
			if err := r.pageState(ctx, s, p, mode, opts, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}

// ScreenshotParams are the arguments of browser_take_screenshot.
type ScreenshotParams struct {
	Target   string `json:"target,omitempty" jsonschema:"Only this element (ref or selector)"`
	FullPage bool   `json:"fullPage,omitempty" jsonschema:"The whole scrollable page"`
	Type     string `json:"type,omitempty" jsonschema:"Image format (default png),enum=png,enum=jpeg"`
	SessionArg
}

func screenshotTool(d *Deps) Tool {
	return define(d, "browser_take_screenshot", ToolsetReading,
		"Screenshot of the viewport, the full page or one element, returned as an image.",
		annotations{title: "Take a screenshot", readOnly: true},
		func(ctx context.Context, s *Session, a ScreenshotParams) (*mcp.CallToolResult, error) {
			if a.Target != "" && a.FullPage {
				return nil, invalidInput("fullPage", "give either target or fullPage, not both")
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			img, err := p.Screenshot(ctx, browser.ScreenshotOptions{Target: a.Target, FullPage: a.FullPage, Format: a.Type})
			if err != nil {
				return nil, err
			}
			mime, what := "image/png", "viewport"
			if a.Type == "jpeg" {
				mime = "image/jpeg"
			}
			switch {
			case a.Target != "":
				what = a.Target
			case a.FullPage:
				what = "full page"
			}
			var r response
			if w, h, ok := pngSize(img); ok {
				r.resultf("Screenshot of the %s: %dx%d PNG, %d KB.", what, w, h, (len(img)+1023)/1024)
			} else {
				r.resultf("Screenshot of the %s: %s, %d KB.", what, mime, (len(img)+1023)/1024)
			}
			r.images = append(r.images, mcp.NewImageContent(browser.EncodeBase64(img), mime))
			return r.build(), nil
		})
}

// pngSize reads a PNG's dimensions from its IHDR chunk.
func pngSize(b []byte) (w, h uint32, ok bool) {
	if len(b) < 24 || string(b[1:4]) != "PNG" || string(b[12:16]) != "IHDR" {
		return 0, 0, false
	}
	return binary.BigEndian.Uint32(b[16:20]), binary.BigEndian.Uint32(b[20:24]), true
}
