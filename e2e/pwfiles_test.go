package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/video"
	"github.com/mark3labs/mcp-go/mcp"
)

// The files of Playwright MCP's users, where they look for them (issue 39):
// what its test suite (make pwmcp-check) showed we kept elsewhere or
// refused, each as their users' config files and calls do it.

// pwConfigFile writes a Playwright MCP config file and returns the
// environment that names it, as their users' PLAYWRIGHT_MCP_CONFIG does.
func pwConfigFile(t *testing.T, config map[string]any) string {
	t.Helper()
	b, err := json.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	return "PLAYWRIGHT_MCP_CONFIG=" + writeFile(t, filepath.Join(t.TempDir(), "config.json"), string(b))
}

// imageOf is the image an answer sends, decoded, and its MIME type.
func imageOf(t *testing.T, res *mcp.CallToolResult) ([]byte, string) {
	t.Helper()
	for _, c := range res.Content {
		if ic, ok := c.(mcp.ImageContent); ok {
			b, err := base64.StdEncoding.DecodeString(ic.Data)
			if err != nil {
				t.Fatalf("the answer's image: %v", err)
			}
			return b, ic.MIMEType
		}
	}
	t.Fatalf("the answer sends no image:\n%s", text(res))
	return nil, ""
}

// stampedShot is the name Playwright MCP gives a screenshot it saves
// unasked: page-<UTC time>.<type>.
var stampedShot = regexp.MustCompile(`^page-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.(png|jpeg|webp)$`)

// TestPlaywrightScreenshotsInOutputDir: with an output directory in the
// config file (outputDir), a screenshot without filename is sent and also
// saved there as page-<UTC time>.<type>, the answer naming the file in a
// line, its bytes the image sent; a filename of "" is none; outputMaxSize
// evicts the older pictures. Without an output directory nothing is saved.
func TestPlaywrightScreenshotsInOutputDir(t *testing.T) {
	f := newFixture(t)
	env, tmp := serverEnv(t)
	out := filepath.Join(t.TempDir(), "output") // the server makes it
	c := startClient(t, append(env, pwConfigFile(t, map[string]any{"outputDir": out, "outputMaxSize": 100})))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"})

	saved := func(res *mcp.CallToolResult, typ string) string {
		t.Helper()
		if res.IsError {
			t.Fatalf("screenshot: %s", text(res))
		}
		m := regexp.MustCompile(`Saved to (\S+)\.\n`).FindStringSubmatch(text(res) + "\n")
		if m == nil {
			t.Fatalf("the answer names no saved file:\n%s", text(res))
		}
		if filepath.Dir(m[1]) != out || !stampedShot.MatchString(filepath.Base(m[1])) || !strings.HasSuffix(m[1], "."+typ) {
			t.Errorf("saved as %s, want %s/page-<UTC time>.%s", m[1], out, typ)
		}
		img, mime := imageOf(t, res)
		if mime != "image/"+typ {
			t.Errorf("the image sent is %s, want image/%s", mime, typ)
		}
		b, err := os.ReadFile(m[1])
		if err != nil || !bytes.Equal(b, img) {
			t.Errorf("the file saved is not the image sent (%d bytes, %v; sent %d)", len(b), err, len(img))
		}
		return m[1]
	}
	first := saved(call(t, c, "browser_take_screenshot", nil), "png")
	if _, err := png.Decode(bytes.NewReader(readAll(t, first))); err != nil {
		t.Errorf("%s is no PNG: %v", first, err)
	}
	second := saved(call(t, c, "browser_take_screenshot", map[string]any{"type": "jpeg", "filename": ""}), "jpeg")
	// outputMaxSize 100: the newer picture alone is kept.
	if names := dirNames(t, out); len(names) != 1 || names[0] != filepath.Base(second) {
		t.Errorf("the output directory holds %v, want only %s (outputMaxSize evicts the older)", names, filepath.Base(second))
	}

	// No output directory: the picture is sent, and no file written.
	work := t.TempDir()
	plain := startServerIn(t, work, env, nil)
	mustCall(t, plain, "browser_navigate", map[string]any{"url": f.URL + "/"})
	res := call(t, plain, "browser_take_screenshot", nil)
	imageOf(t, res)
	if strings.Contains(text(res), "Saved") {
		t.Errorf("without an output directory the answer says a file was saved:\n%s", text(res))
	}
	for _, dir := range []string{work, tmp} {
		for _, n := range dirNames(t, dir) {
			if strings.HasPrefix(n, "page-") {
				t.Errorf("without an output directory a screenshot was saved: %s", filepath.Join(dir, n))
			}
		}
	}
}

