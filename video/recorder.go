// Package video records a browser session as an animated PNG: frames of
// the page at its own pace, a title card for each chapter, and an overlay on
// each action (its target's box, a caption, a pointer). It knows nothing of
// CDP or MCP: the browser package hands it encoded frames, mcptools the
// actions and chapters (docs/architecture.md §6).
package video

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // the screencast's frames
	"image/png"
	"io"
	"sync"
	"time"
)

// Defaults of a recording.
const (
	DefaultFPS = 10
	MaxFPS     = 30
	// DefaultMaxIdle is how long a picture that does not change may show
	// before the stretch is shortened: then it shows for idleKeep, and
	// for idleKeep more with a note of how long it really was.
	DefaultMaxIdle = 3 * time.Second
	idleKeep       = time.Second
	// DefaultMaxBytes bounds a video's file: past it, frames are no
	// longer added (Stats.Truncated says so).
	DefaultMaxBytes = 256 << 20
	// DefaultActionShow and DefaultChapterShow are how long an action's
	// overlay and a chapter's card show.
	DefaultActionShow  = 500 * time.Millisecond
	DefaultChapterShow = 2 * time.Second
)

// Options shape a recording.
type Options struct {
	// Width and Height are the video's size in pixels.
	Width, Height int
	// FPS is the most frames a second the video has (0: DefaultFPS); the
	// browser is asked for no more (recording.CastOptions.FPS).
	FPS int
	// MaxIdle: a picture that shows longer is shortened (0:
	// DefaultMaxIdle; negative: never).
	MaxIdle time.Duration
	// MaxBytes bounds the file (0: DefaultMaxBytes).
	MaxBytes int64
	// TempDir holds the frames while recording ("": the system's).
	TempDir string
	// Quiet is how long after a call (Busy) the worker waits for the
	// next before it works (0: it works at once): calls that follow each
	// other closely have the machine to themselves, and the video is the
	// same.
	Quiet time.Duration
	// clock is the tests' clock (nil: the system's).
	clock func() time.Time
}

// Frame is a picture of the page, encoded (JPEG or PNG), as the browser
// sent it.
type Frame struct {
	Data []byte
	Time time.Time
	// Scale is the frame's pixels per CSS pixel of the viewport;
	// OffsetTop where the viewport starts in it, in CSS pixels.
	Scale, OffsetTop float64
	// Tab names the tab it shows.
	Tab string
}

// Action is an action to show on the frames from its Time for Show.
type Action struct {
	// Caption says what the action did, e.g. `click button "Sign up"`;
	// the caller has masked its secrets.
	Caption string
	// Box is the target's box in the viewport's CSS pixels, if it has
	// one.
	Box *Box
	// Pointer draws a pointer at the box's centre.
	Pointer bool
	// Position is where the caption goes (top-right by default; see
	// label).
	Position string
	Time     time.Time
	Show     time.Duration
}

// Box is a rectangle in CSS pixels.
type Box struct{ X, Y, Width, Height float64 }

// Chapter is a title card put into the video at Time: the picture of the
// page blurred, the title and description over it, for Show. The card adds
// its time to the video rather than covering the page's.
type Chapter struct {
	Title, Description string
	Time               time.Time
	Show               time.Duration
}

// Stats describe a finished video.
type Stats struct {
	Frames   int
	Bytes    int64
	Duration time.Duration // how long it plays
	// Session is the wall time it covers; IdleCut how much of that was
	// shortened; Chapters the time the cards add.
	Session, IdleCut, Chapters time.Duration
	Width, Height              int
	// Dropped counts the frames replaced by a newer one before they were
	// drawn (only a worker that gets no time drops any).
	Dropped int
	// Truncated: the video reached Limit (Options.MaxBytes) and stopped
	// there, TruncatedAt into the session.
	Truncated   bool
	TruncatedAt time.Duration
	Limit       int64
	// Cut counts the frames still waiting to be drawn when the recording
	// had to end (StopBy's deadline): the video ends before them.
	Cut int
}

