package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	browserrec "github.com/e2e-mcp/e2e-mcp/browser/recording"
	"github.com/e2e-mcp/e2e-mcp/browser/selector"
	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/e2e-mcp/e2e-mcp/video"
	"github.com/mark3labs/mcp-go/mcp"
	"go.uber.org/zap"
)

// A session's video (the video group, --save-video, `run --video`;
// docs/architecture.md §6): the browser's screencast of the current tab
// goes to a video.Recorder, which draws and encodes off the call's path; the
// tools here start and stop it, put chapters in it and turn action overlays
// on. Each action of the input and navigation tools (the layer filmed) is
// shown with a caption in words and its target's box when overlays are on.
// The file is written through the one file writer, when the video stops or
// the session ends; a recording nobody asked to keep is discarded.

const (
	// defaultVideoMax bounds the default size: the viewport's, scaled down
	// to fit, as Playwright's videos are (800x450 for a 1280x720
	// viewport): a frame of a third of the pixels costs the browser, the
	// encoder and the file a third.
	defaultVideoMaxW, defaultVideoMaxH = 800, 800
	maxVideoSide                       = 3840
	videoDirName                       = "e2e-mcp-videos"
)

// VideoLimits bound what one session's video may take on a shared server
// (--max-video-size, --max-video-bytes): a recording holds a few decoded
// frames and its queue of encoded ones in memory, some 24 bytes a pixel
// of its frame and more (about 50 MB at 1920x1080, 360 MB at 3840x3840),
// and its file on disk.
type VideoLimits struct {
	// MaxWidth and MaxHeight: a video's frame fits in them, either way
	// round (0: DefaultVideoLimits'). A size asked for beyond them is
	// refused; the default size is fit in them.
	MaxWidth, MaxHeight int
	// MaxBytes bounds the file (0: DefaultVideoLimits'): past it no frame
	// is added, and the video's answer says where it stopped.
	MaxBytes int64
}

// DefaultVideoLimits are the limits of a server that sets none: a full HD
// frame, and 256 MiB of file.
var DefaultVideoLimits = VideoLimits{MaxWidth: 1920, MaxHeight: 1080, MaxBytes: video.DefaultMaxBytes}

// videoLimits are the server's limits, defaults filled in.
func (d *Deps) videoLimits() VideoLimits {
	l := DefaultVideoLimits
	if d != nil && d.VideoLimits.MaxWidth > 0 && d.VideoLimits.MaxHeight > 0 {
		l.MaxWidth, l.MaxHeight = d.VideoLimits.MaxWidth, d.VideoLimits.MaxHeight
	}
	if d != nil && d.VideoLimits.MaxBytes > 0 {
		l.MaxBytes = d.VideoLimits.MaxBytes
	}
	return l
}

// Fits says whether a w x h video is within the limits, either way round.
func (l VideoLimits) Fits(w, h int) bool {
	return w <= l.MaxWidth && h <= l.MaxHeight || w <= l.MaxHeight && h <= l.MaxWidth
}

// VideoDefaults make every session record a video from its first page
// (--save-video, `run --video`).
type VideoDefaults struct {
	// Width and Height are the video's size (0: the viewport's, fit in
	// 800x800).
	Width, Height int
	// Save writes each session's video when it ends, to e2e-mcp-videos/
	// of the first file root (over HTTP, of the caller's own directory);
	// otherwise its owner takes it (FinishVideo) or it is discarded.
	Save bool
	// Dir, when set, is the directory Save writes to instead, the
	// operator's (--save-video-dir), made if missing, for every client.
	Dir string
	// EveryCall films the page as each call left it at once, though the
	// next call follows without a pause, and films on between calls
	// (`run`: a flow's steps run back to back, and its video is for
	// watching each of them). Otherwise the page is filmed once the
	// session pauses for videoSettle, until it is still for videoStill.
	EveryCall bool
}

