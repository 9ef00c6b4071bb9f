package browser

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

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

func gridManager(t *testing.T, s *stubGrid) (*Manager, string) {
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
	m := NewManager(Options{Grids: []*webdriver.Grid{g}, LaunchTimeout: 2 * time.Second})
	t.Cleanup(func() { _ = m.Close() })
	return m, srv.URL
}

// A full grid is asked gridTries times, then the session gets a
// browser_launch_failed error carrying the grid's own message; health says
// the same.
func TestGridFor_Full(t *testing.T) {
	s := &stubGrid{status: 500, body: `{"value":{"error":"session not created","message":"No slots free\nstack"}}`}
	m, url := gridManager(t, s)
	_, err := m.NewTabs(context.Background())
	e, ok := AsError(err)
	if !ok || e.Kind != KindBrowserLaunchFail {
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
	if st := m.State(); st.Running || !strings.Contains(st.Problem, "No slots free") {
		t.Errorf("health %+v should say why", st)
	}
}

// A refusal of what we asked (4xx) is not asked again.
func TestGridFor_Refused(t *testing.T) {
	s := &stubGrid{status: 400, body: `{"value":{"error":"invalid argument","message":"unrecognized capability"}}`}
	m, _ := gridManager(t, s)
	_, err := m.NewTabs(context.Background())
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
	m, _ := gridManager(t, s)
	_, err = m.NewTabs(context.Background())
	if _, ok := AsError(err); !ok {
		t.Fatalf("want a typed error, got %v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.posts != gridTries || len(s.dels) != gridTries || s.dels[0] != "/session/x" {
		t.Errorf("%d sessions made, deleted: %v", s.posts, s.dels)
	}
	if len(m.grid) != 0 {
		t.Errorf("the manager keeps %d grid browsers", len(m.grid))
	}
}

// A manager closed while a session waits for the grid gives it no browser.
func TestGridFor_Closed(t *testing.T) {
	s := &stubGrid{status: 500, body: `{"value":{"error":"session not created","message":"full"}}`}
	m, _ := gridManager(t, s)
	_ = m.Close()
	if _, err := m.NewTabs(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("want ErrClosed, got %v", err)
	}
}
