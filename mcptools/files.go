package mcptools

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"go.uber.org/zap"
)

// Tools read and write files of the machine the server runs on: uploads
// read them, browser_pdf_save and session_export_flow write them. A local
// client (stdio, the CLI's Unix socket) is the machine's user, and may read
// and write inside the file roots (--file-roots, else the client's own
// roots, else the working directory or e2e-mcp's files directory:
// roots.go), overwriting files it names. A remote client (serve --http) is
// not: it writes only new files, and only in its own directory of the
// output directory (--output-dir, which is not the working directory, so
// that no file it writes can be a script the server later runs or a file
// of the project); it reads inside roots the operator named (never its own
// roots, which name its machine's files) and in its own directory, never
// in another client's.
//
// A remote client's directory is that of its session's namespace (§3,
// Registry.ownerOf): its OAuth principal's, else its MCP session's, or the
// shared one of --shared-sessions; held puts it in the call's context.
//
// Every file a tool writes goes through one writer, outputFile.create:
// below a root directory it cannot leave (os.Root: no link at any
// component leads out of it), a new file or one replaced whole (never
// written through a link, no mode of the old file kept), 0644 for what
// the user reads, 0600 for credentials and for anything in the shared temp
// directory, never executable. A test (files_writers_test.go) fails when
// code of this package writes a file any other way.

// fileSpaceKey is the context key of the call's file namespace.
type fileSpaceKey struct{}

// withFileSpace returns ctx carrying the namespace of the session a call
// is on (its Registry owner key): over HTTP its files are that
// namespace's.
func withFileSpace(ctx context.Context, owner string) context.Context {
	return context.WithValue(ctx, fileSpaceKey{}, owner)
}

func fileSpaceOf(ctx context.Context) (string, bool) {
	owner, ok := ctx.Value(fileSpaceKey{}).(string)
	return owner, ok
}

// sharedSpace is the directory of the namespace of --shared-sessions.
const sharedSpace = "shared"

// namespaceName is the name of a namespace's directory in the output
// directory: a hash of its owner key, which no client chooses (the
// issuer's subject, or the server's MCP session id) and none can make
// collide with another's; the log says whose it is when it is made.
func namespaceName(owner string) string {
	if owner == "" {
		return sharedSpace
	}
	sum := sha256.Sum256([]byte(owner))
	return hex.EncodeToString(sum[:16])
}

// namespaceDir is the call's own directory in the output directory, made
// (0700) the first time.
func (d *Deps) namespaceDir(ctx context.Context) (string, error) {
	owner, ok := fileSpaceOf(ctx)
	if !ok {
		return "", errors.New("the call is on no session, and over HTTP every file belongs to a session's namespace")
	}
	out, err := filepath.EvalSymlinks(d.OutputDir)
	if err != nil {
		return "", fmt.Errorf("the output directory: %w", err)
	}
	r, err := os.OpenRoot(out)
	if err != nil {
		return "", fmt.Errorf("the output directory: %w", err)
	}
	defer r.Close() //nolint:errcheck // a directory opened to look in
	name := namespaceName(owner)
	switch err := r.Mkdir(name, 0o700); {
	case err == nil:
		if d.Logger != nil {
			d.Logger.Info("file namespace made", zap.String("dir", filepath.Join(out, name)), zap.String("owner", owner))
		}
	case !errors.Is(err, fs.ErrExist):
		return "", fmt.Errorf("the output directory: %w", err)
	}
	if fi, err := r.Lstat(name); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%s in the output directory is not a directory", name)
	}
	return filepath.Join(out, name), nil
}

// Where a remote client's roots come from, as answers name it.
const (
	fromNamespace = "your directory in the output directory"
	fromRemote    = "--file-roots and " + fromNamespace
)

// abs is path absolute and clean: a relative one starts in r.base, where
// relative paths start for reads and writes alike.
func (r fileRoots) abs(path string) string {
	if !filepath.IsAbs(path) && r.base != "" {
		path = filepath.Join(r.base, path)
	}
	return filepath.Clean(path)
}

// realPaths resolves the links of each directory (those that exist).
func realPaths(dirs []string) []string {
	out := make([]string, 0, len(dirs))
	for _, r := range dirs {
		if rr, err := filepath.EvalSymlinks(r); err == nil {
			out = append(out, rr)
		}
	}
	return out
}

