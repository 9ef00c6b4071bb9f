package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/video"
	"github.com/mark3labs/mcp-go/mcp"
)

// What a session keeps of its pages is bounded when it is stored (issue 37,
// defect 5): a hostile page cannot grow the server by what it sends, and
// what the server writes from it (answers, traces) holds no more than
// their bounds, with what was clipped said.

// hostilePage is a page that sends everything big: 32 POSTs whose URLs
// are 1 MB each (random, which no zip makes small), with a 64 KB header
// and a 512 KB body, answered with a 64 KB header and a 2 MB body; five
// console messages of 1 MB, an error of 1 MB and an uncaught exception
// with a 1 MB message. It says "done" when every fetch has its answer. A
// click on Flood starts it. (Twenty console messages and 2 MB request
// bodies, as the issue's, made the race-built server on a loaded machine
// so slow to read the browser's events that its watchdog took the browser
// for hung, before and after the fix alike.)
const hostilePage = `<!doctype html><title>hostile</title><h1 id=s>ready</h1><button onclick="flood()">Flood</button><script>
// Random hex, which no zip makes small.
function noise(n) {
  const b = new Uint8Array(n / 2);
  for (let i = 0; i < b.length; i += 65536) crypto.getRandomValues(b.subarray(i, i + 65536));
  return Array.from(b, x => x.toString(16).padStart(2, '0')).join('');
}
// A click starts it a second later, a step at a time: the click's answer
// comes first, and the page answers between its steps.
const pause = ms => new Promise(r => setTimeout(r, ms));
async function flood() {
  await pause(1000);
  const big = noise(1 << 20), body = 'b'.repeat(512 << 10), header = 'h'.repeat(64 << 10);
  for (let i = 0; i < 5; i++) { console.log('log ' + i + ' ' + big); await pause(20); }
  console.error('error ' + big);
  const runs = [];
  for (let i = 0; i < 32; i++) {
    runs.push(fetch('/x?i=' + i + '&pad=' + big, {method: 'POST', body, headers: {'X-Big': header}})
      .then(r => r.text()).catch(() => ''));
    await pause(20);
  }
  await Promise.all(runs);
  document.getElementById('s').textContent = 'done';
  setTimeout(() => { throw new Error('thrown ' + big); }, 0);
}
</script>`

// hostileServer serves hostilePage at / and answers its fetches (a server
// whose header limit takes 1 MB URLs) with a 2 MB text body and a 64 KB
// header.
func hostileServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, hostilePage)
	})
	mux.HandleFunc("/x", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("X-Big-Answer", strings.Repeat("a", 64<<10))
		_, _ = w.Write([]byte(strings.Repeat("r", 2<<20)))
	})
	srv := httptest.NewUnstartedServer(mux)
	srv.Config.MaxHeaderBytes = 4 << 20
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// rssKB is a process's resident set size, from /proc.
func rssKB(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatalf("VmRSS %q: %v", rest, err)
			}
			return n
		}
	}
	t.Fatalf("no VmRSS in /proc/%d/status", pid)
	return 0
}

// answerBytes is the size of an answer: its text and its structured
// content.
func answerBytes(res *mcp.CallToolResult) int {
	n := len(text(res))
	if res.StructuredContent != nil {
		n += len(fmt.Sprint(res.StructuredContent))
	}
	return n
}