// Recorder records one video. Its methods may be called from any
// goroutine and never wait for the encoding, which runs on a goroutine of
// its own.
type Recorder struct {
	opts  Options
	start time.Time
	now   func() time.Time // the clock (the tests' own)

	mu sync.Mutex
	// queue holds the frames (*Frame), actions and chapters not taken in
	// yet, in the order they came.
	queue   []any
	frames  int       // frames in queue
	queued  int       // bytes of the frames in queue
	busy    bool      // a call runs: the work waits for its end (Busy)
	idleAt  time.Time // when the last call ended (Options.Quiet)
	dropped int
	stopped bool
	wake    chan struct{}
	done    chan struct{}
	end     time.Time
	cutAt   time.Time     // StopBy's deadline: what waits past it is left out
	settled chan struct{} // closed when the worker has taken in what came before
	first   chan struct{} // closed when the first frame is in the video

	// The worker's own state.
	enc      *apngWriter
	base     *image.RGBA // the page as the newest frame drawn showed it, on the video's canvas
	place    mapping     // where that frame lies on the canvas
	decoded  [2]decodedFrame
	shown    *image.RGBA // the last frame added, overlays and all
	overlays []Action
	last     time.Time     // the clock time of the last frame added
	shift    time.Duration // video time minus clock time: cards add, idle cuts take away
	dirty    bool          // base or overlays changed since the last frame added
	changed  time.Time     // when they did
	err      error
	stats    Stats
	full     bool
}

// mapping places CSS pixels of the viewport on the video's canvas.
type mapping struct {
	x0, y0, scale float64
}

// New starts a recording; nothing shows until the first frame comes.
func New(o Options) (*Recorder, error) {
	if o.FPS <= 0 {
		o.FPS = DefaultFPS
	}
	o.FPS = min(o.FPS, MaxFPS)
	if o.MaxIdle == 0 {
		o.MaxIdle = DefaultMaxIdle
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	enc, err := newAPNGWriter(o.Width, o.Height, o.TempDir)
	if err != nil {
		return nil, err
	}
	if o.clock == nil {
		o.clock = time.Now
	}
	r := &Recorder{opts: o, now: o.clock, enc: enc, wake: make(chan struct{}, 1), done: make(chan struct{}), first: make(chan struct{})}
	r.start = r.now()
	r.stats.Width, r.stats.Height, r.stats.Limit = o.Width, o.Height, o.MaxBytes
	go r.run()
	return r, nil
}

// Frame hands the recorder a new picture of the page.
func (r *Recorder) Frame(f Frame) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	if r.frames >= maxQueued || r.frames > 0 && r.queued+len(f.Data) > maxQueuedBytes {
		// The worker is far behind (it cannot be while it works: this
		// is a machine that gives it no time), or the page paints what
		// no PNG makes small: the newest picture replaces the last one
		// queued rather than memory growing.
		for i := len(r.queue) - 1; i >= 0; i-- {
			if old, ok := r.queue[i].(*Frame); ok {
				r.queue[i] = &f
				r.queued += len(f.Data) - len(old.Data)
				r.dropped++
				r.poke()
				return
			}
		}
	}
	r.queue = append(r.queue, &f)
	r.frames++
	r.queued += len(f.Data)
	if !r.busy || r.frames >= maxQueued/2 || r.queued >= maxQueuedBytes/2 {
		r.poke()
	}
}

// maxQueued bounds the frames waiting for the worker: ten seconds at 10
// frames a second, some 10-40 MB of PNG at 1280x720; maxQueuedBytes
// bounds their bytes, whatever the page paints.
const (
	maxQueued      = 100
	maxQueuedBytes = 32 << 20
)

// Busy says whether a call of the session is running. While one runs the
// worker only queues what it is handed (unless the queue fills up) and
// does the decoding, drawing and encoding when the call has answered: an
// agent thinks for seconds between calls, and the browser and the page
// get the machine while it waits for an answer. Everything keeps its own
// time, so the video is the same.
func (r *Recorder) Busy(b bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.busy = b
	if !b {
		r.idleAt = r.now()
		r.poke()
	}
}

// Action shows an action on the frames from its time.
func (r *Recorder) Action(a Action) { r.event(a) }

// Chapter puts a title card into the video.
func (r *Recorder) Chapter(c Chapter) { r.event(c) }

func (r *Recorder) event(e any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.stopped {
		r.queue = append(r.queue, e)
		if !r.busy {
			r.poke()
		}
	}
}

// poke wakes the worker; r.mu is held.
func (r *Recorder) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Stop ends the recording and returns the video (an APNG), its size and
// what it holds. Call Close when the reader has been read.
func (r *Recorder) Stop() (io.Reader, int64, Stats, error) {
	r.halt()
	if r.err != nil {
		return nil, 0, r.stats, r.err
	}
	// The last picture shows until the end, shortened as any idle
	// stretch is (without a note: nothing follows it).
	gap := max(r.end.Sub(r.last), 0)
	tail := gap
	if r.opts.MaxIdle >= 0 {
		tail = min(gap, r.opts.MaxIdle)
	}
	tail = max(tail, time.Millisecond)
	rd, size, err := r.enc.finish(tail)
	if err != nil {
		return nil, 0, r.stats, err
	}
	r.stats.IdleCut += max(gap-tail, 0)
	r.stats.Frames, r.stats.Bytes = r.enc.count, size
	r.stats.Session = r.end.Sub(r.start)
	r.stats.Duration = r.enc.played
	return rd, size, r.stats, nil
}

