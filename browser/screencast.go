package browser

import (
	"bytes"
	"context"
	"errors"
	"math"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"go.uber.org/zap"
)

// A session's screencast (docs/architecture.md §6, video): Chrome sends a
// picture of the current tab each time it paints one (Page.startScreencast),
// and sends the next only when the last few are acknowledged. The frames
// arrive on chromedp's read loop, which must never wait: the event only
// keeps the newest frame and the numbers to acknowledge, and wakes the
// tab's cast goroutine, which acknowledges them and hands the frame to the
// consumer. A consumer that is slower than the page paints gets the newest
// frame when it is ready and never holds up CDP: frames in between are
// dropped, not queued. The screencast follows the session's current tab
// (Tabs.follow, wherever the current tab changes), so a video shows every
// tab the session worked in, in order.

// Frame is one picture of a tab.
type Frame struct {
	// Data is the picture as Chrome encoded it (CastOptions.Format).
	Data []byte
	// Time is when Chrome painted it, as this machine's clock says (the
	// arrival time when the browser's clock disagrees: a remote one).
	Time time.Time
	// Scale is the frame's pixels per CSS pixel of the viewport, and
	// OffsetTop where the page starts in it (CSS pixels), so that a box in
	// the viewport can be placed on the frame.
	Scale, OffsetTop float64
	// Tab is the tab's target id: a new value is another tab.
	Tab string
}

// CastOptions shape a screencast.
type CastOptions struct {
	// MaxWidth and MaxHeight bound the frames' size (Chrome scales them
	// down, keeping the aspect); 0 for the viewport's.
	MaxWidth, MaxHeight int
	// Format is "jpeg" (default) or "png"; Quality the JPEG's (0: 90).
	Format  string
	Quality int
	// FPS bounds how many frames a second Chrome sends (0: as it paints):
	// each frame is acknowledged no sooner than 1/FPS after the one
	// before, and Chrome keeps the newest picture meanwhile and sends it
	// on the acknowledgement (sendLastFrame), so the last change is never
	// lost. Encoding every frame of a 60 Hz animation costs the browser a
	// core: actions slowed by half.
	FPS int
	// Settle is how long after a call the screencast waits before it
	// films again (castLoop); 0: at the call's end. Calls that follow each
	// other within it (a client's batch, a benchmark) run with nothing
	// captured between them, and the page is filmed once they pause.
	Settle time.Duration
	// Still stops the screencast after a call once the page has shown
	// nothing new for this long (a caret's blink is nothing new), until
	// the next call; 0: it films on.
	Still time.Duration
}

// castSpec is a session's screencast: what it asks for and who gets the
// frames.
type castSpec struct {
	opts CastOptions
	sink func(Frame)
	on   *Page // the tab casting now
}

// pageCast is one tab's screencast state; the read loop writes it.
type pageCast struct {
	mu     sync.Mutex
	on     bool
	newest *page.EventScreencastFrame
	at     time.Time // when newest arrived
	acks   []int64   // frames to acknowledge
	wake   chan struct{}
	stop   chan struct{}
	done   chan struct{}
	// busy: a call of the session runs, since busySince (CastBusy); the
	// last one ended at idleSince.
	busy                 bool
	busySince, idleSince time.Time
	// params start Chrome's screencast again after a pause (castLoop).
	params page.StartScreencastParams
	// live says Chrome's screencast runs (castLoop keeps it, for tests).
	live bool
}

// onCastEvent keeps a screencast frame for the cast goroutine; it runs on
// the read loop. It reports whether ev was a screencast event.
func (p *Page) onCastEvent(ev any) bool {
	e, ok := ev.(*page.EventScreencastFrame)
	if !ok {
		return false
	}
	c := &p.cast
	c.mu.Lock()
	if c.on {
		c.newest, c.at = e, time.Now()
		c.acks = append(c.acks, e.SessionID)
		select {
		case c.wake <- struct{}{}:
		default:
		}
	}
	c.mu.Unlock()
	return true
}

// startCast starts the tab's screencast, sending its frames to sink.
func (p *Page) startCast(ctx context.Context, o CastOptions, sink func(Frame)) error {
	c := &p.cast
	c.mu.Lock()
	if c.on {
		c.mu.Unlock()
		return nil
	}
	q := int64(90)
	if o.Quality > 0 && o.Quality <= 100 {
		q = int64(o.Quality)
	}
	params := page.StartScreencastParams{Format: page.StartScreencastFormatJpeg, Quality: &q}
	if o.Format == "png" {
		params.Format, params.Quality = page.StartScreencastFormatPng, nil
	}
	params.MaxWidth, params.MaxHeight = int64(o.MaxWidth), int64(o.MaxHeight)
	if o.FPS > 0 {
		params.MaxFramesInFlight, params.SendLastFrame = 1, new(true)
	}
	c.on, c.wake, c.stop, c.done, c.params, c.live = true, make(chan struct{}, 1), make(chan struct{}), make(chan struct{}), params, true
	c.mu.Unlock()
	go p.castLoop(sink, o)
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	if _, err := chromedp.Call(cctx, page.StartScreencast, params); err != nil {
		p.endCast()
		return p.ctxError(cctx, err, "start the screencast")
	}
	return nil
}

