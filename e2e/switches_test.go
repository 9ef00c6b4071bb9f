package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// busyPage loads five API responses, shows how many came, and on
// window.freeze() tells the test (a beacon) and loops forever: its
// renderer then answers nothing, as a page stuck in a bug does. On
// window.block() it tells the test and waits in a synchronous request that
// the test holds (busyFixture's release): stuck until the test says.
const busyPage = `<!doctype html><title>Busy</title><h1 id=h>loading</h1>
<script>
Promise.all([1, 2, 3, 4, 5].map(i => fetch('/api/item?i=' + i).then(r => r.json())))
  .then(items => { document.getElementById('h').textContent = items.length + ' items loaded'; });
window.freeze = () => setTimeout(() => { navigator.sendBeacon('/api/frozen'); for (;;) {} }, 0);
window.block = () => setTimeout(() => {
  navigator.sendBeacon('/api/frozen');
  const x = new XMLHttpRequest();
  x.open('GET', '/api/go', false);
  x.send();
  document.getElementById('h').textContent = 'going on';
}, 0);
</script>`

// busyFixture serves busyPage; frozen gets a value once the page loops or
// blocks, and release lets a blocked page go on.
func busyFixture(t *testing.T) (f *fixture, frozen chan struct{}, release func()) {
	frozen = make(chan struct{}, 1)
	let := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(let) }) }
	f = newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /api/go", func(_ http.ResponseWriter, r *http.Request) {
			select {
			case <-let:
			case <-r.Context().Done():
			}
		})
		mux.HandleFunc("GET /busy", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, busyPage)
		})
		mux.HandleFunc("GET /api/item", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"item":%q,"pad":%q}`, r.URL.Query().Get("i"), strings.Repeat("x", 2000))
		})
		mux.HandleFunc("POST /api/frozen", func(http.ResponseWriter, *http.Request) {
			select {
			case frozen <- struct{}{}:
			default:
			}
		})
	})
	t.Cleanup(release) // before the fixture closes: it waits for its requests
	return f, frozen, release
}

// freezeFunction has busyPage loop forever, blockFunction wait for the
// test (browser_evaluate's functions).
const (
	freezeFunction = "() => { window.freeze(); return 'freezing'; }"
	blockFunction  = "() => { window.block(); return 'freezing'; }"
)

// call sends a tools/call with this id and returns its response.
func (p *rawPeer) call(id, tool string, args map[string]any) map[string]any {
	p.t.Helper()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	p.send(string(b))
	return p.await(id)
}

// answerText is the text of a tools/call response.
func answerText(m map[string]any) string {
	res, _ := m["result"].(map[string]any)
	var b strings.Builder
	content, _ := res["content"].([]any)
	for _, c := range content {
		if c, ok := c.(map[string]any); ok && c["type"] == "text" {
			fmt.Fprint(&b, c["text"])
		}
	}
	return b.String()
}

// busyPeer is a server (with the caps given) whose session shows busyPage,
// its items loaded.
func busyPeer(t *testing.T, caps string) (p *rawPeer, frozen chan struct{}, release func()) {
	t.Helper()
	f, frozen, release := busyFixture(t)
	env, _ := serverEnv(t)
	p = startPeer(t, append(env, "E2E_MCP_CAPS="+caps))
	p.call("nav", "browser_navigate", map[string]any{"url": f.URL + "/busy"})
	if out := answerText(p.call("loaded", "browser_wait_for", map[string]any{"text": "5 items loaded"})); !strings.Contains(out, "5 items loaded") {
		t.Fatalf("the page did not load its items: %s", out)
	}
	return p, frozen, release
}

// freeze has the peer's page run function (freezeFunction, blockFunction),
// and waits until it is stuck.
func (p *rawPeer) freeze(function string, frozen chan struct{}) {
	p.t.Helper()
	if out := answerText(p.call("freeze", "browser_evaluate", map[string]any{"function": function})); !strings.Contains(out, "freezing") {
		p.t.Fatalf("freeze: %s", out)
	}
	select {
	case <-frozen:
	case <-time.After(30 * time.Second):
		p.t.Fatal("the page never started its endless loop")
	}
}

// cancelWhen sends a call, waits until the server's log shows it got as
// far as a CDP command (the method's name), cancels it, and waits until
// the server has taken the cancellation in (a ping after it is answered:
// notifications are handled in order before the requests after them).
func (p *rawPeer) cancelWhen(id, tool string, args map[string]any, method string) {
	p.t.Helper()
	from := len(p.stderr.String())
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	p.send(string(b))
	waitFor(p.t, 30*time.Second, tool+" to send "+method, func() bool {
		return strings.Contains(p.stderr.String()[from:], `"method":"`+method+`"`)
	})
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%q,"reason":"the user pressed stop"}}`, id))
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"ping-%s","method":"ping"}`, id))
	p.await("ping-" + id)
}

// untoldOf is what an answer tells of the cancelled calls that ran to
// their end (structured), by tool.
func untoldOf(m map[string]any) map[string]map[string]any {
	res, _ := m["result"].(map[string]any)
	sc, _ := res["structuredContent"].(map[string]any)
	list, _ := sc["cancelledCalls"].([]any)
	out := map[string]map[string]any{}
	for _, it := range list {
		if it, ok := it.(map[string]any); ok {
			out[fmt.Sprint(it["tool"])] = it
		}
	}
	return out
}

// TestCancelledStopTracingKeepsItsTrace: a browser_stop_tracing that the
// client cancels while it asks a frozen tab for the responses' bodies
// gets no answer, but still stops the trace and writes it (with the
// requests, the bodies it could not get said as such), and the next call
// on the session says where. Before, the trace was written to a temp file
// no answer named, and the next stop said only that nothing was tracing.
func TestCancelledStopTracingKeepsItsTrace(t *testing.T) {
	p, frozen, _ := busyPeer(t, "devtools")
	p.call("trace", "browser_start_tracing", map[string]any{})
	p.call("act", "browser_reload", map[string]any{})
	if out := answerText(p.call("loaded2", "browser_wait_for", map[string]any{"text": "5 items loaded"})); !strings.Contains(out, "5 items loaded") {
		t.Fatalf("the page did not load its items again: %s", out)
	}
	p.freeze(freezeFunction, frozen)
	p.cancelWhen("stop", "browser_stop_tracing", map[string]any{}, "Network.getResponseBody")
	next := p.call("next", "browser_stop_tracing", map[string]any{})
	if n := p.responsesTo("stop"); n != 0 {
		t.Errorf("the cancelled stop got %d answers", n)
	}
	out := answerText(next)
	mustContain(t, "the next call", out, "### Cancelled calls that ran to their end", "browser_stop_tracing (done): Wrote the trace of session")
	u := untoldOf(next)["browser_stop_tracing"]
	data, _ := u["data"].(map[string]any)
	path, _ := data["path"].(string)
	if path == "" {
		t.Fatalf("the next answer's structured content names no trace: %v", next["result"])
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the trace the cancelled stop wrote: %v", err)
	}
	tz := readTrace(t, path)
	items := 0
	for _, ev := range tz.network {
		if strings.Contains(fmt.Sprint(ev), "/api/item?i=") {
			items++
		}
	}
	if items != 5 || !strings.Contains(tz.all(), "did not answer") {
		t.Errorf("the trace holds %d of the 5 API requests (want 5, their bodies said not fetched)", items)
	}
	mustContain(t, "the next stop's own answer", out, "Tracing is not started in session ", "; its last trace was written at")
	// Told once.
	if again := answerText(p.call("again", "browser_stop_tracing", map[string]any{})); strings.Contains(again, "Cancelled calls") {
		t.Errorf("the cancelled call was told twice:\n%s", again)
	}
}

// TestCancelledStartVideoIsToldOf: a browser_start_video that the client
// cancels while the tab is stuck (its screencast not started yet) still
// starts the recording, which is told on the next call, and that video
// is written with what it filmed. Before, the cancelled start stopped
// half way: the browser went on to start the screencast that no recording
// took, and the next call knew of no video.
func TestCancelledStartVideoIsToldOf(t *testing.T) {
	p, frozen, release := busyPeer(t, "video")
	p.freeze(blockFunction, frozen)
	p.cancelWhen("start", "browser_start_video", map[string]any{"size": map[string]any{"width": 320, "height": 180}}, "Page.startScreencast")
	release()
	next := p.call("next", "browser_stop_video", map[string]any{})
	if n := p.responsesTo("start"); n != 0 {
		t.Errorf("the cancelled start got %d answers", n)
	}
	out := answerText(next)
	mustContain(t, "the next call", out, "### Cancelled calls that ran to their end", "browser_start_video (done): Recording a video of session", "Wrote the video to ")
	res, _ := next["result"].(map[string]any)
	sc, _ := res["structuredContent"].(map[string]any)
	if frames, _ := sc["frames"].(float64); frames < 1 {
		t.Errorf("the video holds %v frames: %v", sc["frames"], sc)
	}
}