// videoSettle is how long after a call a session's video waits for the
// next before the browser films the page and the recorder encodes it:
// the calls of a client's batch come within a few milliseconds of each
// other and run with nothing captured between them, while an agent thinks
// for seconds between calls, and the page as each call left it is filmed
// then. The browser films on until the page has shown nothing new for
// videoStill, so the agent's next call seldom finds it filming, which
// costs the call (docs/benchmarks.md, video on vs off).
const (
	videoSettle = 100 * time.Millisecond
	videoStill  = 300 * time.Millisecond
)

// sessionVideo is a session's recording.
type sessionVideo struct {
	rec  *video.Recorder
	cast browserrec.CastOptions
	in   *browser.Tabs // the browser context casting to it
	// out is where it is written when it stops or the session ends; nil
	// for a recording nobody asked to keep.
	out     *outputFile
	started time.Time
	// pointer draws a pointer at each action's target (start's cursor).
	pointer bool
	// limited: the default size was made smaller to fit the server's
	// limit (VideoLimits), which start's answer says.
	limited bool
}

// actionOverlays are what browser_video_show_actions asked for.
type actionOverlays struct {
	show     time.Duration
	position string
	pointer  bool
}

// VideoSize is a video's size in pixels.
type VideoSize struct {
	Width  int `json:"width" jsonschema:"Video width"`
	Height int `json:"height" jsonschema:"Video height"`
}

// StartVideoParams are the arguments of browser_start_video.
type StartVideoParams struct {
	Filename string     `json:"filename,omitempty" jsonschema:"File to save the video to (animated PNG); default a temp file"`
	Size     *VideoSize `json:"size,omitempty" jsonschema:"Default: the viewport, fit in 800x800"`
	FPS      int        `json:"fps,omitempty" jsonschema:"Most frames a second, 1-30 (default 10)"`
	Cursor   bool       `json:"cursor,omitempty" jsonschema:"Draw a pointer at each action's target"`
	SessionArg
}

// StopVideoParams are the arguments of browser_stop_video.
type StopVideoParams struct {
	SessionArg
}

// VideoChapterParams are the arguments of browser_video_chapter.
type VideoChapterParams struct {
	Title       string `json:"title" jsonschema:"Chapter title"`
	Description string `json:"description,omitempty" jsonschema:"Chapter description"`
	Duration    int    `json:"duration,omitempty" jsonschema:"Milliseconds the card shows (default 2000)"`
	SessionArg
}

// ShowActionsParams are the arguments of browser_video_show_actions.
type ShowActionsParams struct {
	Duration int    `json:"duration,omitempty" jsonschema:"Milliseconds each action's overlay shows (default 500)"`
	Position string `json:"position,omitempty" jsonschema:"Caption place (default top-right),enum=top-left,enum=top,enum=top-right,enum=bottom-left,enum=bottom,enum=bottom-right"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"pointer (default) draws a pointer at the target,enum=none,enum=pointer"`
	SessionArg
}

// HideActionsParams are the arguments of browser_video_hide_actions.
type HideActionsParams struct {
	SessionArg
}

func videoTools(d *Deps) []Tool {
	return []Tool{startVideoTool(d), stopVideoTool(d), videoChapterTool(d), showActionsTool(d), hideActionsTool(d)}
}

