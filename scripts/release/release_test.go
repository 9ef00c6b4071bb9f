//go:build release

package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// platforms are the Makefile's PLATFORMS, as make prints them.
func platforms(t *testing.T, dir string) []string {
	out := run(t, dir, "make", "--no-print-directory", "-s", "--eval", "print-platforms: ; @echo $(PLATFORMS)", "print-platforms")
	return strings.Fields(out)
}

func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	return runEnv(t, dir, nil, name, args...)
}

// runEnv runs a command with env added to this process's environment.
func runEnv(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestReleaseCheck runs make release in a fresh, tagged clone of this
// repository's committed HEAD and checks what it ships: an archive per
// platform with the binary, README.md, LICENSE (if the repository has
// one) and docs/*.md (the README links there), SHA256SUMS that verifies, the stamp (tag, commit, commit date) in
// every binary (this machine's one runs `version`), dist/server.json with
// the version, and the same bytes from a second run.
func TestReleaseCheck(t *testing.T) {
	root := strings.TrimSpace(run(t, ".", "git", "rev-parse", "--show-toplevel"))
	src := filepath.Join(t.TempDir(), "e2e-mcp")
	run(t, ".", "git", "clone", "-q", "--no-hardlinks", root, src)
	const tag = "v9.8.7-check"
	run(t, src, "git", "tag", tag)
	commit := strings.TrimSpace(run(t, src, "git", "rev-parse", "HEAD"))
	date := strings.TrimSpace(run(t, src, "git", "log", "-1", "--format=%cI"))
	when, err := time.Parse(time.RFC3339, date)
	if err != nil {
		t.Fatal(err)
	}
	dateUTC := when.UTC().Format(time.RFC3339)
	docs := []string{"README.md"}
	if _, err := os.Stat(filepath.Join(src, "LICENSE")); err == nil {
		docs = append(docs, "LICENSE")
	}
	guides, err := filepath.Glob(filepath.Join(src, "docs", "*.md"))
	if err != nil || len(guides) == 0 {
		t.Fatalf("docs/*.md in the clone: %v (%d files)", err, len(guides))
	}
	for _, g := range guides {
		docs = append(docs, "docs/"+filepath.Base(g))
	}

	// Without VCS stamping the binaries' build info carries no commit or
	// time, so the stamp found below can only have come from the ldflags.
	noVCS := []string{"GOFLAGS=-buildvcs=false"}
	start := time.Now()
	runEnv(t, src, noVCS, "make", "release")
	t.Logf("make release (6 platforms) took %s", time.Since(start).Round(time.Second))
	dist := filepath.Join(src, "dist")
	sums, err := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	run(t, dist, "sha256sum", "--strict", "-c", "SHA256SUMS")
	listed := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(sums))
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q: want sha256sum format", sc.Text())
		}
		listed[name] = sum
	}

	plats := platforms(t, src)
	if len(plats) != 6 {
		t.Fatalf("PLATFORMS = %v, want linux, darwin and windows on amd64 and arm64", plats)
	}
	for _, p := range plats {
		goos, goarch, _ := strings.Cut(p, "/")
		base := "e2e-mcp_" + tag + "_" + goos + "_" + goarch
		archive, exe := base+".tar.gz", "e2e-mcp"
		if goos == "windows" {
			archive, exe = base+".zip", "e2e-mcp.exe"
		}
		data, err := os.ReadFile(filepath.Join(dist, archive))
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		h := sha256.Sum256(data)
		if listed[archive] != hex.EncodeToString(h[:]) {
			t.Errorf("%s: SHA256SUMS says %q, the file hashes to %x", archive, listed[archive], h)
		}
		delete(listed, archive)
		files := readArchive(t, archive, data, when)
		want := append([]string{exe}, docs...)
		for _, name := range want {
			if _, ok := files[base+"/"+name]; !ok {
				t.Errorf("%s lacks %s/%s (has %d files)", archive, base, name, len(files))
			}
		}
		if len(files) != len(want) {
			t.Errorf("%s holds %d files, want %v", archive, len(files), want)
		}
		bin := files[base+"/"+exe]
		for _, stamp := range []string{tag, commit, dateUTC} {
			if !bytes.Contains(bin, []byte(stamp)) {
				t.Errorf("%s: the binary does not carry %q", p, stamp)
			}
		}
		if goos == runtime.GOOS && goarch == runtime.GOARCH {
			path := filepath.Join(t.TempDir(), exe)
			if err := os.WriteFile(path, bin, 0o755); err != nil { //nolint:gosec // the binary under test
				t.Fatal(err)
			}
			got := run(t, ".", path, "version")
			if want := "e2e-mcp " + tag + " commit " + commit + " date " + dateUTC + "\n"; got != want {
				t.Errorf("%s version printed %q, want %q", p, got, want)
			}
		}
	}
	for name := range listed {
		t.Errorf("SHA256SUMS lists %s, which is no platform's archive", name)
	}

	var meta struct {
		Version  string `json:"version"`
		Packages []struct {
			Identifier string `json:"identifier"`
		} `json:"packages"`
	}
	raw, err := os.ReadFile(filepath.Join(dist, "server.json"))
	if err == nil {
		err = json.Unmarshal(raw, &meta)
	}
	if err != nil {
		t.Fatalf("dist/server.json: %v", err)
	}
	if meta.Version != strings.TrimPrefix(tag, "v") || len(meta.Packages) == 0 {
		t.Errorf("dist/server.json version %q (%d packages), want %q", meta.Version, len(meta.Packages), strings.TrimPrefix(tag, "v"))
	}
	for _, p := range meta.Packages {
		if !strings.HasSuffix(p.Identifier, ":"+strings.TrimPrefix(tag, "v")) {
			t.Errorf("dist/server.json package %q: want the release's image tag", p.Identifier)
		}
	}

	start = time.Now()
	runEnv(t, src, noVCS, "make", "release")
	t.Logf("second make release (build cache warm) took %s", time.Since(start).Round(time.Second))
	again, err := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sums, again) {
		t.Errorf("two releases of one commit differ:\n%s\n%s", sums, again)
	}
	run(t, src, "make", "clean")
	if _, err := os.Stat(dist); !os.IsNotExist(err) {
		t.Errorf("make clean left dist/ (%v)", err)
	}
}

// readArchive returns the regular files of a .tar.gz or .zip by name, and
// checks every entry carries the commit's time.
func readArchive(t *testing.T, name string, data []byte, when time.Time) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	if strings.HasSuffix(name, ".zip") {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, f := range zr.File {
			if !f.Modified.Equal(when) {
				t.Errorf("%s: %s modified %v, want the commit's %v", name, f.Name, f.Modified, when)
			}
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			files[f.Name], err = io.ReadAll(rc)
			_ = rc.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		return files
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !h.ModTime.Equal(when) || h.Uid != 0 || h.Gid != 0 {
			t.Errorf("%s: %s mtime %v uid %d gid %d, want the commit's time and root", name, h.Name, h.ModTime, h.Uid, h.Gid)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if files[h.Name], err = io.ReadAll(tr); err != nil {
			t.Fatal(err)
		}
	}
	return files
}
