package measure

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"strings"
)

// A labelled screenshot: the viewport with a box around each element that
// has a ref and the ref written on it, for agents that work from pixels
// (canvas apps, icon-only buttons) and then act by ref or by coordinates.
// The labels are drawn on the image, not in the page, so the page sees
// nothing of it.

// LabelledBox is an element a labelled screenshot marks, in CSS pixels of
// the viewport.
type LabelledBox struct {
	Ref    string  `json:"ref"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Role   string  `json:"role,omitempty"`
	Name   string  `json:"name,omitempty"`
}

// LabelledScreenshot takes the viewport as a JPEG with every element that
// has a ref (in the main frame, on screen) boxed and labelled.
func LabelledScreenshot(ctx context.Context, t Tab) ([]byte, []LabelledBox, error) {
	named, err := t.Refs(ctx)
	if err != nil {
		return nil, nil, err
	}
	refs := make([]string, 0, len(named))
	for ref := range named {
		if !strings.HasPrefix(ref, "f") {
			refs = append(refs, ref)
		}
	}
	var res struct {
		Boxes  []LabelledBox `json:"boxes"`
		Width  float64       `json:"width"`
		Height float64       `json:"height"`
	}
	if err := t.RefBoxes(ctx, refs, &res); err != nil {
		return nil, nil, err
	}
	for i := range res.Boxes {
		if info, ok := named[res.Boxes[i].Ref]; ok {
			res.Boxes[i].Role, res.Boxes[i].Name = info.Role, info.Name
		}
	}
	raw, err := Screenshot(ctx, t, ScreenshotOptions{})
	if err != nil {
		return nil, nil, err
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, nil, fmt.Errorf("read the screenshot: %w", err)
	}
	canvas := image.NewRGBA(img.Bounds())
	draw.Draw(canvas, canvas.Bounds(), img, image.Point{}, draw.Src)
	scale := 1.0
	if res.Width > 0 {
		scale = float64(canvas.Bounds().Dx()) / res.Width
	}
	for i, b := range res.Boxes {
		c := labelColors[i%len(labelColors)]
		r := image.Rect(int(b.X*scale), int(b.Y*scale), int((b.X+b.Width)*scale), int((b.Y+b.Height)*scale))
		outline(canvas, r, c, max(1, int(scale)))
		label(canvas, r.Min, b.Ref, c, max(1, int(scale+0.5)))
	}
	var out bytes.Buffer
	if err := jpeg.Encode(&out, canvas, &jpeg.Options{Quality: 80}); err != nil {
		return nil, nil, err
	}
	return out.Bytes(), res.Boxes, nil
}

// labelColors are strong colors that read on light and dark pages.
var labelColors = []color.RGBA{{220, 38, 38, 255}, {37, 99, 235, 255}, {22, 163, 74, 255}, {217, 119, 6, 255}, {147, 51, 234, 255}, {8, 145, 178, 255}}

// outline draws a rectangle's border, w pixels wide.
func outline(img *image.RGBA, r image.Rectangle, c color.RGBA, w int) {
	for _, side := range []image.Rectangle{
		{r.Min, image.Pt(r.Max.X, r.Min.Y+w)}, {image.Pt(r.Min.X, r.Max.Y-w), r.Max},
		{r.Min, image.Pt(r.Min.X+w, r.Max.Y)}, {image.Pt(r.Max.X-w, r.Min.Y), r.Max},
	} {
		draw.Draw(img, side.Intersect(img.Bounds()), &image.Uniform{c}, image.Point{}, draw.Src)
	}
}

// glyphs are 3x5 pixel letters for what refs are made of.
var glyphs = map[rune][5]string{
	'0': {"###", "#.#", "#.#", "#.#", "###"}, '1': {".#.", "##.", ".#.", ".#.", "###"},
	'2': {"###", "..#", "###", "#..", "###"}, '3': {"###", "..#", ".##", "..#", "###"},
	'4': {"#.#", "#.#", "###", "..#", "..#"}, '5': {"###", "#..", "###", "..#", "###"},
	'6': {"###", "#..", "###", "#.#", "###"}, '7': {"###", "..#", ".#.", ".#.", ".#."},
	'8': {"###", "#.#", "###", "#.#", "###"}, '9': {"###", "#.#", "###", "..#", "###"},
	'e': {"...", "###", "###", "#..", "###"}, 'f': {".##", "#..", "###", "#..", "#.."},
}

// label writes text in white on a box of color c at the top left of at,
// each glyph pixel (2s+1)×(2s+1) image pixels, to be read.
func label(img *image.RGBA, at image.Point, text string, c color.RGBA, s int) {
	px := s*2 + 1
	w := (len(text)*4 + 1) * px
	h := 7 * px
	bg := image.Rect(at.X, at.Y-h, at.X+w, at.Y)
	if bg.Min.Y < 0 { // no room above: inside the box
		bg = bg.Add(image.Pt(0, h))
	}
	draw.Draw(img, bg.Intersect(img.Bounds()), &image.Uniform{c}, image.Point{}, draw.Src)
	white := &image.Uniform{color.RGBA{255, 255, 255, 255}}
	for i, ch := range text {
		g, ok := glyphs[ch]
		if !ok {
			continue
		}
		for row, line := range g {
			for col, on := range line {
				if on != '#' {
					continue
				}
				x := bg.Min.X + px + (i*4+col)*px
				y := bg.Min.Y + px + row*px
				draw.Draw(img, image.Rect(x, y, x+px, y+px).Intersect(img.Bounds()), white, image.Point{}, draw.Src)
			}
		}
	}
}
