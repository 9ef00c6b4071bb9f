package imagediff

import (
	"errors"
	"image"
	"image/color"
	"math"
	"testing"
)

// canvas is a w x h image of one color.
func canvas(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

var (
	white  = color.RGBA{255, 255, 255, 255}
	indigo = color.RGBA{79, 70, 229, 255}
)

// disc draws a filled circle as a rasterizer does, anti-aliased: each
// pixel gets the fill in proportion to how much of it the circle covers
// (8x8 samples a pixel).
func disc(img *image.RGBA, cx, cy, r float64, fill color.RGBA) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			in := 0
			for sy := 0; sy < 8; sy++ {
				for sx := 0; sx < 8; sx++ {
					px, py := float64(x)+(float64(sx)+0.5)/8, float64(y)+(float64(sy)+0.5)/8
					if math.Hypot(px-cx, py-cy) <= r {
						in++
					}
				}
			}
			if in == 0 {
				continue
			}
			bg := img.RGBAAt(x, y)
			f := float64(in) / 64
			mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*(1-f) + float64(b)*f)) }
			img.SetRGBA(x, y, color.RGBA{mix(bg.R, fill.R), mix(bg.G, fill.G), mix(bg.B, fill.B), 255})
		}
	}
}

func TestIdenticalImagesPass(t *testing.T) {
	a := canvas(40, 30, white)
	disc(a, 20, 15, 9, indigo)
	res, err := Compare(a, RGBA(a), Options{})
	if err != nil || !res.Pass || res.Diff != 0 || res.AntiAliased != 0 {
		t.Fatalf("identical images: %+v, %v", res, err)
	}
	if !Equal(a, RGBA(a)) {
		t.Fatal("Equal: an image differs from its copy")
	}
}

func TestOnePixel(t *testing.T) {
	a := canvas(40, 30, white)
	b := RGBA(a)
	b.SetRGBA(12, 7, color.RGBA{200, 30, 30, 255})
	res, err := Compare(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass || res.Diff != 1 || res.Bounds != image.Rect(12, 7, 13, 8) {
		t.Fatalf("one changed pixel, no pixel allowed: pass=%v diff=%d bounds=%v", res.Pass, res.Diff, res.Bounds)
	}
	if got := res.Image.RGBAAt(12, 7); got != (color.RGBA{255, 0, 0, 255}) {
		t.Errorf("the diff image shows the changed pixel as %v, not red", got)
	}
	if got := res.Image.RGBAAt(0, 0); got.R != got.G || got.R < 200 {
		t.Errorf("the diff image shows an unchanged white pixel as %v, not faint grey", got)
	}
	if res, _ := Compare(a, b, Options{MaxDiffPixels: 1}); !res.Pass {
		t.Fatalf("one changed pixel with one allowed: %+v", res)
	}
	if res, _ := Compare(a, b, Options{MaxDiffRatio: 1.0 / 1200}); !res.Pass {
		t.Fatalf("one changed pixel of 1,200 with a ratio of 1/1200 allowed: diff %d", res.Diff)
	}
	// A change under the color threshold is no change.
	c := RGBA(a)
	c.SetRGBA(12, 7, color.RGBA{250, 250, 250, 255})
	if res, _ := Compare(a, c, Options{}); !res.Pass || res.Diff != 0 {
		t.Fatalf("a near-white pixel at the default threshold: diff %d", res.Diff)
	}
	if res, _ := Compare(a, c, Options{Threshold: 0.01}); res.Diff != 1 {
		t.Fatalf("a near-white pixel at threshold 0.01: diff %d, want 1", res.Diff)
	}
}

// TestAntiAliasedShift: a shape moved by a fraction of a pixel changes
// only the anti-aliased pixels of its edge, which are not counted; moved
// by whole pixels, it is a change.
func TestAntiAliasedShift(t *testing.T) {
	a, b := canvas(60, 60, white), canvas(60, 60, white)
	disc(a, 30, 30, 18, indigo)
	disc(b, 30.3, 30.2, 18, indigo)
	res, err := Compare(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Pass || res.Diff != 0 || res.AntiAliased == 0 {
		t.Fatalf("a disc moved by 0.3 px: pass=%v diff=%d anti-aliased=%d", res.Pass, res.Diff, res.AntiAliased)
	}
	if res, _ := Compare(a, b, Options{CountAntiAliased: true}); res.Pass || res.Diff == 0 {
		t.Fatalf("counting anti-aliased pixels: pass=%v diff=%d", res.Pass, res.Diff)
	}
	c := canvas(60, 60, white)
	disc(c, 34, 30, 18, indigo)
	if res, _ := Compare(a, c, Options{}); res.Pass || res.Diff < 20 {
		t.Fatalf("a disc moved by 4 px: pass=%v diff=%d", res.Pass, res.Diff)
	}
}

func TestMasks(t *testing.T) {
	a, b := canvas(50, 40, white), canvas(50, 40, white)
	disc(a, 10, 10, 5, indigo)
	disc(b, 14, 12, 5, indigo) // the part that changes
	disc(a, 40, 30, 6, indigo)
	disc(b, 40, 30, 6, indigo) // the part that does not
	if res, _ := Compare(a, b, Options{}); res.Pass {
		t.Fatal("unmasked: the moved disc passes")
	}
	rects := []image.Rectangle{image.Rect(0, 0, 25, 22)}
	Mask(a, rects)
	Mask(b, rects)
	if res, _ := Compare(a, b, Options{}); !res.Pass || res.Diff != 0 {
		t.Fatalf("masked: diff %d", res.Diff)
	}
	if a.RGBAAt(3, 3) != MaskColor {
		t.Errorf("the mask is not painted: %v", a.RGBAAt(3, 3))
	}
}

func TestSizes(t *testing.T) {
	_, err := Compare(canvas(10, 10, white), canvas(10, 12, white), Options{})
	var se *SizeError
	if !errors.As(err, &se) || se.Want != image.Pt(10, 10) || se.Got != image.Pt(10, 12) {
		t.Fatalf("sizes differ: %v", err)
	}
}
