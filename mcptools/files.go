package mcptools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Tools read and write files of the machine the server runs on: uploads
// read them, browser_pdf_save and session_export_flow write them. A local
// client (stdio, the CLI's Unix socket) is the machine's user, and may read
// and write inside the file roots (--file-roots, else the client's own
// roots, else the working directory or e2e-mcp's files directory:
// roots.go), overwriting files it names. A remote client (serve --http) is
// not: it may read only inside roots the operator named (never its own
// roots, which name its machine's files), and write only new
// files inside the output directory (--output-dir), which is not the
// working directory, so that no file it writes can be a script the server
// later runs (the dev-server command) or a file of the project. Nothing
// written ever has an executable bit, and no write follows a symbolic or
// hard link out of where it may write.

// readRoots are the directories files may be read from.
func (d *Deps) readRoots(ctx context.Context) (fileRoots, error) {
	if d.Remote {
		if len(d.FileRoots) > 0 {
			return fileRoots{dirs: d.FileRoots, from: fromFlag}, nil
		}
		return fileRoots{}, &ToolError{Type: ErrNotAllowed,
			Message:    "over HTTP this server reads no files of its machine: its operator has named no --file-roots",
			Suggestion: "ask the operator to start e2e-mcp with --file-roots naming a directory of files to upload"}
	}
	return d.localRoots(ctx)
}

// uploadPaths checks that each path is an absolute path of a regular file
// inside the read roots (symbolic links followed), and cleans it.
func (d *Deps) uploadPaths(ctx context.Context, paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, invalidInput("paths", "empty: give the absolute path of at least one file")
	}
	return d.readablePaths(ctx, "paths", paths)
}