// stopCast stops the tab's screencast; its goroutine is gone when it
// returns. A tab that closed needs no command. With last, the page as it
// is now goes to last as the cast's final frame: Chrome's screencast is
// paused in a call's first moments (castLoop), and a recording stopped
// right after a call would otherwise end on the page before it.
func (p *Page) stopCast(ctx context.Context, o CastOptions, last func(Frame)) {
	if !p.endCast() || p.Gone() {
		return
	}
	// ctx is the caller's (an MCP call's, a session's end), not the tab's:
	// the commands go on the tab's own context, bounded as a restore is.
	rctx, rcancel := detached(ctx)
	defer rcancel()
	cctx, cancel := p.callCtx(rctx, restoreTimeout)
	defer cancel()
	if last != nil {
		if f, err := p.stillFrame(cctx, o); err == nil {
			last(f)
		} else {
			p.log.Debug("the screencast's last frame", zap.Error(err))
		}
	}
	if _, err := chromedp.Call(cctx, page.StopScreencast, cdp.Empty{}); err != nil {
		p.log.Debug("stop the screencast", zap.Error(err))
	}
}

// stillFrame is a screenshot of the viewport shaped as the screencast's
// frames are (o's format, quality and bounds).
func (p *Page) stillFrame(ctx context.Context, o CastOptions) (Frame, error) {
	lm, err := chromedp.Call(ctx, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return Frame{}, err
	}
	vv := lm.CSSVisualViewport
	if vv == nil || vv.ClientWidth <= 0 || vv.ClientHeight <= 0 {
		return Frame{}, errors.New("the viewport has no size")
	}
	scale := 1.0
	if o.MaxWidth > 0 {
		scale = min(scale, float64(o.MaxWidth)/vv.ClientWidth)
	}
	if o.MaxHeight > 0 {
		scale = min(scale, float64(o.MaxHeight)/vv.ClientHeight)
	}
	params := page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatJpeg, Quality: new(int64(90)),
		Clip: &page.Viewport{X: vv.PageX, Y: vv.PageY, Width: vv.ClientWidth, Height: vv.ClientHeight, Scale: scale}}
	if o.Quality > 0 && o.Quality <= 100 {
		params.Quality = new(int64(o.Quality))
	}
	if o.Format == "png" {
		params.Format, params.Quality = page.CaptureScreenshotFormatPng, nil
	}
	res, err := chromedp.Call(ctx, page.CaptureScreenshot, params)
	if err != nil {
		return Frame{}, err
	}
	return Frame{Data: res.Data, Time: time.Now(), Scale: float64(frameWidth(res.Data)) / vv.ClientWidth, Tab: string(p.main.target)}, nil
}

// endCast ends the cast goroutine and waits for it; false when none ran.
func (p *Page) endCast() bool {
	c := &p.cast
	c.mu.Lock()
	if !c.on {
		c.mu.Unlock()
		return false
	}
	c.on, c.live = false, false
	close(c.stop)
	done := c.done
	c.mu.Unlock()
	<-done
	return true
}

