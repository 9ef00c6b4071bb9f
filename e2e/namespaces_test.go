package e2e

import (
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/internal/gocalls"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// accountRoutes: /account?who=X is X's account page, in a colour of X's own
// (so that two users' pages differ), which fetches X's data and links
// X's export, a download.
func accountRoutes(mux *http.ServeMux, _ *fixture) {
	mux.HandleFunc("GET /account", func(w http.ResponseWriter, r *http.Request) {
		who := r.URL.Query().Get("who")
		colour := map[string]string{"alice": "#b03a2e", "bob": "#1f618d"}[who]
		if colour == "" {
			colour = "#777"
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>Account</title>
<style>body { margin: 0; font: 16px sans-serif; background: %s; color: #fff } main { padding: 20px }</style>
<main><h1>%s's account</h1><p id="d">Loading</p><a href="/account/export.csv?who=%s">Export</a></main>
<script>fetch('/account/data.json?who=%s').then(r => r.json()).then(j => { document.getElementById('d').textContent = 'Data of ' + j.who })</script>`,
			colour, who, who, who)
	})
	mux.HandleFunc("GET /account/data.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"who":%q}`, r.URL.Query().Get("who"))
	})
	mux.HandleFunc("GET /account/export.csv", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		w.Header().Set("Content-Disposition", `attachment; filename="account.csv"`)
		fmt.Fprintf(w, "who\n%s\n", r.URL.Query().Get("who"))
	})
}

// oauthServer starts serve --http as an OAuth resource server writing into
// out, and returns a client for each subject.
func oauthServer(t *testing.T, out string, extra []string, subs ...string) (*httpServer, map[string]*client.Client) {
	t.Helper()
	j := newJWKS(t)
	env, _ := serverEnv(t)
	iss, resource := "https://issuer.test", "http://mcp.test/mcp"
	env = append(env, "E2E_MCP_OAUTH_ISSUER="+iss, "E2E_MCP_OAUTH_JWKS_URL="+j.URL, "E2E_MCP_OAUTH_RESOURCE="+resource, "E2E_MCP_OUTPUT_DIR="+out)
	s := startHTTP(t, append(env, extra...))
	clients := map[string]*client.Client{}
	for _, sub := range subs {
		c, err := s.clientWith(t, map[string]string{"Authorization": "Bearer " + j.tokenFor(t, iss, resource, sub)})
		if err != nil {
			t.Fatalf("client of %s: %v", sub, err)
		}
		clients[sub] = c
	}
	return s, clients
}

// namespaceOf is the directory of out that a path an answer names is in.
func namespaceOf(t *testing.T, out, answer string) string {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(out+string(filepath.Separator)) + `([^/\s]+)/`).FindStringSubmatch(answer)
	if m == nil {
		t.Fatalf("the answer names no file in a directory of %s:\n%s", out, answer)
	}
	return m[1]
}

// TestHTTPVisualBaselinesAreThePrincipals: two users check their own
// /account page over HTTP. Each first check writes that user's baseline;
// the second user's check never compares with the first's, nor carries
// the first's file or image.
func TestHTTPVisualBaselinesAreThePrincipals(t *testing.T) {
	f := newFixture(t, accountRoutes)
	out := t.TempDir()
	_, c := oauthServer(t, out, nil, "alice", "bob")
	check := map[string]any{"check": "screenshot"}
	first := map[string]string{}
	for _, who := range []string{"alice", "bob"} {
		mustCall(t, c[who], "browser_navigate", map[string]any{"url": f.URL + "/account?who=" + who})
		mustCall(t, c[who], "browser_wait_for", map[string]any{"text": "Data of " + who})
		res := call(t, c[who], "browser_expect", check)
		first[who] = text(res)
		if res.IsError {
			t.Fatalf("%s's first check of her own page fails:\n%s", who, first[who])
		}
		mustContain(t, who+"'s first check", first[who], "PASS: baseline written")
	}
	nsA, nsB := namespaceOf(t, out, first["alice"]), namespaceOf(t, out, first["bob"])
	if nsA == nsB {
		t.Fatalf("alice and bob keep baselines in one directory, %s", nsA)
	}
	if strings.Contains(first["bob"], nsA) {
		t.Errorf("bob's answer names alice's directory:\n%s", first["bob"])
	}
	mustContain(t, "alice's baseline", first["alice"], filepath.Join(out, nsA, "e2e-mcp-snapshots", "account.png"))
	mustContain(t, "bob's baseline", first["bob"], filepath.Join(out, nsB, "e2e-mcp-snapshots", "account.png"))
	// Each later check compares with the user's own baseline, and passes.
	for _, who := range []string{"alice", "bob"} {
		mustContain(t, who+"'s second check", mustCall(t, c[who], "browser_expect", check), "PASS", "matches baseline account")
	}
	// Bob's page changes: his failure carries his baseline, not alice's.
	mustCall(t, c["bob"], "browser_navigate", map[string]any{"url": f.URL + "/account?who=carol"})
	mustCall(t, c["bob"], "browser_wait_for", map[string]any{"text": "Data of carol"})
	res := call(t, c["bob"], "browser_expect", check)
	wantError(t, res, "expect_failed", "Baseline "+filepath.Join(out, nsB, "e2e-mcp-snapshots", "account.png"))
	if strings.Contains(text(res), nsA) {
		t.Errorf("bob's failure names alice's directory:\n%s", text(res))
	}
}

