package runner

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// A blob is what one run (one shard of a suite) leaves for
// `e2e-mcp merge-reports`: a zip, DIR/report.zip (report-I-of-N.zip for
// --shard I/N), holding
//
//	e2e-mcp-blob.json  the run as runDoc, its files' paths relative to files/
//	files/...          the flows' HTML reports, traces, videos and failure
//	                   artifacts, laid out as they were relative to each
//	                   other (below the deepest directory holding them all),
//	                   so that a report's link to its video still holds
//
// Everything in it was masked by its writer: the results where they
// entered flowResult, the files by the flow writers.

// blobDoc and blobFiles are the names in a blob.
const (
	blobDoc   = "e2e-mcp-blob.json"
	blobFiles = "files/"
)

// blobReport is run --reporter blob (or --blob DIR).
type blobReport struct {
	dir     string
	o       Options
	secrets *redact.Set
}

func (b *blobReport) flowEnded(flowResult) {}

func (b *blobReport) runEnded(s summary) error {
	if err := writeBlob(b.dir, blobName(b.o.Shard), s, b.o, b.secrets); err != nil {
		return fmt.Errorf("--reporter blob: %w", err)
	}
	return nil
}

// blobName is the blob's file name: report.zip, or report-I-of-N.zip for
// a shard, so that the shards' blobs can lie in one directory.
func blobName(sh Shard) string {
	if sh.Total == 0 {
		return "report.zip"
	}
	return fmt.Sprintf("report-%d-of-%d.zip", sh.Current, sh.Total)
}

// blobEntry is a file a blob holds: where it is, and its name in the blob.
type blobEntry struct{ path, name string }

// writeBlob writes the blob of the run that ended as s to dir/name.
func writeBlob(dir, name string, s summary, o Options, secrets *redact.Set) error {
	base, files, err := blobLayout(s.results)
	if err != nil {
		return err
	}
	rel := func(p string) string {
		if p == "" {
			return ""
		}
		return relTo(base, p)
	}
	doc, err := json.MarshalIndent(docOf(s, o, secrets, rel), "", "  ")
	if err != nil {
		return err
	}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := writeBlobZip(pw, doc, files)
		_ = pw.CloseWithError(err) // always nil
		done <- err
	}()
	err = mcptools.WriteUserFileFrom(dir, name, pr)
	// A writer that stopped early (the file could not be made) leaves the
	// zip's writer waiting: this ends it.
	_ = pr.CloseWithError(errors.New("the blob was not written")) // always nil
	if zerr := <-done; err == nil {
		err = zerr
	}
	return err
}

// writeBlobZip writes the blob's zip to w: the document, then the files.
// Images, videos and traces are stored as they are (already compressed);
// texts are deflated.
func writeBlobZip(w io.Writer, doc []byte, files []blobEntry) error {
	zw := zip.NewWriter(w)
	f, err := zw.Create(blobDoc)
	if err != nil {
		return err
	}
	if _, err := f.Write(doc); err != nil {
		return err
	}
	for _, e := range files {
		if err := addToZip(zw, e); err != nil {
			return err
		}
	}
	return zw.Close()
}

// addToZip copies one file into the zip.
func addToZip(zw *zip.Writer, e blobEntry) error {
	src, err := os.Open(e.path)
	if err != nil {
		return err
	}
	defer src.Close() //nolint:errcheck // read only
	h := &zip.FileHeader{Name: blobFiles + e.name, Method: zip.Deflate}
	switch strings.ToLower(filepath.Ext(e.name)) {
	case ".png", ".jpg", ".jpeg", ".zip", ".webm":
		h.Method = zip.Store
	}
	if fi, err := src.Stat(); err == nil {
		h.Modified = fi.ModTime()
	}
	dst, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	return err
}

// blobLayout is where the results' files are: the deepest directory that
// holds them all (base), and each file with its name below it. A
// failure's artifacts are a directory: each file in it.
func blobLayout(results []flowResult) (base string, files []blobEntry, err error) {
	var paths, dirs []string
	var attempts []flowResult // each flow's, and its earlier attempts' (--retries)
	for _, r := range results {
		attempts = append(append(attempts, r), r.earlier...)
	}
	for _, r := range attempts {
		for _, p := range []string{r.report, r.trace, r.video} {
			if p != "" {
				paths = append(paths, p)
			}
		}
		for _, a := range r.actorFiles {
			for _, p := range []string{a.report, a.trace} {
				if p != "" {
					paths = append(paths, p)
				}
			}
		}
		if r.artifacts != "" {
			err := filepath.WalkDir(r.artifacts, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() {
					paths = append(paths, p)
				}
				return err
			})
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", nil, err
			}
		}
	}
	seen := map[string]bool{}
	var abs []string
	for _, p := range paths {
		a, err := filepath.Abs(p)
		if err != nil {
			return "", nil, err
		}
		if !seen[a] {
			seen[a] = true
			abs = append(abs, a)
			dirs = append(dirs, filepath.Dir(a))
		}
	}
	base = commonDir(dirs)
	for _, a := range abs {
		files = append(files, blobEntry{path: a, name: relTo(base, a)})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	return base, files, nil
}

// relTo is p relative to base, with /.
func relTo(base, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	rel, err := filepath.Rel(base, a)
	if err != nil {
		return filepath.ToSlash(a)
	}
	return filepath.ToSlash(rel)
}
