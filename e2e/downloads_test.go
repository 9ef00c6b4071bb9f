package e2e

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
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
	mux.HandleFunc("GET /files/mine.csv", func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie("account"); err != nil || c.Value != "ada" {
			http.Error(w, "sign in first", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "text/csv")
		fmt.Fprint(w, "order,total\n1500,7.00\n")
	})
	mux.HandleFunc("POST /files/export.csv", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		w.Header().Set("Content-Disposition", `attachment; filename="export.csv"`)
		fmt.Fprint(w, "order\n1400\n1401\n")
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

	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Export as CSV']"})
	mustContain(t, "a download a form posted", out, "- export.csv: 16 bytes, saved to "+filepath.Join(dir, "e2e-mcp-downloads", "export.csv"))
	for _, b := range []struct{ button, saved string }{
		{"Export notes", "- notes.txt: 30 bytes"}, {"Export once", "- once.txt: 10 bytes"}, // blob: URLs
	} {
		out = mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='" + b.button + "']"})
		mustContain(t, b.button, out, b.saved)
	}

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

	// A tab opened only to download closes itself; the download is the
	// session's still.
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Open the export in a new tab']"})
	if !strings.Contains(out, "### Downloads") { // it began after the click's answer
		out = mustCall(t, c, "browser_wait_for", map[string]any{"download": true, "timeout": 10})
	}
	mustContain(t, "a download in a new tab", out, "- export.json: 12 bytes, saved to "+filepath.Join(dir, "e2e-mcp-downloads", "export (3).json"))
}

// TestRemoteDownloads: a remote browser (--cdp-endpoint) denies the
// session's downloads, and the session fetches each one itself in the
// frame that began it: the file is saved under the file roots as a local
// download would be, with the frame's cookies, for a link, a download that
// starts later, an iframe's, a new tab's (closed by then), a data: URL's
// and a blob: URL's the page keeps; a download a form posted, or of a blob: URL the page revoked at
// once, is reported with why it cannot be fetched again; the remote browser saves nothing and the
// server leaves no directory behind.
func TestRemoteDownloads(t *testing.T) {
	f := newFixture(t, filesAPI)
	farm := startFarmBrowser(t)
	dir := t.TempDir()
	env, tmp := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_CDP_ENDPOINT="+farm.ws))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/files/downloads.html"})
	saved := func(name string) string { return filepath.Join(dir, "e2e-mcp-downloads", name) }

	for _, d := range []struct{ link, name, body string }{
		{"Download report", "report.csv", "order,total\n1400,12.50\n1401,99.00\n"},
		{"Download my orders", "mine.csv", "order,total\n1500,7.00\n"}, // with the page's cookie
		{"Download totals", "totals.csv", "region,total\nEMEA,3\n"},    // a data: URL
	} {
		out := mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='" + d.link + "']"})
		mustContain(t, d.link, out, fmt.Sprintf("- %s: %d bytes, saved to %s", d.name, len(d.body), saved(d.name)))
		if b, err := os.ReadFile(saved(d.name)); err != nil || string(b) != d.body {
			t.Fatalf("%s: the saved file is %q, %v", d.link, b, err)
		}
	}
	out := mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Export notes']"})
	mustContain(t, "a blob: URL the page keeps", out, "- notes.txt: 30 bytes, saved to "+saved("notes.txt"))
	if b, err := os.ReadFile(saved("notes.txt")); err != nil || string(b) != "Call the bank\nShip order 1400\n" {
		t.Fatalf("the blob's file: %q, %v", b, err)
	}
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Export once']"})
	mustContain(t, "a blob: URL the page revoked", out, "once.txt", "not kept: the page no longer holds it")

	mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Export later']"})
	out = mustCall(t, c, "browser_wait_for", map[string]any{"download": true, "timeout": 10})
	mustContain(t, "a later download", out, "- export.json: 12 bytes, saved to "+saved("export.json"))
	snap := mustCall(t, c, "browser_snapshot", nil)
	out = mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "link", "Download invoice")})
	mustContain(t, "an iframe's download", out, "- export.json: 12 bytes, saved to "+saved("export (2).json"))
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Open the export in a new tab']"})
	if !strings.Contains(out, "### Downloads") {
		out = mustCall(t, c, "browser_wait_for", map[string]any{"download": true, "timeout": 10})
	}
	mustContain(t, "a download in a new tab", out, "- export.json: 12 bytes, saved to "+saved("export (3).json"))

	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name='Export as CSV']"})
	if !strings.Contains(out, "### Downloads") { // it began after the click's answer
		out = mustCall(t, c, "browser_wait_for", map[string]any{"download": true, "timeout": 10})
	}
	mustContain(t, "a download a form posted", out, "export.csv", "not kept: a POST download of a remote browser cannot be fetched again")
	if _, err := os.Stat(saved("export.csv")); err == nil {
		t.Errorf("a POST download was saved from a GET")
	}

	_ = filepath.WalkDir(farm.home, func(path string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.Contains("report.csv mine.csv totals.csv notes.txt once.txt export.json export.csv", strings.TrimSuffix(e.Name(), ".crdownload")) {
			t.Errorf("the remote browser saved %s", path)
		}
		return nil
	})
	_ = c.Close()
	if left, _ := filepath.Glob(filepath.Join(tmp, "e2e-mcp-chrome-*")); len(left) > 0 {
		t.Errorf("the server left directories: %v", left)
	}
}

