//go:build !unit

package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"sync"
	"testing"
	"time"
)

// frames collects what a screencast sends.
type frames struct {
	mu   sync.Mutex
	list []Frame
	more chan struct{}
}

func newFrames() *frames { return &frames{more: make(chan struct{}, 1)} }

func (f *frames) sink(fr Frame) {
	f.mu.Lock()
	f.list = append(f.list, fr)
	f.mu.Unlock()
	select {
	case f.more <- struct{}{}:
	default:
	}
}

// waitFor waits until cond holds of the frames so far.
func (f *frames) waitFor(t *testing.T, what string, cond func([]Frame) bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		f.mu.Lock()
		ok := cond(f.list)
		f.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-f.more:
		case <-deadline:
			t.Fatalf("no %s within 10 s", what)
		}
	}
}

func (f *frames) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.list)
}

// TestScreencast: a session's screencast sends frames of its current tab
// with their paint time and scale, moves to a new current tab, tells the
// action hook where an action's target is, and sends nothing once stopped.
func TestScreencast(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/form")
	tabs := p.tabs
	got := newFrames()
	start := time.Now()
	if err := tabs.Cast(ctx, CastOptions{MaxWidth: 640, MaxHeight: 640}, got.sink); err != nil {
		t.Fatal(err)
	}
	got.waitFor(t, "first frame", func(l []Frame) bool { return len(l) > 0 })
	f := got.list[0]
	if f.Tab != string(p.main.target) || f.Scale <= 0 || f.Scale > 1 || f.Time.Before(start.Add(-2*time.Second)) || len(f.Data) < 100 {
		t.Errorf("first frame: tab %q (want %q), scale %v, time %v (cast started %v), %d bytes", f.Tab, p.main.target, f.Scale, f.Time, start, len(f.Data))
	}

	var mu sync.Mutex
	var targets []ActionTarget
	tabs.OnAction(func(a ActionTarget) { mu.Lock(); targets = append(targets, a); mu.Unlock() })
	if err := p.Click(ctx, "role=button[name='Sign up']", ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	raw, err := p.Evaluate(ctx, "() => { const r = document.querySelector('button').getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height} }", "")
	if err != nil {
		t.Fatal(err)
	}
	var want struct{ X, Y, W, H float64 }
	_ = json.Unmarshal(raw, &want)
	mu.Lock()
	if len(targets) != 1 || targets[0].X != want.X || targets[0].Y != want.Y || targets[0].Width != want.W || targets[0].Height != want.H {
		t.Errorf("the action hook got %+v, the button is at %+v", targets, want)
	}
	mu.Unlock()
	tabs.OnAction(nil)
	// The click wrote "Welcome" into the page: a frame shows it.
	n := got.count()
	got.waitFor(t, "frame after the click", func(l []Frame) bool { return len(l) > n })

	// A new tab becomes current: the screencast follows it.
	q, err := tabs.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Navigate(ctx, testServer.URL+"/links"); err != nil {
		t.Fatal(err)
	}
	got.waitFor(t, "frame of the new tab", func(l []Frame) bool { return l[len(l)-1].Tab == string(q.main.target) })
	if p.cast.on || !q.cast.on {
		t.Errorf("casting: first tab %v, new tab %v", p.cast.on, q.cast.on)
	}

	tabs.StopCast(ctx)
	n = got.count()
	if _, err := q.Evaluate(ctx, "() => { document.body.style.background = 'red'; return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))) }", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Screenshot(ctx, ScreenshotOptions{}); err != nil { // a paint, at least
		t.Fatal(err)
	}
	if got.count() != n || q.cast.on || tabs.Casting() {
		t.Errorf("after StopCast: %d frames more, casting %v", got.count()-n, tabs.Casting())
	}
}

func TestFrameWidth(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x05\x00\x00\x00\x02\xd0\x08\x02\x00\x00\x00")
	if w := frameWidth(png); w != 1280 {
		t.Errorf("PNG width %d", w)
	}
	// SOI, APP0 (length 16), SOF0: length 17, precision 8, height 720, width 1280.
	jpg := append([]byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10}, make([]byte, 14)...)
	jpg = append(jpg, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x02, 0xD0, 0x05, 0x00, 0x03)
	if w := frameWidth(jpg); w != 1280 {
		t.Errorf("JPEG width %d", w)
	}
}

// TestScreencastPacedKeepsLast: with frames acknowledged at a slow pace
// (frames that come meanwhile are not sent), the page's last change still
// arrives when nothing paints after it.
func TestScreencastPacedKeepsLast(t *testing.T) {
	t.Parallel()
	castLastColour(t, 2, nil)
}

// TestScreencastBusyKeepsLast: a change the page makes while a call runs
// (CastBusy) is in the frames once the call ends, though nothing paints
// after it.
func TestScreencastBusyKeepsLast(t *testing.T) {
	t.Parallel()
	castLastColour(t, 10, func(p *Page, busy bool) { p.tabs.CastBusy(busy) })
}

// castLastColour casts a page at fps, paints three colours within a few
// frames (between around(true) and around(false)), and waits for a frame of
// the last one.
func castLastColour(t *testing.T, fps int, around func(p *Page, busy bool)) {
	ctx := context.Background()
	p := openPage(t, "/form")
	got := newFrames()
	if err := p.tabs.Cast(ctx, CastOptions{MaxWidth: 320, MaxHeight: 320, Format: "png", FPS: fps}, got.sink); err != nil {
		t.Fatal(err)
	}
	defer p.tabs.StopCast(ctx)
	got.waitFor(t, "first frame", func(l []Frame) bool { return len(l) > 0 })
	if around != nil {
		around(p, true)
	}
	// Three colours within a few frames, then nothing paints.
	if _, err := p.Evaluate(ctx, `async () => {
		const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
		for (const c of ['rgb(200, 0, 0)', 'rgb(0, 200, 0)', 'rgb(0, 0, 200)']) { document.body.style.background = c; document.body.innerHTML = ''; await frame(); }
	}`, ""); err != nil {
		t.Fatal(err)
	}
	if around != nil {
		around(p, false)
	}
	got.waitFor(t, "a frame of the last colour", func(l []Frame) bool {
		img, err := png.Decode(bytes.NewReader(l[len(l)-1].Data))
		if err != nil {
			return false
		}
		r, g, b, _ := img.At(5, 5).RGBA()
		return r>>8 == 0 && g>>8 == 0 && b>>8 == 200
	})
}