func readAll(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestPlaywrightDeviceScaleFactor: the config file's
// browser.contextOptions.deviceScaleFactor is every session's pixel ratio,
// as a --device's is: the page sees it, a screenshot in CSS pixels is the
// viewport's size, one with scale device twice that.
func TestPlaywrightDeviceScaleFactor(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, pwConfigFile(t, map[string]any{"browser": map[string]any{"contextOptions": map[string]any{
		"viewport": map[string]any{"width": 400, "height": 300}, "deviceScaleFactor": 2}}})))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"})
	if got := evalJS(t, c, "() => [innerWidth, innerHeight, devicePixelRatio].join(' ')"); got != "400 300 2" {
		t.Errorf("the page sees %s, want 400 300 2", got)
	}
	css := pngDims(t, mustCall(t, c, "browser_take_screenshot", map[string]any{"scale": "css"}))
	device := pngDims(t, mustCall(t, c, "browser_take_screenshot", map[string]any{"scale": "device"}))
	if css != "400x300" || device != "800x600" {
		t.Errorf("scale css gives %s (want 400x300), device %s (want 800x600)", css, device)
	}
}

// TestPlaywrightTraceFiles: browser_stop_tracing without a trace started
// says so as Playwright MCP does; a trace stopped without path is written
// to traces/trace-<ms>.zip of the output directory, where their users look
// for traces, as the zip the Trace Viewer opens; without an output
// directory, to a temp file as before.
func TestPlaywrightTraceFiles(t *testing.T) {
	f := newFixture(t)
	env, tmp := serverEnv(t)
	out := t.TempDir()
	c := startClient(t, append(env, "E2E_MCP_OUTPUT_DIR="+out, "E2E_MCP_CAPS=devtools"))
	wantError(t, call(t, c, "browser_stop_tracing", nil), "invalid_input", "Tracing is not started", "browser_start_tracing")
	mustContain(t, "start", mustCall(t, c, "browser_start_tracing", nil), "Trace recording started")
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"})
	stopped := mustCall(t, c, "browser_stop_tracing", nil)
	m := regexp.MustCompile(regexp.QuoteMeta(filepath.Join(out, "traces")+"/") + `trace-\d{13}\.zip`).FindString(stopped)
	if m == "" {
		t.Fatalf("the trace is not in traces/ of the output directory as trace-<ms>.zip:\n%s", stopped)
	}
	tz := readTrace(t, m)
	if !strings.Contains(string(tz.files["trace.trace"]), `"goto"`) {
		t.Errorf("the trace has no navigation:\n%s", tz.files["trace.trace"])
	}
	if names := dirNames(t, filepath.Join(out, "traces")); len(names) != 1 {
		t.Errorf("traces/ holds %v, want the one zip", names)
	}

	plain := startClient(t, append(env, "E2E_MCP_CAPS=devtools"))
	mustCall(t, plain, "browser_start_tracing", nil)
	mustCall(t, plain, "browser_navigate", map[string]any{"url": f.URL + "/"})
	mustContain(t, "a trace without an output directory", mustCall(t, plain, "browser_stop_tracing", nil), filepath.Join(tmp, "e2e-mcp-trace-"))
}

