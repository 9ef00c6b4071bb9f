package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/cli"
	"github.com/e2e-mcp/e2e-mcp/runner"
)

// TestRunExitCodes: run and convert return the runner's exit codes as
// they are, so they must be the CLI's.
func TestRunExitCodes(t *testing.T) {
	for _, c := range [][2]int{{runner.ExitOK, cli.ExitOK}, {runner.ExitFailed, cli.ExitFailed}, {runner.ExitUsage, cli.ExitUsage}} {
		if c[0] != c[1] {
			t.Errorf("the runner's exit code %d is the CLI's %d", c[0], c[1])
		}
	}
}

// TestCIExamples: docs/ci.md's CI jobs that shard a suite over 4
// machines and merge the reports are YAML that GitHub Actions and GitLab
// CI read (4 shards of 4; each shard's blob handed to the merge job), and
// each e2e-mcp command in them is one our command lines take: run and
// merge-reports get as far as the flows and blobs, which this test does
// not have, with no mistake in their flags.
func TestCIExamples(t *testing.T) {
	b, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(# \\.(github/workflows/[a-z.]+|gitlab-ci\\.yml)\n.*?)```").FindAllStringSubmatch(string(b), -1)
	if len(blocks) != 2 {
		t.Fatalf("want the GitHub Actions and the GitLab CI examples, found %d", len(blocks))
	}
	var commands []string
	for _, blk := range blocks {
		var doc map[string]any
		if err := yaml.Unmarshal([]byte(blk[1]), &doc); err != nil {
			t.Fatalf("%s: %v", blk[2], err)
		}
		text := blk[1]
		if strings.HasPrefix(blk[2], "github") {
			jobs, _ := doc["jobs"].(map[string]any)
			flows, _ := jobs["flows"].(map[string]any)
			matrix, _ := flows["strategy"].(map[string]any)["matrix"].(map[string]any)
			if fmt.Sprint(matrix["shardIndex"]) != "[1 2 3 4]" || fmt.Sprint(matrix["shardTotal"]) != "[4]" {
				t.Errorf("GitHub's matrix: %v", matrix)
			}
			merge, _ := jobs["merge-reports"].(map[string]any)
			if fmt.Sprint(merge["needs"]) != "[flows]" || !strings.Contains(text, "pattern: blob-report-*") || !strings.Contains(text, "merge-multiple: true") {
				t.Errorf("GitHub's merge job does not get every shard's blob: %v", merge)
			}
			text = strings.NewReplacer("${{ matrix.shardIndex }}", "2", "${{ matrix.shardTotal }}", "4").Replace(text)
		} else {
			flows, _ := doc["flows"].(map[string]any)
			merge, _ := doc["merge-reports"].(map[string]any)
			if flows["parallel"] != 4 || fmt.Sprint(merge["needs"]) != "[flows]" || merge["when"] != "always" {
				t.Errorf("GitLab's jobs: %v %v", flows, merge)
			}
			text = strings.NewReplacer(`"$CI_NODE_INDEX/$CI_NODE_TOTAL"`, "2/4").Replace(text)
		}
		for _, l := range strings.Split(text, "\n") {
			if _, cmd, ok := strings.Cut(l, "- run: e2e-mcp "); ok && !strings.Contains(cmd, "@") {
				commands = append(commands, cmd)
			} else if _, cmd, ok := strings.Cut(l, "    - e2e-mcp "); ok {
				commands = append(commands, cmd)
			}
		}
	}
	if len(commands) != 4 {
		t.Fatalf("want a run and a merge-reports in each, found %q", commands)
	}
	dir := t.TempDir()
	for _, c := range commands {
		args := strings.Fields(c)
		for i, a := range args[:len(args)-1] {
			if a == "--junit" || a == "--trace" || a == "--report" || a == "--json" || a == "--blob" {
				args[i+1] = filepath.Join(dir, args[i+1]) // no file of this test's
			}
		}
		var out, errb bytes.Buffer
		code := realMain(args, nil, &out, &errb)
		want := map[string]string{"run": "e2e-mcp run: open flows/*.yaml: no such file or directory\n",
			"merge-reports": "e2e-mcp merge-reports: stat "}[args[0]]
		if code != 2 || !strings.HasPrefix(errb.String(), want) {
			t.Errorf("e2e-mcp %s: exit %d, %q; want exit 2 at %q", c, code, errb.String(), want)
		}
	}
}