// StopBy is Stop by a deadline: what still waits to be drawn when it
// passes is left out (Stats.Cut counts its frames) and the video ends on
// what was drawn, rather than the whole being lost to a caller that cannot
// wait (a session's end).
func (r *Recorder) StopBy(deadline time.Time) (io.Reader, int64, Stats, error) {
	r.mu.Lock()
	r.cutAt = deadline
	r.mu.Unlock()
	return r.Stop()
}

// pastCut says whether StopBy's deadline has passed.
func (r *Recorder) pastCut() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return !r.cutAt.IsZero() && time.Now().After(r.cutAt)
}

// Close ends the recording if it runs and removes its temp file.
func (r *Recorder) Close() {
	r.halt()
	r.enc.close()
}

// halt stops the worker and waits for it; the frames and events handed in
// before are drawn first.
func (r *Recorder) halt() {
	r.mu.Lock()
	if !r.stopped {
		r.stopped, r.end = true, r.now()
		r.poke()
	}
	r.mu.Unlock()
	<-r.done
}

// Started is closed once the video has its first frame.
func (r *Recorder) Started() <-chan struct{} { return r.first }

// Stats are what the recording holds so far (Bytes as written so far).
func (r *Recorder) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.stats
	s.Dropped = r.dropped
	return s
}

// run is the worker: it takes in frames and events in the order they
// came, and adds a frame to the video when something changed, at the time
// it changed (the page's paint, the action's start, the overlay's end).
// The browser sends at most FPS frames a second (it is acknowledged at
// that pace); a frame less than 20 ms after the one before replaces it
// (apngWriter).
func (r *Recorder) run() {
	defer close(r.done)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		r.mu.Lock()
		stopped := r.stopped
		// quiet: the last call ended less than Quiet ago; the work waits
		// until then for the next one.
		var quiet time.Duration
		if !r.busy && r.opts.Quiet > 0 && !r.idleAt.IsZero() {
			quiet = r.opts.Quiet - r.now().Sub(r.idleAt)
		}
		hold := (r.busy || quiet > 0) && !stopped && r.frames < maxQueued/2 && r.queued < maxQueuedBytes/2 && len(r.queue) < maxHeld
		var items []any
		if !hold {
			items, r.queue, r.frames, r.queued = r.queue, nil, 0, 0
		}
		settled := r.settled
		r.settled = nil
		r.mu.Unlock()
		if !hold {
			r.work(items, stopped)
		}
		if settled != nil {
			close(settled)
		}
		if stopped {
			r.mu.Lock()
			r.stats.Dropped = r.dropped
			r.mu.Unlock()
			return
		}
		if !hold || quiet <= 0 {
			<-r.wake
			continue
		}
		timer.Reset(quiet)
		select {
		case <-r.wake:
		case <-timer.C:
		}
	}
}

// maxHeld bounds the frames, actions and chapters the worker leaves
// waiting while calls run.
const maxHeld = 1000

// work takes in items in order, the overlays that ended before each
// first: a worker that waited (a call ran) or lags (a busy machine) still
// puts everything at its own time. An overlay ends in the video when
// something later comes, or at the end: not when the worker looks, since
// a frame Chrome painted while it showed may still be on its way, and the
// video never goes back (TestRecorderLateFrames).
func (r *Recorder) work(items []any, stopped bool) {
	for i, it := range items {
		if i > 0 && !stopped && r.yield(items[i:]) {
			return // a call started: the rest waits for its end
		}
		if stopped && r.pastCut() {
			cut := 0
			for _, rest := range items[i:] {
				if _, ok := rest.(*Frame); ok {
					cut++
				}
			}
			r.mu.Lock()
			r.stats.Cut += cut
			r.mu.Unlock()
			break
		}
		switch x := it.(type) {
		case *Frame:
			r.expire(x.Time)
			r.draw(x)
			r.flush()
		default:
			r.expire(timeOf(x))
			r.take(x)
		}
	}
	r.flush()
	if stopped {
		r.expire(r.end) // what shows at the end shows until the end
	}
}

