package video

import (
	"image"
	"image/color"
	"image/draw"
	"strings"
	"sync"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// What the recorder draws on frames, in Go on the decoded picture (the page
// is never changed to show it): an action's target box, its caption, a
// pointer at its point, a chapter's title card and the note on a shortened
// idle stretch. Text is the Go fonts' (BSD-licensed, in golang.org/x/image),
// so every platform draws the same.

var (
	highlight = color.RGBA{255, 45, 85, 255}   // the target's outline
	tint      = color.RGBA{255, 45, 85, 40}    // and its fill, premultiplied below
	captionBg = color.RGBA{20, 20, 24, 220}    // a caption's box
	white     = color.RGBA{255, 255, 255, 255} // text
	black     = color.RGBA{0, 0, 0, 255}       // the pointer's edge
	backdrop  = color.RGBA{128, 128, 128, 255} // around a frame smaller than the video
	shade     = color.RGBA{0, 0, 0, 150}       // over a chapter card's blurred page
	idleBg    = color.RGBA{255, 204, 0, 255}   // the idle note's box
	idleText  = color.RGBA{20, 20, 24, 255}
)

// premul is c with its colour multiplied by its alpha, as image/draw's
// Over wants from a uniform source.
func premul(c color.RGBA) color.RGBA {
	a := uint32(c.A)
	mul := func(v uint8) uint8 { return uint8(uint32(v) * a / 255) } //nolint:gosec // at most 255
	return color.RGBA{mul(c.R), mul(c.G), mul(c.B), c.A}
}

// fill paints r with c over what is there.
func fill(dst *image.RGBA, r image.Rectangle, c color.RGBA) {
	op := draw.Over
	if c.A == 255 {
		op = draw.Src
	}
	draw.Draw(dst, r.Intersect(dst.Rect), image.NewUniform(premul(c)), image.Point{}, op)
}

// outline draws a frame of width w around the inside of r.
func outline(dst *image.RGBA, r image.Rectangle, w int, c color.RGBA) {
	fill(dst, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+w), c)
	fill(dst, image.Rect(r.Min.X, r.Max.Y-w, r.Max.X, r.Max.Y), c)
	fill(dst, image.Rect(r.Min.X, r.Min.Y+w, r.Min.X+w, r.Max.Y-w), c)
	fill(dst, image.Rect(r.Max.X-w, r.Min.Y+w, r.Max.X, r.Max.Y-w), c)
}

// faces are the font faces by weight and size, made once.
var (
	facesMu sync.Mutex
	faces   = map[faceKey]font.Face{}
	fonts   = sync.OnceValues(func() ([2]*opentype.Font, error) {
		r, err := opentype.Parse(goregular.TTF)
		if err != nil {
			return [2]*opentype.Font{}, err
		}
		b, err := opentype.Parse(gobold.TTF)
		return [2]*opentype.Font{r, b}, err
	})
)

type faceKey struct {
	bold bool
	size int
}

// face is the Go font at size pixels, bold or regular; nil if the font
// cannot be read (then no text is drawn).
func face(bold bool, size int) font.Face {
	facesMu.Lock()
	defer facesMu.Unlock()
	k := faceKey{bold, size}
	if f, ok := faces[k]; ok {
		return f
	}
	fs, err := fonts()
	if err != nil {
		return nil
	}
	i := 0
	if bold {
		i = 1
	}
	f, err := opentype.NewFace(fs[i], &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil
	}
	faces[k] = f
	return f
}

// textWidth is how wide s is drawn in f, in pixels.
func textWidth(f font.Face, s string) int { return font.MeasureString(f, s).Ceil() }

