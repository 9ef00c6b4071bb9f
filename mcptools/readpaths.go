package mcptools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// The files tools may read (uploads, a storage state, a flow's files): inside
// the read roots, as files.go says who may read what.

// readRoots are the directories files may be read from.
func (d *Deps) readRoots(ctx context.Context) (fileRoots, error) {
	if !d.Remote {
		return d.localRoots(ctx)
	}
	fr := fileRoots{dirs: append([]string(nil), d.FileRoots...), from: fromFlag}
	if d.OutputDir != "" {
		own, err := d.namespaceDir(ctx)
		if err != nil {
			return fileRoots{}, err
		}
		fr.dirs, fr.from, fr.own, fr.base = append(fr.dirs, own), fromRemote, own, own
		fr.fenced, _ = filepath.EvalSymlinks(d.OutputDir)
	}
	if fr.base == "" && len(fr.dirs) > 0 {
		fr.base = fr.dirs[0]
	}
	if len(fr.dirs) == 0 {
		return fileRoots{}, &ToolError{Type: ErrNotAllowed,
			Message:    "over HTTP this server reads no files of its machine: its operator has named no --file-roots",
			Suggestion: "ask the operator to start e2e-mcp with --file-roots naming a directory of files to upload"}
	}
	return fr, nil
}

// uploadPaths checks that each path is that of a regular file inside the
// read roots (symbolic links followed), and returns them absolute and
// clean (readablePaths).
func (d *Deps) uploadPaths(ctx context.Context, paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, invalidInput("paths", "empty: give the path of at least one file")
	}
	return d.readablePaths(ctx, "paths", paths)
}

// readablePaths checks paths the way uploadPaths does, for the argument
// named list (each path of a list of more than one is list[i]), and
// returns them absolute and clean. A relative path starts where a written
// one does (fileRoots.abs): in the first client root, else the working
// directory; over HTTP, in the caller's own directory. Over HTTP a file in
// the output directory is readable only in the caller's own directory,
// even when the operator named the output directory a root.
func (d *Deps) readablePaths(ctx context.Context, list string, paths []string) ([]string, error) {
	fr, err := d.readRoots(ctx)
	if err != nil {
		return nil, err
	}
	roots := fr.dirs
	real := realPaths(roots)
	out := make([]string, len(paths))
	for i, given := range paths {
		field := list
		if list == "paths" {
			field = fmt.Sprintf("paths[%d]", i)
		}
		if given == "" {
			return nil, invalidInput(field, "empty: give a file's path")
		}
		pth := fr.abs(given)
		shown := strconv.Quote(given)
		if pth != given {
			shown += " (" + pth + ")"
		}
		outside := &ToolError{Type: ErrNotAllowed,
			Message:    fmt.Sprintf("%s: %s is outside the directories files may be read from: %s", field, shown, fr),
			Suggestion: fmt.Sprintf("use a file inside one of them (relative paths start in %s), %s", fr.base, fr.hint())}
		// Refused before it is looked at, so that the answer tells nothing
		// of what exists outside the roots; then again with links followed.
		if !insideAny(pth, append(real, roots...)) {
			return nil, outside
		}
		resolved, err := filepath.EvalSymlinks(pth)
		if err != nil {
			return nil, invalidInput(field, "%s: no such file", shown)
		}
		if !insideAny(resolved, real) || fr.fenced != "" && insideAny(resolved, []string{fr.fenced}) && !insideAny(resolved, []string{fr.own}) {
			return nil, outside
		}
		if fi, err := os.Stat(resolved); err != nil || !fi.Mode().IsRegular() {
			return nil, invalidInput(field, "%s is not a regular file", shown)
		}
		out[i] = pth
	}
	return out, nil
}