// insideAny reports whether path is one of roots or below one.
func insideAny(path string, roots []string) bool {
	return rootOf(path, roots) != ""
}

// rootOf is the deepest of roots that path is, or is below ("": none).
func rootOf(path string, roots []string) string {
	best := ""
	for _, r := range roots {
		rel, err := filepath.Rel(r, path)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) && len(r) > len(best) {
			best = r
		}
	}
	return best
}

// outputFile is one file a tool writes: a path below a root directory
// that no write leaves, and how it is written. Made by [Deps.outputPath]
// (a file the agent names, or a temp file), [Deps.serverFile] (one the
// server names in a directory of its own: baselines, downloads) or
// userDirFile (the CLI's user's); written by create. A file that grows as
// it is written is a logFile (newLogFile).
type outputFile struct {
	root  string // the directory no write leaves, its links resolved
	rel   string // the file, below root
	path  string // root/rel: what answers name
	field string
	// fresh: the file must not exist (remote clients).
	fresh bool
	// temp: a name made up for it (no path given), removed by discard.
	temp bool
	// mode is the file's permissions (0: 0644); 0600 for credentials and
	// for files in the shared temp directory.
	mode os.FileMode
	// evict, when not 0, bounds the bytes of the files named like this one
	// (autoNamed) in its directory: the oldest go as it is written
	// (--output-max-size).
	evict int64
}

// autoNamed starts the names of the files a tool names itself (no path
// given) with outputPath.
const autoNamed = "e2e-mcp-"

// stampedName is a name outputDirFile gives: PREFIX-TIME.EXT, TIME the UTC
// time as fileStamp writes it or Unix milliseconds, maybe numbered.
var stampedName = regexp.MustCompile(`^[a-z]+-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z|\d{13})( \(\d+\))?\.[a-z0-9]+$`)

// serverNamed says whether a file's name is one a tool gave it, no path
// having been given (autoNamed, stampedName): the only files
// --output-max-size evicts, as Playwright MCP's affects only its
// automatically named files.
func serverNamed(name string) bool {
	return strings.HasPrefix(name, autoNamed) || stampedName.MatchString(name)
}

// fileStamp is t as the names of outputDirFile's files hold it, as
// Playwright MCP names them: 2025-01-31T09-05-00-123Z (UTC).
func fileStamp(t time.Time) string {
	return strings.ReplaceAll(t.UTC().Format("2006-01-02T15-04-05.000Z"), ".", "-")
}