// writer is a tool call that writes a file for its caller over HTTP: the
// mcptools functions that write for it, the call, and the file it should
// write, relative to the caller's directory, with its mode.
type writer struct {
	funcs []string
	tool  string
	args  map[string]any
	file  string
	mode  os.FileMode
}

// TestHTTPFilesAreTheCallersOwn: over HTTP every tool that writes a file
// writes it in the caller's own directory of the output directory, with
// its documented mode: two users naming the same file each get their own,
// neither's answer names the other's directory, and a storage state one
// saved is refused to the other even when the operator made the output
// directory a file root. The table covers every function of mcptools that
// asks the writer (files.go) for a file: a new one fails this test until
// it is added.
func TestHTTPFilesAreTheCallersOwn(t *testing.T) {
	f := newFixture(t, accountRoutes)
	out := t.TempDir()
	s, c := oauthServer(t, out, []string{"E2E_MCP_CAPS=pdf,report,storage,devtools,video", "E2E_MCP_SAVE_TRACE=true", "E2E_MCP_SAVE_VIDEO=true", "E2E_MCP_FILE_ROOTS=" + out}, "alice", "bob")
	table := []writer{
		{[]string{"pdfTool"}, "browser_pdf_save", map[string]any{"path": "page.pdf"}, "page.pdf", 0o644},
		{[]string{"snapshotToFile"}, "browser_snapshot", map[string]any{"filename": "page.yaml"}, "page.yaml", 0o644},
		{[]string{"screenshotTool"}, "browser_take_screenshot", map[string]any{"filename": "shot.png"}, "shot.png", 0o644},
		{[]string{"sessionReportTool"}, "session_report", map[string]any{"path": "report.html"}, "report.html", 0o644},
		{[]string{"exportFlowTool"}, "session_export_flow", map[string]any{"path": "flow.yaml"}, "flow.yaml", 0o644},
		{[]string{"exportPlaywright"}, "session_export_flow", map[string]any{"path": "flow.spec.ts", "format": "playwright"}, "playwright.config.ts", 0o644},
		{[]string{"networkRequestTool"}, "browser_network_request", map[string]any{"filename": "data.json"}, "data.json", 0o644},
		{[]string{"storageStateTool"}, "browser_storage_state", map[string]any{"filename": "state.json"}, "state.json", 0o600},
		{[]string{"baselineFile"}, "browser_expect", map[string]any{"check": "screenshot", "expected": "account"}, "e2e-mcp-snapshots/account.png", 0o644},
		{[]string{"moveDownload"}, "browser_click", map[string]any{"target": "role=link[name='Export']"}, "downloads/account.csv", 0o644},
		// --save-trace: the session traces from its first call; stopping
		// it writes the file named.
		{[]string{"stopTracingTool"}, "browser_stop_tracing", map[string]any{"path": "trace.zip"}, "trace.zip", 0o644},
		// What Playwright MCP saves unasked in the output directory the
		// operator named: a screenshot without filename, a trace
		// without path.
		{[]string{"screenshotTool"}, "browser_take_screenshot", map[string]any{}, "page-*.png", 0o644},
		{nil, "browser_start_tracing", map[string]any{}, "", 0},
		{[]string{"stopTracingTool"}, "browser_stop_tracing", map[string]any{}, "traces/trace-*.zip", 0o644},
		// The console of the page's document, written as it logs.
		{[]string{"newConsoleLog"}, "browser_evaluate", map[string]any{"function": "() => console.log('logged')"}, "console-*.log", 0o644},
		// --save-video: the session records from its first page (autoVideo
		// picks the file); stopping it writes that file. Then a video the
		// caller names: the start picks the file (none yet), the stop
		// writes it.
		{[]string{"autoVideo", "stopVideoTool"}, "browser_stop_video", map[string]any{}, "e2e-mcp-videos/*.png", 0o644},
		{[]string{"startVideoTool"}, "browser_start_video", map[string]any{"filename": "video.png"}, "", 0},
		{nil, "browser_stop_video", map[string]any{}, "video.png", 0o644},
	}
	// autoTrace picks where a session's end saves its trace (--save-trace),
	// which the end of a session of each user's shows below. FinishVideo
	// is run --video's: it writes into the directory run's command line
	// names, for no client over HTTP (TestVideo_RunFailingFlow).
	// Save is --user-data-dir's: it keeps the profile's cookies in the
	// directory the operator named, for the browser, not in a client's.
	covered := map[string]bool{"autoTrace": true, "FinishVideo": true, "Save": true}
	for _, w := range table {
		for _, fn := range w.funcs {
			covered[fn] = true
		}
	}
	for _, fn := range writerCallers(t) {
		if !covered[fn] {
			t.Errorf("mcptools.%s writes files for a client, and this table does not call it: add its tool", fn)
		}
	}

	ns := map[string]string{}
	for _, who := range []string{"alice", "bob"} {
		mustCall(t, c[who], "browser_navigate", map[string]any{"url": f.URL + "/account?who=" + who})
		mustCall(t, c[who], "browser_wait_for", map[string]any{"text": "Data of " + who})
		reqs := mustCall(t, c[who], "browser_network_requests", map[string]any{"filter": "/account/data.json"})
		id := regexp.MustCompile(`\[(\d+)\] GET`).FindStringSubmatch(reqs)
		if id == nil {
			t.Fatalf("no request of data.json:\n%s", reqs)
		}
		for _, w := range table {
			args := map[string]any{}
			for k, v := range w.args {
				args[k] = v
			}
			if w.tool == "browser_network_request" {
				args["id"], _ = strconv.Atoi(id[1])
			}
			res := call(t, c[who], w.tool, args)
			answer := text(res)
			if res.IsError {
				t.Errorf("%s of %s: %s", who, w.tool, answer)
				continue
			}
			if ns[who] == "" {
				ns[who] = namespaceOf(t, out, answer)
			}
			for other, dir := range ns {
				if other != who && strings.Contains(answer, filepath.Join(out, dir)) {
					t.Errorf("%s's %s names %s's directory:\n%s", who, w.tool, other, answer)
				}
			}
			if w.file == "" {
				continue // the file comes with a later row's call
			}
			path := filepath.Join(out, ns[who], filepath.FromSlash(w.file))
			if strings.Contains(w.file, "*") {
				if m, _ := filepath.Glob(path); len(m) == 1 {
					path = m[0]
				}
			}
			fi, err := os.Lstat(path)
			if err != nil {
				t.Errorf("%s of %s: %v\n%s", who, w.tool, err, answer)
				continue
			}
			if fi.Mode() != w.mode {
				t.Errorf("%s of %s: %s has mode %v, want %v", who, w.tool, path, fi.Mode(), w.mode)
			}
			if w.tool == "browser_storage_state" {
				// Its owner puts it back; the other user cannot.
				mustCall(t, c[who], "browser_set_storage_state", map[string]any{"filename": path})
			}
		}
	}
	if ns["alice"] == "" || ns["alice"] == ns["bob"] {
		t.Fatalf("alice's and bob's files share the directory %q", ns["alice"])
	}
	for who := range ns {
		mustCall(t, c[who], "browser_navigate", map[string]any{"url": f.URL + "/account?who=" + who, "sessionId": "saved"})
		mustCall(t, c[who], "session_end", map[string]any{"sessionId": "saved"})
		for _, pattern := range []string{"traces/trace-saved-*.zip", "e2e-mcp-videos/saved-*.png"} {
			saved, _ := filepath.Glob(filepath.Join(out, ns[who], filepath.FromSlash(pattern)))
			if len(saved) != 1 {
				t.Errorf("%s's saved %s: %v", who, pattern, saved)
			} else if fi, err := os.Lstat(saved[0]); err != nil || fi.Mode() != 0o644 {
				t.Errorf("%s's saved %s: %v, %v", who, saved[0], fi, err)
			}
		}
	}
	for who, other := range map[string]string{"alice": "bob", "bob": "alice"} {
		theirs := filepath.Join(out, ns[other], "state.json")
		wantError(t, call(t, c[who], "browser_set_storage_state", map[string]any{"filename": theirs}), "not_allowed")
		wantError(t, call(t, c[who], "browser_pdf_save", map[string]any{"path": filepath.Join(out, ns[other], "x.pdf")}), "not_allowed")
		wantError(t, call(t, c[who], "browser_pdf_save", map[string]any{"path": "../" + ns[other] + "/x.pdf"}), "not_allowed")
		if b, err := os.ReadFile(filepath.Join(out, ns[who], "downloads", "account.csv")); err != nil || string(b) != "who\n"+who+"\n" {
			t.Errorf("%s's download: %q, %v", who, b, err)
		}
	}
	// The log says whose each directory is, for the operator.
	for who, dir := range ns {
		found := false
		for _, l := range strings.Split(s.log.String(), "\n") {
			found = found || strings.Contains(l, "file namespace") && strings.Contains(l, dir) && strings.Contains(l, who)
		}
		if !found {
			t.Errorf("the log does not say that %s is %s's directory:\n%s", dir, who, s.log.String())
		}
	}
}

