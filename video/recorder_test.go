package video

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"sync"
	"testing"
	"time"
)

// pngOf is img encoded as the browser would send a frame (PNG keeps the
// colours exact for the checks).
func pngOf(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// clock is a test's clock: it moves only when the test says.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// record runs steps on a recorder whose clock the steps move (to, which
// first lets the recorder take in what came before), and decodes the
// video. The recording stops at the clock's last time.
func record(t *testing.T, o Options, steps func(r *Recorder, at func(ms int) time.Time)) (*Animation, Stats) {
	t.Helper()
	base := time.Now()
	c := &clock{t: base}
	o.TempDir, o.clock = t.TempDir(), c.now
	r, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// at moves the clock to ms after the start and returns that time.
	at := func(ms int) time.Time {
		r.settle()
		c.mu.Lock()
		c.t = base.Add(time.Duration(ms) * time.Millisecond)
		c.mu.Unlock()
		r.settle()
		return c.now()
	}
	steps(r, at)
	rd, size, st, err := r.Stop()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(rd)
	if err != nil || int64(len(b)) != size {
		t.Fatalf("read %d of %d bytes: %v", len(b), size, err)
	}
	anim, err := DecodeAPNG(b)
	if err != nil {
		t.Fatal(err)
	}
	return anim, st
}

// TestRecorderTimeline: the video follows the page's own times; an action
// shows its box where the target is, for its time, then goes; an idle
// stretch is shortened and noted; a chapter's card adds its time; the
// stats add up to what the file plays.
func TestRecorderTimeline(t *testing.T) {
	page := solid(320, 200, color.RGBA{250, 250, 250, 255})
	typed := solid(320, 200, color.RGBA{250, 250, 250, 255})
	fill(typed, image.Rect(20, 20, 120, 40), color.RGBA{30, 30, 30, 255})
	later := solid(320, 200, color.RGBA{200, 230, 255, 255})
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	anim, st := record(t, Options{Width: 320, Height: 200, MaxIdle: 3 * time.Second}, func(r *Recorder, at func(int) time.Time) {
		// The frames say their pixels are CSS pixels (scale 1).
		r.Frame(Frame{Data: pngOf(t, page), Time: at(0), Scale: 1})
		r.Frame(Frame{Data: pngOf(t, typed), Time: at(400), Scale: 1})
		r.Action(Action{Caption: `click button "Go"`, Box: &Box{X: 200, Y: 100, Width: 60, Height: 30}, Time: at(1000), Show: ms(500)})
		r.Frame(Frame{Data: pngOf(t, later), Time: at(1200), Scale: 1})
		at(1600) // the overlay's time is over
		// Nothing until 9 s: 7.5 seconds idle past the last change.
		r.Frame(Frame{Data: pngOf(t, page), Time: at(9000), Scale: 1})
		r.Chapter(Chapter{Title: "Checkout", Description: "Pay with a card", Time: at(9500), Show: ms(2000)})
		r.Frame(Frame{Data: pngOf(t, typed), Time: at(9800), Scale: 1})
		at(10000)
	})
	if st.Frames != len(anim.Frames) || st.Duration != anim.Duration() {
		t.Errorf("stats say %d frames, %v; the file has %d, %v", st.Frames, st.Duration, len(anim.Frames), anim.Duration())
	}
	if st.Chapters != 2*time.Second || st.IdleCut < 4*time.Second {
		t.Errorf("chapters %v, idle cut %v", st.Chapters, st.IdleCut)
	}
	px := func(at time.Duration, x, y int) color.RGBA {
		i := anim.At(at)
		if i < 0 {
			t.Fatalf("no frame at %v (video %v)", at, anim.Duration())
		}
		return anim.Image(i).RGBAAt(x, y)
	}
	// Before the action: the page. During it: the box's outline just
	// outside its left edge, and its tinted inside. After: the page.
	if c := px(ms(900), 198, 115); c != (color.RGBA{250, 250, 250, 255}) {
		t.Errorf("before the action the box's place is %v", c)
	}
	if c := px(ms(1100), 198, 115); c != highlight {
		t.Errorf("during the action the box's edge is %v, want %v", c, highlight)
	}
	if c := px(ms(1100), 230, 115); c.G >= 250 || c.R <= c.G {
		t.Errorf("during the action the box's inside is %v, want tinted", c)
	}
	if c, out := px(ms(1300), 198, 115), px(ms(1300), 180, 115); c != highlight || out != (color.RGBA{200, 230, 255, 255}) {
		t.Errorf("after the page changed, with the box still on, its edge is %v and beside it %v", c, out)
	}
	if c := px(ms(1800), 198, 115); c != (color.RGBA{200, 230, 255, 255}) {
		t.Errorf("after the action the box's place is %v", c)
	}
	// The idle stretch from 1.5 s (the overlay's end) to 9 s is 1 s plain
	// and 1 s noted (a yellow box at the bottom left).
	if c := px(ms(2000), 20, 185); c != (color.RGBA{200, 230, 255, 255}) {
		t.Errorf("the first second of the idle stretch is %v at the note's place", c)
	}
	if c := px(ms(2600), 14, 185); c != idleBg {
		t.Errorf("the idle note is not shown: %v", c)
	}
	// Then the page at 3.5 s of video, the card from 4 s for 2 s (dark),
	// the page after.
	if c := px(ms(3600), 5, 5); c != (color.RGBA{250, 250, 250, 255}) {
		t.Errorf("after the idle stretch the page is %v", c)
	}
	if c := px(ms(5000), 5, 5); c.R > 160 {
		t.Errorf("the chapter card's backdrop is %v, want shaded", c)
	}
	if c := px(ms(6100), 5, 5); c != (color.RGBA{250, 250, 250, 255}) {
		t.Errorf("after the card the page is %v", c)
	}
}

// TestRecorderFirstFrameAndSize: the first frame shows from the start, a
// frame smaller than the video is centred on grey, and nothing but the
// first frame is kept when the page never changes.
func TestRecorderFirstFrameAndSize(t *testing.T) {
	small := solid(100, 50, color.RGBA{0, 128, 0, 255})
	anim, st := record(t, Options{Width: 200, Height: 100, MaxIdle: -1}, func(r *Recorder, at func(int) time.Time) {
		r.Frame(Frame{Data: pngOf(t, small), Time: at(700), Scale: 1})
		r.Frame(Frame{Data: pngOf(t, small), Time: at(900), Scale: 1})
		at(60000)
	})
	if len(anim.Frames) != 1 {
		t.Fatalf("%d frames, want 1", len(anim.Frames))
	}
	img := anim.Image(0)
	if img.RGBAAt(100, 50) != (color.RGBA{0, 128, 0, 255}) || img.RGBAAt(10, 10) != backdrop {
		t.Errorf("centre %v, corner %v", img.RGBAAt(100, 50), img.RGBAAt(10, 10))
	}
	if d := anim.Duration(); d != time.Minute || st.Duration != d || st.Session != d {
		t.Errorf("with no idle cut the video lasts %v (stats %v of %v), want the whole minute", d, st.Duration, st.Session)
	}
}

func TestFit(t *testing.T) {
	for _, c := range []struct{ w, h, mw, mh, ww, wh int }{
		{1280, 720, 1280, 720, 1280, 720},
		{1280, 720, 800, 800, 800, 450},
		{1279, 719, 2000, 2000, 1278, 718},
		{0, 0, 800, 600, 800, 600},
	} {
		if w, h := Fit(c.w, c.h, c.mw, c.mh); w != c.ww || h != c.wh {
			t.Errorf("Fit(%d, %d, %d, %d) = %d, %d; want %d, %d", c.w, c.h, c.mw, c.mh, w, h, c.ww, c.wh)
		}
	}
}

// TestRecorderBusy: while a call runs, what the recorder is handed waits
// (nothing is decoded or encoded); after it, everything takes its own
// time in the video.
func TestRecorderBusy(t *testing.T) {
	a := solid(64, 32, color.RGBA{10, 20, 30, 255})
	b := solid(64, 32, color.RGBA{200, 20, 30, 255})
	anim, _ := record(t, Options{Width: 64, Height: 32, MaxIdle: -1}, func(r *Recorder, at func(int) time.Time) {
		r.Frame(Frame{Data: pngOf(t, a), Time: at(0), Scale: 1})
		at(100)
		r.Busy(true)
		r.Frame(Frame{Data: pngOf(t, b), Time: at(300), Scale: 1})
		r.Frame(Frame{Data: pngOf(t, a), Time: at(700), Scale: 1})
		r.mu.Lock()
		waiting := len(r.queue)
		r.mu.Unlock()
		if waiting != 2 {
			t.Errorf("%d items wait while busy, want the 2 frames", waiting)
		}
		r.Busy(false)
		at(1000)
	})
	var delays []time.Duration
	for _, f := range anim.Frames {
		delays = append(delays, f.Delay)
	}
	if len(delays) != 3 || delays[0] != 300*time.Millisecond || delays[1] != 400*time.Millisecond || delays[2] != 300*time.Millisecond {
		t.Errorf("frames last %v, want 300ms, 400ms, 300ms", delays)
	}
}

// TestRecorderLateFrames: a frame that reaches the worker after the end of
// an overlay that began before it (the worker took its work in late: a
// call ran, or the machine was busy) still plays at its own time, and the
// video lasts as long as the session.
func TestRecorderLateFrames(t *testing.T) {
	a := solid(64, 32, color.RGBA{10, 20, 30, 255})
	b := solid(64, 32, color.RGBA{200, 20, 30, 255})
	c := solid(64, 32, color.RGBA{10, 200, 30, 255})
	anim, st := record(t, Options{Width: 64, Height: 32, MaxIdle: -1}, func(r *Recorder, at func(int) time.Time) {
		r.Frame(Frame{Data: pngOf(t, a), Time: at(0), Scale: 1})
		r.Action(Action{Time: at(100), Show: 500 * time.Millisecond, Box: &Box{X: 10, Y: 5, Width: 20, Height: 10}})
		// The worker looks at 1000 ms, after the overlay ended at 600;
		// then come the page's frames of 400 and 500, which Chrome
		// painted while it showed.
		at(1000)
		r.Frame(Frame{Data: pngOf(t, b), Time: r.start.Add(400 * time.Millisecond), Scale: 1})
		r.Frame(Frame{Data: pngOf(t, c), Time: r.start.Add(500 * time.Millisecond), Scale: 1})
		at(1000)
	})
	var delays []time.Duration
	for _, f := range anim.Frames {
		delays = append(delays, f.Delay)
	}
	want := []time.Duration{100, 300, 100, 100, 400}
	ok := len(delays) == len(want)
	for i := range want {
		want[i] *= time.Millisecond
		ok = ok && i < len(delays) && delays[i] == want[i]
	}
	if !ok || anim.Duration() != st.Session {
		t.Errorf("frames last %v (%s in all, the session %s); want %v", delays, anim.Duration(), st.Session, want)
	}
}

// TestRecorderQuiet: with Options.Quiet, what comes while a call runs waits
// until the session has had no call for that long (the worker neither
// decodes nor encodes while calls follow each other closely), unless too
// much is waiting (TestRecorderHeldBound); the video is the same as a
// worker's that took it at once.
func TestRecorderQuiet(t *testing.T) {
	a := solid(64, 32, color.RGBA{10, 20, 30, 255})
	b := solid(64, 32, color.RGBA{200, 20, 30, 255})
	waiting := func(r *Recorder) int {
		r.mu.Lock()
		defer r.mu.Unlock()
		return len(r.queue)
	}
	anim, st := record(t, Options{Width: 64, Height: 32, MaxIdle: -1, Quiet: time.Hour}, func(r *Recorder, at func(int) time.Time) {
		r.Frame(Frame{Data: pngOf(t, a), Time: at(0), Scale: 1})
		at(0)
		if n := waiting(r); n != 0 {
			t.Errorf("before any call: %d items wait", n)
		}
		r.Busy(true)
		r.Frame(Frame{Data: pngOf(t, b), Time: at(100), Scale: 1})
		r.Action(Action{Time: at(150), Show: 100 * time.Millisecond, Box: &Box{X: 10, Y: 5, Width: 20, Height: 10}})
		r.Busy(false)
		at(300)
		if n := waiting(r); n != 2 {
			t.Errorf("after the call, in the quiet: %d items wait, want the frame and the action", n)
		}
		at(400)
	})
	if len(anim.Frames) < 3 || st.Session != 400*time.Millisecond {
		t.Fatalf("%d frames, a session of %s", len(anim.Frames), st.Session)
	}
	var delays []time.Duration
	for _, f := range anim.Frames[:3] {
		delays = append(delays, f.Delay)
	}
	// a until 100, b until the action at 150, b with its box until 250.
	want := []time.Duration{100 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond}
	for i := range want {
		if delays[i] != want[i] {
			t.Errorf("the first frames last %v, want %v", delays, want)
			break
		}
	}
}

// TestRecorderHeldBound: while calls run, the worker leaves at most
// maxHeld items waiting.
func TestRecorderHeldBound(t *testing.T) {
	a := solid(64, 32, color.RGBA{10, 20, 30, 255})
	record(t, Options{Width: 64, Height: 32, MaxIdle: -1, Quiet: time.Hour}, func(r *Recorder, at func(int) time.Time) {
		r.Frame(Frame{Data: pngOf(t, a), Time: at(0), Scale: 1})
		r.Busy(true)
		for i := range maxHeld {
			r.Action(Action{Time: at(i + 1), Show: time.Millisecond, Box: &Box{X: 1, Y: 1, Width: 4, Height: 4}})
		}
		at(maxHeld + 1)
		r.mu.Lock()
		n := len(r.queue)
		r.mu.Unlock()
		if n >= maxHeld {
			t.Errorf("%d items wait, the bound is %d", n, maxHeld)
		}
		r.Busy(false)
	})
}

// TestRecorderStopBy: a recording stopped by a deadline that has passed
// ends on what was drawn: the frames still waiting are left out and
// counted, and the video is whole (it decodes, with the frame drawn before).
func TestRecorderStopBy(t *testing.T) {
	a := solid(64, 32, color.RGBA{10, 20, 30, 255})
	b := solid(64, 32, color.RGBA{200, 20, 30, 255})
	c := &clock{t: time.Now()}
	r, err := New(Options{Width: 64, Height: 32, MaxIdle: -1, TempDir: t.TempDir(), clock: c.now})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Frame(Frame{Data: pngOf(t, a), Time: c.now(), Scale: 1})
	r.settle()
	r.Busy(true) // what comes now waits, as behind a call
	for i := range 5 {
		r.Frame(Frame{Data: pngOf(t, b), Time: c.now().Add(time.Duration(i+1) * 100 * time.Millisecond), Scale: 1})
	}
	rd, size, st, err := r.StopBy(time.Now().Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if st.Cut != 5 {
		t.Errorf("Cut = %d, want the 5 frames that waited", st.Cut)
	}
	raw, err := io.ReadAll(rd)
	if err != nil || int64(len(raw)) != size {
		t.Fatalf("read %d of %d bytes: %v", len(raw), size, err)
	}
	anim, err := DecodeAPNG(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(anim.Frames) != 1 {
		t.Fatalf("the video has %d frames, want the one drawn before the deadline", len(anim.Frames))
	}
	if got := color.RGBAModel.Convert(anim.Frames[0].Patch.At(1, 1)); got != (color.RGBA{10, 20, 30, 255}) {
		t.Errorf("its frame shows %v, want the first picture", got)
	}
}

// TestRecorderQueueBytes: while a call runs, the frames waiting for the
// worker hold at most maxQueuedBytes, whatever their size (a page that
// paints noise sends pictures no PNG makes small): past half of it the
// worker takes them in though the call runs, and past all of it the newest
// replaces the last one waiting.
func TestRecorderQueueBytes(t *testing.T) {
	a := solid(64, 32, color.RGBA{10, 20, 30, 255})
	big := bytes.Repeat([]byte{0x89}, 4<<20) // not a PNG: the worker skips it
	record(t, Options{Width: 64, Height: 32, MaxIdle: -1, Quiet: time.Hour}, func(r *Recorder, at func(int) time.Time) {
		r.Frame(Frame{Data: pngOf(t, a), Time: at(0), Scale: 1})
		r.Busy(true)
		for i := range 20 {
			r.Frame(Frame{Data: big, Time: at(i), Scale: 1})
			r.mu.Lock()
			queued := r.queued
			r.mu.Unlock()
			if queued > maxQueuedBytes {
				t.Fatalf("after %d frames of 4 MB, %d bytes wait (bound %d)", i+1, queued, maxQueuedBytes)
			}
		}
		r.Busy(false)
	})
}