func startVideoTool(d *Deps) Tool {
	return define(d, "browser_start_video", ToolsetSession,
		"Start recording a video of the session's tabs (an animated PNG; no ffmpeg needed).",
		annotations{title: "Start video", readOnly: true, openWorld: false},
		func(ctx context.Context, s *Session, a StartVideoParams) (*mcp.CallToolResult, error) {
			if v := s.video; v != nil {
				msg := "a video of this session is already recording, since " + v.started.Format("15:04:05")
				if v.out != nil {
					msg += ", to " + v.out.path
				}
				return nil, &ToolError{Type: ErrInvalidInput, Message: msg, Suggestion: "call browser_stop_video first"}
			}
			if a.FPS < 0 || a.FPS > video.MaxFPS {
				return nil, invalidInput("fps", "%d: give 1 to %d", a.FPS, video.MaxFPS)
			}
			if a.Size != nil && (a.Size.Width < 2 || a.Size.Height < 2 || a.Size.Width > maxVideoSide || a.Size.Height > maxVideoSide) {
				return nil, invalidInput("size", "%dx%d: each side 2 to %d pixels", a.Size.Width, a.Size.Height, maxVideoSide)
			}
			if l := d.videoLimits(); a.Size != nil && !l.Fits(a.Size.Width, a.Size.Height) {
				return nil, &ToolError{Type: ErrInvalidInput,
					Message: fmt.Sprintf("size: %dx%d is over this server's video limit of %dx%d (--max-video-size: a recording holds about 24 bytes a pixel of its frame in memory)",
						a.Size.Width, a.Size.Height, l.MaxWidth, l.MaxHeight),
					Suggestion: fmt.Sprintf("give a size within %dx%d (either way round), or omit size for the viewport's, fit in %dx%d", l.MaxWidth, l.MaxHeight,
						min(defaultVideoMaxW, l.MaxWidth), min(defaultVideoMaxH, l.MaxHeight))}
			}
			out, err := d.outputPath(ctx, "filename", a.Filename, "video-*.png")
			if err != nil {
				return nil, err
			}
			var size VideoSize
			if a.Size != nil {
				size = *a.Size
			}
			if err := d.startVideo(ctx, s, size, a.FPS, out, true); err != nil {
				out.discard()
				return nil, err
			}
			s.video.pointer = a.Cursor
			o := s.video.cast
			var r response
			r.resultf("Recording a video of session %s (%dx%d, at most %d frames a second) to %s. browser_stop_video writes it.",
				s.ID, o.MaxWidth, o.MaxHeight, o.FPS, out.path)
			if s.video.limited {
				l := d.videoLimits()
				r.resultf("The size is the viewport's, fit in this server's video limit of %dx%d (--max-video-size) rather than in 800x800.", l.MaxWidth, l.MaxHeight)
			}
			r.set("path", out.path)
			return r.build(), nil
		})
}

// startVideo starts recording the session (opening its browser first).
func (d *Deps) startVideo(ctx context.Context, s *Session, size VideoSize, fps int, out *outputFile, waitFirst bool) error {
	settle, still := videoSettle, videoStill
	if d.Videos != nil && d.Videos.EveryCall {
		settle, still = 0, 0
	}
	p, err := s.Tab(ctx, d.Browser)
	if err != nil {
		return err
	}
	w, h := size.Width, size.Height
	lim := d.videoLimits()
	limited := false
	if w == 0 {
		var vp struct{ W, H int }
		if raw, err := p.Evaluate(ctx, "() => ({w: innerWidth, h: innerHeight})", ""); err == nil {
			_ = json.Unmarshal(raw, &vp)
		}
		// The viewport's size, fit in 800x800 and in the server's limit
		// (the way round the viewport is).
		mw, mh := lim.MaxWidth, lim.MaxHeight
		if (vp.W < vp.H) != (mw < mh) {
			mw, mh = mh, mw
		}
		w, h = video.Fit(vp.W, vp.H, min(defaultVideoMaxW, mw), min(defaultVideoMaxH, mh))
		dw, dh := video.Fit(vp.W, vp.H, defaultVideoMaxW, defaultVideoMaxH)
		limited = w < dw || h < dh
	}
	if !lim.Fits(w, h) {
		return &ToolError{Type: ErrInvalidInput, Message: fmt.Sprintf("a %dx%d video is over this server's video limit of %dx%d (--max-video-size)", w, h, lim.MaxWidth, lim.MaxHeight),
			Suggestion: "ask the operator for a smaller --save-video size"}
	}
	if fps == 0 {
		fps = video.DefaultFPS
	}
	rec, err := video.New(video.Options{Width: w, Height: h, FPS: fps, Quiet: settle, MaxBytes: lim.MaxBytes})
	if err != nil {
		return err
	}
	s.video = &sessionVideo{rec: rec, out: out, started: time.Now(), limited: limited,
		cast: browserrec.CastOptions{MaxWidth: w, MaxHeight: h, Format: "png", FPS: fps, Settle: settle, Still: still}}
	if err := s.castVideo(ctx); err != nil {
		s.video = nil
		rec.Close()
		return err
	}
	// The answer says the recording runs once it has the page: Chrome
	// sends a first picture as the screencast starts.
	if waitFirst {
		select {
		case <-rec.Started():
		case <-time.After(firstFrameWait):
		case <-ctx.Done():
		}
	}
	return nil
}