// TestRemoteDownloads_Policy: the session's own fetch of a remote
// browser's download is held to the request policy as the page's requests
// are, redirects included: a server that answers it with a redirect to a
// blocked origin gets the download reported as blocked, nothing saved, and
// the blocked origin is never asked.
func TestRemoteDownloads_Policy(t *testing.T) {
	var secretAsked atomic.Int32
	internal := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /secret.csv", func(w http.ResponseWriter, _ *http.Request) {
			secretAsked.Add(1)
			fmt.Fprint(w, "account,secret\nops,hunter2\n")
		})
	})
	var asked atomic.Int32
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /exports.html", func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Exports</title><a href="/files/moving.csv">Download the export</a>`)
		})
		mux.HandleFunc("GET /files/moving.csv", func(w http.ResponseWriter, r *http.Request) {
			if asked.Add(1) > 1 { // asked again: it sends the fetch elsewhere
				http.Redirect(w, r, internal.URL+"/secret.csv", http.StatusFound)
				return
			}
			w.Header().Set("Content-Disposition", `attachment; filename="moving.csv"`)
			fmt.Fprint(w, "order\n1400\n")
		})
	})
	farm := startFarmBrowser(t)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_CDP_ENDPOINT="+farm.ws, "E2E_MCP_BLOCKED_ORIGINS="+internal.URL))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/exports.html"})
	out := mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Download the export']"})
	if !strings.Contains(out, "### Downloads") {
		out = mustCall(t, c, "browser_wait_for", map[string]any{"download": true, "timeout": 10})
	}
	mustContain(t, "the download", out, "moving.csv", "not kept: ", "request policy", internal.URL+"/secret.csv")
	if strings.Contains(out, "New tabs opened") {
		t.Errorf("the tab the session fetched it in shows as a popup:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "e2e-mcp-downloads", "moving.csv")); err == nil {
		t.Errorf("the download was saved")
	}
	if n := secretAsked.Load(); n != 0 {
		t.Errorf("the blocked origin was asked %d times", n)
	}
}

// bigDownload serves /big.html, whose link downloads 1.5 MB (more than a
// remote browser's stream gives in one read) and then holds the response
// open until the client gives up: a download that is not cancelled never
// ends. aborted is closed when the client gave up.
func bigDownload(aborted chan struct{}) func(mux *http.ServeMux, _ *fixture) {
	var once sync.Once
	return func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /big.html", func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Backup</title><a href="/files/backup.bin">Download the backup</a><a href="/files/report.csv">Download report</a>`)
		})
		mux.HandleFunc("GET /files/backup.bin", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Disposition", `attachment; filename="backup.bin"`)
			chunk := bytes.Repeat([]byte("x"), 32<<10)
			for range 48 {
				_, _ = w.Write(chunk)
				w.(http.Flusher).Flush()
			}
			select {
			case <-r.Context().Done():
				once.Do(func() { close(aborted) })
			case <-time.After(time.Minute):
			}
		})
	}
}