// evictOld removes the oldest automatically named files (serverNamed) of o's directory
// but o until they take at most o.evict bytes.
func (o *outputFile) evictOld(r *os.Root) {
	if o.evict <= 0 {
		return
	}
	dir := filepath.Dir(o.rel)
	entries, err := fs.ReadDir(r.FS(), dir)
	if err != nil {
		return
	}
	type file struct {
		rel  string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	for _, e := range entries {
		rel := filepath.Join(dir, e.Name())
		if !e.Type().IsRegular() || !serverNamed(e.Name()) || rel == o.rel {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, file{rel, fi.Size(), fi.ModTime()})
		total += fi.Size()
	}
	if fi, err := r.Lstat(o.rel); err == nil {
		total += fi.Size()
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	for _, f := range files {
		if total <= o.evict {
			return
		}
		if r.Remove(f.rel) == nil {
			total -= f.size
		}
	}
}

func (o *outputFile) perm() os.FileMode {
	if o.mode != 0 {
		return o.mode
	}
	return 0o644
}

// sibling is the file name in the same directory, written the same way.
func (o *outputFile) sibling(name string) *outputFile {
	s := *o
	s.rel = filepath.Join(filepath.Dir(o.rel), name)
	s.path = filepath.Join(o.root, s.rel)
	s.temp = false
	return &s
}

// discard removes a made-up file that will not be written after all.
func (o *outputFile) discard() {
	if o.temp {
		o.remove()
	}
}

// remove removes the file (a stale one), never anything outside the root.
func (o *outputFile) remove() {
	if r, err := os.OpenRoot(o.root); err == nil {
		_ = r.Remove(o.rel)
		_ = r.Close()
	}
}

// read is the file's content, at most max bytes (fs.ErrNotExist when
// there is none); anything but a regular file is refused.
func (o *outputFile) read(maxBytes int64) ([]byte, error) {
	r, err := os.OpenRoot(o.root)
	if err != nil {
		return nil, err
	}
	defer r.Close() //nolint:errcheck // read only
	fi, err := r.Lstat(o.rel)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", o.path)
	}
	if fi.Size() > maxBytes {
		return nil, fmt.Errorf("%s is %d bytes, more than %d", o.path, fi.Size(), maxBytes)
	}
	return r.ReadFile(o.rel)
}

// outputPath checks where a tool may write a file the agent names and
// returns it, unwritten. Locally: inside the file roots (relative paths
// start in the working directory, or the first client root). Over HTTP: a
// new file in the caller's own directory of the output directory
// (relative paths start there). Without a path: a new file named after
// pattern, 0600 in the temp directory (locally) or in the caller's
// directory.
func (d *Deps) outputPath(ctx context.Context, field, path, pattern string) (*outputFile, error) {
	fr, err := d.writeRoots(ctx)
	if err != nil {
		return nil, err
	}
	if path == "" {
		dir, mode := fr.base, os.FileMode(0)
		if !d.Remote {
			dir, mode = os.TempDir(), 0o600
			if d.OutputDir != "" {
				dir, mode = d.OutputDir, 0 // --output-dir over stdio: the operator's, not shared
			}
		}
		o, err := newTempFile(dir, autoNamed+pattern, field, mode)
		if o != nil {
			o.evict = d.OutputMaxSize
		}
		return o, err
	}
	abs := fr.abs(path)
	// Refused before it is looked at, so that the answer tells nothing of
	// what exists outside the roots. Then the directory must exist; its
	// links are resolved so that none leads out of the roots (and create
	// refuses any that appears later).
	if !insideAny(abs, append(realPaths(fr.dirs), fr.dirs...)) {
		return nil, outsideOutput(field, path, fr, d.Remote)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return nil, invalidInput(field, "%q: its directory does not exist", path)
	}
	abs = filepath.Join(dir, filepath.Base(abs))
	root := rootOf(abs, realPaths(fr.dirs))
	if root == "" {
		return nil, outsideOutput(field, path, fr, d.Remote)
	}
	if abs == root {
		return nil, invalidInput(field, "%q is a directory: name a file in it", path)
	}
	rel, _ := filepath.Rel(root, abs)
	o := &outputFile{root: root, rel: rel, path: abs, field: field, fresh: d.Remote}
	if fi, err := os.Lstat(abs); err == nil {
		if err := o.checkExisting(fi); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// serverFile is a file the server names (a baseline, a download) in a
// directory of its own, sub, in the first write root: the caller's own
// directory over HTTP. sub is made if missing, within the root.
func (d *Deps) serverFile(ctx context.Context, field, sub, name string) (*outputFile, error) {
	fr, err := d.writeRoots(ctx)
	if err != nil {
		return nil, err
	}
	root, err := filepath.EvalSymlinks(fr.dirs[0])
	if err != nil {
		return nil, err
	}
	return newFileIn(root, sub, name, field, d.Remote)
}

// outputDirFile is a file the server names in the output directory the
// operator named (--output-dir, the config's outputDir), for what
// Playwright MCP saves there unasked: a screenshot without filename
// (page-TIME.png), a trace without path (traces/trace-MS.zip). It is name
// in sub (made if missing), over HTTP in the caller's own directory of the
// output directory. The name is taken at once, as an empty file that
// discard removes; when it is taken already, the first free one of "stem
// (2).ext"... --output-max-size counts it with the other files tools name.
// nil, nil when the operator named no output directory: nothing is saved
// unasked.
func (d *Deps) outputDirFile(ctx context.Context, field, sub, name string) (*outputFile, error) {
	o, err := d.outputDirName(ctx, field, sub, name)
	if o == nil || err != nil {
		return nil, err
	}
	if err := o.reserve(); err != nil {
		return nil, fmt.Errorf("the output directory: %w", err)
	}
	return o, nil
}

// savesUnasked says whether the operator named an output directory, where
// the server saves what Playwright MCP saves there unasked (outputDirFile,
// logFile).
func (d *Deps) savesUnasked() bool {
	return d.OutputDir != "" && (!d.Remote || d.OutputDirNamed)
}

// outputDirName is where outputDirFile puts name, not taken yet; nil, nil
// when the operator named no output directory.
func (d *Deps) outputDirName(ctx context.Context, field, sub, name string) (*outputFile, error) {
	if !d.savesUnasked() {
		return nil, nil
	}
	base := d.OutputDir
	if d.Remote {
		fr, err := d.writeRoots(ctx)
		if err != nil {
			return nil, err
		}
		base = fr.base
	}
	root, err := filepath.EvalSymlinks(base)
	if err != nil {
		return nil, fmt.Errorf("the output directory: %w", err)
	}
	if sub == "" {
		sub = "."
	}
	o, err := newFileIn(root, sub, name, field, false)
	if err != nil {
		return nil, fmt.Errorf("the output directory: %w", err)
	}
	o.evict = d.OutputMaxSize
	return o, nil
}

// reserve takes o's name, or the first free one of "stem (2).ext"..., as a
// new empty file: create replaces it, discard removes it.
func (o *outputFile) reserve() error {
	f, err := o.createFree()
	if err == nil {
		_ = f.Close()
		o.temp = true
	}
	return err
}

// createFree makes o's name, or the first free one of "stem (2).ext"...,
// a new empty file of o's mode, open for writing; o names it then.
func (o *outputFile) createFree() (*os.File, error) {
	r, err := os.OpenRoot(o.root)
	if err != nil {
		return nil, err
	}
	defer r.Close() //nolint:errcheck // opened to make a file in
	for i := 1; i < 1000; i++ {
		rel := numbered(o.rel, i)
		f, err := r.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, o.perm())
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := f.Chmod(o.perm()); err != nil { // whatever the umask
			_ = f.Close()
			_ = r.Remove(rel)
			return nil, err
		}
		o.rel, o.path = rel, filepath.Join(o.root, rel)
		return f, nil
	}
	return nil, fmt.Errorf("no free name for %s in %s", filepath.Base(o.rel), filepath.Dir(o.path))
}

// logFile is a file of the output directory that grows as what it logs
// happens (a page's console: console.go), for the operator who named the
// directory: a new file outputDirFile names, made as reserve makes one and
// kept open, so every write goes to the file this process made, never to
// a name looked up again. --output-max-size counts it as it grows. Its
// writer is the only one that writes it; close it when done.
type logFile struct {
	o     *outputFile
	f     *os.File
	made  fs.FileInfo // the file as made, to tell it from another at its name
	size  int64
	lines int
}

// newLogFile makes a new log file named name in sub of the output
// directory the operator named (the caller's own over HTTP; a taken name
// numbered as outputDirFile's); nil, nil when none is named.
func (d *Deps) newLogFile(ctx context.Context, field, sub, name string) (*logFile, error) {
	o, err := d.outputDirName(ctx, field, sub, name)
	if o == nil || err != nil {
		return nil, err
	}
	f, err := o.createFree()
	if err != nil {
		return nil, fmt.Errorf("the output directory: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		_ = f.Close()
		o.remove()
		return nil, fmt.Errorf("the output directory: %w", err)
	}
	return &logFile{o: o, f: f, made: fi}, nil
}

// write appends data, which holds lines whole lines, to the file and
// then removes the oldest automatically named files of its directory past
// --output-max-size, as every write of such a file does.
func (l *logFile) write(data []byte, lines int) error {
	n, err := l.f.Write(data)
	l.size += int64(n)
	if err != nil {
		return err
	}
	l.lines += lines
	if l.o.evict > 0 {
		if r, err := os.OpenRoot(l.o.root); err == nil {
			l.o.evictOld(r)
			_ = r.Close()
		}
	}
	return nil
}

// there says whether the file is still at its name: not removed (by
// --output-max-size, or by a person) nor replaced.
func (l *logFile) there() bool {
	r, err := os.OpenRoot(l.o.root)
	if err != nil {
		return false
	}
	defer r.Close() //nolint:errcheck // a directory opened to look in
	fi, err := r.Lstat(l.o.rel)
	return err == nil && os.SameFile(fi, l.made)
}

// close closes the file; it is not written again.
func (l *logFile) close() error {
	return l.f.Close()
}

// numbered is rel for the i-th file of its name: rel itself, then
// "stem (2).ext", "stem (3).ext"...
func numbered(rel string, i int) string {
	if i < 2 {
		return rel
	}
	base := filepath.Base(rel)
	ext := filepath.Ext(base)
	return filepath.Join(filepath.Dir(rel), fmt.Sprintf("%s (%d)%s", strings.TrimSuffix(base, ext), i, ext))
}

// userDirFile is a file in a directory the CLI's user named (a flow's
// baselines, `run --report`): the directory is made if missing and its
// links followed, as the user named it; nothing below it leads out of it.
func userDirFile(dir, name, field string) (*outputFile, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil { //nolint:gosec // a directory the user named, of files they read
		return nil, err
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	return newFileIn(root, filepath.Dir(name), filepath.Base(name), field, false)
}

// newFileIn is name in root's sub (made if missing, within root).
func newFileIn(root, sub, name, field string, fresh bool) (*outputFile, error) {
	if name = filepath.Base(name); name == "." || name == ".." || name == string(filepath.Separator) {
		return nil, fmt.Errorf("%q is not a file name", name)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close() //nolint:errcheck // opened to make a directory in
	if err := r.MkdirAll(sub, 0o755); err != nil {
		return nil, err
	}
	rel := filepath.Join(sub, name)
	return &outputFile{root: root, rel: rel, path: filepath.Join(root, rel), field: field, fresh: fresh}, nil
}

// newTempFile makes a new empty file named after pattern in dir, for a
// tool to write later (create replaces it).
func newTempFile(dir, pattern, field string, mode os.FileMode) (*outputFile, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("create output file: %w", err)
	}
	o := &outputFile{root: root, field: field, temp: true, mode: mode}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("create output file: %w", err)
	}
	defer r.Close() //nolint:errcheck // opened to make a file in
	f, rel, err := createUnique(r, ".", pattern, o.perm())
	if err != nil {
		return nil, fmt.Errorf("create output file: %w", err)
	}
	_ = f.Close()
	o.rel, o.path = rel, filepath.Join(root, rel)
	return o, nil
}

// createUnique makes a new file in dir of r, named after pattern with a
// random part for its last '*' (or at its end).
func createUnique(r *os.Root, dir, pattern string, perm os.FileMode) (*os.File, string, error) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndex(pattern, "*"); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for range 100 {
		rel := filepath.Join(dir, prefix+rand.Text()[:10]+suffix)
		f, err := r.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, rel, err
	}
	return nil, "", fmt.Errorf("no free name for %s", pattern)
}

// writeRoots are the roots a file may be written inside, and the
// directory relative paths start in.
func (d *Deps) writeRoots(ctx context.Context) (fileRoots, error) {
	if !d.Remote {
		return d.localRoots(ctx)
	}
	if d.OutputDir == "" {
		return fileRoots{}, &ToolError{Type: ErrNotAllowed, Message: "over HTTP this server has no output directory, so it writes no files",
			Suggestion: "leave path out to get the content in the answer where the tool can, or ask the operator to set --output-dir"}
	}
	own, err := d.namespaceDir(ctx)
	if err != nil {
		return fileRoots{}, err
	}
	return fileRoots{dirs: []string{own}, from: fromNamespace, base: own}, nil
}

func outsideOutput(field, path string, fr fileRoots, remote bool) *ToolError {
	if remote {
		return &ToolError{Type: ErrNotAllowed, Message: fmt.Sprintf("%s: %q is outside your directory of the output directory, %s; over HTTP files are written only there", field, path, fr.dirs[0]),
			Suggestion: "give a new file name (relative paths start in your directory), or leave path out"}
	}
	return &ToolError{Type: ErrNotAllowed, Message: fmt.Sprintf("%s: %q is outside the directories files may be saved in: %s", field, path, fr),
		Suggestion: fmt.Sprintf("give a path inside one of them (relative paths start in %s), leave it out for a temp file, %s", fr.base, fr.hint())}
}

// checkExisting refuses to write over what must not be written over: a
// remote client's file that exists, anything but a regular file, and a
// file with other names (a hard link would carry the write elsewhere).
func (o *outputFile) checkExisting(fi fs.FileInfo) error {
	switch {
	case o.fresh:
		return invalidInput(o.field, "%q already exists; over HTTP a tool writes only new files: give a new name", o.path)
	case !fi.Mode().IsRegular():
		return invalidInput(o.field, "%q exists and is not a regular file", o.path)
	case linkCount(fi) > 1:
		return &ToolError{Type: ErrNotAllowed, Message: fmt.Sprintf("%s: %q has %d hard links; a file with other names is never written over", o.field, o.path, linkCount(fi)),
			Suggestion: "give another file name"}
	}
	return nil
}

// write writes data to the file, as create does; a failure is the
// agent's to act on.
func (o *outputFile) write(data []byte) error {
	_, err := o.create(bytes.NewReader(data))
	var te *ToolError
	switch {
	case err == nil || errors.As(err, &te):
		return err
	case errors.Is(err, fs.ErrExist):
		return invalidInput(o.field, "%q already exists; over HTTP a tool writes only new files: give a new name", o.path)
	}
	return &ToolError{Type: ErrInvalidInput, Message: fmt.Sprintf("%s: cannot write %s: %v", o.field, o.path, err),
		Suggestion: "give a writable path where this server may write"}
}

// create writes what src holds to the file, the one way this package
// writes a file. Everything happens inside the root (os.Root): no link at
// any component of the path leads out of it. A fresh file is created
// exclusively (an existing name, or a link, makes it fail with
// fs.ErrExist); otherwise a new file is renamed over the old, so that the
// write never goes through a link and no mode of the old file (an
// executable bit) carries over. The file has exactly o.perm().
func (o *outputFile) create(src io.Reader) (int64, error) {
	r, err := os.OpenRoot(o.root)
	if err != nil {
		return 0, err
	}
	defer r.Close() //nolint:errcheck // the files are closed and checked below
	if o.fresh {
		f, err := r.OpenFile(o.rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, o.perm())
		if err != nil {
			return 0, err
		}
		n, err := fill(f, src, o.perm())
		if err != nil {
			_ = r.Remove(o.rel)
		} else {
			o.evictOld(r)
		}
		return n, err
	}
	if fi, err := r.Lstat(o.rel); err == nil {
		if err := o.checkExisting(fi); err != nil {
			return 0, err
		}
	}
	f, tmp, err := createUnique(r, filepath.Dir(o.rel), "."+filepath.Base(o.rel)+".*.tmp", 0o600)
	if err != nil {
		return 0, err
	}
	n, err := fill(f, src, o.perm())
	if err == nil {
		err = r.Rename(tmp, o.rel)
	}
	if err != nil {
		_ = r.Remove(tmp)
		return 0, err
	}
	o.evictOld(r)
	return n, nil
}

// createNumbered writes src to o as a new file, or, when that name is
// taken, to the first free one of "name (2).ext", "name (3).ext"...; it
// returns the file written.
func (o *outputFile) createNumbered(src io.Reader) (*outputFile, int64, error) {
	base := filepath.Base(o.rel)
	for i := 1; i < 1000; i++ {
		f := o
		if i > 1 {
			f = o.sibling(filepath.Base(numbered(o.rel, i)))
		}
		f.fresh = true
		n, err := f.create(src)
		if errors.Is(err, fs.ErrExist) {
			continue // nothing was read from src
		}
		return f, n, err
	}
	return nil, 0, fmt.Errorf("no free name for %s in %s", base, filepath.Dir(o.path))
}

// fill copies src into a new file, gives it its mode (whatever the
// umask), and closes it.
func fill(f *os.File, src io.Reader, perm os.FileMode) (int64, error) {
	n, err := io.Copy(f, src)
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// WriteUserFile writes data to rel in dir, for the CLI's user, who named
// dir on the command line (`run --report`, --artifacts, --junit): dir is
// made if missing and its links followed, as named; rel's directories are
// made below it, none leads out of it, and the file is replaced whole by a
// new 0644 one (no link followed, a file with other hard links refused).
func WriteUserFile(dir, rel string, data []byte) error {
	o, err := userDirFile(dir, rel, "file")
	if err != nil {
		return err
	}
	_, err = o.create(bytes.NewReader(data))
	return err
}

// WriteUserFileFrom is WriteUserFile for a file read from src as it is
// written, too big to hold whole (`run --reporter blob`'s zip, the files
// merge-reports takes out of one). The file appears only once src is
// read to its end; a read error leaves no file.
func WriteUserFileFrom(dir, rel string, src io.Reader) error {
	o, err := userDirFile(dir, rel, "file")
	if err != nil {
		return err
	}
	_, err = o.create(src)
	return err
}
