package e2e

import (
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/video"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// A session's video (the video group) is checked as a person would watch
// it: the file is decoded frame by frame (our own reader), its length held
// to the session's, the box of a click found on the frames at the click's
// place, and the same file is decoded by Chromium (an <img>, and WebCodecs'
// ImageDecoder for its frames and their durations).

// highlight is the outline of an action's target (video/draw.go).
var highlight = color.RGBA{255, 45, 85, 255}

// structured is a result's structured content.
func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	sc, ok := res.StructuredContent.(map[string]any)
	if !ok {
		t.Fatalf("no structured content: %s", text(res))
	}
	return sc
}

func num(m map[string]any, k string) float64 { f, _ := m[k].(float64); return f }

// rect is a box in CSS pixels, as the page measures it.
type rect struct{ X, Y, W, H float64 }

// measure is the viewport box of the element selector names.
func measure(t *testing.T, c *client.Client, session, selector string) rect {
	t.Helper()
	res := call(t, c, "browser_evaluate", map[string]any{"sessionId": session,
		"function": fmt.Sprintf(`() => { const r = document.querySelector(%q).getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height} }`, selector)})
	var r rect
	b, _ := json.Marshal(structured(t, res)["result"])
	if err := json.Unmarshal(b, &r); err != nil || r.W == 0 {
		t.Fatalf("measuring %s: %v %s", selector, err, text(res))
	}
	return r
}