// firstFrameWait bounds how long starting a video waits for its first
// frame (a page that never paints has none).
const firstFrameWait = 2 * time.Second

// castVideo points the session's browser context's screencast at its
// recording, when it records and the context is new (the first, or one
// opened after the browser was lost).
func (s *Session) castVideo(ctx context.Context) error {
	v := s.video
	if v == nil || s.tabs == nil || v.in == s.tabs {
		return nil
	}
	rec := v.rec
	err := s.tabs.Cast(ctx, v.cast, func(f browserrec.Frame) {
		rec.Frame(video.Frame{Data: f.Data, Time: f.Time, Scale: f.Scale, OffsetTop: f.OffsetTop, Tab: f.Tab})
	})
	if err != nil {
		return err
	}
	v.in = s.tabs
	return nil
}

func stopVideoTool(d *Deps) Tool {
	return define(d, "browser_stop_video", ToolsetSession,
		"Stop the video and write its file.",
		annotations{title: "Stop video", readOnly: true, openWorld: false},
		func(ctx context.Context, s *Session, _ StopVideoParams) (*mcp.CallToolResult, error) {
			var r response
			if s.video == nil {
				if s.lastVideo != "" {
					// Its answer may not have reached the client (cancelled).
					r.resultf("No video is recording; the last one %s.", s.lastVideo)
				} else {
					r.resultf("No video is recording.")
				}
				return r.build(), nil
			}
			if s.video.out == nil {
				// A recording of --save-video or a flow: written here,
				// since the agent asked for it.
				out, err := d.serverFile(ctx, "filename", videoDirName, videoName(s))
				if err != nil {
					s.discardVideo(ctx)
					return nil, err
				}
				s.video.out = out
			}
			path, st, err := s.finishVideo(ctx)
			if err != nil {
				return nil, err
			}
			s.lastVideo = fmt.Sprintf("was written at %s to %s", time.Now().Format("15:04:05"), path)
			r.resultf("Wrote the video to %s: %s.", path, describeVideo(st))
			r.set("path", path)
			r.set("bytes", st.Bytes)
			r.set("frames", st.Frames)
			r.set("width", st.Width)
			r.set("height", st.Height)
			r.set("durationMs", st.Duration.Milliseconds())
			r.set("sessionMs", st.Session.Milliseconds())
			r.set("idleCutMs", st.IdleCut.Milliseconds())
			r.set("chaptersMs", st.Chapters.Milliseconds())
			if st.Truncated {
				r.set("truncatedAtMs", st.TruncatedAt.Milliseconds())
			}
			return r.build(), nil
		})
}

// describeVideo says what a video holds, in words.
func describeVideo(st video.Stats) string {
	s := fmt.Sprintf("%dx%d, %d frames, plays %.1fs of a %.1fs session, %d KB", st.Width, st.Height, st.Frames,
		st.Duration.Seconds(), st.Session.Seconds(), (st.Bytes+1023)/1024)
	if st.IdleCut > 0 {
		s += fmt.Sprintf("; %.1fs with no change shortened", st.IdleCut.Seconds())
	}
	if st.Chapters > 0 {
		s += fmt.Sprintf("; chapter cards add %.1fs", st.Chapters.Seconds())
	}
	if st.Truncated {
		s += fmt.Sprintf("; it reached this server's limit of %s bytes (--max-video-bytes) %.1fs into the session: what came later is not in it",
			text.Commas(int(st.Limit)), st.TruncatedAt.Seconds())
	}
	if st.Cut > 0 {
		s += fmt.Sprintf("; it ends early: %d frames of its last moments were not drawn by the session's end", st.Cut)
	}
	return s
}

// videoName is the file name a session's video gets when the server names it.
func videoName(s *Session) string {
	return fmt.Sprintf("%s-%s.png", safeFileName(s.ID), time.Now().UTC().Format("20060102-150405"))
}

