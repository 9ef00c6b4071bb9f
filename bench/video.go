package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
)

// The video variant (e2e-mcp+video): e2e-mcp runs every scenario with a
// video of the session recording from before the form to after the tasks,
// with action overlays on (a caption and the target's box on each action),
// at the default size (a 1280x720 viewport's video is 800x450); the table
// compares its action times with e2e-mcp's without a video. Then, in the
// first run, the form app at an agent's pace (a call about a second) is recorded
// at 1280x720 for a minute (options.formVideo; 10 s with -quick): what a
// minute of such a video weighs, against the budget of 5 MB.

// videoFigures are the rows of the video table: the actions' times of both
// (from the stdio figures), then the video's own.
var videoFigures = []figure{
	{"warm_nav_ms", "warm navigate", "ms", 0},
	{"fill_ms", "fill a text box by ref", "ms", 0},
	{"click_ms", "click submit by ref, with the page state returned", "ms", 0},
	{"burst_fill_ms", "fill a text box, 20 calls back to back (a client's batch)", "ms", 0},
	{"burst_click_ms", "click a check box, 20 calls back to back", "ms", 0},
	{"big_nav_ms", "navigate to the 1,500-row page", "ms", 0},
	{"big_click_ms", "click a button on the 1,500-row page", "ms", 0},
	{"paced_type_ms", "type into a text box, at an agent's pace (0.7-1.5 s between calls)", "ms", 0},
	{"paced_click_ms", "click, check or select, at an agent's pace", "ms", 0},
	{"video_kb_min", "video of the scenarios (800x450): KB a minute", "count", 0},
	{"video_frames", "… its frames (seconds of session)", "count", 0},
	{"video_form_kb_min", "video of the form app at an agent's pace (1280x720, overlays): KB a minute", "count", 0},
	{"video_form_frames", "… its frames (seconds of session)", "count", 0},
}

// videoStart starts the session's video of a 1280x720 viewport at the
// default size, overlays on.
func videoStart(ctx context.Context, s *session, r *runResult, fig string, video map[string]any) bool {
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"browser_resize", map[string]any{"width": 1280, "height": 720}},
		{"browser_start_video", video},
		{"browser_video_show_actions", map[string]any{}},
	} {
		if _, err := s.call(ctx, c.tool, c.args); err != nil {
			r.fail(fig, fmt.Errorf("%s: %w", c.tool, err))
			return false
		}
	}
	return true
}

// videoStop stops the video and records its size a minute of session and
// its frames, as fig and its frames figure.
func videoStop(ctx context.Context, s *session, r *runResult, fig string) {
	framesFig := strings.TrimSuffix(fig, "kb_min") + "frames"
	ans, err := s.call(ctx, "browser_stop_video", map[string]any{})
	if err != nil {
		r.fail(fig, err)
		return
	}
	st := ans.structured
	bytes, _ := st["bytes"].(float64)
	sessMS, _ := st["sessionMs"].(float64)
	frames, _ := st["frames"].(float64)
	if bytes <= 0 || sessMS <= 0 {
		r.fail(fig, fmt.Errorf("the answer has no size: %s", oneLine(ans.text, 200)))
		return
	}
	r.add(fig, bytes/1024/(sessMS/60000))
	r.add(framesFig, frames)
	r.Info[framesFig] = fmt.Sprintf("%.0f s", sessMS/1000)
}