// castLoop hands each frame the read loop kept to sink as it comes, and
// acknowledges it when the pace allows: no sooner than 1/FPS after the
// last acknowledgement, and at half the pace while a call of the session
// runs (CastBusy). While Chrome's screencast runs it reads back and
// encodes every paint of the page, acknowledged or not, which made a click
// or a fill take up to twice as long (docs/benchmarks.md), so it runs
// when no call needs the machine:
//   - it stops in a call's first callGrace, and starts again once the call
//     has run that long (a wait for a spinner to stop is filmed);
//   - after a call it starts again once the session has had no call for
//     o.Settle (the page as each call left it is filmed while the agent
//     thinks, not during its next call), and Chrome sends the page as it
//     is then;
//   - with o.Still, it stops once the page has shown nothing new for that
//     long (a blinking caret's two pictures are nothing new), until the
//     next call: the motion that follows a call is filmed, and the next
//     call finds the screencast stopped.
//
// It never stops before a picture came since it started, so the video has
// the page as each pause found it. The stop and the start are sent from
// here, off the call's path.
func (p *Page) castLoop(sink func(Frame), o CastOptions) {
	c := &p.cast
	defer close(c.done)
	tab := string(p.main.target)
	var gap time.Duration
	if o.FPS > 0 {
		gap = time.Second / time.Duration(o.FPS)
	}
	var acked time.Time
	var acks []int64
	// casting: Chrome's screencast runs (startCast started it); fresh: a
	// frame came since it (re)started; changed: when one last showed
	// something new, or it (re)started; recent: the last two pictures
	// that differed; stilled: it stopped for a still page after the call
	// that ended at stilledAt.
	casting, fresh, changed := true, false, time.Now()
	var recent [2][]byte
	var stilled bool
	var stilledAt time.Time
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		c.mu.Lock()
		e, at := c.newest, c.at
		acks = append(acks, c.acks...)
		c.newest, c.acks = nil, nil
		busy, since, idle, params := c.busy, c.busySince, c.idleSince, c.params
		c.mu.Unlock()
		if e != nil && e.Metadata != nil {
			sink(frameOf(e, at, tab))
			if casting {
				fresh = true
				if !bytes.Equal(e.Data, recent[0]) && !bytes.Equal(e.Data, recent[1]) {
					recent[0], recent[1], changed = e.Data, recent[0], at
				}
			}
		}
		now := time.Now()
		stilled = stilled && !busy && idle.Equal(stilledAt)
		// want: the screencast should run; until: when that may change.
		want, until := true, time.Time{}
		switch {
		case busy && now.Before(since.Add(callGrace)):
			want, until = false, since.Add(callGrace)
		case busy:
		case now.Before(idle.Add(o.Settle)):
			want, until = casting, idle.Add(o.Settle) // a long call's screencast runs on
		case o.Still <= 0:
		case stilled:
			want = false
		case casting && fresh && !now.Before(changed.Add(o.Still)):
			want, stilled, stilledAt = false, true, idle
		case casting && fresh:
			until = changed.Add(o.Still)
		}
		switch {
		case casting && !want && fresh:
			casting = false
			p.castOn(false, params)
			c.setLive(false)
		case !casting && want:
			casting, fresh, changed = true, false, now
			p.castOn(true, params)
			c.setLive(true)
		}
		wait := time.Hour
		if !until.IsZero() {
			wait = max(time.Until(until), time.Millisecond)
		}
		if !casting {
			acks = nil // frames of a stopped screencast need no acknowledgement
		}
		if len(acks) > 0 {
			ready := acked.Add(gap)
			if busy {
				ready = acked.Add(2 * gap)
			}
			if w := time.Until(ready); w > 0 {
				wait = min(wait, w)
			} else {
				acked = time.Now()
				p.ackCast(acks)
				acks = nil
				continue
			}
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(wait)
		select {
		case <-c.wake:
		case <-timer.C:
		case <-c.stop:
			return
		case <-p.ctx.Done():
			return
		}
	}
}

func (c *pageCast) setLive(on bool) {
	c.mu.Lock()
	c.live = on
	c.mu.Unlock()
}

// callGrace is how long into a call the screencast is stopped: most
// actions (a click, a fill, a navigation to a small page) are done within
// it, and the page has the machine to itself while they run.
const callGrace = 500 * time.Millisecond

// castOn starts Chrome's screencast again with params, or stops it, for
// castLoop.
func (p *Page) castOn(on bool, params page.StartScreencastParams) {
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	var err error
	if on {
		_, err = chromedp.Call(ctx, page.StartScreencast, params)
	} else {
		_, err = chromedp.Call(ctx, page.StopScreencast, cdp.Empty{})
	}
	if err != nil && p.ctx.Err() == nil {
		p.log.Debug("pause or resume the screencast", zap.Bool("on", on), zap.Error(err))
	}
}

// ackCast acknowledges screencast frames.
func (p *Page) ackCast(ids []int64) {
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		_, err := chromedp.Call(ctx, page.ScreencastFrameAck, page.ScreencastFrameAckParams{SessionID: id})
		cancel()
		if err != nil && p.ctx.Err() == nil {
			p.log.Debug("acknowledge a screencast frame", zap.Error(err))
		}
	}
}

// CastBusy says a call of the session starts (true) or ends: the
// screencast captures less while one runs (castLoop).
func (t *Tabs) CastBusy(busy bool) {
	t.mu.Lock()
	c := t.cast
	t.mu.Unlock()
	if c == nil || c.on == nil {
		return
	}
	pc := &c.on.cast
	pc.mu.Lock()
	pc.busy = busy
	if busy {
		pc.busySince = time.Now()
	} else {
		pc.idleSince = time.Now()
	}
	if pc.wake != nil {
		select {
		case pc.wake <- struct{}{}:
		default:
		}
	}
	pc.mu.Unlock()
}