var unsafeNameRE = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func safeFileName(s string) string {
	s = strings.Trim(unsafeNameRE.ReplaceAllString(s, "-"), "-.")
	if s == "" {
		return "session"
	}
	return text.Clip(s, 64)
}

// finishVideo stops the session's recording and writes it where it goes;
// it returns the path and what the video holds. By ctx's deadline (a
// session's end): a tab that does not answer (the screencast's last frame,
// its stop) is not waited for past it, and frames not drawn by half the
// time left are left out (Stats.Cut), so the video is written with what
// was drawn.
func (s *Session) finishVideo(ctx context.Context) (string, video.Stats, error) {
	v := s.video
	s.video = nil
	if t := s.tabs; t != nil && v.in == t {
		within(ctx, func() { t.StopCast(ctx) })
		t.OnAction(nil)
	}
	defer v.rec.Close()
	var rd io.Reader
	var st video.Stats
	var err error
	if d, ok := ctx.Deadline(); ok {
		rd, _, st, err = v.rec.StopBy(time.Now().Add(time.Until(d) / 2))
	} else {
		rd, _, st, err = v.rec.Stop()
	}
	if errors.Is(err, video.ErrNoFrames) {
		if v.out != nil {
			v.out.discard()
		}
		return "", st, &ToolError{Type: ErrInvalidInput, Message: "the video has no frame: the page never painted while it recorded",
			Suggestion: "navigate to a page before you stop the video"}
	}
	if err != nil {
		return "", st, err
	}
	if _, err := v.out.create(rd); err != nil {
		return "", st, &ToolError{Type: ErrInvalidInput, Message: fmt.Sprintf("filename: cannot write %s: %v", v.out.path, err),
			Suggestion: "start the video again with a writable filename"}
	}
	return v.out.path, st, nil
}

// discardVideo stops the session's recording and forgets it.
func (s *Session) discardVideo(ctx context.Context) {
	v := s.video
	if v == nil {
		return
	}
	s.video = nil
	if t := s.tabs; t != nil && v.in == t {
		within(ctx, func() { t.StopCast(ctx) })
		t.OnAction(nil)
	}
	v.rec.Close()
	if v.out != nil {
		v.out.discard()
	}
}

// endVideo is the session's recording when the session ends: written if
// someone asked to keep it, else discarded.
func (s *Session) endVideo(ctx context.Context, log *zap.Logger) {
	if s.video == nil {
		return
	}
	if s.video.out == nil {
		s.discardVideo(ctx)
		return
	}
	path, st, err := s.finishVideo(ctx)
	if err != nil {
		log.Warn("the session's video was not written", zap.String("session", s.ID), zap.Error(err))
		return
	}
	if st.Truncated {
		log.Warn("session video written, cut at its size limit", zap.String("session", s.ID), zap.String("path", path),
			zap.Int64("limit", st.Limit), zap.Duration("at", st.TruncatedAt))
		return
	}
	log.Info("session video written", zap.String("session", s.ID), zap.String("path", path), zap.Int("frames", st.Frames), zap.Int64("bytes", st.Bytes),
		zap.Int("cut", st.Cut))
}

// autoVideo starts the session's recording when every session records
// (VideoDefaults) and this one does not yet; the first page of the session
// calls it.
func (d *Deps) autoVideo(ctx context.Context, s *Session) {
	v := d.Videos
	if v == nil || s.video != nil || s.videoDone {
		return
	}
	s.videoDone = true // one automatic recording a session
	if d.RecordSession != nil {
		if _, video := d.RecordSession(s.ID); !video {
			return
		}
	}
	var out *outputFile
	if v.Save {
		var err error
		if v.Dir != "" {
			// The operator's directory, every client's videos in it: the
			// name is taken now, never another session's file.
			if out, err = userDirFile(v.Dir, videoName(s), "video"); err == nil {
				err = out.reserve()
			}
		} else {
			out, err = d.serverFile(ctx, "video", videoDirName, videoName(s))
		}
		if err != nil {
			d.Logger.Warn("no file for the session's video", zap.String("session", s.ID), zap.Error(err))
			return
		}
	}
	// Started before the call, which need not wait for the first frame:
	// the page the call shows is in the video either way.
	if err := d.startVideo(ctx, s, VideoSize{Width: v.Width, Height: v.Height}, 0, out, false); err != nil {
		if out != nil {
			out.discard()
		}
		d.Logger.Warn("the session's video did not start", zap.String("session", s.ID), zap.Error(err))
	}
}

