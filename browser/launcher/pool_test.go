package launcher

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
	"github.com/e2e-mcp/e2e-mcp/webdriver"
)

// stubGrid answers POST /session with status and body, and counts the
// commands it gets.
type stubGrid struct {
	mu     sync.Mutex
	status int
	body   string
	posts  int
	dels   []string
}

func (s *stubGrid) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.Method {
	case http.MethodPost:
		s.posts++
		w.WriteHeader(s.status)
		_, _ = w.Write([]byte(s.body))
	case http.MethodDelete:
		s.dels = append(s.dels, r.URL.Path)
		_, _ = w.Write([]byte(`{"value":null}`))
	}
}

func gridPool(t *testing.T, s *stubGrid) (*Pool, string) {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	g, err := webdriver.New(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	old := gridBackoff
	gridBackoff = []time.Duration{10 * time.Millisecond}
	t.Cleanup(func() { gridBackoff = old })
	p := NewPool(Config{LaunchTimeout: 2 * time.Second}, nil, []*webdriver.Grid{g}, 2*time.Second, nil)
	t.Cleanup(p.Close)
	return p, srv.URL
}

// A full grid is asked gridTries times, then the session gets a
// browser_launch_failed error carrying the grid's own message; health says
// the same.
func TestGridFor_Full(t *testing.T) {
	s := &stubGrid{status: 500, body: `{"value":{"error":"session not created","message":"No slots free\nstack"}}`}
	p, url := gridPool(t, s)
	_, _, err := p.Acquire(context.Background())
	e, ok := refusal.As(err)
	if !ok || e.Kind != refusal.BrowserLaunchFail {
		t.Fatalf("want a browser_launch_failed error, got %T %v", err, err)
	}
	for _, want := range []string{"WebDriver grid " + url, "session not created: No slots free (3 tries)"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("message %q lacks %q", e.Message, want)
		}
	}
	if strings.Contains(e.Message, "stack") || strings.Count(e.Message, "No slots free") != 1 {
		t.Errorf("message %q carries the grid's stack trace or repeats itself", e.Message)
	}
	s.mu.Lock()
	posts := s.posts
	s.mu.Unlock()
	if posts != gridTries {
		t.Errorf("the grid was asked %d times, want %d", posts, gridTries)
	}
	if running, problem := p.State(); running || !strings.Contains(problem, "No slots free") {
		t.Errorf("health (running %v, %q) should say why", running, problem)
	}
}

// A refusal of what we asked (4xx) is not asked again.
func TestGridFor_Refused(t *testing.T) {
	s := &stubGrid{status: 400, body: `{"value":{"error":"invalid argument","message":"unrecognized capability"}}`}
	p, _ := gridPool(t, s)
	_, _, err := p.Acquire(context.Background())
	if err == nil || !strings.Contains(err.Error(), "unrecognized capability") {
		t.Fatalf("error %v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.posts != 1 {
		t.Errorf("a refusal was asked %d times", s.posts)
	}
}

// A session whose browser cannot be reached over CDP is deleted at once:
// the grid's slot is not kept by a browser nobody drives.
func TestGridFor_DeletesUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "ws://" + l.Addr().String() + "/session/x/se/cdp"
	_ = l.Close()
	s := &stubGrid{status: 200, body: `{"value":{"sessionId":"x","capabilities":{"browserName":"chrome","se:cdp":"` + dead + `"}}}`}
	p, _ := gridPool(t, s)
	_, _, err = p.Acquire(context.Background())
	if _, ok := refusal.As(err); !ok {
		t.Fatalf("want a typed error, got %v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.posts != gridTries || len(s.dels) != gridTries || s.dels[0] != "/session/x" {
		t.Errorf("%d sessions made, deleted: %v", s.posts, s.dels)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.grid) != 0 {
		t.Errorf("the pool keeps %d grid browsers", len(p.grid))
	}
}

// A pool closed while a session waits for the grid gives it no browser.
func TestGridFor_Closed(t *testing.T) {
	s := &stubGrid{status: 500, body: `{"value":{"error":"session not created","message":"full"}}`}
	p, _ := gridPool(t, s)
	p.Close()
	if _, _, err := p.Acquire(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("want ErrClosed, got %v", err)
	}
}

// heldGrid makes a session when asked and answers when released; DELETEs
// are sent on deleted.
type heldGrid struct {
	asked, release chan struct{}
	deleted        chan string
	once           sync.Once
}

// answer lets the grid answer.
func (h *heldGrid) answer() { h.once.Do(func() { close(h.release) }) }

func (h *heldGrid) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		h.asked <- struct{}{}
		<-h.release // made whether or not the client still waits, as a grid does
		_, _ = w.Write([]byte(`{"value":{"sessionId":"held","capabilities":{"se:cdp":"ws://127.0.0.1:1/se/cdp"}}}`))
	case http.MethodDelete:
		h.deleted <- r.URL.Path
		_, _ = w.Write([]byte(`{"value":null}`))
	}
}

func heldGridPool(t *testing.T) (*Pool, *heldGrid) {
	t.Helper()
	h := &heldGrid{asked: make(chan struct{}, 4), release: make(chan struct{}), deleted: make(chan string, 4)}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Cleanup(h.answer)
	g, err := webdriver.New(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPool(Config{LaunchTimeout: 10 * time.Second}, nil, []*webdriver.Grid{g}, 10*time.Second, nil)
	t.Cleanup(p.Close)
	return p, h
}

// A caller that gives up while the grid makes its session (its call
// cancelled) leaves the session to be deleted once the grid answers, not
// kept by the grid with nobody to delete it.
func TestGridFor_CallerGivesUp(t *testing.T) {
	p, h := heldGridPool(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, _, err := p.Acquire(ctx)
		done <- err
	}()
	<-h.asked
	cancel()
	if err := <-done; err == nil {
		t.Fatal("Acquire gave a browser to a cancelled call")
	}
	h.answer()
	select {
	case p := <-h.deleted:
		if p != "/session/held" {
			t.Errorf("deleted %s", p)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the session made for the cancelled call was never deleted")
	}
}

// Close waits for a session the grid is making and deletes it before it
// returns: the server exits right after.
func TestGridFor_CloseWaitsForSessionsBeingMade(t *testing.T) {
	p, h := heldGridPool(t)
	go func() { _, _, _ = p.Acquire(context.Background()) }()
	<-h.asked
	closed := make(chan struct{})
	go func() {
		p.Close()
		close(closed)
	}()
	for {
		p.mu.Lock()
		c := p.closed
		p.mu.Unlock()
		if c {
			break
		}
		runtime.Gosched()
	}
	h.answer()
	<-closed
	select {
	case p := <-h.deleted:
		if p != "/session/held" {
			t.Errorf("deleted %s", p)
		}
	default:
		t.Fatal("Close returned before the session being made was deleted")
	}
}
