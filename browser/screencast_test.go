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

	"github.com/e2e-mcp/e2e-mcp/browser/measure"
	"github.com/e2e-mcp/e2e-mcp/browser/recording"
)

// frames collects what a screencast sends.
type frames struct {
	mu   sync.Mutex
	list []recording.Frame
	more chan struct{}
}

func newFrames() *frames { return &frames{more: make(chan struct{}, 1)} }

func (f *frames) sink(fr recording.Frame) {
	f.mu.Lock()
	f.list = append(f.list, fr)
	f.mu.Unlock()
	select {
	case f.more <- struct{}{}:
	default:
	}
}

// waitFor waits until cond holds of the frames so far.
func (f *frames) waitFor(t *testing.T, what string, cond func([]recording.Frame) bool) {
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
	if err := tabs.Cast(ctx, recording.CastOptions{MaxWidth: 640, MaxHeight: 640}, got.sink); err != nil {
		t.Fatal(err)
	}
	got.waitFor(t, "first frame", func(l []recording.Frame) bool { return len(l) > 0 })
	f := got.list[0]
	if f.Tab != string(p.main.target) || f.Scale <= 0 || f.Scale > 1 || f.Time.Before(start.Add(-2*time.Second)) || len(f.Data) < 100 {
		t.Errorf("first frame: tab %q (want %q), scale %v, time %v (cast started %v), %d bytes", f.Tab, p.main.target, f.Scale, f.Time, start, len(f.Data))
	}

	var mu sync.Mutex
	var targets []recording.ActionTarget
	tabs.OnAction(func(a recording.ActionTarget) { mu.Lock(); targets = append(targets, a); mu.Unlock() })
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
	got.waitFor(t, "frame after the click", func(l []recording.Frame) bool { return len(l) > n })

	// A new tab becomes current: the screencast follows it.
	q, err := tabs.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Navigate(ctx, testServer.URL+"/links"); err != nil {
		t.Fatal(err)
	}
	got.waitFor(t, "frame of the new tab", func(l []recording.Frame) bool { return l[len(l)-1].Tab == string(q.main.target) })
	if p.cast.On() || !q.cast.On() {
		t.Errorf("casting: first tab %v, new tab %v", p.cast.On(), q.cast.On())
	}

	tabs.StopCast(ctx)
	n = got.count()
	if _, err := q.Evaluate(ctx, "() => { document.body.style.background = 'red'; return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))) }", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Screenshot(ctx, measure.ScreenshotOptions{}); err != nil { // a paint, at least
		t.Fatal(err)
	}
	if got.count() != n || q.cast.On() || tabs.Casting() {
		t.Errorf("after StopCast: %d frames more, casting %v", got.count()-n, tabs.Casting())
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
	if err := p.tabs.Cast(ctx, recording.CastOptions{MaxWidth: 320, MaxHeight: 320, Format: "png", FPS: fps}, got.sink); err != nil {
		t.Fatal(err)
	}
	defer p.tabs.StopCast(ctx)
	got.waitFor(t, "first frame", func(l []recording.Frame) bool { return len(l) > 0 })
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
	got.waitFor(t, "a frame of the last colour", func(l []recording.Frame) bool {
		img, err := png.Decode(bytes.NewReader(l[len(l)-1].Data))
		if err != nil {
			return false
		}
		r, g, b, _ := img.At(5, 5).RGBA()
		return r>>8 == 0 && g>>8 == 0 && b>>8 == 200
	})
}

// liveIs waits until the tab's screencast runs (on) or is stopped.
func liveIs(t *testing.T, p *Page, on bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		live := p.cast.Live()
		if live == on {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the screencast still %s after 10 s", what, map[bool]string{true: "runs", false: "is stopped"}[live])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// paint changes the page's colour and returns once it has painted.
func paint(t *testing.T, p *Page, colour string) {
	t.Helper()
	if _, err := p.Evaluate(context.Background(), `() => { document.body.style.background = '`+colour+`'; return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))) }`, ""); err != nil {
		t.Fatal(err)
	}
}

// TestScreencastSettles: with recording.CastOptions.Settle, calls that follow each
// other within it run with the screencast stopped, and nothing of what
// they do is filmed until the session pauses; once it has, the page as
// they left it is.
func TestScreencastSettles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/form")
	got := newFrames()
	if err := p.tabs.Cast(ctx, recording.CastOptions{MaxWidth: 320, MaxHeight: 320, Format: "png", FPS: 10, Settle: 300 * time.Millisecond}, got.sink); err != nil {
		t.Fatal(err)
	}
	defer p.tabs.StopCast(ctx)
	got.waitFor(t, "first frame", func(l []recording.Frame) bool { return len(l) > 0 })
	// A batch of three calls, each painting.
	n := 0
	for i, c := range []string{"rgb(200, 0, 0)", "rgb(0, 200, 0)", "rgb(0, 0, 200)"} {
		p.tabs.CastBusy(true)
		if i == 0 {
			liveIs(t, p, false, "in the first call")
			n = got.count()
		}
		paint(t, p, c)
		p.tabs.CastBusy(false)
	}
	end := time.Now()
	liveIs(t, p, true, "after the batch")
	if waited := time.Since(end); waited < 250*time.Millisecond {
		t.Errorf("the screencast started %s after the batch, before it settled (300 ms)", waited)
	}
	got.waitFor(t, "a frame of the batch's last colour", func(l []recording.Frame) bool {
		return len(l) > n && near(colourAt(l[len(l)-1]), 0, 0, 200)
	})
	got.mu.Lock()
	defer got.mu.Unlock()
	for _, f := range got.list[n:] {
		c := colourAt(f)
		if f.Time.Before(end.Add(250*time.Millisecond)) && (near(c, 200, 0, 0) || near(c, 0, 200, 0) || near(c, 0, 0, 200)) {
			t.Errorf("a frame painted %s after the batch ended shows %v: filmed before the batch settled", f.Time.Sub(end), c)
		}
	}
}

// TestScreencastStopsWhenStill: with recording.CastOptions.Still, the screencast
// stops once the page has shown nothing new for that long after a call,
// though a focused text box's caret blinks (Still is longer than its
// 500 ms blink, so both of its pictures come); the next call's end films
// the page again.
func TestScreencastStopsWhenStill(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/form")
	got := newFrames()
	if err := p.tabs.Cast(ctx, recording.CastOptions{MaxWidth: 320, MaxHeight: 320, Format: "png", FPS: 10, Settle: 20 * time.Millisecond, Still: 1200 * time.Millisecond}, got.sink); err != nil {
		t.Fatal(err)
	}
	defer p.tabs.StopCast(ctx)
	got.waitFor(t, "first frame", func(l []recording.Frame) bool { return len(l) > 0 })
	p.tabs.CastBusy(true)
	if _, err := p.Evaluate(ctx, "() => document.querySelector('input').focus()", ""); err != nil {
		t.Fatal(err)
	}
	paint(t, p, "rgb(200, 0, 0)")
	p.tabs.CastBusy(false)
	liveIs(t, p, true, "after the call")
	got.waitFor(t, "a frame of the call's colour", func(l []recording.Frame) bool { return near(colourAt(l[len(l)-1]), 200, 0, 0) })
	liveIs(t, p, false, "with nothing new but the caret")
	// What the page does now waits for the next call's end.
	n := got.count()
	paint(t, p, "rgb(0, 200, 0)")
	if _, err := p.Screenshot(ctx, measure.ScreenshotOptions{}); err != nil {
		t.Fatal(err)
	}
	// A frame Chrome sent before the stop may still come; none shows
	// what the page did after it.
	got.mu.Lock()
	for _, f := range got.list[n:] {
		if near(colourAt(f), 0, 200, 0) {
			t.Errorf("a frame of the colour painted after the screencast stopped came before the next call")
			break
		}
	}
	got.mu.Unlock()
	p.tabs.CastBusy(true)
	p.tabs.CastBusy(false)
	got.waitFor(t, "a frame of the colour painted between calls", func(l []recording.Frame) bool {
		return len(l) > n && near(colourAt(l[len(l)-1]), 0, 200, 0)
	})
}

// colourAt is the colour of a PNG frame's top-left corner.
func colourAt(f recording.Frame) [3]uint32 {
	img, err := png.Decode(bytes.NewReader(f.Data))
	if err != nil {
		return [3]uint32{1 << 20}
	}
	r, g, b, _ := img.At(5, 5).RGBA()
	return [3]uint32{r >> 8, g >> 8, b >> 8}
}

// near says a colour is r, g, b give or take what scaling changes.
func near(c [3]uint32, r, g, b int) bool {
	d := func(x uint32, y int) bool { return int(x)-y <= 3 && y-int(x) <= 3 }
	return d(c[0], r) && d(c[1], g) && d(c[2], b)
}