// FinishVideo stops the recording of session id (a flow's) and, when keep,
// writes it to name in dir and returns its path; otherwise discards it.
// "" when the session recorded nothing.
func (d *Deps) FinishVideo(ctx context.Context, id string, keep bool, dir, name string) (string, video.Stats, error) {
	s, callCtx, err := d.Sessions.acquire(ctx, id, "browser_stop_video")
	if err != nil {
		return "", video.Stats{}, err
	}
	defer s.release()
	if s.video == nil {
		return "", video.Stats{}, nil
	}
	if !keep {
		s.discardVideo(callCtx)
		return "", video.Stats{}, nil
	}
	out, err := userDirFile(dir, name, "video")
	if err != nil {
		s.discardVideo(callCtx)
		return "", video.Stats{}, err
	}
	s.video.out = out
	return s.finishVideo(callCtx)
}

func videoChapterTool(d *Deps) Tool {
	return define(d, "browser_video_chapter", ToolsetSession,
		"Put a chapter card (title, description) into the video being recorded.",
		annotations{title: "Video chapter", readOnly: true, openWorld: false},
		func(_ context.Context, s *Session, a VideoChapterParams) (*mcp.CallToolResult, error) {
			if s.video == nil {
				return nil, noVideo()
			}
			if a.Duration < 0 || a.Duration > 60000 {
				return nil, invalidInput("duration", "%d: give 1 to 60000 milliseconds", a.Duration)
			}
			if strings.TrimSpace(a.Title) == "" {
				return nil, invalidInput("title", "give the chapter a title")
			}
			s.video.rec.Chapter(video.Chapter{Title: s.private.String(text.Clip(a.Title, 200)), Description: s.private.String(text.Clip(a.Description, 500)),
				Time: time.Now(), Show: time.Duration(a.Duration) * time.Millisecond})
			var r response
			r.resultf("Chapter '%s' added.", a.Title)
			return r.build(), nil
		})
}

func noVideo() *ToolError {
	return &ToolError{Type: ErrInvalidInput, Message: "no video of this session is recording",
		Suggestion: "call browser_start_video first"}
}

func showActionsTool(d *Deps) Tool {
	return define(d, "browser_video_show_actions", ToolsetSession,
		"Show each later action in the video: its target's box and a caption naming it.",
		annotations{title: "Show action overlays", readOnly: true, idempotent: true, openWorld: false},
		func(_ context.Context, s *Session, a ShowActionsParams) (*mcp.CallToolResult, error) {
			if a.Duration < 0 || a.Duration > 60000 {
				return nil, invalidInput("duration", "%d: give 1 to 60000 milliseconds", a.Duration)
			}
			s.overlays = &actionOverlays{show: time.Duration(a.Duration) * time.Millisecond, position: a.Position, pointer: a.Cursor != "none"}
			var r response
			r.resultf("Action annotations enabled.")
			return r.build(), nil
		})
}

func hideActionsTool(d *Deps) Tool {
	return define(d, "browser_video_hide_actions", ToolsetSession,
		"Stop showing actions in the video.",
		annotations{title: "Hide action overlays", readOnly: true, idempotent: true, openWorld: false},
		func(_ context.Context, s *Session, _ HideActionsParams) (*mcp.CallToolResult, error) {
			s.overlays = nil
			var r response
			r.resultf("Action annotations disabled.")
			return r.build(), nil
		})
}