// TestVideo_Session: a session of 20 actions recorded with action overlays
// and a chapter decodes to the frames the answer counts, plays for the
// session's time (within 10%, once the idle time it shortened and the card
// it added are counted), shows the click's box where the button is while
// the click happens, and plays in Chromium with the same frames and
// duration.
func TestVideo_Session(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	env, tmp := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=video", "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn"))
	s := "rec"
	do := func(tool string, args map[string]any) string {
		t.Helper()
		args["sessionId"] = s
		return mustCall(t, c, tool, args)
	}
	do("browser_resize", map[string]any{"width": 1280, "height": 720})
	do("browser_navigate", map[string]any{"url": f.URL + "/video/form.html"})
	file := filepath.Join(dir, "session.png")
	started := time.Now()
	// At the viewport's size (the default fits it in 800x800): a pixel of
	// the video is a CSS pixel of the page.
	out := do("browser_start_video", map[string]any{"filename": file, "size": map[string]any{"width": 1280, "height": 720}})
	mustContain(t, "start_video's answer", out, "1280x720", file)
	do("browser_video_show_actions", map[string]any{"duration": 700})

	// 20 actions, at an agent's pace but with no long pause.
	actions := 0
	act := func(tool string, args map[string]any) {
		t.Helper()
		do(tool, args)
		actions++
	}
	act("browser_navigate", map[string]any{"url": f.URL + "/video/form.html"})
	act("browser_click", map[string]any{"target": "#name"})
	act("browser_type", map[string]any{"target": "#name", "text": "Ada Lovelace"})
	act("browser_press_key", map[string]any{"key": "Tab"})
	act("browser_type", map[string]any{"target": "#email", "text": "ada@example.com", "slowly": true})
	act("browser_type", map[string]any{"target": "#pw", "text": "correct-horse"})
	act("browser_select_option", map[string]any{"target": "#plan", "values": []any{"Team"}})
	act("browser_check", map[string]any{"target": "#news"})
	act("browser_uncheck", map[string]any{"target": "#news"})
	act("browser_check", map[string]any{"target": "#news"})
	act("browser_hover", map[string]any{"target": "#other"})
	do("browser_video_chapter", map[string]any{"title": "Submit", "description": "The form is sent", "duration": 1000})
	box := measure(t, c, s, "#go")
	clickAt := time.Since(started)
	act("browser_click", map[string]any{"target": "#go"})
	act("browser_wait_for", map[string]any{"text": "Welcome, Ada Lovelace"})
	act("browser_hover", map[string]any{"target": "#name"})
	act("browser_click", map[string]any{"target": "#other"})
	act("browser_type", map[string]any{"target": "#name", "text": "Grace Hopper"})
	act("browser_press_key", map[string]any{"key": "End"})
	act("browser_click", map[string]any{"target": "#email"})
	act("browser_type", map[string]any{"target": "#email", "text": "grace@example.com"})
	act("browser_reload", map[string]any{})
	if actions != 20 {
		t.Fatalf("%d actions, want 20", actions)
	}
	// The session's time ends when stop is called (the answer waits for
	// the encoding to catch up, which under -race takes a while).
	wall := time.Since(started)
	res := call(t, c, "browser_stop_video", map[string]any{"sessionId": s})
	if res.IsError {
		t.Fatalf("stop_video: %s", text(res))
	}
	st := structured(t, res)
	if st["path"] != file {
		t.Fatalf("stop_video wrote %v, want %s:\n%s", st["path"], file, text(res))
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	anim, err := video.DecodeAPNG(raw)
	if err != nil {
		t.Fatalf("the video does not decode: %v", err)
	}
	t.Logf("%s; %d bytes for %s of session (%.0f KB a minute)", text(res), len(raw), wall, float64(len(raw))/1024/wall.Minutes())

	// Frames: as many as the answer says, at least one a change of the
	// page (20 actions changed it), of the size it says.
	if len(anim.Frames) != int(num(st, "frames")) || len(anim.Frames) < 20 || anim.Width != 1280 || anim.Height != 720 {
		t.Errorf("decoded %d frames of %dx%d; the answer says %v frames", len(anim.Frames), anim.Width, anim.Height, st["frames"])
	}
	// Duration: the session's wall time, less the idle time shortened,
	// plus the chapter's card.
	idle, cards := time.Duration(num(st, "idleCutMs"))*time.Millisecond, time.Duration(num(st, "chaptersMs"))*time.Millisecond
	want := wall - idle + cards
	if d := anim.Duration(); math.Abs(float64(d-want)) > 0.1*float64(want) || time.Duration(num(st, "durationMs"))*time.Millisecond != d {
		t.Errorf("the video plays %s (the answer says %vms); the session took %s, %s shortened, %s of cards: want %s within 10%%",
			d, st["durationMs"], wall, idle, cards, want)
	}
	if cards != time.Second {
		t.Errorf("the chapter's card adds %s, want 1s", cards)
	}

	// The click's box: its outline just left of the button, on the
	// frames while the click shows, and on no frame before the click.
	x, y := int(box.X)-1, int(box.Y+box.H/2)
	xr := int(math.Ceil(box.X+box.W)) + 1
	first, last := -1, -1
	var at time.Duration
	var played time.Duration
	for i := range anim.Frames {
		img := anim.Image(i)
		if img.RGBAAt(x, y) == highlight && img.RGBAAt(xr, y) == highlight {
			if first < 0 {
				first, at = i, played
			}
			last = i
		}
		played += anim.Frames[i].Delay
	}
	if first < 0 {
		t.Fatalf("no frame shows the click's box at x %d-%d, y %d (button at %+v)", x, xr, y, box)
	}
	if img := anim.Image(len(anim.Frames) - 1); img.RGBAAt(x, y) == highlight {
		t.Errorf("the click's box is still shown at the end")
	}
	// The box shows when the click happened (the card before it adds
	// its second to the video).
	if idle == 0 {
		if want := clickAt + cards; at < want-time.Second || at > want+2*time.Second {
			t.Errorf("the click's box shows from %s of the video; the click was at %s (+%s of card)", at, clickAt, cards)
		}
	}
	t.Logf("the click's box shows on frames %d-%d, from %s", first, last, at)

	// Chromium plays the same file: an <img> of its size, and WebCodecs
	// decodes as many frames, lasting as long.
	player := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /video.png", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "image/png")
			_, _ = w.Write(raw)
		})
	})
	mustCall(t, c, "browser_navigate", map[string]any{"sessionId": "player", "url": player.URL + "/video/form.html"})
	res = call(t, c, "browser_evaluate", map[string]any{"sessionId": "player", "function": `async () => {
		const img = document.createElement('img');
		img.src = '/video.png';
		await img.decode();
		const data = await (await fetch('/video.png')).arrayBuffer();
		const dec = new ImageDecoder({data, type: 'image/png'});
		await dec.tracks.ready;
		await dec.completed;
		const track = dec.tracks.selectedTrack;
		let us = 0;
		for (let i = 0; i < track.frameCount; i++) {
			const r = await dec.decode({frameIndex: i});
			us += r.image.duration || 0;
			r.image.close();
		}
		return {width: img.naturalWidth, height: img.naturalHeight, animated: track.animated, frames: track.frameCount, ms: us / 1000};
	}`})
	if res.IsError {
		t.Fatalf("Chromium did not decode the video: %s", text(res))
	}
	var played2 struct {
		Width, Height, Frames int
		Animated              bool
		MS                    float64
	}
	b, _ := json.Marshal(structured(t, res)["result"])
	_ = json.Unmarshal(b, &played2)
	if played2.Width != 1280 || played2.Height != 720 || !played2.Animated || played2.Frames != len(anim.Frames) ||
		math.Abs(played2.MS-float64(anim.Duration().Milliseconds())) > 0.01*float64(anim.Duration().Milliseconds()) {
		t.Errorf("Chromium plays %+v; we decoded %d frames of %s", played2, len(anim.Frames), anim.Duration())
	}

	// Nothing of the recording is left in the server's temp directory.
	if left, _ := filepath.Glob(filepath.Join(tmp, "e2e-mcp-video-*")); len(left) > 0 {
		t.Errorf("the recording left %v", left)
	}
}

