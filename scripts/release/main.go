// Command release writes the zip archives of make release (scripts/release.sh):
// Debian machines need not have zip, and Go's archive/zip with fixed times
// and sorted names gives the same bytes on every run.
//
//	go run ./scripts/release zip OUT.zip 2026-11-25T18:00:00Z DIR
//
// writes DIR's files, sorted, as DIR/..., each with the given time and
// mode 0755 (executables) or 0644.
package main

import (
	"archive/zip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

func main() {
	if len(os.Args) != 5 || os.Args[1] != "zip" {
		fmt.Fprintln(os.Stderr, "usage: release zip OUT.zip RFC3339-TIME DIR")
		os.Exit(2)
	}
	when, err := time.Parse(time.RFC3339, os.Args[3])
	if err == nil {
		err = writeZip(os.Args[2], when, os.Args[4])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "release zip:", err)
		os.Exit(1)
	}
}

// writeZip archives dir into out: entries named base(dir)/rel, in byte
// order, with modified time when and no other varying metadata.
func writeZip(out string, when time.Time, dir string) (err error) {
	var files []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error { //nolint:gosec // the release script names its own staging directory
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file", p)
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	f, err := os.Create(out) //nolint:gosec // the release script names its own output
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	zw := zip.NewWriter(f)
	parent := filepath.Dir(filepath.Clean(dir))
	for _, p := range files {
		if err := addFile(zw, parent, p, when.UTC()); err != nil {
			return err
		}
	}
	return zw.Close()
}

func addFile(zw *zip.Writer, parent, p string, when time.Time) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(parent, p)
	if err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if fi.Mode()&0o111 != 0 {
		mode = 0o755
	}
	h := &zip.FileHeader{Name: filepath.ToSlash(rel), Method: zip.Deflate, Modified: when}
	h.SetMode(mode)
	w, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	src, err := os.Open(p) //nolint:gosec // files under the release's own staging directory
	if err != nil {
		return err
	}
	defer func() { _ = src.Close() }()
	_, err = io.Copy(w, src)
	return err
}