// filmed puts the session in its video: it starts the recording of a
// server whose every session records (VideoDefaults) on the first call that
// uses the browser, keeps the screencast on the session's browser context
// (a new one after the browser was lost), and, for the input and navigation
// tools while overlays (or a pointer) are on, shows the action: its caption
// from the call's start, or from when its target is found with the
// target's box, for the overlay's time.
func filmed[T any](d *Deps, name, toolset string, next sessionFunc[T]) sessionFunc[T] {
	if toolset == ToolsetSession {
		return next
	}
	actions := toolset == ToolsetInput || toolset == ToolsetNavigation
	return func(ctx context.Context, s *Session, req mcp.CallToolRequest, args T) (*mcp.CallToolResult, error) {
		if d != nil && d.Videos != nil {
			d.autoVideo(ctx, s)
		}
		v, o := s.video, s.overlays
		if v == nil {
			return next(ctx, s, req, args)
		}
		if err := s.castVideo(ctx); err != nil && d != nil {
			d.Logger.Debug("the video's screencast did not start", zap.String("session", s.ID), zap.Error(err))
		}
		// The recorder works between calls, not during them, and the
		// browser captures less during them (Tabs.CastBusy).
		tabs := s.tabs
		v.rec.Busy(true)
		if tabs != nil && v.in == tabs {
			tabs.CastBusy(true)
		}
		defer func() {
			if tabs != nil && v.in == tabs && !tabs.Gone() {
				tabs.CastBusy(false)
			}
			v.rec.Busy(false)
		}()
		if !actions || (o == nil && !v.pointer) || s.tabs == nil || v.in != s.tabs {
			return next(ctx, s, req, args)
		}
		a := video.Action{Pointer: v.pointer, Time: time.Now()}
		if o != nil {
			a.Caption, a.Position, a.Show, a.Pointer = s.caption(name, req.Params.Arguments), o.position, o.show, o.pointer || v.pointer
		}
		shown := false
		rec := v.rec
		tabs.OnAction(func(t browserrec.ActionTarget) {
			b := a
			b.Box, b.Time = &video.Box{X: t.X, Y: t.Y, Width: t.Width, Height: t.Height}, t.Time
			rec.Action(b)
			shown = true
		})
		res, err := next(ctx, s, req, args)
		tabs.OnAction(nil)
		if !shown && a.Caption != "" {
			// An action with no target (a key, a navigation): its
			// caption from its start.
			rec.Action(a)
		}
		return res, err
	}
}

// caption says in words what an action does, for its overlay: the verb and
// its target (role and name), never what it types or fills in (the page
// shows that, masked where the page masks it), through the session's
// secrets.
func (s *Session) caption(tool string, raw any) string {
	args, _ := raw.(map[string]any)
	verb := flow.ActionOf(tool)
	if verb == "" {
		verb = strings.ReplaceAll(strings.TrimPrefix(tool, "browser_"), "_", " ")
	}
	parts := []string{verb}
	str := func(k string) string { v, _ := args[k].(string); return v }
	switch tool {
	case "browser_navigate":
		parts = append(parts, "to", str("url"))
	case "browser_press_key":
		parts = append(parts, str("key"))
	case "browser_drag":
		parts = append(parts, s.targetWords(str("startTarget")), "to", s.targetWords(str("endTarget")))
	case "browser_select_option":
		var vals []string
		if l, ok := args["values"].([]any); ok {
			for _, v := range l {
				if x, ok := v.(string); ok {
					vals = append(vals, fmt.Sprintf("%q", x))
				}
			}
		}
		parts = append(parts, strings.Join(vals, ", "), "in", s.targetWords(str("target")))
	case "browser_fill_form":
		if l, ok := args["fields"].([]any); ok {
			parts = append(parts, fmt.Sprintf("(%d fields)", len(l)))
		}
	case "browser_type":
		parts[0] = "type into"
		parts = append(parts, s.targetWords(str("target")))
	default:
		if t := str("target"); t != "" {
			parts = append(parts, s.targetWords(t))
		}
	}
	return s.private.String(text.Clip(strings.Join(strings.Fields(strings.Join(parts, " ")), " "), 200))
}

// targetWords names a target for a reader: a ref as its role and name
// (`button "Sign up"`), a selector as it is.
func (s *Session) targetWords(target string) string {
	if !selector.IsRef(target) {
		return target
	}
	info, ok := s.refNames[target]
	if !ok {
		return target
	}
	if info.Name == "" {
		return info.Role
	}
	return fmt.Sprintf("%s %q", info.Role, info.Name)
}
