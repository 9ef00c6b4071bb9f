package e2e

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// filesAPI serves the files the downloads page downloads.
func filesAPI(mux *http.ServeMux, _ *fixture) {
	mux.HandleFunc("GET /files/report.csv", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		fmt.Fprint(w, "order,total\n1400,12.50\n1401,99.00\n")
	})
	mux.HandleFunc("GET /files/export.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Disposition", `attachment; filename="export.json"`)
		fmt.Fprint(w, `{"orders":2}`)
	})
}

// TestDownloads: a click that downloads a file answers with its name, size
// and where it was saved (under the file roots), the file holding what the
// server sent; a second download of the same name does not overwrite the
// first; browser_wait_for waits for a download that starts later; an
// iframe's download is reported, to its session only.
func TestDownloads(t *testing.T) {
	f := newFixture(t, filesAPI)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+dir))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/files/downloads.html"})

	saved := filepath.Join(dir, "e2e-mcp-downloads", "report.csv")
	out := mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Download report']"})
	mustContain(t, "the click's answer", out, "### Downloads", "- report.csv: 34 bytes, saved to "+saved)
	if b, err := os.ReadFile(saved); err != nil || string(b) != "order,total\n1400,12.50\n1401,99.00\n" {
		t.Fatalf("the saved file: %q, %v", b, err)
	}
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Download report']"})
	mustContain(t, "the second download", out, "saved to "+filepath.Join(dir, "e2e-mcp-downloads", "report (2).csv"))

	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Export later']"})
	if strings.Contains(out, "### Downloads") {
		t.Fatalf("the download started after the click's answer, yet it reports one:\n%s", out)
	}
	out = mustCall(t, c, "browser_wait_for", map[string]any{"download": true, "timeout": 10})
	mustContain(t, "the wait", out, "1 download(s) ended", "- export.json: 12 bytes, saved to "+filepath.Join(dir, "e2e-mcp-downloads", "export.json"))
	out = mustFail(t, c, "browser_wait_for", map[string]any{"download": true, "timeout": 1}, "timeout")
	mustContain(t, "a wait with no download", out, "no download ended")

	// A download an iframe begins is the session's too; another session's
	// downloads are not.
	other := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+t.TempDir()))
	mustCall(t, other, "browser_navigate", map[string]any{"url": f.URL + "/files/downloads.html"})
	snap := mustCall(t, c, "browser_snapshot", nil)
	out = mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "link", "Download invoice")})
	mustContain(t, "a download from an iframe", out, "- export.json: 12 bytes, saved to "+filepath.Join(dir, "e2e-mcp-downloads", "export (2).json"))
	out = mustFail(t, other, "browser_wait_for", map[string]any{"download": true, "timeout": 1}, "timeout")
	mustContain(t, "another session's wait", out, "no download ended")
}