// readablePaths checks paths the way uploadPaths does, for the argument
// named list (each path of a list of more than one is list[i]).
func (d *Deps) readablePaths(ctx context.Context, list string, paths []string) ([]string, error) {
	fr, err := d.readRoots(ctx)
	if err != nil {
		return nil, err
	}
	roots := fr.dirs
	real := realPaths(roots)
	out := make([]string, len(paths))
	for i, pth := range paths {
		field := list
		if list == "paths" {
			field = fmt.Sprintf("paths[%d]", i)
		}
		if !filepath.IsAbs(pth) {
			return nil, invalidInput(field, "%q is not an absolute path", pth)
		}
		outside := &ToolError{Type: ErrNotAllowed,
			Message:    fmt.Sprintf("%s: %q is outside the directories files may be read from: %s", field, pth, fr),
			Suggestion: "use a file inside one of them, " + fr.hint()}
		// Refused before it is looked at, so that the answer tells nothing
		// of what exists outside the roots; then again with links followed.
		if !insideAny(filepath.Clean(pth), append(real, roots...)) {
			return nil, outside
		}
		resolved, err := filepath.EvalSymlinks(pth)
		if err != nil {
			return nil, invalidInput(field, "%q: no such file", pth)
		}
		if !insideAny(resolved, real) {
			return nil, outside
		}
		if fi, err := os.Stat(resolved); err != nil || !fi.Mode().IsRegular() {
			return nil, invalidInput(field, "%q is not a regular file", pth)
		}
		out[i] = filepath.Clean(pth)
	}
	return out, nil
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
	for _, r := range roots {
		rel, err := filepath.Rel(r, path)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}

// outputFile is where a tool will write: checked by [Deps.outputPath],
// written by write.
type outputFile struct {
	path  string
	field string
	// fresh: the file must not exist (remote clients).
	fresh bool
	// temp: a name made up for it (no path given), removed by discard.
	temp bool
	// mode is the file's permissions (0: 0644); 0600 for credentials.
	mode os.FileMode
}

func (o *outputFile) perm() os.FileMode {
	if o.mode != 0 {
		return o.mode
	}
	return 0o644
}

// discard removes a made-up file that will not be written after all.
func (o *outputFile) discard() {
	if o.temp {
		_ = os.Remove(o.path)
	}
}

// outputPath checks where a tool may write a file and returns it, unwritten.
// Locally: inside the file roots (relative paths start in the working
// directory). Over HTTP: a new file in the output directory (relative paths
// start there). Without a path: a new file named after pattern, in the temp
// directory (locally) or the output directory.
func (d *Deps) outputPath(ctx context.Context, field, path, pattern string) (*outputFile, error) {
	fr, err := d.writeRoots(ctx)
	if err != nil {
		return nil, err
	}
	base, roots := fr.base, fr.dirs
	if path == "" {
		if !d.Remote {
			base = os.TempDir()
		}
		f, err := os.CreateTemp(base, "e2e-mcp-"+pattern)
		if err != nil {
			return nil, fmt.Errorf("create output file: %w", err)
		}
		name := f.Name()
		_ = f.Close()
		// The name is ours now: write replaces the empty file.
		return &outputFile{path: name, field: field, temp: true}, nil
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(base, abs)
	}
	// The directory must exist; its links are resolved so that none leads
	// out of the roots.
	dir, err := filepath.EvalSymlinks(filepath.Dir(filepath.Clean(abs)))
	if err != nil {
		return nil, invalidInput(field, "%q: its directory does not exist", path)
	}
	abs = filepath.Join(dir, filepath.Base(abs))
	if !insideAny(abs, realPaths(roots)) {
		return nil, outsideOutput(field, path, fr, d.Remote)
	}
	for _, r := range realPaths(roots) {
		if abs == r {
			return nil, invalidInput(field, "%q is a directory: name a file in it", path)
		}
	}
	o := &outputFile{path: abs, field: field, fresh: d.Remote}
	if fi, err := os.Lstat(abs); err == nil {
		if err := o.checkExisting(fi); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// writeRoots are the roots a file may be written inside, and the
// directory relative paths start in.
func (d *Deps) writeRoots(ctx context.Context) (fileRoots, error) {
	if d.Remote {
		if d.OutputDir == "" {
			return fileRoots{}, &ToolError{Type: ErrNotAllowed, Message: "over HTTP this server has no output directory, so it writes no files",
				Suggestion: "leave path out to get the content in the answer where the tool can, or ask the operator to set --output-dir"}
		}
		return fileRoots{dirs: []string{d.OutputDir}, from: "--output-dir", base: d.OutputDir}, nil
	}
	return d.localRoots(ctx)
}

func outsideOutput(field, path string, fr fileRoots, remote bool) *ToolError {
	if remote {
		return &ToolError{Type: ErrNotAllowed, Message: fmt.Sprintf("%s: %q is outside the output directory %s; over HTTP files are written only there", field, path, fr.dirs[0]),
			Suggestion: "give a new file name (relative paths start in the output directory), or leave path out"}
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

// write writes data to the file. A new file is created exclusively (a
// name that appeared since the check, or a link, makes it fail); an
// existing one is replaced by a new file renamed over it, so that the
// write never goes through a link and no mode of the old file (an
// executable bit) carries over. Files are 0644, or o.mode.
func (o *outputFile) write(data []byte) error {
	fail := func(err error) error {
		return &ToolError{Type: ErrInvalidInput, Message: fmt.Sprintf("%s: cannot write %s: %v", o.field, o.path, err),
			Suggestion: "give a writable path where this server may write"}
	}
	if o.fresh {
		f, err := os.OpenFile(o.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, o.perm()) //nolint:gosec // files the user asked for, readable as any file they save
		if errors.Is(err, fs.ErrExist) {
			return invalidInput(o.field, "%q already exists; over HTTP a tool writes only new files: give a new name", o.path)
		}
		if err != nil {
			return fail(err)
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(o.path)
			return fail(err)
		}
		return nil
	}
	if fi, err := os.Lstat(o.path); err == nil {
		if err := o.checkExisting(fi); err != nil {
			return err
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(o.path), "."+filepath.Base(o.path)+".*.tmp")
	if err != nil {
		return fail(err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(o.perm())
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), o.path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fail(err)
	}
	return nil
}
