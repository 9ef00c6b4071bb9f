//go:build !unit

package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/launcher"
	"go.uber.org/zap"
)

// One browser for the package's tests; each test takes its own page (a new
// BrowserContext), as sessions do.
var (
	testManager *Manager
	testServer  *httptest.Server
	pages       = map[string]string{}
)

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	// A missing browser fails the run: browser tests never skip.
	if _, err := launcher.FindExecutable(os.Getenv("E2E_MCP_BROWSER_PATH")); err != nil {
		fmt.Fprintf(os.Stderr, "browser tests need Chrome or Chromium: %v\n", err)
		return 1
	}
	testServer = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/204" {
			w.WriteHeader(http.StatusNoContent) // a navigation that goes nowhere
			return
		}
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
	defer testServer.Close()
	testManager = NewManager(Options{ExecPath: os.Getenv("E2E_MCP_BROWSER_PATH"), ActionTimeout: 3 * time.Second, Logger: zap.NewNop()})
	defer testManager.Close()
	return m.Run()
}

// page registers html at path (before the tests run in parallel), opens a
// new page on it and closes the page when the test ends.
func openPage(t *testing.T, path string) *Page {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := testManager.NewPage(ctx)
	if err != nil {
		t.Fatalf("NewPage: %v", err)
	}
	t.Cleanup(p.Close)
	if _, err := p.Navigate(ctx, testServer.URL+path); err != nil {
		t.Fatalf("Navigate(%s): %v", path, err)
	}
	return p
}

func snapshot(t *testing.T, p *Page, opts SnapshotOptions) *Snapshot {
	t.Helper()
	s, err := p.Snapshot(context.Background(), opts)
	if err != nil {
		t.Fatalf("Snapshot(%+v): %v", opts, err)
	}
	return s
}

func wantLines(t *testing.T, yaml string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains(yaml, l) {
			t.Errorf("snapshot lacks %q:\n%s", l, yaml)
		}
	}
}

func wantKind(t *testing.T, err error, kind Kind, sub string) {
	t.Helper()
	e, ok := AsError(err)
	if !ok || e.Kind != kind || !strings.Contains(e.Error()+" "+e.Hint, sub) {
		t.Fatalf("error = %v, want %s containing %q", err, kind, sub)
	}
}

func refFor(t *testing.T, s *Snapshot, role, name string) string {
	t.Helper()
	for ref, info := range s.Refs {
		if info.Role == role && info.Name == name {
			return ref
		}
	}
	t.Fatalf("no ref for %s %q in:\n%s", role, name, s.YAML)
	return ""
}