// TestPlaywrightRecordVideo: the config file's
// browser.contextOptions.recordVideo ({dir, size}) records every session
// as --save-video does, at that size, into that directory (made), one
// video a session, written when the session ends, even after
// browser_close; nothing goes to e2e-mcp-videos/ of the working directory.
func TestPlaywrightRecordVideo(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	videos := filepath.Join(t.TempDir(), "videos")
	work := t.TempDir()
	c := startServerIn(t, work, append(env, "E2E_MCP_LOG_LEVEL=warn", pwConfigFile(t, map[string]any{"browser": map[string]any{"contextOptions": map[string]any{
		"recordVideo": map[string]any{"dir": videos, "size": map[string]any{"width": 320, "height": 240}}}}})), nil)
	for _, s := range []string{"one", "two"} {
		mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/video/form.html", "sessionId": s})
		mustCall(t, c, "browser_type", map[string]any{"target": "#name", "text": "Ada " + s, "sessionId": s})
	}
	mustCall(t, c, "browser_close", map[string]any{"sessionId": "one"})
	for _, s := range []string{"one", "two"} {
		mustCall(t, c, "session_end", map[string]any{"sessionId": s})
		files, _ := filepath.Glob(filepath.Join(videos, s+"-*.png"))
		if len(files) != 1 {
			t.Fatalf("want one video of session %s in %s, got %v (%v)", s, videos, files, dirNames(t, videos))
		}
		anim, err := video.DecodeAPNG(readAll(t, files[0]))
		if err != nil {
			t.Fatalf("session %s's video: %v", s, err)
		}
		if anim.Width != 320 || anim.Height != 240 || len(anim.Frames) < 2 {
			t.Errorf("session %s's video is %dx%d with %d frames, want 320x240 with the page before and after the typing", s, anim.Width, anim.Height, len(anim.Frames))
		}
	}
	if _, err := os.Stat(filepath.Join(work, "e2e-mcp-videos")); err == nil {
		t.Errorf("videos went to e2e-mcp-videos/ of the working directory too")
	}
}

// TestPlaywrightRelativeUploads: a relative upload path starts in the
// client's first root, as Playwright MCP's does (its resolved path in the
// Playwright code and the recorded flow); one that resolves outside the
// roots is refused naming where it led, and one naming no file says so.
func TestPlaywrightRelativeUploads(t *testing.T) {
	var mu sync.Mutex
	var got []string
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("POST /api/upload", func(w http.ResponseWriter, r *http.Request) {
			if err := r.ParseMultipartForm(1 << 20); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			var names []string
			for _, fh := range r.MultipartForm.File["file"] {
				names = append(names, fmt.Sprintf("%s:%d", fh.Filename, fh.Size))
			}
			mu.Lock()
			got = append(got, strings.Join(names, ","))
			mu.Unlock()
			fmt.Fprint(w, strings.Join(names, ","))
		})
	})
	base := t.TempDir()
	app, outside := filepath.Join(base, "my app"), filepath.Join(base, "outside")
	for _, d := range []string{app, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	report := writeFile(t, filepath.Join(app, "report.txt"), "quarterly numbers\n")
	secret := writeFile(t, filepath.Join(outside, "secret.txt"), "no")
	ws := &workspace{}
	ws.set(app)
	env, _ := serverEnv(t)
	// The server's working directory is not the root.
	c := startServerIn(t, outside, append(env, "E2E_MCP_CODEGEN=typescript"), ws)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/input/upload.html"})

	out := mustCall(t, c, "browser_file_upload", map[string]any{"target": "#files", "paths": []string{"report.txt"}})
	if s := statusAfter(t, c); s != "server got report.txt:18" {
		t.Errorf("page says %q, want the root's report.txt", s)
	}
	mustContain(t, "the upload's Playwright code", out, "setInputFiles", report)
	wantError(t, call(t, c, "browser_file_upload", map[string]any{"target": "#files", "paths": []string{"../outside/secret.txt"}}),
		"not_allowed", `"../outside/secret.txt" (`+secret+`)`, app+" (the client's roots)")
	wantError(t, call(t, c, "browser_file_upload", map[string]any{"target": "#files", "paths": []string{"nope.txt"}}),
		"invalid_input", filepath.Join(app, "nope.txt"), "no such file")
	mu.Lock()
	if len(got) != 1 {
		t.Errorf("the server received %d uploads, want 1 (refused ones must not arrive): %v", len(got), got)
	}
	mu.Unlock()

	// The flow names the file the call read, not a path relative to
	// wherever the flow is replayed.
	mustContain(t, "the exported flow", mustCall(t, c, "session_export_flow", nil), report)
}