// TestHostilePageBounded (issue 37, defect 5): while tracing, a page sends
// 32 requests with 1 MB URLs, 64 KB headers and big bodies, and 1 MB
// console messages and exceptions. The answers that list and show them
// stay small and say what they clipped; browser_network_requests answers;
// the trace holds every request, within its budget, each long URL and
// header and console text clipped and marked; the server grows by far
// less than what the page sent. Before the fix the list of requests was
// 33 MB, browser_stop_tracing did not answer within a minute, and the
// server grew by 1.2 GB.
func TestHostilePageBounded(t *testing.T) {
	srv := hostileServer(t)
	dir := t.TempDir()
	env, tmp := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=devtools", "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn"))
	// A first page, so that the browser and the session are up before
	// the server's size is read.
	mustCall(t, c, "browser_navigate", map[string]any{"url": srv.URL + "/x"})
	procs := serverProcesses(tmp)
	if len(procs) != 1 {
		t.Fatalf("want one server process, got %d", len(procs))
	}
	pid := procs[0].PID
	before := rssKB(t, pid)

	mustCall(t, c, "browser_start_tracing", nil)
	mustCall(t, c, "browser_navigate", map[string]any{"url": srv.URL + "/"})
	mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=Flood]"})
	mustCall(t, c, "browser_wait_for", map[string]any{"text": "done", "time": 50})

	// The answers: small, and saying what they clipped.
	res := call(t, c, "browser_network_requests", map[string]any{"filter": "/x\\?i="})
	if res.IsError {
		t.Fatalf("browser_network_requests: %s", text(res))
	}
	mustContain(t, "the list of requests", text(res), "32 requests", "…[clipped")
	if n := answerBytes(res); n > 64<<10 {
		t.Errorf("the list of 32 requests is %d bytes", n)
	}
	var seq string
	for _, line := range strings.Split(text(res), "\n") {
		if strings.Contains(line, "/x?i=3&") {
			seq = strings.TrimPrefix(strings.Fields(line)[1], "[")
			seq = strings.TrimSuffix(seq, "]")
		}
	}
	id, err := strconv.Atoi(seq)
	if err != nil {
		t.Fatalf("no request /x?i=3 in the list:\n%s", text(res))
	}
	res = call(t, c, "browser_network_request", map[string]any{"id": id})
	if res.IsError {
		t.Fatalf("browser_network_request: %s", text(res))
	}
	mustContain(t, "one request", text(res), "X-Big", "…[clipped", "Body (2097152 bytes)")
	if n := answerBytes(res); n > 64<<10 {
		t.Errorf("one request's answer is %d bytes", n)
	}
	res = call(t, c, "browser_console_messages", map[string]any{"all": true})
	mustContain(t, "the console", text(res), "log 4 ", "[error] error ", "…[clipped")
	if n := answerBytes(res); n > 256<<10 {
		t.Errorf("the console's answer is %d bytes", n)
	}

	// The trace: within its budget, every clipped text marked.
	path := filepath.Join(dir, "hostile.zip")
	out := mustCall(t, c, "browser_stop_tracing", map[string]any{"path": path})
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatalf("no trace: %v\n%s", err, out)
	}
	if fi.Size() > 12<<20 {
		t.Errorf("the trace is %d bytes", fi.Size())
	}
	tz := readTrace(t, path)
	var hostile int
	for _, ev := range tz.network {
		snap, _ := ev["snapshot"].(map[string]any)
		req, _ := snap["request"].(map[string]any)
		u, _ := req["url"].(string)
		if !strings.Contains(u, "/x?i=") || !strings.Contains(u, "&pad=") {
			continue
		}
		hostile++
		if len(u) > 16<<10 || !strings.Contains(u, "…[clipped ") {
			t.Errorf("a request's URL in the trace is %d bytes, marked %v", len(u), strings.Contains(u, "…[clipped "))
		}
	}
	if hostile != 32 {
		t.Errorf("the trace has %d of the 32 requests", hostile)
	}
	for _, ev := range tz.network {
		snap, _ := ev["snapshot"].(map[string]any)
		req, _ := snap["request"].(map[string]any)
		hs, _ := req["headers"].([]any)
		for _, h := range hs {
			if h, _ := h.(map[string]any); h["name"] == "X-Big" {
				if v, _ := h["value"].(string); len(v) > 9<<10 || !strings.Contains(v, "…[clipped ") {
					t.Errorf("a request's X-Big header in the trace is %d bytes", len(v))
				}
			}
		}
	}
	consoles := 0
	for _, ev := range tz.events {
		if ev["type"] != "console" {
			continue
		}
		consoles++
		if txt, _ := ev["text"].(string); len(txt) > 5<<10 {
			t.Errorf("a console message in the trace is %d bytes", len(txt))
		}
	}
	if consoles < 6 {
		t.Errorf("the trace has %d console messages, want the page's 6 at least", consoles)
	}

	after := rssKB(t, pid)
	t.Logf("server RSS %d MB before the page, %d MB after; trace %d KB", before>>10, after>>10, fi.Size()>>10)
	// The page sent about 120 MB, 32 MB of it URLs that each come in
	// several events; the server (built with -race) grew by 1.2 GB before
	// the fix, and now keeps about a megabyte of it. The bound leaves
	// room for the race detector, the events' decoding and the garbage
	// collector's slack (110-130 MB here).
	if grown := (after - before) >> 10; grown > 256 {
		t.Errorf("the server grew by %d MB", grown)
	}
}

// TestDropOverCap: browser_drop of files with data carries the files'
// bytes into the page, at most 16 MB: a sparse 17 MB file is refused by
// its size, before it is read and before the page gets any event, and the
// answer says so; a small file still drops.
func TestDropOverCap(t *testing.T) {
	f := newFixture(t)
	roots := t.TempDir()
	big := filepath.Join(roots, "big.bin")
	fd, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := fd.Truncate(17 << 20); err != nil {
		t.Fatal(err)
	}
	_ = fd.Close()
	note := filepath.Join(roots, "note.txt")
	if err := os.WriteFile(note, []byte("hello note\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+roots, "E2E_MCP_LOG_LEVEL=warn"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/pwtools/index.html"})
	zone := `role=region[name="Drop zone"]`
	out := mustFail(t, c, "browser_drop", map[string]any{"target": zone, "paths": []string{big}, "data": map[string]string{"text/plain": "hi"}}, "invalid_input")
	mustContain(t, "the refusal", out, "big.bin is 17,825,792 bytes", "at most 16 MB", "nothing was read")
	if snap := mustCall(t, c, "browser_snapshot", nil); strings.Contains(snap, "Dropped:") {
		t.Errorf("the page got a drop:\n%s", snap)
	}
	out = mustCall(t, c, "browser_drop", map[string]any{"target": zone, "paths": []string{note}, "data": map[string]string{"text/plain": "hi"}})
	mustContain(t, "a small file", out, "Dropped: file note.txt (hello note); text/plain=hi")
}