// TestVideo_Errors: the video tools answer what an agent can act on.
func TestVideo_Errors(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=video", "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn"))
	mustContain(t, "stop with none", mustCall(t, c, "browser_stop_video", map[string]any{}), "No video is recording")
	mustContain(t, "a chapter with none", mustFail(t, c, "browser_video_chapter", map[string]any{"title": "x"}, "invalid_input"), "browser_start_video")
	mustFail(t, c, "browser_start_video", map[string]any{"fps": 99}, "invalid_input")
	mustFail(t, c, "browser_start_video", map[string]any{"filename": "/etc/x.png"}, "not_allowed")
	mustFail(t, c, "browser_video_show_actions", map[string]any{"position": "middle"}, "invalid_input")
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/video/form.html"})
	mustCall(t, c, "browser_start_video", map[string]any{"filename": filepath.Join(dir, "a.png"), "size": map[string]any{"width": 640, "height": 360}})
	mustContain(t, "a second start", mustFail(t, c, "browser_start_video", map[string]any{}, "invalid_input"), "browser_stop_video first")
	// The session ends before the video stops: the file is written.
	mustCall(t, c, "session_end", map[string]any{})
	raw, err := os.ReadFile(filepath.Join(dir, "a.png"))
	if err != nil {
		t.Fatalf("session_end did not write the video it was asked for: %v", err)
	}
	if anim, err := video.DecodeAPNG(raw); err != nil || anim.Width != 640 || anim.Height != 360 {
		t.Fatalf("the video written at session_end: %v", err)
	}
}