// writerCallers are the functions of mcptools (but the writer's own file)
// that ask the writer for a file to write.
func writerCallers(t *testing.T) []string {
	t.Helper()
	calls, err := gocalls.In("../mcptools")
	if err != nil {
		t.Fatal(err)
	}
	asks := map[string]bool{"outputPath": true, "serverFile": true, "userDirFile": true, "outputDirFile": true, "newLogFile": true}
	seen := map[string]bool{}
	for _, c := range calls {
		if asks[c.Name] && c.File != "files.go" {
			seen[c.Func] = true
		}
	}
	if len(seen) == 0 {
		t.Fatal("no function of mcptools asks the writer for a file: the scan is wrong")
	}
	return slices.Sorted(maps.Keys(seen))
}

// TestHTTPSharedSessionsShareTheirFiles: with a static token each MCP
// session is a client of its own, and so is its directory; under
// --shared-sessions a named session's files are in the one shared
// directory, whichever client writes them.
func TestHTTPSharedSessionsShareTheirFiles(t *testing.T) {
	out := t.TempDir()
	env, _ := serverEnv(t)
	s := startHTTP(t, append(env, "E2E_MCP_AUTH_TOKEN=tok", "E2E_MCP_SHARED_SESSIONS=true", "E2E_MCP_OUTPUT_DIR="+out))
	var a, b *client.Client
	for _, c := range []**client.Client{&a, &b} {
		var err error
		if *c, err = s.clientWith(t, map[string]string{"Authorization": "Bearer tok"}); err != nil {
			t.Fatal(err)
		}
	}
	export := func(c *client.Client, session string) *mcp.CallToolResult {
		return call(t, c, "session_export_flow", map[string]any{"sessionId": session, "path": "flow.yaml"})
	}
	page := "data:text/html,<p>Hello</p>"
	mustCall(t, a, "browser_navigate", map[string]any{"sessionId": "team", "url": page})
	mustCall(t, a, "browser_navigate", map[string]any{"url": page})
	mustCall(t, b, "browser_navigate", map[string]any{"url": page})
	mustContain(t, "a's export of the shared session", text(export(a, "team")), filepath.Join(out, "shared", "flow.yaml"))
	wantError(t, export(b, "team"), "invalid_input", filepath.Join(out, "shared", "flow.yaml"), "already exists")
	own := map[string]string{}
	for who, c := range map[string]*client.Client{"a": a, "b": b} {
		res := call(t, c, "session_export_flow", map[string]any{"path": "flow.yaml"})
		if res.IsError {
			t.Fatalf("%s's export of its own session: %s", who, text(res))
		}
		own[who] = namespaceOf(t, out, text(res))
	}
	if own["a"] == own["b"] || own["a"] == "shared" || own["b"] == "shared" {
		t.Errorf("the clients' own sessions write to %v", own)
	}
}
