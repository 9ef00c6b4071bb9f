package video

import (
	"bytes"
	"image"
	"image/color"
	"io"
	"os"
	"testing"
	"time"
)

// solid is a w x h opaque image of c.
func solid(w, h int, c color.RGBA) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(m.Pix); i += 4 {
		m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = c.R, c.G, c.B, 255
	}
	return m
}

// TestAPNGRoundTrip: what the encoder writes decodes to the same pictures
// and delays; each frame after the first holds only what changed; a frame
// that changes nothing adds none.
func TestAPNGRoundTrip(t *testing.T) {
	dir := t.TempDir()
	a, err := newAPNGWriter(64, 48, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	white := solid(64, 48, color.RGBA{255, 255, 255, 255})
	second := solid(64, 48, color.RGBA{255, 255, 255, 255})
	for y := 10; y < 20; y++ {
		for x := 30; x < 34; x++ {
			second.SetRGBA(x, y, color.RGBA{200, 0, 0, 255})
		}
	}
	third := solid(64, 48, color.RGBA{0, 0, 255, 255})
	steps := []struct {
		img   *image.RGBA
		at    time.Duration
		added bool
	}{
		{white, 0, true},
		{second, 120 * time.Millisecond, true},
		{second, 200 * time.Millisecond, false},
		{third, 450 * time.Millisecond, true},
	}
	for i, s := range steps {
		added, err := a.add(s.img, s.at)
		if err != nil || added != s.added {
			t.Fatalf("frame %d: added %v, %v; want %v", i, added, err, s.added)
		}
	}
	r, size, err := a.finish(300 * time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil || int64(len(b)) != size {
		t.Fatalf("read %d bytes (%v), said %d", len(b), err, size)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("the temp file is visible in %s while recording: %v", dir, ents)
	}
	anim, err := DecodeAPNG(b)
	if err != nil {
		t.Fatal(err)
	}
	if anim.Width != 64 || anim.Height != 48 || len(anim.Frames) != 3 {
		t.Fatalf("decoded %dx%d with %d frames", anim.Width, anim.Height, len(anim.Frames))
	}
	wantDelays := []time.Duration{120 * time.Millisecond, 330 * time.Millisecond, 300 * time.Millisecond}
	for i, f := range anim.Frames {
		if f.Delay != wantDelays[i] {
			t.Errorf("frame %d lasts %v, want %v", i, f.Delay, wantDelays[i])
		}
	}
	if r := anim.Frames[1].Rect; r != image.Rect(30, 10, 34, 20) {
		t.Errorf("the second frame covers %v, want only the red box", r)
	}
	for i, want := range []*image.RGBA{white, second, third} {
		if got := anim.Image(i); !bytes.Equal(got.Pix, want.Pix) {
			t.Errorf("frame %d decodes to other pixels", i)
		}
	}
	if anim.Duration() != 750*time.Millisecond || anim.At(500*time.Millisecond) != 2 {
		t.Errorf("duration %v, frame at 500 ms %d", anim.Duration(), anim.At(500*time.Millisecond))
	}
}

// TestAPNGTooSoon: a frame less than minDelay after the one before
// replaces it (browsers would play it for 100 ms).
func TestAPNGTooSoon(t *testing.T) {
	a, err := newAPNGWriter(8, 8, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	red, green, blue := solid(8, 8, color.RGBA{255, 0, 0, 255}), solid(8, 8, color.RGBA{0, 255, 0, 255}), solid(8, 8, color.RGBA{0, 0, 255, 255})
	for _, s := range []struct {
		img *image.RGBA
		ms  int
	}{{red, 0}, {green, 100}, {blue, 105}} {
		if _, err := a.add(s.img, time.Duration(s.ms)*time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	r, _, err := a.finish(50 * time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r)
	anim, err := DecodeAPNG(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(anim.Frames) != 2 || anim.Frames[0].Delay != 100*time.Millisecond || anim.Image(1).RGBAAt(0, 0) != (color.RGBA{0, 0, 255, 255}) {
		t.Errorf("%d frames; first lasts %v; the second is %v", len(anim.Frames), anim.Frames[0].Delay, anim.Image(len(anim.Frames)-1).RGBAAt(0, 0))
	}
}

func TestChanged(t *testing.T) {
	a := solid(10, 10, color.RGBA{1, 2, 3, 255})
	b := solid(10, 10, color.RGBA{1, 2, 3, 255})
	if r := changed(a, b); !r.Empty() {
		t.Errorf("same images differ in %v", r)
	}
	b.SetRGBA(0, 9, color.RGBA{0, 0, 0, 255})
	b.SetRGBA(9, 3, color.RGBA{0, 0, 0, 255})
	if r := changed(a, b); r != image.Rect(0, 3, 10, 10) {
		t.Errorf("changed = %v", r)
	}
}