// TestVideo_SaveEverySession: --save-video records every session from its
// first page and writes the video into e2e-mcp-videos/ of the file root
// when the session ends.
func TestVideo_SaveEverySession(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_SAVE_VIDEO=800x450", "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/video/form.html", "sessionId": "one"})
	mustCall(t, c, "browser_type", map[string]any{"target": "#name", "text": "Ada", "sessionId": "one"})
	mustCall(t, c, "session_end", map[string]any{"sessionId": "one"})
	files, _ := filepath.Glob(filepath.Join(dir, "e2e-mcp-videos", "one-*.png"))
	if len(files) != 1 {
		t.Fatalf("want one video of session one in %s/e2e-mcp-videos, got %v", dir, files)
	}
	raw, _ := os.ReadFile(files[0])
	anim, err := video.DecodeAPNG(raw)
	if err != nil {
		t.Fatalf("the saved video: %v", err)
	}
	// Two frames at least: the page navigated to, and the page as the
	// typing left it, though the session ended right after the call.
	if anim.Width != 800 || anim.Height != 450 || len(anim.Frames) < 2 {
		t.Fatalf("the saved video is %dx%d with %d frames, want 800x450 with the page before and after the typing", anim.Width, anim.Height, len(anim.Frames))
	}
}

// TestVideo_RunFailingFlow: `run --video` keeps the failing flow's video
// (not the passing one's), and the report plays it and JUnit links it.
func TestVideo_RunFailingFlow(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	write := func(name, steps string) string {
		p := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(p, []byte("name: "+name+"\nsteps:\n"+steps), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good", fmt.Sprintf("  - navigate: %s/video/form.html\n  - type: {target: '#name', text: Ada}\n", f.URL))
	bad := write("bad", fmt.Sprintf("  - navigate: %s/video/form.html\n  - type: {target: '#name', text: Ada}\n  - click: '#missing'\n", f.URL))
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_LOG_LEVEL=warn", "E2E_MCP_ACTION_TIMEOUT=1s")
	videos, reports, junit := filepath.Join(dir, "videos"), filepath.Join(dir, "reports"), filepath.Join(dir, "junit.xml")
	out, code := runFlows(t, env, good, bad, "--video", videos, "--report", reports, "--junit", junit)
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	kept, _ := filepath.Glob(filepath.Join(videos, "*"))
	if len(kept) != 1 || filepath.Base(kept[0]) != "bad.png" {
		t.Fatalf("want only the failed flow's video, got %v:\n%s", kept, out)
	}
	mustContain(t, "the run's output", out, "video: "+kept[0])
	raw, _ := os.ReadFile(kept[0])
	if anim, err := video.DecodeAPNG(raw); err != nil || len(anim.Frames) < 2 {
		t.Fatalf("the flow's video: %v", err)
	} else if anim.Width > 800 || anim.Height > 800 {
		t.Errorf("the flow's video is %dx%d: the default fits the viewport in 800x800", anim.Width, anim.Height)
	}

	suite, jb := readJUnit(t, junit)
	for _, tc := range suite.Cases {
		has := strings.Contains(tc.SystemOut, "[[ATTACHMENT|videos/bad.png]]")
		if has != (tc.Name == "bad") {
			t.Errorf("JUnit case %s links the video: %v\n%s", tc.Name, has, jb)
		}
	}

	viewEnv, _ := serverEnv(t)
	c := startClient(t, append(viewEnv, "E2E_MCP_ALLOW_FILE_URLS=true", "E2E_MCP_LOG_LEVEL=warn"))
	page := filepath.Join(reports, "bad.html")
	mustCall(t, c, "browser_navigate", map[string]any{"url": "file://" + page})
	res := call(t, c, "browser_evaluate", map[string]any{"function": `async () => {
		const img = document.querySelector('#video img');
		if (!img) return {found: false};
		await img.decode().catch(() => {});
		return {found: true, width: img.naturalWidth, src: img.getAttribute('src'),
			csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]').content, caption: document.querySelector('#video figcaption').innerText};
	}`})
	var v struct {
		Found    bool
		Width    int
		Src, CSP string
		Caption  string
	}
	b, _ := json.Marshal(structured(t, res)["result"])
	_ = json.Unmarshal(b, &v)
	if !v.Found || v.Width <= 0 || v.Src != "../videos/bad.png" || !strings.Contains(v.CSP, "default-src 'none'") || !strings.Contains(v.Caption, "frames") {
		t.Errorf("the failed flow's report does not play its video: %+v", v)
	}
}
