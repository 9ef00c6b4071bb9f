package runner

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// MergeOptions are merge-reports' settings: cmd/e2e-mcp builds them from
// its flags.
type MergeOptions struct {
	// Dirs are the directories (searched with their subdirectories) and
	// zip files that hold the blobs.
	Dirs []string
	// Reporters are the reporters --reporter names: none for list and
	// html. --junit and --json add theirs.
	Reporters ReporterList
	// Report is the directory the blobs' files and the HTML index go in
	// ("" for e2e-mcp-report).
	Report string
	// JUnit and JSON are the files those reporters write ("" for stdout).
	JUnit, JSON string
}

// Check says what is wrong in the options, in the command line's words,
// or nil.
func (m MergeOptions) Check() error {
	if len(m.Dirs) == 0 {
		return errors.New("give the directories that hold the blobs (run --reporter blob)")
	}
	for _, r := range m.Reporters {
		if r == "blob" {
			return errors.New("--reporter blob: merge-reports reads blobs, it writes none")
		}
		if !isReporter(r) {
			return fmt.Errorf("--reporter %q: the reporters are %s", r, strings.Join(slices.DeleteFunc(slices.Clone(reporterNames), func(n string) bool { return n == "blob" }), ", "))
		}
	}
	return nil
}

// blob is one blob read: its file and its document.
type blob struct {
	file  string
	doc   runDoc
	shard Shard
}

// Merge reads the blobs of a sharded run's shards (run --reporter blob)
// and reports on every flow of them as one run: the files of each go into
// one directory (the flows' reports, traces, videos, artifacts), and the
// reporters asked for (list and html by default: every flow's line and
// the summary, and the HTML index) hear the flows in the suite's order.
// It returns the exit code: ExitOK when every flow passed, ExitFailed when
// one failed (or was healed, without the run's --heal-ok) or a shard's
// blob is missing, ExitUsage when the blobs cannot be read or merged.
func Merge(m MergeOptions, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "e2e-mcp merge-reports: %v\n", err)
		return ExitUsage
	}
	blobs, err := findBlobs(m.Dirs)
	if err != nil {
		return fail(err)
	}
	missing, err := checkShards(blobs)
	if err != nil {
		return fail(err)
	}
	out := m.Report
	if out == "" {
		out = defaultReportDir
	}
	taken := map[string]string{} // a file's name, the blob it came from
	o := Options{Reporters: m.Reporters, Report: out, JUnit: m.JUnit, JSON: m.JSON, HealOK: true,
		title: fmt.Sprintf("e2e-mcp run, %d blob(s) merged", len(blobs))}
	if len(o.Reporters) == 0 {
		o.Reporters = ReporterList{"list", "html"}
	}
	if o.reporterSet()["html"] {
		taken[indexStem+".html"] = "the HTML index"
	}
	var results []flowResult
	var took time.Duration
	for _, b := range blobs {
		if err := extractBlob(b.file, out, taken); err != nil {
			return fail(err)
		}
		place := func(p string) string {
			if p == "" {
				return ""
			}
			return filepath.Join(out, filepath.FromSlash(p))
		}
		for _, f := range b.doc.Flows {
			r, err := resultOf(f, place)
			if err != nil {
				return fail(fmt.Errorf("%s: %w", b.file, err))
			}
			results = append(results, r)
		}
		took = max(took, time.Duration(b.doc.DurationMs)*time.Millisecond)
		if b.doc.Heal {
			o.Heal = HealBeside
		}
		o.HealOK = o.HealOK && b.doc.HealOK
	}
	env := &runEnv{secrets: redact.NewSet(nil), stdout: stdout, warn: &warnings{w: stderr}, flows: len(results)}
	reps := reporters(o, env)
	for _, r := range results {
		for _, rp := range reps {
			rp.flowEnded(r)
		}
	}
	sum := summarize(results, took)
	code := sum.exitCode(o.HealOK)
	for _, rp := range reps {
		if err := rp.runEnded(sum); err != nil {
			fmt.Fprintf(stderr, "e2e-mcp merge-reports: %v\n", err)
			code = ExitFailed
		}
	}
	for _, sh := range missing {
		fmt.Fprintf(stderr, "e2e-mcp merge-reports: no blob of shard %s: its flows are not in these reports\n", sh)
		code = ExitFailed
	}
	return code
}

