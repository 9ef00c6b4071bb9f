package measure

import (
	"image"
	"image/color"
	"testing"
)

// TestLabelDrawing: a box's outline is its border, w pixels wide, and
// nothing inside it; a ref's label sits on the box's top edge, above it,
// or inside it at the top of the image, its glyphs white on the color.
func TestLabelDrawing(t *testing.T) {
	red := color.RGBA{220, 38, 38, 255}
	white := color.RGBA{255, 255, 255, 255}
	blank := func() *image.RGBA { return image.NewRGBA(image.Rect(0, 0, 100, 100)) }

	img := blank()
	outline(img, image.Rect(10, 40, 50, 80), red, 2)
	for _, c := range []struct {
		x, y int
		want color.RGBA
	}{{10, 40, red}, {11, 60, red}, {49, 79, red}, {30, 41, red}, {12, 60, color.RGBA{}}, {30, 60, color.RGBA{}}, {50, 60, color.RGBA{}}} {
		if got := img.RGBAAt(c.x, c.y); got != c.want {
			t.Errorf("outline: pixel %d,%d is %v, want %v", c.x, c.y, got, c.want)
		}
	}

	// "e1" at scale 0: 1-pixel glyph cells, 2 glyphs of 4 cells and a
	// margin (9 wide), 7 high, ending on the box's top edge.
	img = blank()
	label(img, image.Pt(10, 40), "e1", red, 0)
	if got := img.RGBAAt(10, 33); got != red {
		t.Errorf("label's background at its top left is %v, want %v", got, red)
	}
	if got := img.RGBAAt(10, 40); got != (color.RGBA{}) {
		t.Errorf("label reaches into the box: %v", got)
	}
	// The glyph e's first row is "..." and its second "###": its cell
	// (1, 2) is white, its cell (1, 1) the label's color.
	if got := img.RGBAAt(11, 35); got != white {
		t.Errorf("e's second row starts with %v, want white", got)
	}
	if got := img.RGBAAt(11, 34); got != red {
		t.Errorf("e's first row starts with %v, want the label's color", got)
	}

	img = blank()
	label(img, image.Pt(10, 3), "e1", red, 0)
	if got, want := img.RGBAAt(10, 3), red; got != want {
		t.Errorf("a label with no room above is not inside the box: %v", got)
	}
	if got := img.RGBAAt(10, 2); got != (color.RGBA{}) {
		t.Errorf("a label with no room above drew above the box: %v", got)
	}
}
