package runner

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// shardOutput is what one shard's run left in dir: each flow's report
// (which links its video as ../videos/NAME.png, as the report writer
// does), trace and video, a failure's artifacts; and the results saying
// so.
func shardOutput(t *testing.T, dir string, names ...string) []flowResult {
	t.Helper()
	var out []flowResult
	for _, n := range names {
		r := flowResult{name: n, file: "flows/" + n + ".yaml", took: time.Second,
			report: filepath.Join(dir, "reports", n+".html"), trace: filepath.Join(dir, "traces", n+".zip"), video: filepath.Join(dir, "videos", n+".png")}
		if strings.HasPrefix(n, "bad") {
			r.failed, r.failedStep, r.step, r.errType, r.headline = true, 1, "click #x", "element_not_found", "element_not_found: no #x"
			r.artifacts = filepath.Join(dir, "artifacts", n)
		}
		files := map[string]string{r.report: `<img src="../videos/` + n + `.png">` + n, r.trace: "trace of " + n, r.video: "video of " + n}
		if r.artifacts != "" {
			files[filepath.Join(r.artifacts, "step-1.md")] = "the answer of " + n
		}
		for p, text := range files {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, r)
	}
	return out
}

// TestMerge: the blobs of two shards merge into one run: every flow's
// line and the summary, a JUnit file with every flow, and the HTML index
// linking each flow's report, trace and video, all in one directory where
// each report's link to its video still holds; the exit code is the
// suite's. A missing shard is said and fails the merge; two blobs of one
// shard, or a blob of another version, are refused.
func TestMerge(t *testing.T) {
	root := t.TempDir()
	blobs := filepath.Join(root, "all-blobs")
	shards := map[Shard][]string{{1, 2}: {"a", "bad-b", "c"}, {2, 2}: {"d", "e"}}
	for sh, names := range shards {
		dir := filepath.Join(root, "machine-"+sh.String()[:1])
		results := shardOutput(t, dir, names...)
		o := Options{Shard: sh}
		// Each machine's blob, downloaded into a directory of its own.
		if err := writeBlob(filepath.Join(blobs, "blob-"+sh.String()[:1]), blobName(sh), summarize(results, 3*time.Second), o, nil); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(root, "merged")
	junit := filepath.Join(root, "junit.xml")
	var stdout, stderr bytes.Buffer
	code := Merge(MergeOptions{Dirs: []string{blobs}, Report: out, JUnit: junit}, &stdout, &stderr)
	if code != ExitFailed || stderr.Len() > 0 {
		t.Fatalf("merge: exit %d (want 1: bad-b failed), stderr:\n%s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) < 6 || !strings.HasPrefix(lines[0], "PASS  a ") || !strings.HasPrefix(lines[1], "FAIL  bad-b ") ||
		lines[len(lines)-1] != "5 flow(s), 4 passed, 1 failed, in 3.0s" {
		t.Errorf("the merged run's lines:\n%s", stdout.String())
	}
	var doc junitSuites
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, c := range doc.Suites[0].Cases {
		cases = append(cases, c.Name)
		if c.Name == "bad-b" && (c.Failure == nil || c.Failure.Type != "element_not_found") {
			t.Errorf("bad-b's case: %+v", c)
		}
	}
	if strings.Join(cases, " ") != "a bad-b c d e" || doc.Suites[0].Failures != 1 {
		t.Errorf("JUnit's cases: %v, %d failures", cases, doc.Suites[0].Failures)
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile(`href="([^"]+)"`).FindAllStringSubmatch(string(index), -1)
	if len(links) != 15 {
		t.Errorf("the index has %d links, want a report, trace and video for each of 5 flows:\n%s", len(links), index)
	}
	for _, l := range links {
		p := filepath.Join(out, filepath.FromSlash(l[1]))
		if _, err := os.Stat(p); err != nil {
			t.Errorf("the index links %s: %v", l[1], err)
		}
		if strings.HasSuffix(p, ".html") {
			// The report's link to its video holds where the merge put it.
			rep, _ := os.ReadFile(p)
			src := regexp.MustCompile(`src="([^"]+)"`).FindSubmatch(rep)
			if _, err := os.Stat(filepath.Join(filepath.Dir(p), string(src[1]))); err != nil {
				t.Errorf("%s links its video %s: %v", l[1], src[1], err)
			}
		}
	}
	if !strings.Contains(string(index), "5 flow(s), 4 passed, 1 failed") || !strings.Contains(string(index), "step 1, click #x: element_not_found: no #x") {
		t.Errorf("the index:\n%s", index)
	}
	// Each machine's files below the directory holding them all: one layout.
	if b, err := os.ReadFile(filepath.Join(out, "artifacts", "bad-b", "step-1.md")); err != nil || string(b) != "the answer of bad-b" {
		t.Errorf("bad-b's artifacts: %q %v", b, err)
	}

	// Shard 2's blob alone: its flows, and the missing shard said.
	stdout.Reset()
	code = Merge(MergeOptions{Dirs: []string{filepath.Join(blobs, "blob-2")}, Report: filepath.Join(root, "half"), Reporters: ReporterList{"list"}}, &stdout, &stderr)
	if code != ExitFailed || !strings.HasSuffix(stdout.String(), "2 flow(s), 2 passed, 0 failed, in 3.0s\n") ||
		stderr.String() != "e2e-mcp merge-reports: no blob of shard 1/2: its flows are not in these reports\n" {
		t.Errorf("one shard of two: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	// The same blob twice.
	stderr.Reset()
	one := filepath.Join(blobs, "blob-1", "report-1-of-2.zip")
	if code := Merge(MergeOptions{Dirs: []string{one, one}, Report: filepath.Join(root, "twice")}, &stdout, &stderr); code != ExitUsage ||
		!strings.Contains(stderr.String(), "are both shard 1/2") {
		t.Errorf("one blob twice: exit %d, %s", code, stderr.String())
	}
	// No blob where it looks.
	stderr.Reset()
	if code := Merge(MergeOptions{Dirs: []string{filepath.Join(root, "machine-1")}, Report: filepath.Join(root, "none")}, &stdout, &stderr); code != ExitUsage ||
		!strings.Contains(stderr.String(), "no blob in") {
		t.Errorf("no blob: exit %d, %s", code, stderr.String())
	}
}
