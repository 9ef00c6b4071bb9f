package e2e

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// workspace answers roots/list with the directories it holds, as an editor
// with folders open does.
type workspace struct {
	mu   sync.Mutex
	dirs []string
}

func (w *workspace) set(dirs ...string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.dirs = dirs
}

func (w *workspace) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	res := &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "https://example.com/not-a-file-root", Name: "web"}}}
	for _, d := range w.dirs {
		u := url.URL{Scheme: "file", Path: d} // a space is %20 on the wire
		res.Roots = append(res.Roots, mcp.Root{URI: u.String(), Name: filepath.Base(d)})
	}
	return res, nil
}

// startServerIn starts the binary in the working directory dir, with
// mcp-go's client declaring the roots capability when roots is not nil.
func startServerIn(t *testing.T, dir string, env []string, roots client.RootsHandler) *client.Client {
	t.Helper()
	stderr := &lockedBuffer{}
	tr := transport.NewStdioWithOptions(bin, env, nil, transport.WithCommandStderrWriter(stderr),
		transport.WithCommandFunc(func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Env, cmd.Dir = env, dir
			return cmd, nil
		}))
	if err := tr.Start(context.Background()); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	var opts []client.ClientOption
	if roots != nil {
		opts = append(opts, client.WithRootsHandler(roots))
	}
	return initialized(t, client.NewClient(tr, opts...), stderr)
}

func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestClientRoots: a client that declares roots gets uploads and saved
// files (snapshots, flows, downloads) limited to its workspace roots, and
// refusals name them; after it changes them and says so, the new ones
// apply to the very next call. --file-roots wins over them.
func TestClientRoots(t *testing.T) {
	f := newFixture(t, filesAPI)
	env, _ := serverEnv(t)
	base := t.TempDir()
	app, lib, next, outside := filepath.Join(base, "my app"), filepath.Join(base, "lib"), filepath.Join(base, "next"), filepath.Join(base, "outside")
	for _, d := range []string{app, lib, next, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ws := &workspace{}
	ws.set(app, lib)
	// The server's working directory holds neither root.
	c := startServerIn(t, outside, env, ws)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/input/upload.html"})

	// Uploads: inside either root, not outside them.
	mustCall(t, c, "browser_file_upload", map[string]any{"target": "#files", "paths": []string{writeFile(t, filepath.Join(lib, "report.txt"), "quarterly report")}})
	wantError(t, call(t, c, "browser_file_upload", map[string]any{"target": "#files", "paths": []string{writeFile(t, filepath.Join(outside, "secret.txt"), "no")}}),
		"not_allowed", app+", "+lib+" (the client's roots)")

	// Saved files: a relative path starts in the first root; a path
	// outside the roots is refused, naming them.
	out := mustCall(t, c, "browser_snapshot", map[string]any{"filename": "page.yaml"})
	mustContain(t, "a snapshot saved by a relative name", out, filepath.Join(app, "page.yaml"))
	mustCall(t, c, "session_export_flow", map[string]any{"path": filepath.Join(lib, "signup.yaml")})
	for _, p := range []string{filepath.Join(outside, "flow.yaml"), filepath.Join(outside, "page.yaml")} {
		wantError(t, call(t, c, "session_export_flow", map[string]any{"path": p}), "not_allowed", app+", "+lib+" (the client's roots)")
	}
	if _, err := os.Stat(filepath.Join(outside, "page.yaml")); err == nil {
		t.Errorf("a file was written outside the client's roots")
	}
	// Downloads go to the first root.
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/files/downloads.html"})
	out = mustCall(t, c, "browser_click", map[string]any{"target": "role=link[name='Download report']"})
	mustContain(t, "a download", out, "saved to "+filepath.Join(app, "e2e-mcp-downloads", "report.csv"))

	// The client's roots change: the old ones are refused, the new one
	// accepted, from the next call on.
	ws.set(next)
	if err := c.RootListChanges(context.Background()); err != nil {
		t.Fatal(err)
	}
	wantError(t, call(t, c, "session_export_flow", map[string]any{"path": filepath.Join(app, "again.yaml")}), "not_allowed", next+" (the client's roots)")
	out = mustCall(t, c, "session_export_flow", map[string]any{"path": filepath.Join(next, "signup.yaml")})
	mustContain(t, "an export into the new root", out, filepath.Join(next, "signup.yaml"))
	wantError(t, call(t, c, "browser_file_upload", map[string]any{"paths": []string{filepath.Join(lib, "report.txt")}}), "not_allowed", next+" (the client's roots)")

	// --file-roots wins over the client's roots.
	flagged := startServerIn(t, outside, append(env, "E2E_MCP_FILE_ROOTS="+outside), ws)
	mustCall(t, flagged, "browser_navigate", map[string]any{"url": f.URL + "/"})
	wantError(t, call(t, flagged, "session_export_flow", map[string]any{"path": filepath.Join(next, "flagged.yaml")}), "not_allowed", outside+" (--file-roots)")
	mustCall(t, flagged, "session_export_flow", map[string]any{"path": "flagged.yaml"})
	if _, err := os.Stat(filepath.Join(outside, "flagged.yaml")); err != nil {
		t.Errorf("the flag's root did not get the export: %v", err)
	}
}

// TestNoRootsKeepsWorkingDirectory: a client without the roots capability
// keeps the working directory as its root.
func TestNoRootsKeepsWorkingDirectory(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	work, other := t.TempDir(), t.TempDir()
	c := startServerIn(t, work, env, nil)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"})
	out := mustCall(t, c, "session_export_flow", map[string]any{"path": "flow.yaml"})
	mustContain(t, "a relative export", out, filepath.Join(work, "flow.yaml"))
	wantError(t, call(t, c, "session_export_flow", map[string]any{"path": filepath.Join(other, "flow.yaml")}), "not_allowed", work+" (the working directory)")
}

// TestRootlessServerAtSlashWritesNotThere: a server started in / (as
// desktop clients start them), with neither client roots nor --file-roots,
// writes in e2e-mcp's files directory, never under /.
func TestRootlessServerAtSlashWritesNotThere(t *testing.T) {
	f := newFixture(t)
	env, tmp := serverEnv(t)
	state := filepath.Join(tmp, "state")
	env = append(env, "XDG_STATE_HOME="+state)
	c := startServerIn(t, "/", env, nil)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"})
	name := "e2e-mcp-roots-test-" + strings.ReplaceAll(t.Name(), "/", "-") + ".yaml"
	t.Cleanup(func() { _ = os.Remove(filepath.Join("/", name)) })
	private := filepath.Join(state, "e2e-mcp", "files")
	out := mustCall(t, c, "browser_snapshot", map[string]any{"filename": name})
	mustContain(t, "a snapshot saved by a relative name", out, filepath.Join(private, name))
	if _, err := os.Stat(filepath.Join("/", name)); err == nil {
		t.Fatalf("the snapshot was written under /")
	}
	if _, err := os.Stat(filepath.Join(private, name)); err != nil {
		t.Fatalf("the snapshot is not in the files directory: %v", err)
	}
	wantError(t, call(t, c, "session_export_flow", map[string]any{"path": filepath.Join(tmp, "flow.yaml")}), "not_allowed",
		private+" (e2e-mcp's files directory", "--file-roots")
	wantError(t, call(t, c, "browser_file_upload", map[string]any{"paths": []string{"/etc/hostname"}}), "not_allowed", private)
}