// clip shortens s with an ellipsis until it is at most w pixels wide in f.
func clip(f font.Face, s string, w int) string {
	if textWidth(f, s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && textWidth(f, string(r)+"…") > w {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// text draws s in f with its baseline's left end at (x, y).
func text(dst *image.RGBA, f font.Face, s string, x, y int, c color.RGBA) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: f, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// wrap breaks s into lines of at most w pixels in f, at most n of them
// (the last clipped).
func wrap(f font.Face, s string, w, n int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		next := strings.TrimSpace(line + " " + word)
		if line != "" && textWidth(f, next) > w {
			lines = append(lines, line)
			line = word
			continue
		}
		line = next
	}
	if line != "" {
		lines = append(lines, line)
	}
	if len(lines) > n {
		lines = append(lines[:n-1], strings.Join(lines[n-1:], " "))
	}
	for i, l := range lines {
		lines[i] = clip(f, l, w)
	}
	return lines
}

// label draws s in a box: the box's corner at the position named
// (top-left, top, top-right, bottom-left, bottom, bottom-right), margin
// pixels in from the edges. It returns the box.
func label(dst *image.RGBA, s, position string, size, margin int, bg, fg color.RGBA) image.Rectangle {
	f := face(false, size)
	if f == nil || s == "" {
		return image.Rectangle{}
	}
	pad := max(size/2, 3)
	s = clip(f, s, dst.Rect.Dx()-2*margin-2*pad)
	m := f.Metrics()
	w, h := textWidth(f, s)+2*pad, (m.Ascent+m.Descent).Ceil()+2*pad
	W, H := dst.Rect.Dx(), dst.Rect.Dy()
	x, y := W-margin-w, margin
	switch position {
	case "top-left":
		x = margin
	case "top":
		x = (W - w) / 2
	case "bottom-left":
		x, y = margin, H-margin-h
	case "bottom":
		x, y = (W-w)/2, H-margin-h
	case "bottom-right":
		y = H - margin - h
	}
	r := image.Rect(x, y, x+w, y+h).Add(dst.Rect.Min)
	fill(dst, r, bg)
	text(dst, f, s, r.Min.X+pad, r.Min.Y+pad+m.Ascent.Ceil(), fg)
	return r
}

// pointer draws an arrow pointer with its tip at (x, y), size pixels tall.
// It is rasterized in its own small box, not across the picture.
func pointer(dst *image.RGBA, x, y float32, size float32) {
	// The arrow as a unit outline, tip at (0, 0), scaled.
	shape := [][2]float32{{0, 0}, {0, 1}, {0.25, 0.78}, {0.42, 1.12}, {0.56, 1.05}, {0.4, 0.72}, {0.72, 0.72}}
	edge := max(size/12, 1.5)
	box := image.Rect(int(x-2*edge)-1, int(y-2*edge)-1, int(x+size+2*edge)+2, int(y+1.2*size+2*edge)+2).Intersect(dst.Rect)
	if box.Empty() {
		return
	}
	draw := func(scale float32, dx, dy float32, c color.RGBA) {
		z := vector.NewRasterizer(box.Dx(), box.Dy())
		for i, p := range shape {
			px, py := x-float32(box.Min.X)+dx+p[0]*scale, y-float32(box.Min.Y)+dy+p[1]*scale
			if i == 0 {
				z.MoveTo(px, py)
			} else {
				z.LineTo(px, py)
			}
		}
		z.ClosePath()
		z.Draw(dst, box, image.NewUniform(c), image.Point{})
	}
	draw(size+2*edge, -edge*0.6, -edge, black)
	draw(size, 0, 0, white)
}

// blurred is src blurred and shaded, as the backdrop of a chapter card: it
// is shrunk sixteen times and stretched back.
func blurred(src *image.RGBA) *image.RGBA {
	b := src.Rect
	small := image.NewRGBA(image.Rect(0, 0, max(b.Dx()/16, 1), max(b.Dy()/16, 1)))
	xdraw.ApproxBiLinear.Scale(small, small.Rect, src, b, draw.Src, nil)
	out := image.NewRGBA(b)
	xdraw.BiLinear.Scale(out, b, small, small.Rect, draw.Src, nil)
	fill(out, b, shade)
	return out
}

// place draws a frame of the page onto the video's canvas: scaled down to
// fit when it is bigger, centred, the rest grey. It returns where the frame
// went and its scale (video pixels per frame pixel).
func place(canvas *image.RGBA, frame image.Image) (image.Rectangle, float64) {
	W, H := canvas.Rect.Dx(), canvas.Rect.Dy()
	fb := frame.Bounds()
	scale := 1.0
	if fb.Dx() > W || fb.Dy() > H {
		scale = min(float64(W)/float64(fb.Dx()), float64(H)/float64(fb.Dy()))
	}
	w, h := max(int(float64(fb.Dx())*scale+0.5), 1), max(int(float64(fb.Dy())*scale+0.5), 1)
	r := image.Rect((W-w)/2, (H-h)/2, (W-w)/2+w, (H-h)/2+h)
	if r != canvas.Rect {
		fill(canvas, canvas.Rect, backdrop)
	}
	if scale == 1 {
		draw.Draw(canvas, r, frame, fb.Min, draw.Src)
	} else {
		xdraw.ApproxBiLinear.Scale(canvas, r, frame, fb, draw.Src, nil)
	}
	return r, scale
}