// findBlobs reads the blobs in dirs: every zip below a directory that is
// a blob (others, such as traces, are passed over), and each zip named,
// which must be one. They come in the shards' order.
func findBlobs(dirs []string) ([]blob, error) {
	var blobs []blob
	for _, d := range dirs {
		fi, err := os.Stat(d)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			b, err := readBlob(d)
			if err != nil {
				return nil, err
			}
			if b == nil {
				return nil, fmt.Errorf("%s is not a blob of e2e-mcp run --reporter blob", d)
			}
			blobs = append(blobs, *b)
			continue
		}
		err = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.EqualFold(filepath.Ext(p), ".zip") {
				return err
			}
			b, err := readBlob(p)
			if errors.Is(err, zip.ErrFormat) {
				return nil // not a zip file: no blob
			}
			if b != nil {
				blobs = append(blobs, *b)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if len(blobs) == 0 {
		return nil, fmt.Errorf("no blob in %s (run writes one with --reporter blob)", strings.Join(dirs, ", "))
	}
	sort.SliceStable(blobs, func(i, j int) bool {
		if blobs[i].shard.Current != blobs[j].shard.Current {
			return blobs[i].shard.Current < blobs[j].shard.Current
		}
		return blobs[i].file < blobs[j].file
	})
	return blobs, nil
}

// readBlob reads the document of the blob at p; nil, nil when p is a zip
// but no blob.
func readBlob(p string) (*blob, error) {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	defer zr.Close() //nolint:errcheck // read only
	for _, f := range zr.File {
		if f.Name != blobDoc {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		defer rc.Close() //nolint:errcheck // read only
		b := &blob{file: p}
		if err := json.NewDecoder(io.LimitReader(rc, maxBlobDoc)).Decode(&b.doc); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", p, blobDoc, err)
		}
		if b.doc.Version != docVersion {
			return nil, fmt.Errorf("%s: a blob of version %d; this e2e-mcp reads version %d (merge with the version that ran the shards)", p, b.doc.Version, docVersion)
		}
		if b.doc.Shard != "" {
			if b.shard, err = ParseShard(b.doc.Shard); err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
		}
		return b, nil
	}
	return nil, nil
}

// maxBlobDoc bounds a blob's document.
const maxBlobDoc = 256 << 20

// checkShards says which shards of the blobs' run are missing; two blobs
// of one shard, or of runs cut in different numbers of shards, are an
// error.
func checkShards(blobs []blob) (missing []string, err error) {
	total := blobs[0].shard.Total
	seen := map[int]string{}
	for _, b := range blobs {
		if b.shard.Total != total {
			return nil, fmt.Errorf("%s is shard %q and %s shard %q: merge the blobs of one sharded run", blobs[0].file, blobs[0].doc.Shard, b.file, b.doc.Shard)
		}
		if total == 0 {
			continue
		}
		if other, ok := seen[b.shard.Current]; ok {
			return nil, fmt.Errorf("%s and %s are both shard %s", other, b.file, b.doc.Shard)
		}
		seen[b.shard.Current] = b.file
	}
	for i := 1; i <= total; i++ {
		if _, ok := seen[i]; !ok {
			missing = append(missing, Shard{Current: i, Total: total}.String())
		}
	}
	return missing, nil
}

// extractBlob writes the files of the blob at p into dir, each where it
// was relative to the others; a name another blob's file has (taken) is
// an error.
func extractBlob(p, dir string, taken map[string]string) error {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	defer zr.Close() //nolint:errcheck // read only
	for _, f := range zr.File {
		name, ok := strings.CutPrefix(f.Name, blobFiles)
		if !ok || strings.HasSuffix(name, "/") {
			continue
		}
		if !filepath.IsLocal(filepath.FromSlash(name)) || path.Clean(name) != name {
			return fmt.Errorf("%s: %q is no file name inside a directory", p, f.Name)
		}
		if other, ok := taken[name]; ok {
			return fmt.Errorf("%s and %s both hold %s: merge the blobs of one run's shards", other, p, name)
		}
		taken[name] = p
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		err = mcptools.WriteUserFileFrom(dir, filepath.FromSlash(name), rc)
		_ = rc.Close()
		if err != nil {
			return fmt.Errorf("%s: %s: %w", p, name, err)
		}
	}
	return nil
}
