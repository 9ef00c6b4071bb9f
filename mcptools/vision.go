package mcptools

import (
	"context"
	"fmt"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/measure"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/mark3labs/mcp-go/mcp"
)

// The vision group (--caps vision): the mouse at coordinates and a
// screenshot with each ref written on its element, for pages read from
// pixels (canvas, maps, icon-only toolbars). Playwright MCP's names.

// MouseXYParams are a point in the viewport, in CSS pixels.
type MouseXYParams struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	SessionArg
}

// MouseClickXYParams are the arguments of browser_mouse_click_xy.
type MouseClickXYParams struct {
	X          float64 `json:"x"`
	Y          float64 `json:"y"`
	Button     string  `json:"button,omitempty" jsonschema:"enum=left,enum=right,enum=middle"`
	ClickCount int     `json:"clickCount,omitempty" jsonschema:"2 for a double click"`
	Delay      float64 `json:"delay,omitempty" jsonschema:"ms from mouse down to up"`
	SessionArg
}

// MouseDragXYParams are the arguments of browser_mouse_drag_xy.
type MouseDragXYParams struct {
	StartX float64 `json:"startX"`
	StartY float64 `json:"startY"`
	EndX   float64 `json:"endX"`
	EndY   float64 `json:"endY"`
	SessionArg
}

// MouseWheelParams are the arguments of browser_mouse_wheel.
type MouseWheelParams struct {
	X      *float64 `json:"x,omitempty" jsonschema:"Default: where the mouse is"`
	Y      *float64 `json:"y,omitempty"`
	DeltaX float64  `json:"deltaX,omitempty"`
	DeltaY float64  `json:"deltaY,omitempty" jsonschema:"Pixels; positive scrolls down"`
	SessionArg
}

// MouseButtonParams are the arguments of browser_mouse_down and
// browser_mouse_up.
type MouseButtonParams struct {
	Button string `json:"button,omitempty" jsonschema:"enum=left,enum=right,enum=middle"`
	SessionArg
}

// LabeledScreenshotParams are the arguments of browser_labeled_screenshot.
type LabeledScreenshotParams struct {
	SessionArg
}

// mouseTool is a vision tool that does one thing with the mouse, then
// answers with what changed.
func mouseTool[T sessionArgs](d *Deps, name, desc, title string, do func(ctx context.Context, p *browser.Page, a T) (string, error)) Tool {
	return define(d, name, ToolsetInput, desc, annotations{title: title},
		func(ctx context.Context, s *Session, a T) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			did, err := do(ctx, p, a)
			if err != nil {
				return nil, err
			}
			var r response
			r.resultf("%s", did)
			if err := r.pageState(ctx, s, p, snapChanges, browser.SnapshotOptions{}, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}

func visionTools(d *Deps) []Tool {
	return []Tool{
		mouseTool(d, "browser_mouse_click_xy", "Click at a point of the viewport (CSS pixels, as the screenshot shows).", "Click at coordinates",
			func(ctx context.Context, p *browser.Page, a MouseClickXYParams) (string, error) {
				held := ""
				if a.Delay > 0 {
					held = fmt.Sprintf(", holding the button %g ms", a.Delay)
				}
				delay := time.Duration(a.Delay * float64(time.Millisecond))
				return fmt.Sprintf("Clicked at (%g, %g)%s.", a.X, a.Y, held), p.MouseClick(ctx, a.X, a.Y, a.Button, a.ClickCount, delay)
			}),
		mouseTool(d, "browser_mouse_move_xy", "Move the mouse to a point of the viewport.", "Move the mouse",
			func(ctx context.Context, p *browser.Page, a MouseXYParams) (string, error) {
				return fmt.Sprintf("Moved the mouse to (%g, %g).", a.X, a.Y), p.MouseMove(ctx, a.X, a.Y)
			}),
		mouseTool(d, "browser_mouse_drag_xy", "Drag with the left button from one point of the viewport to another.", "Drag between points",
			func(ctx context.Context, p *browser.Page, a MouseDragXYParams) (string, error) {
				html5, err := p.DragXY(ctx, a.StartX, a.StartY, a.EndX, a.EndY)
				how := ""
				if html5 {
					how = " (an HTML5 drag and drop)"
				}
				return fmt.Sprintf("Dragged from (%g, %g) to (%g, %g)%s.", a.StartX, a.StartY, a.EndX, a.EndY, how), err
			}),
		mouseTool(d, "browser_mouse_down", "Press a mouse button where the mouse is (browser_mouse_move_xy).", "Press a mouse button",
			func(ctx context.Context, p *browser.Page, a MouseButtonParams) (string, error) {
				return fmt.Sprintf("Pressed the %s button.", buttonName(a.Button)), p.MouseDown(ctx, a.Button)
			}),
		mouseTool(d, "browser_mouse_up", "Release a mouse button where the mouse is.", "Release a mouse button",
			func(ctx context.Context, p *browser.Page, a MouseButtonParams) (string, error) {
				return fmt.Sprintf("Released the %s button.", buttonName(a.Button)), p.MouseUp(ctx, a.Button)
			}),
		mouseTool(d, "browser_mouse_wheel", "Turn the mouse wheel over a point of the viewport.", "Scroll with the wheel",
			func(ctx context.Context, p *browser.Page, a MouseWheelParams) (string, error) {
				if (a.X == nil) != (a.Y == nil) {
					return "", invalidInput("x", "give both x and y, or neither (where the mouse is)")
				}
				x, y := p.MousePosition()
				if a.X != nil {
					x, y = *a.X, *a.Y
				}
				return fmt.Sprintf("Scrolled by (%g, %g) at (%g, %g).", a.DeltaX, a.DeltaY, x, y), p.MouseWheel(ctx, x, y, a.DeltaX, a.DeltaY)
			}),
		define(d, "browser_labeled_screenshot", ToolsetReading,
			"Screenshot of the viewport with each element's ref written on it, and where each is.",
			annotations{title: "Labeled screenshot", readOnly: true},
			func(ctx context.Context, s *Session, _ LabeledScreenshotParams) (*mcp.CallToolResult, error) {
				p, err := s.Page(ctx, d.Browser)
				if err != nil {
					return nil, err
				}
				img, boxes, err := p.LabelledScreenshot(ctx)
				if err != nil {
					return nil, err
				}
				var r response
				r.resultf("%d element(s) with refs on screen (x, y, width, height in CSS pixels):", len(boxes))
				for _, b := range boxes {
					r.resultf("- %s %s %q at %.0f,%.0f %.0fx%.0f", b.Ref, b.Role, text.Clip(b.Name, 60), b.X, b.Y, b.Width, b.Height)
				}
				if boxes == nil {
					boxes = []measure.LabelledBox{}
				}
				r.set("boxes", boxes)
				r.images = append(r.images, mcp.NewImageContent(browser.EncodeBase64(img), "image/jpeg"))
				return r.build(), nil
			}),
	}
}

// buttonName is a mouse button's name, left when none is given.
func buttonName(b string) string {
	if b == "" {
		return "left"
	}
	return b
}
