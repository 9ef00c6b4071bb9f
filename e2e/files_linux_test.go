package e2e

import (
	"os"
	"path/filepath"
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
// tools write only new files, without an executable bit, into the output
// directory, which is not the working directory. Uploads read only from
// roots the operator named.
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
	if err := os.Link(secret, filepath.Join(out, "link.pdf")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, ".env"), []byte("KEY=1"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startHTTPIn(t, work, append(env, "E2E_MCP_OUTPUT_DIR="+out, "E2E_MCP_SERVER_COMMAND="+script, "E2E_MCP_CAPS=pdf"))
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
	// A relative path is a new file in the output directory, 0644.
	written := mustCall(t, c, "session_export_flow", map[string]any{"path": "devserver"})
	mustContain(t, "export", written, filepath.Join(out, "devserver"))
	fi, err := os.Stat(filepath.Join(out, "devserver"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&0o111 != 0 {
		t.Errorf("written with mode %v", fi.Mode())
	}
	// Never twice: an existing file, a hard link, a symbolic link.
	wantError(t, call(t, c, "session_export_flow", map[string]any{"path": "devserver"}), "invalid_input", "already exists")
	wantError(t, call(t, c, "browser_pdf_save", map[string]any{"path": "link.pdf"}), "invalid_input", "already exists")
	if err := os.Symlink(script, filepath.Join(out, "sym.yaml")); err != nil {
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
	mustContain(t, "pdf", pdf, out+"/e2e-mcp-page-")

	// No --file-roots: no upload reads the server's files.
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
