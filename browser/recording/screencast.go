package recording

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
// (browser's Tabs.follow, wherever the current tab changes), so a video
// shows every tab the session worked in, in order.

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

// Tab is a tab as its screencast needs it; browser's Page gives it
// (browser/recording.go). Two Tabs are equal when they are the same tab.
type Tab interface {
	// Cast is the tab's screencast state, which its events feed
	// (TabCast.OnEvent).
	Cast() *TabCast
	// ID is the tab's target id (Frame.Tab).
	ID() string
	// Context is the tab's own: commands run on it go to the tab's
	// session, and it ends when the tab closes.
	Context() context.Context
	// Log is the tab's logger.
	Log() *zap.Logger
	// Gone reports whether the tab or its browser has gone away.
	Gone() bool
	// CallContext is a context for the call ctx's commands on the tab,
	// bounded by the action timeout.
	CallContext(ctx context.Context) (context.Context, context.CancelFunc)
	// RestoreContext is a context for commands on the tab that must run
	// whatever became of the call ctx (it keeps ctx's values, not its
	// cancellation), bounded as a restore is.
	RestoreContext(ctx context.Context) (context.Context, context.CancelFunc)
	// CallError says what a failed command made on a CallContext means
	// (the tab gone, a timeout, ...); what names what was done.
	CallError(ctx context.Context, err error, what string) error
}

// Screencast is a session's screencast: what it asks for, who gets the
// frames, and the tab it films now. Its owner (browser's Tabs) keeps the
// pointer under its lock and calls the methods outside it: Follow and
// Stop on the session's calls, Busy around them.
type Screencast struct {
	opts CastOptions
	sink func(Frame)
	on   Tab // the tab casting now
}

// NewScreencast is a session's screencast with options o, sending every
// frame to sink; it films nothing until Follow gives it a tab.
func NewScreencast(o CastOptions, sink func(Frame)) *Screencast {
	return &Screencast{opts: o, sink: sink}
}

// TabCast is one tab's screencast state; the read loop writes it
// (OnEvent). Its zero value is a tab that does not cast.
type TabCast struct {
	mu     sync.Mutex
	on     bool
	newest *page.EventScreencastFrame
	at     time.Time // when newest arrived
	acks   []int64   // frames to acknowledge
	wake   chan struct{}
	stop   chan struct{}
	done   chan struct{}
	// busy: a call of the session runs, since busySince (Busy); the
	// last one ended at idleSince.
	busy                 bool
	busySince, idleSince time.Time
	// params start Chrome's screencast again after a pause (castLoop).
	params page.StartScreencastParams
	// live says Chrome's screencast runs (castLoop keeps it, for tests).
	live bool
}

