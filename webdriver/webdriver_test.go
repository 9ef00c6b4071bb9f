package webdriver

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// fakeGrid answers the WebDriver commands a grid would, and records them.
type fakeGrid struct {
	mu      sync.Mutex
	reqs    []string // "METHOD path auth"
	created map[string]bool
	full    bool
	caps    map[string]any // the capabilities a new session answers with
	bodies  []map[string]any
}

func (f *fakeGrid) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/wd/hub/session":
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		f.bodies = append(f.bodies, body)
		if f.full {
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`{"value":{"error":"session not created","message":"Could not start a new session. No slots free\nBuild info: ...","stacktrace":""}}`))
			return
		}
		id := "s" + string(rune('0'+len(f.created)))
		f.created[id] = true
		_ = json.NewEncoder(w).Encode(map[string]any{"value": map[string]any{"sessionId": id, "capabilities": f.caps}})
	case r.Method == http.MethodDelete && strings.HasPrefix(r.URL.Path, "/wd/hub/session/"):
		id := strings.TrimPrefix(r.URL.Path, "/wd/hub/session/")
		if !f.created[id] {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"value":{"error":"invalid session id","message":"no such session"}}`))
			return
		}
		delete(f.created, id)
		_, _ = w.Write([]byte(`{"value":null}`))
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/timeouts"):
		_, _ = w.Write([]byte(`{"value":{"implicit":0,"pageLoad":300000,"script":30000}}`))
	default:
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"value":{"error":"unknown command","message":"` + r.URL.Path + `"}}`))
	}
}

func newFake(t *testing.T, caps map[string]any) (*fakeGrid, *httptest.Server) {
	f := &fakeGrid{created: map[string]bool{}, caps: caps}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func chromeCaps() map[string]any {
	return map[string]any{"alwaysMatch": map[string]any{"browserName": "chrome"}}
}

// Selenium Grid 4 names the DevTools websocket in se:cdp; userinfo in the
// URL becomes Basic authorization on every request and leaves the URL.
func TestNewSession_SeCDP(t *testing.T) {
	f, srv := newFake(t, map[string]any{"browserName": "chrome", "se:cdp": "ws://grid:4444/session/s0/se/cdp"})
	g, err := New(strings.Replace(srv.URL, "http://", "http://alice:s3cret@", 1)+"/wd/hub/", nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(g.String(), "s3cret") || !strings.HasSuffix(g.String(), "/wd/hub") {
		t.Errorf("grid URL %q: want no credentials and no trailing slash", g.String())
	}
	s, err := g.NewSession(context.Background(), chromeCaps())
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "s0" || s.CDP != "ws://grid:4444/session/s0/se/cdp" {
		t.Errorf("session %q with CDP %q", s.ID, s.CDP)
	}
	if err := s.Ping(context.Background()); err != nil {
		t.Errorf("ping: %v", err)
	}
	if err := s.Delete(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	want := "Basic YWxpY2U6czNjcmV0" // alice:s3cret
	if len(f.reqs) != 3 || f.reqs[0] != "POST /wd/hub/session "+want || f.reqs[1] != "GET /wd/hub/session/s0/timeouts "+want || f.reqs[2] != "DELETE /wd/hub/session/s0 "+want {
		t.Errorf("requests: %q", f.reqs)
	}
	if len(f.created) != 0 {
		t.Errorf("sessions left on the grid: %v", f.created)
	}
	if am := f.bodies[0]["capabilities"].(map[string]any)["alwaysMatch"].(map[string]any); am["browserName"] != "chrome" {
		t.Errorf("capabilities sent: %v", f.bodies[0])
	}
}

// Plain chromedriver names the browser's debugging address instead, whose
// /json/version gives the websocket; a header given goes with the requests.
func TestNewSession_DebuggerAddress(t *testing.T) {
	devtools := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/json/version/" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"Browser":"Chrome/156","webSocketDebuggerUrl":"ws://localhost:1234/devtools/browser/abc"}`))
	}))
	defer devtools.Close()
	addr := strings.TrimPrefix(devtools.URL, "http://")
	f, srv := newFake(t, map[string]any{"browserName": "chrome", "goog:chromeOptions": map[string]any{"debuggerAddress": addr}})
	g, err := New(srv.URL+"/wd/hub", http.Header{"Authorization": {"Bearer tok"}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.NewSession(context.Background(), chromeCaps())
	if err != nil {
		t.Fatal(err)
	}
	if s.CDP != "ws://localhost:1234/devtools/browser/abc" {
		t.Errorf("CDP %q", s.CDP)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.reqs[0] != "POST /wd/hub/session Bearer tok" {
		t.Errorf("requests: %q", f.reqs)
	}
}

// A session with no DevTools endpoint is of no use: it is deleted, and the
// error says what the grid must offer.
func TestNewSession_NoCDP(t *testing.T) {
	f, srv := newFake(t, map[string]any{"browserName": "firefox"})
	g, _ := New(srv.URL+"/wd/hub", nil)
	_, err := g.NewSession(context.Background(), chromeCaps())
	if err == nil || !strings.Contains(err.Error(), "no DevTools endpoint") {
		t.Fatalf("want a missing-endpoint error, got %v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.created) != 0 {
		t.Errorf("the useless session was not deleted: %v", f.created)
	}
}

// A full grid answers WebDriver error JSON: its code and the first line of
// its message reach the error, which is temporary (trying again may help).
func TestNewSession_Full(t *testing.T) {
	f, srv := newFake(t, nil)
	f.full = true
	g, _ := New(srv.URL+"/wd/hub", nil)
	_, err := g.NewSession(context.Background(), chromeCaps())
	var we *Error
	if !errors.As(err, &we) {
		t.Fatalf("want *Error, got %T %v", err, err)
	}
	if we.Status != 500 || we.Code != "session not created" || we.Message != "Could not start a new session. No slots free" || !we.Temporary() {
		t.Errorf("error %+v", we)
	}
	if !strings.Contains(err.Error(), g.String()) || !strings.Contains(err.Error(), "No slots free") {
		t.Errorf("message %q should name the grid and its message", err)
	}
}

// A grid that is down is an error naming it, with the refused connection.
func TestNewSession_Down(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	g, _ := New("http://"+addr, nil)
	_, err = g.NewSession(context.Background(), chromeCaps())
	var we *Error
	if !errors.As(err, &we) || we.Status != 0 || !we.Temporary() {
		t.Fatalf("want an unreachable *Error, got %T %v", err, err)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) || !strings.Contains(err.Error(), addr) {
		t.Errorf("error %q should name %s and the refused connection", err, addr)
	}
}

// A refusal of what we asked (4xx) is not worth trying again; a body that
// is not WebDriver JSON still reaches the message.
func TestError_NotWebDriverJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "forbidden by the proxy", http.StatusForbidden)
	}))
	defer srv.Close()
	g, _ := New(srv.URL, nil)
	_, err := g.NewSession(context.Background(), chromeCaps())
	var we *Error
	if !errors.As(err, &we) || we.Status != 403 || we.Temporary() || we.Message != "forbidden by the proxy" {
		t.Fatalf("error %T %+v", err, err)
	}
}

func TestNew_BadURL(t *testing.T) {
	for _, u := range []string{"ws://h:1", "host:4444", "http://"} {
		if _, err := New(u, nil); err == nil {
			t.Errorf("%q accepted", u)
		}
	}
	_, err := New("ftp://bob:pw@h", nil)
	if err == nil || strings.Contains(err.Error(), "pw") {
		t.Errorf("error %v must not show the password", err)
	}
}
