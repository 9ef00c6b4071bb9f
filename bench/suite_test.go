package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sample(runner, setting string, round int, wall, cpu, rss, bytes float64) suiteSample {
	return suiteSample{Runner: runner, Setting: setting, Round: round, Tests: 14, Passed: 14,
		Figures: map[string]float64{"wall_ms": wall, "cpu_ms": cpu, "rss_kb": rss, "bytes": bytes}}
}

func rowOf(t *testing.T, rows []suiteRow, setting, fig string) suiteRow {
	t.Helper()
	for _, r := range rows {
		if r.Setting == setting && r.Figure == fig {
			return r
		}
	}
	t.Fatalf("no row %s/%s in %+v", setting, fig, rows)
	return suiteRow{}
}

// TestSuiteRatiosPerRound: the ratio is the median of each round's own
// ratio (not the ratio of the medians), and a run in which a flow failed
// counts on neither side of its round and is named in a note.
func TestSuiteRatiosPerRound(t *testing.T) {
	samples := []suiteSample{
		sample(suiteOurs, "w1", 1, 10000, 3000, 400000, 3000),
		sample(suitePW, "w1", 1, 20000, 6000, 1000000, 4000),
		sample(suiteOurs, "w1", 2, 12000, 3000, 400000, 3000),
		sample(suitePW, "w1", 2, 15000, 6000, 1000000, 4000),
		sample(suiteOurs, "w1", 3, 30000, 3000, 400000, 3000),
		sample(suitePW, "w1", 3, 40000, 6000, 1000000, 4000),
	}
	rows, notes := summarizeSuite(samples)
	wall := rowOf(t, rows, "w1", "wall_ms")
	// Rounds: 0.5, 0.8, 0.75 → median 0.75; the medians' ratio would be 12/20 = 0.6.
	if wall.Ratio.N != 3 || wall.Ratio.Median != 0.75 || wall.Ratio.Min != 0.5 || wall.Ratio.Max != 0.8 {
		t.Errorf("wall ratio = %+v, want median 0.75 of 0.5, 0.8, 0.75", wall.Ratio)
	}
	if wall.Ours.Median != 12000 || wall.Other.Median != 20000 {
		t.Errorf("wall medians = %v, %v; want 12000, 20000", wall.Ours.Median, wall.Other.Median)
	}
	if len(notes) != 0 {
		t.Errorf("notes for runs that all passed: %q", notes)
	}

	samples[3].Passed = 13 // Playwright's round 2 lost a flow
	samples[4].Leftover = []string{"4242 python3"}
	rows, notes = summarizeSuite(samples)
	wall = rowOf(t, rows, "w1", "wall_ms")
	if wall.Ratio.N != 2 || wall.Ratio.Median != (0.5+0.75)/2 || wall.Other.N != 2 || wall.Ours.N != 3 {
		t.Errorf("with round 2's Playwright run failed: ratio %+v, ours %+v, other %+v", wall.Ratio, wall.Ours, wall.Other)
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"Playwright Test, 1 worker, JUnit only, round 2 left out: 13 of 14 flows passed",
		"e2e-mcp run, 1 worker, JUnit only, round 3: 1 process(es) still running after it exited, killed by the bench: 4242 python3"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes lack %q:\n%s", want, joined)
		}
	}
}

// TestSuiteRetriesRow: the --retries row compares e2e-mcp with its own
// runs without retries in the same round, on time only, with no target.
func TestSuiteRetriesRow(t *testing.T) {
	samples := []suiteSample{
		sample(suiteOurs, "w1", 1, 10000, 3000, 400000, 3000),
		sample(suitePW, "w1", 1, 20000, 6000, 1000000, 4000),
		sample(suiteOurs, "w1-retries", 1, 10500, 3300, 400000, 3000),
	}
	rows, _ := summarizeSuite(samples)
	r := rowOf(t, rows, "w1-retries", "wall_ms")
	if !r.Self || r.Ratio.Median != 1.05 || r.Other.Median != 10000 || r.Target != 0 {
		t.Errorf("retries wall row = %+v; want ratio 1.05 against e2e-mcp's 10000 without", r)
	}
	for _, row := range rows {
		if row.Setting == "w1-retries" && (row.Figure == "rss_kb" || row.Figure == "bytes") {
			t.Errorf("the retries row has %s", row.Figure)
		}
	}
	var b strings.Builder
	writeSuiteTable(&b, rows, nil)
	if !strings.Contains(b.String(), "| 10.5 s | — (without: 10.0 s) | with / without `--retries 2`: 1.05 |") {
		t.Errorf("retries row as written:\n%s", b.String())
	}
}

