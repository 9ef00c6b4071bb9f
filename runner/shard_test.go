package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestShardSpan: the shards of a suite hold each flow file once, in
// order, each as many as the others or one more, the first ones the
// bigger (Playwright Test's cut): 10 files in 3 shards are 4, 3 and 3.
func TestShardSpan(t *testing.T) {
	for n := range 23 {
		for total := 1; total <= 7; total++ {
			next := 0
			for i := 1; i <= total; i++ {
				from, to := Shard{Current: i, Total: total}.span(n)
				if from != next {
					t.Fatalf("%d files, shard %d/%d starts at %d, want %d", n, i, total, from, next)
				}
				size := to - from
				if size != n/total && size != n/total+1 || (size > n/total) != (i <= n%total) {
					t.Errorf("%d files, shard %d/%d has %d", n, i, total, size)
				}
				next = to
			}
			if next != n {
				t.Errorf("%d files in %d shards: they hold %d", n, total, next)
			}
		}
	}
	var got []string
	for i := 1; i <= 3; i++ {
		from, to := Shard{Current: i, Total: 3}.span(10)
		got = append(got, fmt.Sprintf("%d-%d", from, to))
	}
	if strings.Join(got, " ") != "0-4 4-7 7-10" {
		t.Errorf("10 files in 3 shards: %v, want 0-4 4-7 7-10", got)
	}
	if from, to := (Shard{}).span(5); from != 0 || to != 5 {
		t.Errorf("no shard: %d-%d, want all", from, to)
	}
}

// TestParseShard: i/n with 1 <= i <= n; each mistake is said with the
// value given.
func TestParseShard(t *testing.T) {
	for v, want := range map[string]Shard{"1/2": {1, 2}, "4/4": {4, 4}, " 2 / 3 ": {2, 3}, "1/1": {1, 1}} {
		if got, err := ParseShard(v); err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	for v, want := range map[string]string{
		"":     `--shard "": give the part to run and the number of parts, as 2/4`,
		"2":    `--shard "2": give the part to run and the number of parts, as 2/4`,
		"a/b":  `--shard "a/b": give the part to run and the number of parts, as 2/4`,
		"1/2/": `--shard "1/2/": give the part to run and the number of parts, as 2/4`,
		"0/2":  `--shard "0/2": the part is 1 to 2`,
		"3/2":  `--shard "3/2": the part is 1 to 2`,
		"-1/2": `--shard "-1/2": the part is 1 to 2`,
		"1/0":  `--shard "1/0": the number of parts is 1 or more`,
	} {
		if _, err := ParseShard(v); err == nil || err.Error() != want {
			t.Errorf("ParseShard(%q): %v, want %q", v, err, want)
		}
	}
	if err := (Options{Files: []string{"a"}, Parallel: 1, VideoMode: VideoOn, Shard: Shard{3, 2}}).Check(); err == nil {
		t.Error("Check passed shard 3/2")
	}
}

// TestByRoot: the order the shards cut is the files' paths below the
// directory holding them all: the same whatever order they are given in,
// and whether they are named from the suite's directory, from a
// directory above it, or absolutely (another machine's checkout has
// another absolute path, the same paths below it).
func TestByRoot(t *testing.T) {
	root := t.TempDir()
	rel := []string{"z.yaml", "a/b.yaml", "a/a.yaml", "a-b.yaml", "B.yaml", "a/z/y.yaml"}
	for _, f := range rel {
		p := filepath.Join(root, "suite", f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"B.yaml", "a-b.yaml", "a/a.yaml", "a/b.yaml", "a/z/y.yaml", "z.yaml"}
	sorted := func(dir string, name func(string) string) []string {
		t.Chdir(dir)
		var in []string
		for _, f := range rel {
			in = append(in, name(f))
		}
		if dir == root {
			slices.Reverse(in) // the order given does not count
		}
		var got []string
		for _, f := range byRoot(in) {
			got = append(got, rootKey(runRoot(in), f))
		}
		return got
	}
	for what, got := range map[string][]string{
		"from the suite":                  sorted(filepath.Join(root, "suite"), func(f string) string { return f }),
		"from above it, given in reverse": sorted(root, func(f string) string { return filepath.Join("suite", f) }),
		"absolute":                        sorted(t.TempDir(), func(f string) string { return filepath.Join(root, "suite", f) }),
		"from a sub-dir":                  sorted(filepath.Join(root, "suite", "a"), func(f string) string { return filepath.Join("..", f) }),
	} {
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", what, got, want)
		}
	}
	if r := runRoot([]string{filepath.Join(root, "suite", "a", "z", "y.yaml")}); r != filepath.Join(root, "suite", "a", "z") {
		t.Errorf("one file's root: %s", r)
	}
}

// TestLoadShards: the shards of a suite, loaded from two working
// directories, replay each flow file once between them, each in the same
// shard and under the same report name from either; two flows of one name
// get numbered names that do not depend on the shard, and with the html
// or blob reporter no flow's report is the index's name.
func TestLoadShards(t *testing.T) {
	root := t.TempDir()
	suite := filepath.Join(root, "flows")
	names := map[string]string{"a/log-in.yaml": "log-in", "a/pay.yaml": "pay", "b/log-in.yaml": "log-in", "cart.yaml": "cart",
		"index.yaml": "index", "sign-up.yaml": "sign-up", "z.yaml": "zed"}
	var files []string
	for f, name := range names {
		p := filepath.Join(suite, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("name: "+name+"\nsteps:\n  - navigate: /\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	load := func(dir string, name func(string) string, sh Shard) map[string]string {
		t.Chdir(dir)
		var in []string
		for _, f := range files {
			in = append(in, name(f))
		}
		s, err := Load(Options{Files: in, Shard: sh, Reporters: ReporterList{"blob"}})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{} // file below the suite: its report name
		for _, ts := range s.tests {
			got[rootKey(suite, ts.file)] = ts.stem
		}
		return got
	}
	all := map[string]string{}
	for i := 1; i <= 3; i++ {
		sh := Shard{Current: i, Total: 3}
		here := load(suite, func(f string) string { return f }, sh)
		above := load(root, func(f string) string { return filepath.Join("flows", f) }, sh)
		if fmt.Sprint(here) != fmt.Sprint(above) {
			t.Errorf("shard %v from the suite %v, from above it %v", sh, here, above)
		}
		if len(here) != 3 && len(here) != 2 {
			t.Errorf("shard %v: %d flows, want 3, 2 and 2", sh, len(here))
		}
		for f, stem := range here {
			if _, ok := all[f]; ok {
				t.Errorf("%s is in two shards", f)
			}
			all[f] = stem
		}
	}
	want := map[string]string{"a/log-in.yaml": "log-in-1", "a/pay.yaml": "pay", "b/log-in.yaml": "log-in-3", "cart.yaml": "cart",
		"index.yaml": "index-5", "sign-up.yaml": "sign-up", "z.yaml": "zed"}
	if fmt.Sprint(all) != fmt.Sprint(want) {
		t.Errorf("the shards replay %v, want %v", all, want)
	}
}