// yield puts rest back at the head of the queue when a call has started
// since the worker took it, and says so.
func (r *Recorder) yield(rest []any) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.busy || r.stopped || r.frames >= maxQueued/2 || r.queued >= maxQueuedBytes/2 {
		return false
	}
	n, size := 0, 0
	for _, it := range rest {
		if f, ok := it.(*Frame); ok {
			n++
			size += len(f.Data)
		}
	}
	r.queue = append(append([]any(nil), rest...), r.queue...)
	r.frames += n
	r.queued += size
	return true
}

// timeOf is when an action or a chapter happened.
func timeOf(e any) time.Time {
	switch e := e.(type) {
	case Action:
		return e.Time
	case Chapter:
		return e.Time
	}
	return time.Time{}
}

// settle waits until the worker has taken in what was handed to it, or
// (busy) has looked and left it waiting (for tests, which must not race
// the worker).
func (r *Recorder) settle() {
	ch := make(chan struct{})
	r.mu.Lock()
	r.settled = ch
	r.poke()
	r.mu.Unlock()
	<-ch
}

// flush adds a frame for what changed, at the time it changed.
func (r *Recorder) flush() {
	if r.dirty && r.base != nil {
		r.add(r.changed)
	}
}

// touch marks the picture changed at t.
func (r *Recorder) touch(t time.Time) {
	if !r.dirty || t.After(r.changed) {
		r.changed = t
	}
	r.dirty = true
}

// take takes in an action or a chapter.
func (r *Recorder) take(e any) {
	switch e := e.(type) {
	case Action:
		if e.Show <= 0 {
			e.Show = DefaultActionShow
		}
		r.flush() // what came before it, without it
		r.overlays = append(r.overlays, e)
		r.touch(e.Time)
	case Chapter:
		r.flush()
		r.card(e)
	}
}

// expire drops the overlays whose time is over, adding the frame without
// each at the time it ends.
func (r *Recorder) expire(now time.Time) {
	for {
		first := -1
		for i, o := range r.overlays {
			if end := o.Time.Add(o.Show); !now.Before(end) && (first < 0 || end.Before(r.overlays[first].Time.Add(r.overlays[first].Show))) {
				first = i
			}
		}
		if first < 0 {
			return
		}
		end := r.overlays[first].Time.Add(r.overlays[first].Show)
		r.overlays = append(r.overlays[:first], r.overlays[first+1:]...)
		r.touch(end)
		r.flush()
	}
}

// draw decodes a frame of the page onto the canvas.
func (r *Recorder) draw(f *Frame) {
	img, err := r.decode(f.Data)
	if err != nil {
		return // a frame Chrome sent broken: the next one will do
	}
	if r.base == nil {
		r.base = image.NewRGBA(image.Rect(0, 0, r.opts.Width, r.opts.Height))
	}
	at, scale := place(r.base, img)
	s := f.Scale
	if s <= 0 {
		s = 1
	}
	r.place = mapping{x0: float64(at.Min.X), y0: float64(at.Min.Y) + f.OffsetTop*s*scale, scale: s * scale}
	r.touch(f.Time)
}