// frameOf is the Frame of a screencast event that arrived at at.
func frameOf(e *page.EventScreencastFrame, at time.Time, tab string) Frame {
	m := e.Metadata
	f := Frame{Data: e.Data, Time: at, OffsetTop: m.OffsetTop, Tab: tab}
	if m.Timestamp > 0 {
		// Chrome's clock is this machine's for our own browser; a remote
		// browser's may be off, and then arrival is the better time.
		sec, frac := math.Modf(float64(m.Timestamp))
		if painted := time.Unix(int64(sec), int64(frac*1e9)); math.Abs(at.Sub(painted).Seconds()) < 2 {
			f.Time = painted
		}
	}
	if m.DeviceWidth > 0 {
		f.Scale = float64(frameWidth(e.Data)) / m.DeviceWidth
	}
	return f
}

// frameWidth reads an encoded frame's width from its header (JPEG's SOF,
// PNG's IHDR) without decoding it; 0 when it cannot.
func frameWidth(b []byte) int {
	if len(b) > 24 && string(b[1:4]) == "PNG" {
		return int(b[16])<<24 | int(b[17])<<16 | int(b[18])<<8 | int(b[19])
	}
	for i := 2; i+9 < len(b); {
		if b[i] != 0xFF {
			return 0
		}
		marker, n := b[i+1], int(b[i+2])<<8|int(b[i+3])
		if marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
			return int(b[i+7])<<8 | int(b[i+8])
		}
		i += 2 + n
	}
	return 0
}

// Cast starts a screencast of the session's current tab that follows the
// current tab as it changes, sending every frame to sink, which must not
// block (it is called on the tab's cast goroutine). One at a time: a second
// Cast replaces the first.
func (t *Tabs) Cast(ctx context.Context, o CastOptions, sink func(Frame)) error {
	t.StopCast(ctx)
	t.mu.Lock()
	t.cast = &castSpec{opts: o, sink: sink}
	t.mu.Unlock()
	return t.follow(ctx)
}

// StopCast stops the session's screencast; no frame reaches its sink once
// it returns.
func (t *Tabs) StopCast(ctx context.Context) {
	t.mu.Lock()
	c := t.cast
	t.cast = nil
	t.mu.Unlock()
	if c != nil && c.on != nil {
		c.on.stopCast(ctx, c.opts, c.sink)
	}
}

// Casting reports whether the session's screencast is on.
func (t *Tabs) Casting() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cast != nil
}

// follow moves the session's screencast to the current tab, when it casts
// and the current tab changed. Every method that changes the current tab
// calls it before it returns.
func (t *Tabs) follow(ctx context.Context) error {
	t.mu.Lock()
	c := t.cast
	t.mu.Unlock()
	cur := t.Current()
	if c == nil || c.on == cur {
		return nil
	}
	if c.on != nil {
		c.on.stopCast(ctx, c.opts, nil) // on the call's path: the old tab's frames so far stand
		c.on = nil
	}
	if cur == nil || cur.Gone() {
		return nil
	}
	if err := cur.startCast(ctx, c.opts, c.sink); err != nil {
		return err
	}
	c.on = cur
	return nil
}

// ActionTarget is where an action is about to act: the element's box in
// the viewport's CSS pixels, as it is just before the input.
type ActionTarget struct {
	X, Y, Width, Height float64
	Time                time.Time
}

// OnAction has fn told the target of every action on the session's tabs
// that has one (nil: none), just before its input. The box comes with the
// action's last check (onElementBoxed), in the same round trip, but the
// page measures it: it is set only while something draws it (a video's
// action overlays).
func (t *Tabs) OnAction(fn func(ActionTarget)) {
	t.mu.Lock()
	t.onAction = fn
	t.mu.Unlock()
}

// actionHook is the session's action hook (OnAction), nil when none.
func (p *Page) actionHook() func(ActionTarget) {
	if p.tabs == nil {
		return nil
	}
	p.tabs.mu.Lock()
	defer p.tabs.mu.Unlock()
	return p.tabs.onAction
}

// viewBox is an element's box in its frame's viewport, in CSS pixels.
type viewBox struct{ X, Y, Width, Height float64 }

// noteTarget tells hook where an action's element is: box, in frame's
// viewport. Every action that acts on an element passes actionable, which
// reads the box with its last check and calls it.
func (p *Page) noteTarget(ctx context.Context, hook func(ActionTarget), frame cdp.FrameID, box viewBox) {
	if frame != p.frame {
		var err error
		if box.X, box.Y, err = p.toViewport(ctx, frame, box.X, box.Y); err != nil {
			return
		}
	}
	hook(ActionTarget{X: box.X, Y: box.Y, Width: box.Width, Height: box.Height, Time: time.Now()})
}

// followQuietly is follow for the methods whose own work is done when it
// runs: a screencast that fails to move is logged, and the next change of
// tab tries again.
func (t *Tabs) followQuietly(ctx context.Context) {
	if err := t.follow(ctx); err != nil {
		t.m.log.Debug("move the screencast to the current tab", zap.Error(err))
	}
}
