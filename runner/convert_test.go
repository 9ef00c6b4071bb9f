package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestConvertDirectory: convert takes a directory as run does (every flow
// in it and below, not the repaired flows or YAML files that are no
// flows, which it notes), and a file named again is written once; an
// empty directory is a usage error naming it.
func TestConvertDirectory(t *testing.T) {
	dir := t.TempDir()
	step := "steps:\n  - navigate: https://example.test/\n"
	writeTree(t, dir, map[string]string{
		"flows/a.yaml":        "name: alpha\n" + step,
		"flows/sub/b.yml":     "name: beta\n" + step,
		"flows/a.healed.yaml": "name: alpha\n" + step,
		"flows/config.yaml":   "projects: []\n",
		"empty/readme.txt":    "nothing\n",
	})
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	code := Convert(ConvertOptions{Files: []string{filepath.Join(dir, "flows"), filepath.Join(dir, "flows", "a.yaml")}, To: "playwright", Out: out}, &stdout, &stderr)
	if code != ExitOK {
		t.Fatalf("convert flows/: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	ents, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if want := []string{"alpha.spec.ts", "beta.spec.ts", "playwright.config.ts"}; !slices.Equal(got, want) {
		t.Errorf("written: %v, want %v", got, want)
	}
	for _, w := range []string{"skipped " + filepath.Join(dir, "flows", "a.healed.yaml"), "skipped " + filepath.Join(dir, "flows", "config.yaml") + ": not a flow"} {
		if !strings.Contains(stderr.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
		}
	}

	stderr.Reset()
	code = Convert(ConvertOptions{Files: []string{filepath.Join(dir, "empty")}, To: "playwright", Out: out}, &stdout, &stderr)
	if code != ExitUsage || !strings.Contains(stderr.String(), filepath.Join(dir, "empty")+": no flow in it") {
		t.Errorf("an empty directory: exit %d, %s", code, stderr.String())
	}
}