// OnEvent keeps a screencast frame for the cast goroutine; it runs on the
// read loop. It reports whether ev was a screencast event.
func (c *TabCast) OnEvent(ev any) bool {
	e, ok := ev.(*page.EventScreencastFrame)
	if !ok {
		return false
	}
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
func startCast(ctx context.Context, p Tab, o CastOptions, sink func(Frame)) error {
	c := p.Cast()
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
	go castLoop(p, sink, o)
	cctx, cancel := p.CallContext(ctx)
	defer cancel()
	if _, err := chromedp.Call(cctx, page.StartScreencast, params); err != nil {
		c.end()
		return p.CallError(cctx, err, "start the screencast")
	}
	return nil
}

// stopCast stops the tab's screencast; its goroutine is gone when it
// returns. A tab that closed needs no command. With last, the page as it
// is now goes to last as the cast's final frame: Chrome's screencast is
// paused in a call's first moments (castLoop), and a recording stopped
// right after a call would otherwise end on the page before it.
func stopCast(ctx context.Context, p Tab, o CastOptions, last func(Frame)) {
	if !p.Cast().end() || p.Gone() {
		return
	}
	// ctx is the caller's (an MCP call's, a session's end), not the tab's:
	// the commands go on the tab's own context, bounded as a restore is.
	cctx, cancel := p.RestoreContext(ctx)
	defer cancel()
	if last != nil {
		if f, err := stillFrame(cctx, p.ID(), o); err == nil {
			last(f)
		} else {
			p.Log().Debug("the screencast's last frame", zap.Error(err))
		}
	}
	if _, err := chromedp.Call(cctx, page.StopScreencast, cdp.Empty{}); err != nil {
		p.Log().Debug("stop the screencast", zap.Error(err))
	}
}

// stillFrame is a screenshot of the viewport shaped as the screencast's
// frames are (o's format, quality and bounds), of the tab tab.
func stillFrame(ctx context.Context, tab string, o CastOptions) (Frame, error) {
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
	return Frame{Data: res.Data, Time: time.Now(), Scale: float64(frameWidth(res.Data)) / vv.ClientWidth, Tab: tab}, nil
}

// end ends the cast goroutine and waits for it; false when none ran.
func (c *TabCast) end() bool {
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
func castLoop(p Tab, sink func(Frame), o CastOptions) {
	c := p.Cast()
	defer close(c.done)
	tab := p.ID()
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
			castOn(p, false, params)
			c.setLive(false)
		case !casting && want:
			casting, fresh, changed = true, false, now
			castOn(p, true, params)
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
				ackCast(p, acks)
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
		case <-p.Context().Done():
			return
		}
	}
}

func (c *TabCast) setLive(on bool) {
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
func castOn(p Tab, on bool, params page.StartScreencastParams) {
	tctx := p.Context()
	ctx, cancel := context.WithTimeout(tctx, 5*time.Second)
	defer cancel()
	var err error
	if on {
		_, err = chromedp.Call(ctx, page.StartScreencast, params)
	} else {
		_, err = chromedp.Call(ctx, page.StopScreencast, cdp.Empty{})
	}
	if err != nil && tctx.Err() == nil {
		p.Log().Debug("pause or resume the screencast", zap.Bool("on", on), zap.Error(err))
	}
}

// ackCast acknowledges screencast frames.
func ackCast(p Tab, ids []int64) {
	tctx := p.Context()
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(tctx, 5*time.Second)
		_, err := chromedp.Call(ctx, page.ScreencastFrameAck, page.ScreencastFrameAckParams{SessionID: id})
		cancel()
		if err != nil && tctx.Err() == nil {
			p.Log().Debug("acknowledge a screencast frame", zap.Error(err))
		}
	}
}

// Busy says a call of the session starts (true) or ends: the screencast
// captures less while one runs (castLoop).
func (c *Screencast) Busy(busy bool) {
	if c.on == nil {
		return
	}
	pc := c.on.Cast()
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

// Stop stops the screencast; no frame reaches its sink once it returns.
// The page as it is now is its last frame.
func (c *Screencast) Stop(ctx context.Context) {
	if c.on != nil {
		stopCast(ctx, c.on, c.opts, c.sink)
	}
}

// Follow moves the screencast to the tab cur (nil: none), when cur is not
// the tab it films.
func (c *Screencast) Follow(ctx context.Context, cur Tab) error {
	if c.on == cur {
		return nil
	}
	if c.on != nil {
		stopCast(ctx, c.on, c.opts, nil) // on the call's path: the old tab's frames so far stand
		c.on = nil
	}
	if cur == nil || cur.Gone() {
		return nil
	}
	if err := startCast(ctx, cur, c.opts, c.sink); err != nil {
		return err
	}
	c.on = cur
	return nil
}

// On reports whether the tab's screencast is on (for tests).
func (c *TabCast) On() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.on
}

// Live reports whether Chrome's screencast of the tab runs now: castLoop
// stops it during calls and on a still page (for tests).
func (c *TabCast) Live() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.live
}

// ActionTarget is where an action is about to act: the element's box in
// the viewport's CSS pixels, as it is just before the input.
type ActionTarget struct {
	X, Y, Width, Height float64
	Time                time.Time
}
