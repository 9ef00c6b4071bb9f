package e2e

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// runIn runs the binary with args in dir and returns its stdout, stderr
// and exit code.
func runIn(t *testing.T, env []string, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Dir = env, dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return stdout.String(), stderr.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), 0
}

// shopSuite writes a suite of six flows over testdata/shards/shop.html
// under dir/suite, in three directories; checkout/pay.yaml clicks a
// button the shop does not have. It returns the files (relative to
// dir/suite) by flow name.
func shopSuite(t *testing.T, dir, baseURL string) map[string]string {
	t.Helper()
	flows := map[string][2]string{ // name: file, button, then the status it shows
		"about":  {"about.yaml", "About|About us"},
		"cart":   {"checkout/cart.yaml", "Add to cart|Added"},
		"pay":    {"checkout/pay.yaml", "Pay now|Paid"},
		"help":   {"home.yaml", "Help|Help is here"},
		"filter": {"search/filter.yaml", "Filter|Filtered"},
		"find":   {"search/find.yaml", "Search|Found 3"},
	}
	files := map[string]string{}
	for name, f := range flows {
		button, status, _ := strings.Cut(f[1], "|")
		text := fmt.Sprintf(`name: %s
baseURL: %s
steps:
  - navigate: /shards/shop.html
  - click: 'role=button[name="%s"]'
  - expect: {target: 'role=status', check: text, expected: '%s'}
`, name, baseURL, button, status)
		p := filepath.Join(dir, "suite", f[0])
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files[name] = f[0]
	}
	return files
}

// ranFlows are the flows a run's list or line output names, by outcome.
func ranFlows(out string) map[string][]string {
	got := map[string][]string{}
	for _, m := range regexp.MustCompile(`(?m)^(PASS|FAIL|HEALED)  (\S+) \(`).FindAllStringSubmatch(out, -1) {
		got[m[1]] = append(got[m[1]], m[2])
	}
	return got
}

// blobFlows are the names of the flows a blob holds, in its order.
func blobFlows(t *testing.T, path string) []string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatalf("the blob: %v", err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name != "e2e-mcp-blob.json" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		var doc struct {
			Shard string `json:"shard"`
			Flows []struct {
				Name string `json:"name"`
			} `json:"flows"`
		}
		if err := json.NewDecoder(rc).Decode(&doc); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, fl := range doc.Flows {
			names = append(names, fl.Name)
		}
		return names
	}
	t.Fatalf("%s holds no e2e-mcp-blob.json", path)
	return nil
}

// jsonReport is what the test reads of run --reporter json's document.
type jsonReport struct {
	Shard string `json:"shard"`
	Stats struct {
		Flows, Passed, Failed int
	} `json:"stats"`
	Flows []struct {
		Name       string `json:"name"`
		File       string `json:"file"`
		Outcome    string `json:"outcome"`
		Attempts   int    `json:"attempts"`
		DurationMs int64  `json:"durationMs"`
		Steps      []struct {
			Action  string `json:"action"`
			Line    int    `json:"line"`
			Column  int    `json:"column"`
			Outcome string `json:"outcome"`
		} `json:"steps"`
		Error *struct {
			Step    int    `json:"step"`
			Type    string `json:"type"`
			Message string `json:"message"`
			Line    int    `json:"line"`
		} `json:"error"`
		Artifacts string `json:"artifacts"`
	} `json:"flows"`
}

