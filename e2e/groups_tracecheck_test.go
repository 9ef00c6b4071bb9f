//go:build tracecheck

package e2e

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceViewerGroups (make trace-check): the trace of a flow run whose
// steps are in nested groups, one failing inside them, opened in
// Playwright's own Trace Viewer as TestTraceViewerCheck opens one: the
// viewer lists each top-level group as a collapsed entry, failed when a
// step in it failed; opened, a group shows its steps and the group nested
// in it, and that one the failing step, each at its depth.
func TestTraceViewerGroups(t *testing.T) {
	if _, err := os.Stat(filepath.Join(viewerDir, "index.html")); err != nil {
		t.Fatalf("the pinned Trace Viewer is not installed: run make trace-check (%v)", err)
	}
	f, version := groupsSite(t)
	version.Store("nopw")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"grouped.yaml": groupsFlowText(f.URL)})
	env, _ := runEnvironment(t)
	traces := filepath.Join(dir, "traces")
	if out, code := runFlows(t, env, filepath.Join(dir, "grouped.yaml"), "--trace", traces); code != 1 {
		t.Fatalf("the run must fail in its group (exit %d):\n%s", code, out)
	}
	zipBytes, err := os.ReadFile(filepath.Join(traces, "grouped sign-in.zip"))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /trace.zip", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		_, _ = w.Write(zipBytes)
	})
	mux.Handle("GET /", http.FileServer(http.Dir(viewerDir)))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	senv, _ := serverEnv(t)
	c := startClient(t, senv)
	const viewer = "viewer"
	v := func(args map[string]any) map[string]any { args["sessionId"] = viewer; return args }
	mustCall(t, c, "browser_navigate", v(map[string]any{"url": srv.URL + "/index.html?trace=" + url.QueryEscape(srv.URL+"/trace.zip")}))
	if res := call(t, c, "browser_wait_for", v(map[string]any{"target": ".action-title >> nth=0", "timeout": 30})); res.IsError {
		t.Fatalf("the viewer lists no action: %s\n%s", text(res), viewerText(t, c))
	}
	type entry struct {
		Text     string `json:"text"`
		Depth    int    `json:"depth"`
		Error    bool   `json:"error"`
		Expanded string `json:"expanded"`
	}
	read := func() []entry {
		var out []entry
		evaluate(t, c, viewer, `() => [...document.querySelectorAll('.actions-tree-view .tree-view-entry')].map(e => ({
			text: e.querySelector('.action-title')?.innerText ?? e.innerText,
			depth: e.querySelectorAll('.tree-view-indent').length,
			error: e.classList.contains('error'),
			expanded: e.parentElement.getAttribute('aria-expanded') ?? ''}))`, &out)
		return out
	}
	show := func(es []entry) string {
		var b strings.Builder
		for _, e := range es {
			b.WriteString(strings.Repeat("  ", e.Depth) + strings.ReplaceAll(e.Text, "\n", " "))
			if e.Error {
				b.WriteString(" (failed)")
			}
			if e.Expanded != "" {
				b.WriteString(" [expanded=" + e.Expanded + "]")
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	top := read()
	var signIn *entry
	for i, e := range top {
		if e.Depth == 0 && strings.HasPrefix(e.Text, "Sign in") {
			signIn = &top[i]
		}
	}
	if signIn == nil || !signIn.Error || signIn.Expanded == "" {
		t.Fatalf("no failed group \"Sign in\" that opens among the viewer's actions:\n%s", show(top))
	}
	// Open every group (the viewer may have opened the failing step's).
	for range 3 {
		res := call(t, c, "browser_click", v(map[string]any{"target": `.actions-tree-view [aria-expanded="false"] > .tree-view-entry .codicon-chevron-right >> nth=0`, "timeout": 1}))
		if res.IsError {
			break
		}
	}
	all := read()
	got := show(all)
	var inSignIn, password, failing bool
	for i, e := range all {
		switch {
		case strings.HasPrefix(e.Text, "Sign in") && e.Depth == 0:
			inSignIn = i+1 < len(all) && all[i+1].Depth == 1
		case strings.HasPrefix(e.Text, "Password") && e.Depth == 1 && e.Error:
			password = true
		case e.Depth == 2 && e.Error && strings.Contains(e.Text, "Fill"):
			failing = true
		}
	}
	if !inSignIn || !password || !failing {
		t.Errorf("the opened groups (Sign in's steps %v, its group Password failed %v, the failing fill under it %v):\n%s", inSignIn, password, failing, got)
	}
	t.Logf("the viewer's actions, groups open:\n%s", got)
}
