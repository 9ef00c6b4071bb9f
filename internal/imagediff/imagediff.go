// Package imagediff compares two screenshots pixel by pixel, the way a
// visual check needs: a per-pixel color distance in YIQ space with a
// threshold, pixels of anti-aliased edges told apart from real changes (as
// pixelmatch's published algorithm describes: a pixel between a darker and
// a brighter neighbor, each of which sits in a flat area in both images),
// masks painted over both images, and a diff image to look at. It needs no
// browser.
package imagediff

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
)

// DefaultThreshold is the color distance (0 to 1) under which two pixels
// count as the same, as Playwright's default.
const DefaultThreshold = 0.2

// maxYIQDelta is the largest squared YIQ distance two colors can have.
const maxYIQDelta = 35215

// MaskColor paints the masked regions (a color pages rarely use).
var MaskColor = color.RGBA{255, 0, 255, 255}

// Options say how close two images must be.
type Options struct {
	// Threshold is the color distance (0 to 1) two pixels may have and
	// still match; 0 means DefaultThreshold (use a tiny value for exact).
	Threshold float64
	// MaxDiffPixels and MaxDiffRatio are how many differing pixels (or
	// what part of all) the images may have and still match; both 0: none.
	MaxDiffPixels int
	MaxDiffRatio  float64
	// CountAntiAliased counts differing anti-aliased pixels too.
	CountAntiAliased bool
}

// Result is how two images compare.
type Result struct {
	Width, Height int
	// Diff is the number of differing pixels, AntiAliased the number of
	// differing pixels that are anti-aliasing and were not counted.
	Diff, AntiAliased int
	// Bounds holds every counted differing pixel (empty when Diff is 0).
	Bounds image.Rectangle
	// Image shows the baseline in faint grey, differing pixels red,
	// anti-aliased ones yellow; nil when the images match.
	Image *image.RGBA
	Pass  bool
}

// Ratio is the part of all pixels that differ.
func (r Result) Ratio() float64 {
	if r.Width*r.Height == 0 {
		return 0
	}
	return float64(r.Diff) / float64(r.Width*r.Height)
}

// SizeError says the images are not the same size.
type SizeError struct{ Want, Got image.Point }

func (e *SizeError) Error() string {
	return fmt.Sprintf("the baseline is %dx%d pixels, the actual image %dx%d", e.Want.X, e.Want.Y, e.Got.X, e.Got.Y)
}

// RGBA copies img into an RGBA image whose bounds start at 0,0.
func RGBA(img image.Image) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
	return out
}

// Mask paints each rectangle over img in MaskColor.
func Mask(img *image.RGBA, rects []image.Rectangle) {
	for _, r := range rects {
		draw.Draw(img, r.Intersect(img.Bounds()), &image.Uniform{MaskColor}, image.Point{}, draw.Src)
	}
}

// Equal reports whether two images have the same size and pixels.
func Equal(a, b *image.RGBA) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	w := a.Bounds().Dx() * 4
	for y := 0; y < a.Bounds().Dy(); y++ {
		ra := a.Pix[y*a.Stride : y*a.Stride+w]
		rb := b.Pix[y*b.Stride : y*b.Stride+w]
		if string(ra) != string(rb) {
			return false
		}
	}
	return true
}

// Compare compares actual with baseline (both with bounds at 0,0, as
// RGBA makes them). The diff image is made only when they do not match:
// at the size a visual check allows, each image is tens of MB.
func Compare(baseline, actual *image.RGBA, o Options) (Result, error) {
	bw, bh := baseline.Bounds().Dx(), baseline.Bounds().Dy()
	aw, ah := actual.Bounds().Dx(), actual.Bounds().Dy()
	if bw != aw || bh != ah {
		return Result{}, &SizeError{Want: image.Pt(bw, bh), Got: image.Pt(aw, ah)}
	}
	res := Result{Width: bw, Height: bh}
	walk(baseline, actual, o, func(x, y int, k pixelKind) {
		switch k {
		case antiAliasedPixel:
			res.AntiAliased++
		case differentPixel:
			res.Diff++
			res.Bounds = res.Bounds.Union(image.Rect(x, y, x+1, y+1))
		}
	})
	allowed := o.MaxDiffPixels
	if r := int(o.MaxDiffRatio * float64(bw*bh)); r > allowed {
		allowed = r
	}
	res.Pass = res.Diff <= allowed
	if !res.Pass {
		res.Image = image.NewRGBA(image.Rect(0, 0, bw, bh))
		out := res.Image
		walk(baseline, actual, o, func(x, y int, k pixelKind) {
			px := out.Pix[out.PixOffset(x, y):][:4]
			switch k {
			case samePixel:
				grey(px, baseline.Pix[baseline.PixOffset(x, y):][:4])
			case antiAliasedPixel:
				copy(px, []byte{255, 255, 0, 255})
			default:
				copy(px, []byte{255, 0, 0, 255})
			}
		})
	}
	return res, nil
}

// pixelKind is how a pixel of two images compares.
type pixelKind int

