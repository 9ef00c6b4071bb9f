package runner

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Shard is --shard i/n: the run replays the i-th of n parts of the suite,
// so that n machines share it. The zero Shard is the whole suite.
//
// The split is stable: the flow files are sorted by their path relative
// to the run's root (runRoot: the deepest directory holding them all), so
// a file goes to the same shard on every machine and from any working
// directory, then cut as Playwright Test cuts its tests: n parts of
// len/n files each in that order, the first len%n parts one file more.
type Shard struct {
	Current, Total int // from 1; 0/0 for none
}

// ParseShard reads --shard's value, i/n with 1 <= i <= n; the error says
// what is wrong in the command line's words.
func ParseShard(v string) (Shard, error) {
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	switch {
	case !ok || err1 != nil || err2 != nil:
		return Shard{}, fmt.Errorf("--shard %q: give the part to run and the number of parts, as 2/4", v)
	case n < 1:
		return Shard{}, fmt.Errorf("--shard %q: the number of parts is 1 or more", v)
	case i < 1 || i > n:
		return Shard{}, fmt.Errorf("--shard %q: the part is 1 to %d", v, n)
	}
	return Shard{Current: i, Total: n}, nil
}

// String is the shard as --shard takes it ("" for none).
func (s Shard) String() string {
	if s.Total == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Current, s.Total)
}

// check says what is wrong with a Shard made in code, or nil.
func (s Shard) check() error {
	if s == (Shard{}) {
		return nil
	}
	_, err := ParseShard(s.String())
	return err
}

// span is the part of n files (sorted by byRoot) the shard runs: from
// (inclusive) to (exclusive). Every part has n/Total files, and the first
// n%Total parts one more, so that together they hold each file once.
func (s Shard) span(n int) (from, to int) {
	if s.Total == 0 {
		return 0, n
	}
	size, extra := n/s.Total, n%s.Total
	i := s.Current - 1
	from = i*size + min(i, extra)
	to = from + size
	if i < extra {
		to++
	}
	return from, to
}

// byRoot is files sorted by their path relative to runRoot (with /
// between names, whatever the system), the same order from any working
// directory and on any machine where the suite has the same layout.
func byRoot(files []string) []string {
	root := runRoot(files)
	keys := make(map[string]string, len(files))
	for _, f := range files {
		keys[f] = rootKey(root, f)
	}
	out := append([]string(nil), files...)
	sort.SliceStable(out, func(i, j int) bool { return keys[out[i]] < keys[out[j]] })
	return out
}

// rootKey is file's path relative to root, with / between names.
func rootKey(root, file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return filepath.ToSlash(file)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

// runRoot is the deepest directory that holds every file: the run's root,
// which the shards' split is relative to.
func runRoot(files []string) string {
	var dirs []string
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			continue
		}
		dirs = append(dirs, filepath.Dir(abs))
	}
	return commonDir(dirs)
}

// commonDir is the deepest directory that is or holds each of dirs
// (absolute, clean), "" for none.
func commonDir(dirs []string) string {
	if len(dirs) == 0 {
		return ""
	}
	root := dirs[0]
	for _, d := range dirs[1:] {
		for !within(root, d) {
			parent := filepath.Dir(root)
			if parent == root {
				break
			}
			root = parent
		}
	}
	return root
}

// within says whether path is dir or under it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