// pacedForm works the form app at 1280x720 for d at an agent's pace: fill
// the three text boxes, pick a plan, tick the box, submit, about a second
// after each call (thinkTime), over and over, timing each call (an agent
// thinks for seconds between calls: the back-to-back scenarios above do
// not show what it waits for). With video, the session records it at 1280x720 with
// overlays: what a minute of such a video weighs, against the budget of
// 5 MB. e2e-mcp runs it without a video for the comparison.
func pacedForm(ctx context.Context, s *session, fx *fixture, r *runResult, d time.Duration, video bool) {
	const fig = "video_form_kb_min"
	if video {
		if !videoStart(ctx, s, r, fig, map[string]any{"filename": "bench-form.png", "size": map[string]any{"width": 1280, "height": 720}}) {
			return
		}
	} else if _, err := s.call(ctx, "browser_resize", map[string]any{"width": 1280, "height": 720}); err != nil {
		r.fail("paced_type_ms", err)
		return
	}
	steps := []struct {
		tool string
		args map[string]any
	}{
		{"browser_navigate", map[string]any{"url": fx.url("/form")}},
		{"browser_type", map[string]any{"target": "input[name=name]", "text": "Ada Lovelace"}},
		{"browser_type", map[string]any{"target": "input[name=email]", "text": "ada@example.com"}},
		{"browser_type", map[string]any{"target": "input[name=password]", "text": "correct-horse-battery"}},
		{"browser_select_option", map[string]any{"target": "select[name=plan]", "values": []any{"Team"}}},
		{"browser_check", map[string]any{"target": "input[name=news]"}},
		{"browser_click", map[string]any{"target": "button[type=submit]"}},
	}
	end := time.Now().Add(d)
	for i := 0; time.Now().Before(end) && ctx.Err() == nil; i++ {
		st := steps[i%len(steps)]
		ans, err := s.call(ctx, st.tool, st.args)
		if err != nil {
			r.fail("paced_type_ms", err)
			return
		}
		switch st.tool {
		case "browser_type":
			r.add("paced_type_ms", ms(ans.took))
		case "browser_navigate":
		default:
			r.add("paced_click_ms", ms(ans.took))
		}
		select {
		case <-time.After(thinkTime(i)):
		case <-ctx.Done():
		}
	}
	if video {
		videoStop(ctx, s, r, fig)
	}
}

// burstForm fills a text box 20 times and clicks a check box 20 times on
// the form app, back to back, as a client's batch of calls runs: the
// scenarios above time three fills and one click a run, too few to tell a
// difference of 10 % on this machine. It runs in every run of the video
// variant, with the video recording, and of plain e2e-mcp beside it.
func burstForm(ctx context.Context, s *session, fx *fixture, r *runResult) {
	if _, err := s.call(ctx, "browser_navigate", map[string]any{"url": fx.url("/form")}); err != nil {
		r.fail("burst_fill_ms", err)
		r.fail("burst_click_ms", err)
		return
	}
	for i := range 20 {
		ans, err := s.call(ctx, "browser_type", map[string]any{"target": "input[name=name]", "text": fmt.Sprintf("Ada %d", i)})
		if err != nil {
			r.fail("burst_fill_ms", err)
			break
		}
		r.add("burst_fill_ms", ms(ans.took))
	}
	for range 20 {
		ans, err := s.call(ctx, "browser_click", map[string]any{"target": "input[name=news]"})
		if err != nil {
			r.fail("burst_click_ms", err)
			break
		}
		r.add("burst_click_ms", ms(ans.took))
	}
}

// thinkTime is the pause after the i-th call of pacedForm: 0.7 to 1.5
// seconds, the same sequence in every run. Not a fixed second: a focused
// text box's caret blinks every 500 ms, and calls a whole second apart fall
// in step with it (e2e-mcp alone typed in 10 ms a second apart, 15 ms 1.25
// seconds apart), which measures the pacing rather than the server.
func thinkTime(i int) time.Duration {
	x := (i*7919 + 12345) % 801 // a fixed scramble of i
	return 700*time.Millisecond + time.Duration(x)*time.Millisecond
}

// writeVideoTable writes the table of e2e-mcp with the video on and off.
func writeVideoTable(w io.Writer, s summary) {
	fmt.Fprintln(w, "| video on vs off | "+columnTitle[e2eMCP]+" | "+columnTitle[e2eVideo]+" | on / off (target ≤ 1.1) |")
	fmt.Fprintln(w, "|---|---|---|---|")
	foot := func(string) string { return "" }
	for _, f := range videoFigures {
		row := []string{f.title, s.cell(e2eMCP, f, foot), s.cell(e2eVideo, f, foot)}
		off, ok1 := s.median(e2eMCP, f.key)
		on, ok2 := s.median(e2eVideo, f.key)
		c := "—"
		if ok1 && ok2 && off > 0 && strings.HasSuffix(f.key, "_ms") {
			mark := "met"
			if on/off > 1.1 {
				mark = "missed"
			}
			c = ratio(on/off) + " (" + mark + ")"
		}
		row = append(row, c)
		fmt.Fprintln(w, "| "+strings.Join(row, " | ")+" |")
	}
}