const (
	samePixel pixelKind = iota
	antiAliasedPixel
	differentPixel
)

// walk tells each pixel of two images of one size how it compares.
func walk(baseline, actual *image.RGBA, o Options, each func(x, y int, k pixelKind)) {
	th := o.Threshold
	if th <= 0 {
		th = DefaultThreshold
	}
	maxDelta := maxYIQDelta * th * th
	for y := 0; y < baseline.Bounds().Dy(); y++ {
		for x := 0; x < baseline.Bounds().Dx(); x++ {
			i, j := baseline.PixOffset(x, y), actual.PixOffset(x, y)
			switch {
			case colorDelta(baseline.Pix[i:i+4], actual.Pix[j:j+4]) <= maxDelta:
				each(x, y, samePixel)
			case !o.CountAntiAliased && (antiAliased(baseline, actual, x, y) || antiAliased(actual, baseline, x, y)):
				each(x, y, antiAliasedPixel)
			default:
				each(x, y, differentPixel)
			}
		}
	}
}

// blend is a channel of a pixel over white, by its alpha.
func blend(c, a float64) float64 { return 255 + (c-255)*a/255 }

// yiq is a pixel's color in YIQ space, blended over white.
func yiq(p []byte) (y, i, q float64) {
	a := float64(p[3])
	r, g, b := blend(float64(p[0]), a), blend(float64(p[1]), a), blend(float64(p[2]), a)
	y = r*0.29889531 + g*0.58662247 + b*0.11448223
	i = r*0.59597799 - g*0.27417610 - b*0.32180189
	q = r*0.21147017 - g*0.52261711 + b*0.31114694
	return
}

// colorDelta is the squared YIQ distance of two pixels, weighted as
// perceived (luma counts most).
func colorDelta(p1, p2 []byte) float64 {
	if p1[0] == p2[0] && p1[1] == p2[1] && p1[2] == p2[2] && p1[3] == p2[3] {
		return 0
	}
	y1, i1, q1 := yiq(p1)
	y2, i2, q2 := yiq(p2)
	dy, di, dq := y1-y2, i1-i2, q1-q2
	return 0.5053*dy*dy + 0.299*di*di + 0.1957*dq*dq
}

// brightness is the difference in luma of p2 against p1 (positive: p2 is
// brighter).
func brightness(p1, p2 []byte) float64 {
	y1, _, _ := yiq(p1)
	y2, _, _ := yiq(p2)
	return y2 - y1
}

// grey writes the baseline pixel p as a faint grey into out.
func grey(out, p []byte) {
	y, _, _ := yiq(p)
	v := byte(255 + (y-255)*0.1)
	out[0], out[1], out[2], out[3] = v, v, v, 255
}

// antiAliased reports whether the pixel at x,y of img looks like the
// anti-aliased edge of a shape: among its neighbors at most two have its
// brightness, some are darker and some brighter, and the darkest or the
// brightest of them lies in a flat area (three or more identical
// neighbors) in both img and other. A pixel on the image's border counts
// one missing neighbor as the same.
func antiAliased(img, other *image.RGBA, x, y int) bool {
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	x0, y0, x1, y1 := max(x-1, 0), max(y-1, 0), min(x+1, w-1), min(y+1, h-1)
	zeroes := 0
	if x == x0 || x == x1 || y == y0 || y == y1 {
		zeroes = 1
	}
	var lo, hi float64
	var loX, loY, hiX, hiY int
	c := img.Pix[img.PixOffset(x, y):]
	for ny := y0; ny <= y1; ny++ {
		for nx := x0; nx <= x1; nx++ {
			if nx == x && ny == y {
				continue
			}
			d := brightness(c, img.Pix[img.PixOffset(nx, ny):])
			switch {
			case d == 0:
				if zeroes++; zeroes > 2 {
					return false
				}
			case d < lo:
				lo, loX, loY = d, nx, ny
			case d > hi:
				hi, hiX, hiY = d, nx, ny
			}
		}
	}
	if lo == 0 || hi == 0 {
		return false // not between a darker and a brighter neighbor
	}
	return (flat(img, loX, loY) && flat(other, loX, loY)) || (flat(img, hiX, hiY) && flat(other, hiX, hiY))
}

// flat reports whether the pixel at x,y has three or more neighbors of
// exactly its color (the border counting as one).
func flat(img *image.RGBA, x, y int) bool {
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	x0, y0, x1, y1 := max(x-1, 0), max(y-1, 0), min(x+1, w-1), min(y+1, h-1)
	zeroes := 0
	if x == x0 || x == x1 || y == y0 || y == y1 {
		zeroes = 1
	}
	c := img.Pix[img.PixOffset(x, y) : img.PixOffset(x, y)+4]
	for ny := y0; ny <= y1; ny++ {
		for nx := x0; nx <= x1; nx++ {
			if nx == x && ny == y {
				continue
			}
			if string(img.Pix[img.PixOffset(nx, ny):img.PixOffset(nx, ny)+4]) == string(c) {
				if zeroes++; zeroes > 2 {
					return true
				}
			}
		}
	}
	return false
}