// noisePage paints random pixels on every frame: no two pictures alike,
// none a PNG makes small.
const noisePage = `<!doctype html><title>noise</title><style>body{margin:0}</style><canvas id=c width=1280 height=720></canvas><script>
const c = document.getElementById('c').getContext('2d');
const img = c.createImageData(1280, 720);
function paint() {
  const px = new Uint32Array(img.data.buffer);
  for (let i = 0; i < px.length; i += 16384) crypto.getRandomValues(px.subarray(i, i + 16384));
  for (let i = 3; i < img.data.length; i += 4) img.data[i] = 255;
  c.putImageData(img, 0, 0);
  requestAnimationFrame(paint);
}
paint();
</script>`

// TestVideo_Limits: a server's video limits (--max-video-size,
// --max-video-bytes) hold, and each is said: a size over the frame limit
// is refused naming the limit and its flag (3840x3840 would hold some
// 360 MB while recording), either way round; the default size is fit in
// the limit; a page that never stops painting noise fills the file limit
// within seconds, and the video stops there, which its answer says with
// when, and the file written stays within the limit and plays.
func TestVideo_Limits(t *testing.T) {
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /noise.html", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, noisePage)
		})
	})
	dir := t.TempDir()
	env, tmp := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=video", "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn",
		"E2E_MCP_MAX_VIDEO_SIZE=640x360", "E2E_MCP_MAX_VIDEO_BYTES=1048576"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/noise.html"})
	for _, size := range []map[string]any{{"width": 3840, "height": 3840}, {"width": 1280, "height": 720}, {"width": 360, "height": 641}} {
		out := mustFail(t, c, "browser_start_video", map[string]any{"size": size}, "invalid_input")
		mustContain(t, "a size over the limit", out, "over this server's video limit of 640x360", "--max-video-size")
	}
	file := filepath.Join(dir, "noise.png")
	out := mustCall(t, c, "browser_start_video", map[string]any{"filename": file})
	mustContain(t, "the default size, fit in the limit", out, "(640x360,", "fit in this server's video limit of 640x360 (--max-video-size)")

	// The recording fills its file between calls (a call would pause the
	// filming): wait for its frames on disk (a temp file the server
	// unlinked and keeps open) to pass the limit.
	procs := serverProcesses(tmp)
	if len(procs) != 1 {
		t.Fatalf("want one server process, got %d", len(procs))
	}
	fds := fmt.Sprintf("/proc/%d/fd", procs[0].PID)
	deadline := time.Now().Add(60 * time.Second)
	for {
		var size int64
		entries, _ := os.ReadDir(fds)
		for _, e := range entries {
			if dest, _ := os.Readlink(filepath.Join(fds, e.Name())); strings.Contains(dest, "e2e-mcp-video-") {
				if fi, err := os.Stat(filepath.Join(fds, e.Name())); err == nil {
					size += fi.Size()
				}
			}
		}
		if size > 1<<20 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the video's frames on disk are %d bytes after 60 s", size)
		}
		time.Sleep(100 * time.Millisecond)
	}
	res := call(t, c, "browser_stop_video", map[string]any{})
	if res.IsError {
		t.Fatalf("browser_stop_video: %s", text(res))
	}
	mustContain(t, "the stop's answer", text(res), "640x360", "reached this server's limit of 1,048,576 bytes (--max-video-bytes)", "into the session: what came later is not in it")
	if _, ok := structured(t, res)["truncatedAtMs"]; !ok {
		t.Errorf("the structured answer does not say where the video stopped: %v", res.StructuredContent)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// The limit is checked before each frame is added, and the writer
	// holds one frame until the next says how long it shows: the file
	// passes the limit by two frames at most, each at most its raw pixels
	// (a PNG of noise is no smaller) and its chunks.
	if frame := 640*360*4 + 64<<10; len(raw) > 1<<20+2*frame {
		t.Errorf("the video is %d bytes, over its limit by more than two frames", len(raw))
	}
	if anim, err := video.DecodeAPNG(raw); err != nil || anim.Width != 640 || anim.Height != 360 || len(anim.Frames) < 2 {
		t.Fatalf("the video written: %v", err)
	}
}
