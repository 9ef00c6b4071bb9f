package e2e

import (
	"bytes"
	"encoding/base64"
	"image/jpeg"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestVision: on a canvas app, clicks, a double click, a drag and the wheel
// at coordinates reach the page as its handlers read them; the labelled
// screenshot is an image with each ref's box listed, and a click at the
// middle of a box listed there acts on that element.
func TestVision(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=vision"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/vision/canvas.html"})

	out := mustCall(t, c, "browser_mouse_click_xy", map[string]any{"x": 250, "y": 150})
	mustContain(t, "a click on the canvas", out, "Clicked at (250, 150).", "Clicked cell 2,1")
	out = mustCall(t, c, "browser_mouse_click_xy", map[string]any{"x": 50, "y": 50, "clickCount": 2})
	mustContain(t, "a double click", out, "Double-clicked")
	out = mustCall(t, c, "browser_mouse_drag_xy", map[string]any{"startX": 20, "startY": 30, "endX": 320, "endY": 230})
	mustContain(t, "a drag", out, "Dragged from 20,30 to 320,230")
	out = mustCall(t, c, "browser_mouse_wheel", map[string]any{"x": 200, "y": 150, "deltaY": 400})
	mustContain(t, "the wheel", out, "Scrolled to 400")
	mustFail(t, c, "browser_mouse_click_xy", map[string]any{"x": -5, "y": 10}, "invalid_input")

	// The labelled screenshot of a form, and a click where it says a button is.
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	mustCall(t, c, "browser_type", map[string]any{"target": "label=Name", "text": "Ada"})
	res := call(t, c, "browser_labeled_screenshot", nil)
	if res.IsError {
		t.Fatalf("labeled screenshot: %s", text(res))
	}
	out = text(res)
	m := regexp.MustCompile(`- (e\d+) button "Sign up" at (\d+),(\d+) (\d+)x(\d+)`).FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, `textbox "Name" at`) {
		t.Fatalf("the listing lacks the button or the text box:\n%s", out)
	}
	var img *mcp.ImageContent
	for _, ct := range res.Content {
		if ic, ok := ct.(mcp.ImageContent); ok {
			img = &ic
		}
	}
	if img == nil || img.MIMEType != "image/jpeg" {
		t.Fatalf("no JPEG image in the answer")
	}
	raw, _ := base64.StdEncoding.DecodeString(img.Data)
	if pic, err := jpeg.Decode(bytes.NewReader(raw)); err != nil || pic.Bounds().Dx() < 300 {
		t.Fatalf("the image does not decode as a screenshot: %v", err)
	}
	n := func(s string) float64 { v, _ := strconv.Atoi(s); return float64(v) }
	x, y := n(m[2])+n(m[4])/2, n(m[3])+n(m[5])/2
	mustCall(t, c, "browser_check", map[string]any{"target": "label=I accept the terms"})
	out = mustCall(t, c, "browser_mouse_click_xy", map[string]any{"x": x, "y": y})
	mustContain(t, "a click where the screenshot put the button", out, "Welcome, Ada!")
}
