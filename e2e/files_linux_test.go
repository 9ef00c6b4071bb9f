package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// startHTTPIn is startHTTP with the server's working directory set.
func startHTTPIn(t *testing.T, dir string, env []string, args ...string) *httpServer {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = os.Chdir(wd) }()
	return startHTTP(t, env, args...)
}

// TestHTTPWritesNoFileItCouldRun: over HTTP a client cannot write over the
// server's files (the dev-server script first of all) or through a link:
// tools write only new files, without an executable bit, into the client's
// own directory of the output directory, which is not the working
// directory. Uploads read only from roots the operator named, and the
// client's own directory.
func TestHTTPWritesNoFileItCouldRun(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	work, out, outside := t.TempDir(), t.TempDir(), t.TempDir()
	script := filepath.Join(work, "devserver")
	const original = "#!/bin/sh\necho '{\"status\":\"ready\"}'\n"
	if err := os.WriteFile(script, []byte(original), 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, ".env"), []byte("KEY=1"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startHTTPIn(t, work, append(env, "E2E_MCP_OUTPUT_DIR="+out, "E2E_MCP_SERVER_COMMAND="+script, "E2E_MCP_CAPS=pdf,storage"))
	c := s.client(t)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"})

	// The flow name cannot carry lines of its own.
	wantError(t, call(t, c, "session_export_flow", map[string]any{"name": "x\necho pwned", "path": "f.yaml"}), "invalid_input", "one line")
	// Neither the script by its absolute path, nor by a path that climbs
	// out of the output directory.
	for _, p := range []string{script, "../" + filepath.Base(work) + "/devserver", filepath.Join(out, "..", filepath.Base(work), "devserver")} {
		res := call(t, c, "session_export_flow", map[string]any{"path": p})
		wantError(t, res, "not_allowed", "output directory")
	}
	if b, _ := os.ReadFile(script); string(b) != original {
		t.Fatalf("the dev-server script was rewritten:\n%s", b)
	}
	// A relative path is a new file in the client's own directory of the
	// output directory, 0644.
	written := mustCall(t, c, "session_export_flow", map[string]any{"path": "devserver"})
	own := filepath.Join(out, namespaceOf(t, out, written))
	mustContain(t, "export", written, filepath.Join(own, "devserver"))
	fi, err := os.Stat(filepath.Join(own, "devserver"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&0o111 != 0 {
		t.Errorf("written with mode %v", fi.Mode())
	}
	// Never twice: an existing file, a hard link, a symbolic link.
	wantError(t, call(t, c, "session_export_flow", map[string]any{"path": "devserver"}), "invalid_input", "already exists")
	if err := os.Link(secret, filepath.Join(own, "link.pdf")); err != nil {
		t.Fatal(err)
	}
	wantError(t, call(t, c, "browser_pdf_save", map[string]any{"path": "link.pdf"}), "invalid_input", "already exists")
	if err := os.Symlink(script, filepath.Join(own, "sym.yaml")); err != nil {
		t.Fatal(err)
	}
	wantError(t, call(t, c, "session_export_flow", map[string]any{"path": "sym.yaml"}), "invalid_input", "already exists")
	if b, _ := os.ReadFile(secret); string(b) != "outside" {
		t.Errorf("a write went through a link: %q", b)
	}
	if b, _ := os.ReadFile(script); string(b) != original {
		t.Errorf("a write went through a symbolic link to the script")
	}
	// A PDF with no path is a new file in the output directory too.
	pdf := mustCall(t, c, "browser_pdf_save", nil)
	mustContain(t, "pdf", pdf, own+"/e2e-mcp-page-")
	// A directory on the way that links out of the client's directory
	// carries no write there.
	if err := os.Symlink(outside, filepath.Join(own, "out")); err != nil {
		t.Fatal(err)
	}
	wantError(t, call(t, c, "browser_pdf_save", map[string]any{"path": "out/x.pdf"}), "not_allowed", "output directory")
	if _, err := os.Stat(filepath.Join(outside, "x.pdf")); err == nil {
		t.Errorf("a write went through a linked directory")
	}

	// No --file-roots: the client reads back what it saved, in its own
	// directory, and no upload reads the server's files.
	mustCall(t, c, "browser_storage_state", map[string]any{"filename": "state.json"})
	mustCall(t, c, "browser_set_storage_state", map[string]any{"filename": filepath.Join(own, "state.json")})
	wantError(t, call(t, c, "browser_file_upload", map[string]any{"paths": []any{filepath.Join(work, ".env")}}), "not_allowed", "--file-roots")
}

// TestHTTPUploadsFromNamedRoots: with --file-roots over HTTP, uploads read
// inside them only.
func TestHTTPUploadsFromNamedRoots(t *testing.T) {
	env, _ := serverEnv(t)
	roots, other := t.TempDir(), t.TempDir()
	s := startHTTP(t, append(env, "E2E_MCP_FILE_ROOTS="+roots))
	c := s.client(t)
	mustCall(t, c, "browser_navigate", map[string]any{"url": "data:text/html,<input type=file id=f>"})
	ok := filepath.Join(roots, "a.txt")
	if err := os.WriteFile(ok, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "b.txt"), []byte("b"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustCall(t, c, "browser_file_upload", map[string]any{"target": "#f", "paths": []any{ok}})
	wantError(t, call(t, c, "browser_file_upload", map[string]any{"target": "#f", "paths": []any{filepath.Join(other, "b.txt")}}), "not_allowed")
}

// TestLocalWritesKeepNoLinkOrMode: a local client may write over its files,
// but never through a hard link, and what it writes is a new 0644 file.
func TestLocalWritesKeepNoLinkOrMode(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	root, outside := t.TempDir(), t.TempDir()
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+root))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"})
	exe := filepath.Join(root, "run.sh")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustCall(t, c, "session_export_flow", map[string]any{"path": exe})
	fi, err := os.Stat(exe)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("overwritten file has mode %v, want 0644 (no executable bit kept)", fi.Mode().Perm())
	}
	target := filepath.Join(outside, "t.txt")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "linked.yaml")
	if err := os.Link(target, link); err != nil {
		t.Fatal(err)
	}
	wantError(t, call(t, c, "session_export_flow", map[string]any{"path": link}), "not_allowed", "hard links")
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("written through a hard link: %q", b)
	}
	// The directory holds nothing of ours but the files asked for.
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temp file left: %s", e.Name())
		}
	}
}

// TestLocalTempFilesArePrivate: a PDF, a report or a storage state saved
// without a path is a new file in the shared temp directory, readable by
// its owner only (0600), whatever the umask.
func TestLocalTempFilesArePrivate(t *testing.T) {
	f := newFixture(t)
	env, tmp := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_FILE_ROOTS="+t.TempDir(), "E2E_MCP_CAPS=pdf,report,storage"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"})
	for _, tool := range []string{"browser_pdf_save", "session_report", "browser_storage_state"} {
		out := mustCall(t, c, tool, nil)
		m := regexp.MustCompile(regexp.QuoteMeta(tmp) + `/e2e-mcp-[^\s,:)]+`).FindString(out)
		if m == "" {
			t.Errorf("%s names no file in the temp directory %s:\n%s", tool, tmp, out)
			continue
		}
		fi, err := os.Stat(m)
		if err != nil {
			t.Errorf("%s: %v", tool, err)
			continue
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s wrote %s with mode %v, want 0600 in the shared temp directory", tool, m, fi.Mode().Perm())
		}
	}
}
