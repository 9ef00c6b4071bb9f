package e2e

import (
	"bufio"
	"crypto/sha1" //nolint:gosec // the WebSocket handshake is defined with SHA-1
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// wsHello answers a WebSocket handshake and sends one text message,
// "hello", then closes: just enough of RFC 6455 for a page to see it open.
func wsHello(w http.ResponseWriter, r *http.Request) {
	if !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		http.Error(w, "want a WebSocket", http.StatusBadRequest)
		return
	}
	sum := sha1.Sum([]byte(r.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11")) //nolint:gosec // see above
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	fmt.Fprintf(buf, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n",
		base64.StdEncoding.EncodeToString(sum[:]))
	buf.Write([]byte{0x81, 5})
	buf.WriteString("hello")
	_ = buf.Flush()
	_, _ = bufio.NewReader(conn).ReadByte() // until the page closes it
}

// workerRoutes: /workers?u=URL&ws=WSURL starts, in one page, a shared
// worker, a service worker and a WebSocket that each reach for the URL,
// and a speculation rule that prefetches it; each writes what it got into
// the page. /ws answers a WebSocket.
func workerRoutes(mux *http.ServeMux, _ *fixture) {
	mux.HandleFunc("GET /ws", wsHello)
	mux.HandleFunc("GET /shared.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, `onconnect = (e) => { const port = e.ports[0]; port.onmessage = (m) =>
  fetch(m.data).then(r => r.text()).then(t => port.postMessage("ok " + t), err => port.postMessage("failed " + err.name)); };`)
	})
	mux.HandleFunc("GET /service.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, `self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));
self.addEventListener("message", (m) => fetch(m.data.url).then(r => r.text()).then(
  t => m.data.port.postMessage("ok " + t), err => m.data.port.postMessage("failed " + err.name)));`)
	})
	mux.HandleFunc("GET /workers", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Workers</title>
<p id="shared">shared: pending</p><p id="service">service: pending</p><p id="ws">ws: pending</p>
<script type="speculationrules">{"prefetch": [{"source": "list", "urls": [%q]}]}</script>
<script>
const target = %q, wsURL = %q;
const say = (id, s) => document.getElementById(id).textContent = id + ": " + s;
const sw = new SharedWorker("/shared.js");
sw.port.onmessage = (m) => say("shared", m.data);
sw.port.postMessage(target);
navigator.serviceWorker.register("/service.js").then(() => navigator.serviceWorker.ready).then((reg) => {
  const ch = new MessageChannel();
  ch.port1.onmessage = (m) => say("service", m.data);
  reg.active.postMessage({url: target, port: ch.port2}, [ch.port2]);
}, (e) => say("service", "register failed " + e));
const ws = new WebSocket(wsURL);
ws.onmessage = (m) => say("ws", "message " + m.data);
ws.onerror = () => say("ws", "failed");
</script>`, r.URL.Query().Get("u"), r.URL.Query().Get("u"), r.URL.Query().Get("ws"))
	})
}

// workersDone waits until the three reports are in and returns the page's
// text.
func workersDone(t *testing.T, call func(tool string, args map[string]any) string) string {
	t.Helper()
	for _, id := range []string{"shared", "service", "ws"} {
		call("browser_wait_for", map[string]any{"textGone": id + ": pending", "timeout": 20})
	}
	return call("browser_get_content", map[string]any{})
}

// TestPolicyHoldsForWorkersAndSockets: what the DevTools Fetch domain does
// not see (a shared worker's fetch, a service worker's, a WebSocket, a
// speculative prefetch) is held to the request policy too: the blocked
// server is never reached and each refusal is reported, while the page's
// own origin keeps working for all of them.
func TestPolicyHoldsForWorkersAndSockets(t *testing.T) {
	secret := newRecorder(t)
	f := newFixture(t, workerRoutes)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_BLOCKED_ORIGINS="+secret.URL))
	do := func(tool string, args map[string]any) string { return mustCall(t, c, tool, args) }
	wsSecret := "ws" + strings.TrimPrefix(secret.URL, "http") + "/ws"
	nav := do("browser_navigate", map[string]any{"url": f.URL + "/workers?u=" + secret.URL + "/secret&ws=" + wsSecret})
	page := workersDone(t, do)
	for _, want := range []string{"shared: failed", "service: failed", "ws: failed"} {
		mustContain(t, "the blocked server's answers", page, want)
	}
	if strings.Contains(page, "secret") {
		t.Errorf("a worker or socket read the blocked server:\n%s", page)
	}
	secret.mustBeUntouched(t)
	reported := nav + do("browser_snapshot", nil)
	mustContain(t, "the refusals reported", reported, "Blocked requests", secret.URL, "blocked-origins")

	// The page's own origin: all three work.
	wsSelf := "ws" + strings.TrimPrefix(f.URL, "http") + "/ws"
	do("browser_navigate", map[string]any{"url": f.URL + "/workers?u=" + f.URL + "/shared.js&ws=" + wsSelf})
	page = workersDone(t, do)
	for _, want := range []string{"shared: ok onconnect", "service: ok onconnect", "ws: message hello"} {
		mustContain(t, "the page's own origin", page, want)
	}
}

// TestPolicyPrivateNetworkForWorkers: over HTTP, private addresses are
// refused for workers too (the cloud metadata address here), and reported.
func TestPolicyPrivateNetworkForWorkers(t *testing.T) {
	f := newFixture(t, workerRoutes)
	env, _ := serverEnv(t)
	s := startHTTP(t, env)
	c := s.client(t)
	do := func(tool string, args map[string]any) string { return mustCall(t, c, tool, args) }
	meta := "http://169.254.169.254/latest/meta-data/"
	nav := do("browser_navigate", map[string]any{"url": f.URL + "/workers?u=" + meta + "&ws=ws://169.254.169.254/ws"})
	page := workersDone(t, do)
	for _, want := range []string{"shared: failed", "service: failed", "ws: failed"} {
		mustContain(t, "the metadata address's answers", page, want)
	}
	reported := nav + do("browser_snapshot", nil)
	mustContain(t, "the refusals reported", reported, "169.254.169.254", "private-network")
}