// TestDownloadSizeLimit: a download larger than --max-download-size is
// cancelled as it passes the limit, not saved, and reported as refused with
// why; one under it is saved. The same holds for a remote browser's, which
// the session fetches itself.
func TestDownloadSizeLimit(t *testing.T) {
	for _, remote := range []bool{false, true} {
		t.Run(map[bool]string{false: "our browser", true: "remote browser"}[remote], func(t *testing.T) {
			aborted := make(chan struct{})
			f := newFixture(t, filesAPI, bigDownload(aborted))
			dir := t.TempDir()
			env, _ := serverEnv(t)
			env = append(env, "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_MAX_DOWNLOAD_SIZE=100000")
			if remote {
				env = append(env, "E2E_MCP_CDP_ENDPOINT="+startFarmBrowser(t).ws)
			}
			c := startClient(t, env)
			mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/big.html"})
			out := mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Download the backup']"})
			if !strings.Contains(out, "### Downloads") {
				out = mustCall(t, c, "browser_wait_for", map[string]any{"download": true, "timeout": 20})
			}
			mustContain(t, "the big download", out, "backup.bin", "not kept: ", "larger than 100000 bytes", "--max-download-size")
			if _, err := os.Stat(filepath.Join(dir, "e2e-mcp-downloads", "backup.bin")); err == nil {
				t.Errorf("the download over the limit was saved")
			}
			select {
			case <-aborted:
			case <-time.After(20 * time.Second):
				t.Fatal("the download over the limit was never cancelled")
			}
			out = mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Download report']"})
			mustContain(t, "a download under the limit", out, "- report.csv: 34 bytes, saved to ")
		})
	}
}

// TestDownloadsFollowNoLinkOut: e2e-mcp-downloads (or a directory on the
// way to it) made a link to a directory outside the file roots does not
// carry a page's download there, under the page's file name: the download
// is reported as not kept, and nothing lands outside.
func TestDownloadsFollowNoLinkOut(t *testing.T) {
	f := newFixture(t, filesAPI)
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "e2e-mcp-downloads")); err != nil {
		t.Fatal(err)
	}
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+dir))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/files/downloads.html"})
	out := mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Download report']"})
	mustContain(t, "the click's answer", out, "### Downloads", "report.csv", "not kept")
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("the download went through the link, outside the file roots: %v", entries[0].Name())
	}
}

// TestDownloadLinkWaitsForTheDownload: a click on a download link whose
// server takes a while to answer waits for the download to begin (the
// browser says so on its own channel, after the page's events), so the
// click's answer lists it; a click on a download link the page prevents
// waits for nothing. Before, the answer went out without the download,
// which the next call's answer then showed.
func TestDownloadLinkWaitsForTheDownload(t *testing.T) {
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /slow/page.html", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!doctype html><title>Slow</title><a href="/slow/data.csv" download>Get data</a>`+
				`<a id="no" href="/slow/data.csv" download>Not this</a>`+
				`<script>document.getElementById('no').addEventListener('click', (e) => e.preventDefault())</script>`)
		})
		mux.HandleFunc("GET /slow/data.csv", func(w http.ResponseWriter, _ *http.Request) {
			time.Sleep(700 * time.Millisecond) // longer than the settle time
			w.Header().Set("Content-Type", "text/csv")
			fmt.Fprint(w, "a,b\n1,2\n")
		})
	})
	dir := t.TempDir()
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+dir))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/slow/page.html"})
	out := mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Get data']"})
	mustContain(t, "the click's answer", out, "### Downloads", "- data.csv: 8 bytes, saved to "+filepath.Join(dir, "e2e-mcp-downloads", "data.csv"))
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Not this']"})
	if strings.Contains(out, "### Downloads") {
		t.Errorf("a prevented download link's answer lists a download:\n%s", out)
	}
}
