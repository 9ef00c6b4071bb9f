package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHealthURL(t *testing.T) {
	for addr, want := range map[string]string{
		"":               "http://127.0.0.1:8931/health",
		":8931":          "http://127.0.0.1:8931/health",
		"0.0.0.0:9000":   "http://127.0.0.1:9000/health",
		"[::]:9000":      "http://127.0.0.1:9000/health",
		"10.1.2.3:8931":  "http://10.1.2.3:8931/health",
		"localhost:8931": "http://localhost:8931/health",
	} {
		got, err := healthURL(addr)
		if err != nil || got != want {
			t.Errorf("healthURL(%q) = %q, %v; want %q", addr, got, err, want)
		}
	}
	if _, err := healthURL("unix:/run/e2e.sock"); err == nil {
		t.Error("a Unix socket address has no TCP health URL")
	}
}

func TestHealthcheck(t *testing.T) {
	status := http.StatusOK
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"status":"unhealthy"}`))
	}))
	defer srv.Close()
	env := func(k string) string {
		if k == "E2E_MCP_HTTP" {
			return strings.TrimPrefix(srv.URL, "http://")
		}
		return ""
	}
	var out, errb bytes.Buffer
	if code := healthcheckMain(nil, env, &out, &errb); code != 0 {
		t.Fatalf("200 from the E2E_MCP_HTTP server: exit %d, stderr %q", code, errb.String())
	}
	if len(paths) != 1 || paths[0] != "/health" {
		t.Errorf("probed %v, want [/health]", paths)
	}
	status = http.StatusServiceUnavailable
	errb.Reset()
	if code := healthcheckMain([]string{srv.URL + "/health"}, env, &out, &errb); code != 1 {
		t.Errorf("503: exit %d, want 1", code)
	}
	if !strings.Contains(errb.String(), "503") || !strings.Contains(errb.String(), "unhealthy") {
		t.Errorf("a failed probe says why: %q", errb.String())
	}
	srv.Close()
	if code := healthcheckMain([]string{srv.URL + "/health"}, env, &out, &errb); code != 1 {
		t.Errorf("nobody listening: exit %d, want 1", code)
	}
	if code := healthcheckMain([]string{"a", "b"}, env, &out, &errb); code != 2 {
		t.Errorf("two URLs: exit %d, want 2 (usage)", code)
	}
}