// decode decodes a frame, or takes it from the last two decoded: a focused
// text box's caret blinks between two pictures twice a second, and
// decoding a frame is most of what a frame costs.
func (r *Recorder) decode(data []byte) (image.Image, error) {
	for _, c := range r.decoded {
		if c.img != nil && bytes.Equal(c.data, data) {
			return c.img, nil
		}
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	r.decoded[1], r.decoded[0] = r.decoded[0], decodedFrame{data: data, img: img}
	return img, nil
}

// decodedFrame is a frame as it came and as it decoded.
type decodedFrame struct {
	data []byte
	img  image.Image
}

// compose is the page with the overlays that show at t.
func (r *Recorder) compose() *image.RGBA {
	out := image.NewRGBA(r.base.Rect)
	copy(out.Pix, r.base.Pix)
	size := max(12, r.opts.Width/64)
	for _, o := range r.overlays {
		if o.Box != nil {
			m := r.place
			b := image.Rect(int(m.x0+o.Box.X*m.scale), int(m.y0+o.Box.Y*m.scale),
				int(m.x0+(o.Box.X+o.Box.Width)*m.scale+0.5), int(m.y0+(o.Box.Y+o.Box.Height)*m.scale+0.5))
			fill(out, b, tint)
			outline(out, b.Inset(-2), max(2, size/6), highlight)
			if o.Pointer {
				c := b.Min.Add(b.Max).Div(2)
				pointer(out, float32(c.X), float32(c.Y), float32(size)*1.6)
			}
		}
		if o.Caption != "" {
			label(out, o.Caption, o.Position, size, size, captionBg, white)
		}
	}
	return out
}

// add adds the composed picture as the video's frame from clock time t.
func (r *Recorder) add(t time.Time) {
	r.dirty = false
	if r.err != nil || r.full {
		return
	}
	t = later(t, r.last)
	if r.shown != nil {
		r.shorten(t)
	}
	img := r.compose()
	r.put(img, t)
}

// put adds img at clock time t; the first frame shows from the start.
func (r *Recorder) put(img *image.RGBA, t time.Time) {
	if r.shown == nil {
		t = r.start
	}
	if r.enc.size > r.opts.MaxBytes {
		r.full, r.stats.Truncated, r.stats.TruncatedAt = true, true, t.Sub(r.start)
		return
	}
	added, err := r.enc.add(img, t.Sub(r.start)+r.shift)
	if err != nil {
		r.err = fmt.Errorf("encode a video frame: %w", err)
		return
	}
	if added {
		r.last = t
	}
	if r.shown == nil {
		close(r.first)
	}
	r.shown = img
	r.mu.Lock()
	r.stats.Bytes = r.enc.size
	r.mu.Unlock()
}

// shorten cuts the stretch before t when the last frame has shown longer
// than MaxIdle: it keeps idleKeep of it as it was, and idleKeep with a
// note of how long it was.
func (r *Recorder) shorten(t time.Time) {
	gap := t.Sub(r.last)
	if r.opts.MaxIdle < 0 || gap <= r.opts.MaxIdle {
		return
	}
	noted := image.NewRGBA(r.shown.Rect)
	copy(noted.Pix, r.shown.Pix)
	size := max(12, r.opts.Width/64)
	label(noted, fmt.Sprintf("%s with no change, shortened to %s", roundSec(gap), roundSec(2*idleKeep)), "bottom-left", size, size, idleBg, idleText)
	at := r.last.Add(idleKeep)
	if _, err := r.enc.add(noted, at.Sub(r.start)+r.shift); err != nil {
		r.err = err
		return
	}
	cut := gap - 2*idleKeep
	r.shift -= cut
	r.stats.IdleCut += cut
	r.shown, r.last = noted, at.Add(cut) // the note shows until t, shifted
}

// card puts a chapter's title card into the video at its time.
func (r *Recorder) card(c Chapter) {
	if r.base == nil {
		r.base = image.NewRGBA(image.Rect(0, 0, r.opts.Width, r.opts.Height))
		fill(r.base, r.base.Rect, backdrop)
	}
	if c.Show <= 0 {
		c.Show = DefaultChapterShow
	}
	t := later(c.Time, r.last)
	if r.dirty || r.shown == nil {
		r.add(t) // the page as it was up to the card
	} else if r.shown != nil {
		r.shorten(t)
	}
	img := blurred(r.base)
	W := img.Rect.Dx()
	title, desc := face(true, max(20, W/24)), face(false, max(13, W/56))
	if title != nil && desc != nil {
		lines := wrap(title, c.Title, W*8/10, 2)
		var dl []string
		if c.Description != "" {
			dl = wrap(desc, c.Description, W*7/10, 3)
		}
		th, dh := title.Metrics().Height.Ceil(), desc.Metrics().Height.Ceil()
		y := (img.Rect.Dy()-len(lines)*th-len(dl)*dh-dh/2)/2 + title.Metrics().Ascent.Ceil()
		for _, l := range lines {
			text(img, title, l, (W-textWidth(title, l))/2, y, white)
			y += th
		}
		y += dh / 2
		for _, l := range dl {
			text(img, desc, l, (W-textWidth(desc, l))/2, y, white)
			y += dh
		}
	}
	r.put(img, t)
	r.shift += c.Show
	r.stats.Chapters += c.Show
	// The page again after the card, whatever changed meanwhile.
	r.dirty = true
	r.add(t)
}

func later(t, u time.Time) time.Time {
	if t.Before(u) {
		return u
	}
	return t
}

func roundSec(d time.Duration) string {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// Fit is the video size for a viewport of w x h CSS pixels within at most
// maxW x maxH, keeping its aspect, each side even.
func Fit(w, h, maxW, maxH int) (int, int) {
	if w <= 0 || h <= 0 {
		return maxW &^ 1, maxH &^ 1
	}
	s := min(1, float64(maxW)/float64(w), float64(maxH)/float64(h))
	return max(int(float64(w)*s)&^1, 2), max(int(float64(h)*s)&^1, 2)
}

// ErrNoFrames is Stop's error for a recording that got no frame at all.
var ErrNoFrames = errors.New("no frame was recorded")

// EncodePNG is the still of a decoded frame (for tests and reports).
func EncodePNG(w io.Writer, img image.Image) error { return png.Encode(w, img) }