// TestSuiteTable: cells show the median with the spread in the unit once,
// the ratio with its target met or missed, the bytes target only with
// artifacts, and a setting's title once.
func TestSuiteTable(t *testing.T) {
	samples := []suiteSample{
		sample(suiteOurs, "w2-art", 1, 9000, 3000, 600*1024, 2_500_000),
		sample(suitePW, "w2-art", 1, 12000, 9000, 1000*1024, 2_000_000),
		sample(suiteOurs, "w2-art", 2, 9400, 3100, 600*1024, 2_500_000),
		sample(suitePW, "w2-art", 2, 11000, 9000, 1000*1024, 2_000_000),
		sample(suiteOurs, "w2", 1, 8000, 3000, 500*1024, 3500),
		sample(suitePW, "w2", 1, 10000, 6000, 900*1024, 3600),
	}
	rows, _ := summarizeSuite(samples)
	var b strings.Builder
	writeSuiteTable(&b, rows, []string{"a note"})
	got := b.String()
	for _, want := range []string{
		"| 2 workers, JUnit only | wall time | 8.0 s | 10.0 s | 0.80 (≤ 0.7: missed) |",
		"|  | bytes written to the output directory | 3.5 KB | 3.6 KB | 0.97 |",
		"| 2 workers, with artifacts | wall time | 9.2 s (9.0–9.4) | 11.5 s (11.0–12.0) | 0.80 (0.75–0.85) (≤ 0.7: missed) |",
		"|  | peak memory (RSS sum of the process tree, sampled) | 600 MB | 1,000 MB | 0.60 (≤ 0.5: missed) |",
		"|  | bytes written to the output directory | 2.5 MB | 2.0 MB | 1.25 (≤ 1: missed) |",
		"|  | CPU time (user+sys of the process tree) | 3.0 s (3.0–3.1) | 9.0 s | 0.34 (0.33–0.34) |",
		"Note: a note",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "2 workers, with artifacts") != 1 {
		t.Errorf("the setting's title is not written once:\n%s", got)
	}
	if i, j := strings.Index(got, "2 workers, JUnit only"), strings.Index(got, "2 workers, with artifacts"); i < 0 || j < i {
		t.Errorf("rows out of the settings' order:\n%s", got)
	}
}

func TestSuiteValue(t *testing.T) {
	cases := []struct {
		v    float64
		unit string
		want string
	}{
		{17234, "s", "17.2 s"},
		{950, "bytes", "950 B"},
		{3526, "bytes", "3.5 KB"},
		{3_031_000, "bytes", "3.0 MB"},
		{1_536_000, "kB", "1,500 MB"},
	}
	for _, c := range cases {
		if got := suiteValue(c.v, c.unit); got != c.want {
			t.Errorf("suiteValue(%v, %s) = %q, want %q", c.v, c.unit, got, c.want)
		}
	}
}

// TestJunitCounts reads both runners' JUnit: a flaky case (failed
// attempts, then passed) passed; a failure, an error or a skip did not.
func TestJunitCounts(t *testing.T) {
	ours := `<testsuites><testsuite name="flows" tests="3" failures="1">
<testcase name="a"></testcase>
<testcase name="b"><flakyFailure message="x"></flakyFailure></testcase>
<testcase name="c"><failure message="step 2"></failure></testcase>
</testsuite></testsuites>`
	tests, passed, err := junitCounts([]byte(ours))
	if err != nil || tests != 3 || passed != 2 {
		t.Errorf("ours: %d tests, %d passed, %v; want 3, 2", tests, passed, err)
	}
	pw := `<testsuites id="" name="" tests="3" failures="0" skipped="1" errors="1" time="1.2">
<testsuite name="a.spec.ts" tests="1"><testcase name="a" classname="a.spec.ts" time="0.9"></testcase></testsuite>
<testsuite name="b.spec.ts" tests="1"><testcase name="b"><skipped/></testcase></testsuite>
<testsuite name="c.spec.ts" tests="1"><testcase name="c"><error message="boom"/></testcase></testsuite>
</testsuites>`
	tests, passed, err = junitCounts([]byte(pw))
	if err != nil || tests != 3 || passed != 1 {
		t.Errorf("playwright: %d tests, %d passed, %v; want 3, 1", tests, passed, err)
	}
	if _, _, err := junitCounts([]byte("<testsuites></testsuites>")); err == nil {
		t.Error("a report without a test case counts")
	}
	if _, _, err := junitCounts([]byte("<testsuites><testsuite>")); err == nil {
		t.Error("a truncated report counts")
	}
}

// TestDirSizes: every regular file counts, under its top-level entry.
func TestDirSizes(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string, n int) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("junit.xml", 100)
	write("trace/a.zip", 1000)
	write("trace/b.zip", 500)
	write("test-results/x/y/trace.zip", 70)
	write("test-results/.last-run.json", 5)
	got := dirSizes(dir)
	want := map[string]int64{"junit.xml": 100, "trace": 1500, "test-results": 75}
	if len(got) != len(want) {
		t.Errorf("dirSizes = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("dirSizes[%s] = %d, want %d", k, got[k], v)
		}
	}
}
