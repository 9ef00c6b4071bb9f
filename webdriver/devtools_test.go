package webdriver

import (
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDevToolsWebSocket: the endpoint's headers go with the /json/version
// request (a bare name as an empty value), its path and query are kept,
// ws stands for http; a refusal names the status, and neither the error
// nor anything else quotes the query's key.
func TestDevToolsWebSocket(t *testing.T) {
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		if r.Header.Get("Authorization") != "Bearer k1" {
			http.Error(w, "no key", http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(`{"webSocketDebuggerUrl":"ws://127.0.0.1:1/devtools/browser/x"}`))
	}))
	defer srv.Close()
	base := strings.Replace(srv.URL, "http://", "ws://", 1) + "/farm/?token=SECRET-KEY-9"
	h := http.Header{"Authorization": {"Bearer k1"}, "X-Empty": {""}}
	ws, err := DevToolsWebSocket(context.Background(), nil, base, h)
	if err != nil || ws != "ws://127.0.0.1:1/devtools/browser/x" {
		t.Fatalf("DevToolsWebSocket = %q, %v", ws, err)
	}
	if got.URL.Path != "/farm/json/version/" || got.URL.Query().Get("token") != "SECRET-KEY-9" {
		t.Errorf("asked %s", got.URL)
	}
	if v, ok := got.Header["X-Empty"]; !ok || len(v) != 1 || v[0] != "" {
		t.Errorf("X-Empty sent as %q (present %v)", v, ok)
	}
	_, err = DevToolsWebSocket(context.Background(), nil, base, nil)
	if err == nil || !strings.Contains(err.Error(), "401") || strings.Contains(err.Error(), "SECRET-KEY-9") {
		t.Errorf("without the header: %v; want the 401 said, the key not", err)
	}
	srv.Close()
	_, err = DevToolsWebSocket(context.Background(), nil, base, h)
	if err == nil || strings.Contains(err.Error(), "SECRET-KEY-9") || !strings.Contains(err.Error(), "/farm/") {
		t.Errorf("unreachable: %v; want the endpoint named, its key not", err)
	}
}

// TestOneVersionRequest: nothing but DevToolsWebSocket asks an endpoint
// for /json/version, and every remote allocator is told not to (chromedp's
// would ask without the endpoint's headers).
func TestOneVersionRequest(t *testing.T) {
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path) //nolint:gosec // the repository's own sources
		if err != nil {
			return err
		}
		src := string(b)
		rel, _ := filepath.Rel(root, path)
		if filepath.ToSlash(rel) != "webdriver/devtools.go" && hasVersionRequest(src) {
			t.Errorf("%s asks for /json/version itself: use webdriver.DevToolsWebSocket, which sends the endpoint's headers", rel)
		}
		for _, line := range strings.Split(src, "\n") {
			if strings.Contains(line, "remote.NewAllocator(") && !strings.Contains(line, "remote.NoModifyURL") {
				t.Errorf("%s makes a remote allocator without remote.NoModifyURL in its call: chromedp would ask /json/version without the endpoint's headers", rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// hasVersionRequest says whether src has /json/version outside comments.
func hasVersionRequest(src string) bool {
	for _, line := range strings.Split(src, "\n") {
		code, _, _ := strings.Cut(line, "//")
		if strings.Contains(code, "json/version") {
			return true
		}
	}
	return false
}