// TestShardsAndMerge: a suite of six flows (one fails) split over two
// machines: `run --shard 1/2` and `--shard 2/2`, started from different
// working directories, each writing a blob, replay every flow once
// between them; shard 1/2 again, from a third directory with the files
// named absolutely, replays the same flows, and its dot, json and github
// reporters say so: the json document parsed, the GitHub annotation on
// the failing step's line and column of the failing flow's file (relative
// to $GITHUB_WORKSPACE). `merge-reports` of the two blobs gives every
// flow's line and the summary (exit 1), a JUnit file with every flow, and
// an HTML index that, opened in Chromium through the binary, links each
// flow's report, which opens as that flow's.
func TestShardsAndMerge(t *testing.T) {
	f := newFixture(t)
	tmp := t.TempDir()
	files := shopSuite(t, tmp, f.URL)
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_LOG_LEVEL=warn", "E2E_MCP_ACTION_TIMEOUT=1s", "GITHUB_WORKSPACE="+tmp)
	var names, rel, abs []string
	for name, file := range files {
		names = append(names, name)
		rel = append(rel, file)
		abs = append(abs, filepath.Join(tmp, "suite", file))
	}
	sort.Strings(names)
	fromTmp := make([]string, len(rel))
	for i, r := range rel {
		fromTmp[i] = filepath.Join("suite", r)
	}

	// Machine 1, from above the suite, with the line reporter.
	out1, errs1, code1 := runIn(t, env, tmp, append([]string{"run", "--shard", "1/2", "--reporter", "line,blob", "--blob", "blobs/one"}, fromTmp...)...)
	// Machine 2, from inside it, given the files in another order.
	slices.Reverse(rel)
	out2, errs2, code2 := runIn(t, env, filepath.Join(tmp, "suite"), append([]string{"run", "--reporter", "list", "--reporter", "blob", "--shard", "2/2", "--blob", "../blobs/two"}, rel...)...)
	t.Logf("shard 1/2 (exit %d):\n%s%s\nshard 2/2 (exit %d):\n%s%s", code1, out1, errs1, code2, out2, errs2)
	shard1 := blobFlows(t, filepath.Join(tmp, "blobs", "one", "report-1-of-2.zip"))
	shard2 := blobFlows(t, filepath.Join(tmp, "blobs", "two", "report-2-of-2.zip"))
	both := append(append([]string(nil), shard1...), shard2...)
	sort.Strings(both)
	if !slices.Equal(both, names) {
		t.Fatalf("the shards replayed %v and %v; want each of %v once", shard1, shard2, names)
	}
	// The split is the files' order below the suite, cut in two: about,
	// checkout/cart, checkout/pay | home (help), search/filter, search/find.
	if !slices.Equal(shard1, []string{"about", "cart", "pay"}) || !slices.Equal(shard2, []string{"help", "filter", "find"}) {
		t.Errorf("the shards: %v | %v, want [about cart pay] | [help filter find]", shard1, shard2)
	}
	// line: only the failed flow, in full, then the summary; list: each.
	if code1 != 1 || len(ranFlows(out1)["PASS"]) != 0 || !slices.Equal(ranFlows(out1)["FAIL"], []string{"pay"}) ||
		!regexp.MustCompile(`(?m)^3 flow\(s\), 2 passed, 1 failed, in [0-9.]+s$`).MatchString(out1) {
		t.Errorf("shard 1/2 with --reporter line: exit %d\n%s", code1, out1)
	}
	if code2 != 0 || !slices.Equal(ranFlows(out2)["PASS"], shard2) {
		t.Errorf("shard 2/2 with --reporter list: exit %d\n%s", code2, out2)
	}

	// Shard 1/2 again, from elsewhere, the files named absolutely: the
	// same flows; dot, json and github.
	elsewhere := t.TempDir()
	jsonFile := filepath.Join(elsewhere, "run.json")
	out3, errs3, code3 := runIn(t, env, elsewhere, append([]string{"run", "--shard", "1/2", "--reporter", "dot,json,github", "--json", jsonFile, "--artifacts", "art"}, abs...)...)
	t.Logf("shard 1/2 again (exit %d):\n%s%s", code3, out3, errs3)
	if code3 != 1 || !strings.HasPrefix(out3, "··F\nFAIL  pay (") || !regexp.MustCompile(`(?m)^3 flow\(s\), 2 passed, 1 failed, in [0-9.]+s$`).MatchString(out3) {
		t.Errorf("--reporter dot: exit %d\n%s", code3, out3)
	}
	var doc jsonReport
	b, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("the json report: %v\n%s", err, b)
	}
	var again []string
	for _, fl := range doc.Flows {
		again = append(again, fl.Name)
	}
	if !slices.Equal(again, shard1) || doc.Shard != "1/2" || doc.Stats.Flows != 3 || doc.Stats.Passed != 2 || doc.Stats.Failed != 1 {
		t.Errorf("shard 1/2 from elsewhere replayed %v (shard %q, stats %+v), want %v", again, doc.Shard, doc.Stats, shard1)
	}
	// The failing step's place, read from the flow file itself.
	payFile := filepath.Join(tmp, "suite", files["pay"])
	payText, err := os.ReadFile(payFile)
	if err != nil {
		t.Fatal(err)
	}
	line, col := 0, 0
	for i, l := range strings.Split(string(payText), "\n") {
		if strings.Contains(l, `"Pay now"`) {
			line, col = i+1, strings.Index(l, "click")+1
		}
	}
	for _, fl := range doc.Flows {
		if fl.Attempts != 1 || fl.DurationMs <= 0 || len(fl.Steps) != 3 {
			t.Errorf("json: flow %s: %+v", fl.Name, fl)
		}
		if fl.Name != "pay" {
			if fl.Outcome != "passed" || fl.Error != nil {
				t.Errorf("json: flow %s: %+v", fl.Name, fl)
			}
			continue
		}
		var outs []string
		for _, st := range fl.Steps {
			outs = append(outs, st.Outcome)
		}
		if fl.Outcome != "failed" || fl.Error == nil || fl.Error.Step != 2 || fl.Error.Type != "element_not_found" || fl.Error.Line != line ||
			fl.Steps[1].Line != line || fl.Steps[1].Column != col || strings.Join(outs, " ") != "passed failed skipped" || fl.File != payFile {
			t.Errorf("json: the failed flow: %+v, error %+v (want step 2 at line %d column %d)", fl, fl.Error, line, col)
		}
		if _, err := os.Stat(filepath.Join(elsewhere, fl.Artifacts, "step-2.md")); err != nil {
			t.Errorf("json: the failure's artifacts %q: %v", fl.Artifacts, err)
		}
	}
	want := fmt.Sprintf("::error file=suite/checkout/pay.yaml,line=%d,col=%d,title=flow pay failed::step 2, click role=button[name=\"Pay now\"]: element_not_found", line, col)
	if line != 5 || col != 5 || !strings.Contains(out3, "\n"+want) || !regexp.MustCompile(`(?m)^::notice title=e2e-mcp run::3 flow\(s\), 2 passed, 1 failed, in [0-9.]+s$`).MatchString(out3) {
		t.Errorf("--reporter github: want a line starting %s (line %d, column %d of the file):\n%s", want, line, col, out3)
	}

	// The merge of the two machines' blobs.
	junit := filepath.Join(tmp, "junit.xml")
	out, errs, code := runIn(t, env, tmp, "merge-reports", "blobs", "--junit", junit, "--report", "merged")
	t.Logf("merge-reports (exit %d):\n%s%s", code, out, errs)
	ran := ranFlows(out)
	merged := append(append([]string(nil), ran["PASS"]...), ran["FAIL"]...)
	sort.Strings(merged)
	if code != 1 || errs != "" || !slices.Equal(merged, names) || !slices.Equal(ran["FAIL"], []string{"pay"}) ||
		!regexp.MustCompile(`(?m)^6 flow\(s\), 5 passed, 1 failed, in [0-9.]+s$`).MatchString(out) {
		t.Errorf("merge-reports: exit %d, flows %v\n%s%s", code, ran, out, errs)
	}
	suite, jb := readJUnit(t, junit)
	var cases []string
	for _, c := range suite.Cases {
		cases = append(cases, c.Name)
		if (c.Failure != nil) != (c.Name == "pay") || !strings.Contains(c.SystemOut, "[[ATTACHMENT|merged/") {
			t.Errorf("JUnit's case %s: failure %v, attachments %q", c.Name, c.Failure, c.SystemOut)
		}
	}
	sort.Strings(cases)
	if !slices.Equal(cases, names) || suite.Tests != 6 || suite.Failures != 1 {
		t.Errorf("the merged JUnit has %v:\n%s", cases, jb)
	}

	// The index, as Chromium shows it: a row a flow, each linking its
	// report, which opens as that flow's.
	viewEnv, _ := serverEnv(t)
	c := startClient(t, append(viewEnv, "E2E_MCP_ALLOW_FILE_URLS=true", "E2E_MCP_LOG_LEVEL=warn"))
	index := filepath.Join(tmp, "merged", "index.html")
	mustCall(t, c, "browser_navigate", map[string]any{"url": "file://" + index})
	res := call(t, c, "browser_evaluate", map[string]any{"function": `() => [...document.querySelectorAll('tr.flow')].map(tr => ({
		name: tr.querySelector('td.name').innerText, outcome: tr.querySelector('td.outcome').innerText.toLowerCase(),
		report: tr.querySelector('a.report')?.href || ''}))`})
	if res.IsError {
		t.Fatalf("reading the index: %s", text(res))
	}
	var rows []struct{ Name, Outcome, Report string }
	sc, _ := res.StructuredContent.(map[string]any)
	rb, _ := json.Marshal(sc["result"])
	if err := json.Unmarshal(rb, &rows); err != nil {
		t.Fatalf("the index's rows: %v\n%s", err, rb)
	}
	var listed []string
	for _, r := range rows {
		listed = append(listed, r.Name)
		if want := map[bool]string{true: "failed", false: "passed"}[r.Name == "pay"]; r.Outcome != want || r.Report == "" {
			t.Errorf("the index's row of %s: %+v, want %s with a report", r.Name, r, want)
			continue
		}
		mustCall(t, c, "browser_navigate", map[string]any{"url": r.Report})
		title := call(t, c, "browser_evaluate", map[string]any{"function": `() => document.title`})
		if !strings.Contains(text(title), "Flow "+r.Name) {
			t.Errorf("%s's link %s opens %s", r.Name, r.Report, text(title))
		}
	}
	sort.Strings(listed)
	if !slices.Equal(listed, names) {
		t.Errorf("the index lists %v, want %v", listed, names)
	}
}
