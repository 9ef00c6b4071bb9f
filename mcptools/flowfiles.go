package mcptools

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

// The files a flow reads (flow.FileArgs: uploads, drops, a route's body,
// a storage state) are written relative to the flow's file, so that the
// flow runs from any checkout: the recorder has them as the agent gave
// them, by absolute path on this machine. A file under the flow's
// directory is named relative to it; one elsewhere is copied beside the
// flow, into FLOW.files/, and named there; a storage state, which holds
// credentials, is never copied (the answer says to move it).

// absFileArgs is a call's arguments with the relative paths of the files
// its step reads (flow.FileArgs) made absolute as the call read them
// (fileRoots.abs), for the recorder: a flow's relative paths start at the
// flow's file, not where the agent's did.
func (d *Deps) absFileArgs(ctx context.Context, tool string, raw any) any {
	args, ok := raw.(map[string]any)
	keys := flow.FileArgs[flow.ActionOf(tool)]
	if !ok || len(keys) == 0 || d == nil {
		return raw
	}
	var fr fileRoots
	resolved := false
	abs := func(v any) any {
		p, ok := v.(string)
		if !ok || p == "" || filepath.IsAbs(p) {
			return v
		}
		if !resolved {
			fr, _ = d.readRoots(ctx) // the call read them just now
			resolved = true
		}
		return fr.abs(p)
	}
	out := maps.Clone(args)
	for _, k := range keys {
		switch v := out[k].(type) {
		case string:
			out[k] = abs(v)
		case []any:
			list := slices.Clone(v)
			for i, e := range list {
				list[i] = abs(e)
			}
			out[k] = list
		}
	}
	return out
}

// maxCopied is the largest file an export copies beside its flow.
const maxCopied = 64 << 20

// placedFiles is what placeFiles did, for the answer.
type placedFiles struct {
	copied   []string // "SRC -> REL"
	absolute []string // what stays by absolute path, and why
}

// say adds what was done with the flow's files to an answer.
func (pf placedFiles) say(r *response, what string) {
	if len(pf.copied) > 0 {
		r.resultf("Copied beside the %s, which names them relative to itself: %s.", what, strings.Join(pf.copied, ", "))
		r.set("copied", pf.copied)
	}
	if len(pf.absolute) > 0 {
		r.resultf("Named by absolute path, which only this machine has: %s.", strings.Join(pf.absolute, "; "))
		r.set("absolutePaths", pf.absolute)
	}
}

// placeFiles rewrites the file arguments of f's steps relative to the
// file the flow is written to (out; nil: none, the paths stay and the
// answer says so), copying those that lie elsewhere into the directory
// STEM.files beside it. The steps are copied before they change: the
// session's own stay as recorded.
func (d *Deps) placeFiles(ctx context.Context, steps []flow.Step, out *outputFile, stem string) placedFiles {
	var pf placedFiles
	copied := map[string]string{} // source -> its name relative to the flow
	for i := range steps {
		keys := flow.FileArgs[steps[i].Action]
		if len(keys) == 0 {
			continue
		}
		args := maps.Clone(steps[i].Args)
		for _, k := range keys {
			switch v := args[k].(type) {
			case string:
				args[k] = d.placeFile(ctx, i+1, steps[i].Action, v, out, stem, copied, &pf)
			case []any:
				list := slices.Clone(v)
				for j, e := range list {
					if p, ok := e.(string); ok {
						list[j] = d.placeFile(ctx, i+1, steps[i].Action, p, out, stem, copied, &pf)
					}
				}
				args[k] = list
			}
		}
		steps[i].Args = args
	}
	return pf
}

// placeFile is one file argument (flow text) as the flow written to out
// names it.
func (d *Deps) placeFile(ctx context.Context, step int, action, text string, out *outputFile, stem string, copied map[string]string, pf *placedFiles) string {
	parts, err := flow.Parts(text)
	if err != nil || len(parts) != 1 || !parts[0].Literal() || !filepath.IsAbs(parts[0].Text) {
		return text // it reads the environment, or is relative already
	}
	src := filepath.Clean(parts[0].Text)
	if out == nil {
		pf.absolute = append(pf.absolute, fmt.Sprintf("step %d's %s (export to a file, path, to have it copied beside the flow)", step, src))
		return text
	}
	dir := filepath.Dir(out.path)
	if rel, err := filepath.Rel(dir, src); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return flow.Escape(filepath.ToSlash(rel))
	}
	if action == "set_storage_state" {
		pf.absolute = append(pf.absolute, fmt.Sprintf("step %d's storage state %s (it holds credentials, so it is not copied: move it beside the flow and name it relative to it)", step, src))
		return text
	}
	if rel, ok := copied[src]; ok {
		return flow.Escape(rel)
	}
	rel, err := d.copyBeside(ctx, src, out, stem)
	if err != nil {
		pf.absolute = append(pf.absolute, fmt.Sprintf("step %d's %s (not copied: %v)", step, src, err))
		return text
	}
	copied[src] = rel
	pf.copied = append(pf.copied, src+" -> "+rel)
	return flow.Escape(rel)
}

// copyBeside copies src into STEM.files/ beside out, under its own name,
// or NAME-2.EXT... when another file has that name there (the same bytes
// there already are used as they are). It returns the copy's path
// relative to out's directory.
func (d *Deps) copyBeside(ctx context.Context, src string, out *outputFile, stem string) (string, error) {
	if _, err := d.readablePaths(ctx, "paths", []string{src}); err != nil {
		return "", err
	}
	fi, err := os.Stat(src)
	if err != nil {
		return "", err
	}
	if fi.Size() > maxCopied {
		return "", fmt.Errorf("%d MB, more than the %d MB an export copies", fi.Size()>>20, maxCopied>>20)
	}
	sum, err := fileSum(src)
	if err != nil {
		return "", err
	}
	sub := filepath.Join(filepath.Dir(out.rel), stem+".files")
	name := filepath.Base(src)
	ext := filepath.Ext(name)
	for n := 1; n < 100; n++ {
		candidate := name
		if n > 1 {
			candidate = fmt.Sprintf("%s-%d%s", strings.TrimSuffix(name, ext), n, ext)
		}
		dst, err := newFileIn(out.root, sub, candidate, "path", out.fresh)
		if err != nil {
			return "", err
		}
		rel := filepath.ToSlash(filepath.Join(stem+".files", candidate))
		if old, err := dst.read(maxCopied); err == nil {
			if sha256.Sum256(old) == sum {
				return rel, nil // copied by an earlier export
			}
			continue
		}
		f, err := os.Open(src)
		if err != nil {
			return "", err
		}
		_, err = dst.create(f)
		_ = f.Close()
		if err != nil {
			return "", err
		}
		return rel, nil
	}
	return "", fmt.Errorf("no free name for %s in %s", name, sub)
}

// fileSum is the SHA-256 of a file's bytes.
func fileSum(path string) ([32]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return [32]byte{}, err
	}
	defer f.Close() //nolint:errcheck // read only
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return [32]byte{}, err
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// stemOf is a written file's name without its extensions (.yaml,
// .spec.ts): the name of the directory its files are copied to.
func stemOf(path string) string {
	base := filepath.Base(path)
	for _, ext := range []string{".spec.ts", ".spec.js", ".yaml", ".yml"} {
		if strings.HasSuffix(base, ext) && len(base) > len(ext) {
			return strings.TrimSuffix(base, ext)
		}
	}
	if ext := filepath.Ext(base); ext != "" && len(base) > len(ext) {
		return strings.TrimSuffix(base, ext)
	}
	return base
}
