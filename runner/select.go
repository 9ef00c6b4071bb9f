package runner

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"gopkg.in/yaml.v3"
)

// Which flows a run replays, with Playwright Test's names for the options:
//
//   - the paths given, in order, each file once: a file is a flow (any
//     error in it stops the run before anything starts); a directory holds
//     every *.yaml and *.yml file at any depth under it, in lexical order,
//     but for its hidden directories and node_modules. A YAML file there
//     that has no steps: is not a flow (a config, a fixture): it is
//     skipped, and said so on stderr; so is a FLOW.healed.yaml --heal
//     wrote. One with steps: is a flow, and an error in it stops the run
//     as a file named would; so does a file that is not YAML at all;
//   - --grep and --grep-invert: of those, the flows whose file, name and
//     tags, joined by spaces ("flows/pay.yaml checkout @smoke"), match and
//     do not match, as Playwright matches a test's title path and tags;
//   - --last-failed: of those, the flows that failed in the last run
//     (laststate.go);
//   - --repeat-each N: the whole list N times over, each flow's later runs
//     named "NAME (2)", "NAME (3)"...;
//   - --list prints the result, one flow a line, and starts nothing.

// isHidden says a directory found under one named is not searched.
func isHidden(name string) bool { return strings.HasPrefix(name, ".") || name == "node_modules" }

// flowFiles is every flow file paths name, in order, each once (by its
// absolute path), and notes on the YAML files of directories that are not
// flows.
func flowFiles(paths []string) (files, notes []string, err error) {
	seen := map[string]bool{}
	add := func(p string) {
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		if !seen[abs] {
			seen[abs] = true
			files = append(files, p)
		}
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil || !fi.IsDir() {
			add(p) // flow.Load says what is wrong with it
			continue
		}
		n := len(files)
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if path != p && isHidden(d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			ext := strings.ToLower(filepath.Ext(path))
			if ext != ".yaml" && ext != ".yml" {
				return nil
			}
			if base := strings.TrimSuffix(path, filepath.Ext(path)); strings.HasSuffix(base, ".healed") {
				notes = append(notes, fmt.Sprintf("skipped %s: the repaired flow run --heal wrote beside %s (review it, then move it over that file)",
					path, strings.TrimSuffix(base, ".healed")+filepath.Ext(path)))
				return nil
			}
			ok, err := isFlowFile(path)
			if err != nil {
				return err
			}
			if !ok {
				notes = append(notes, fmt.Sprintf("skipped %s: not a flow (a YAML file with no steps:)", path))
				return nil
			}
			add(path)
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		if len(files) == n {
			return nil, nil, fmt.Errorf("%s: no flow in it (a flow is a *.yaml or *.yml file with steps:)", p)
		}
	}
	return files, notes, nil
}

// isFlowFile says whether a YAML file found in a directory is a flow: a
// map with steps. A file that is not YAML is an error: it cannot be told.
func isFlowFile(path string) (bool, error) {
	b, err := os.ReadFile(path) //nolint:gosec // a file under a directory the user named to run
	if err != nil {
		return false, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return false, fmt.Errorf("%s: not YAML, so not a flow nor anything else run can skip: %w", path, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return false, nil
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "steps" {
			return true, nil
		}
	}
	return false, nil
}

// grepRE reads a --grep pattern as Playwright reads its own: /RE/ with
// its flags after it (i: case-insensitive; g means nothing here), any
// other text a case-insensitive RE. The syntax is Go's (RE2). "" is nil:
// everything matches.
func grepRE(s string) (*regexp.Regexp, error) {
	if s == "" {
		return nil, nil
	}
	if m := regexp.MustCompile(`^/(.*)/([gi]*)$`).FindStringSubmatch(s); m != nil {
		re := m[1]
		if strings.Contains(m[2], "i") {
			re = "(?i)" + re
		}
		return regexp.Compile(re)
	}
	return regexp.Compile("(?i)" + s)
}

// grepText is what --grep reads of a flow: its file, its name and its
// tags, joined by spaces, as Playwright joins a test's file, titles and
// tags.
func grepText(file string, f *flow.Flow) string {
	return strings.Join(append([]string{file, f.Name}, f.Tags...), " ")
}

// selected are the indices of the flows o keeps (grep, grep-invert, last
// failed), in order; when the last run failed none, why the list is
// empty.
func selected(o Options, files []string, flows []*flow.Flow) (keep []int, none string, err error) {
	grep, _ := grepRE(o.Grep)
	invert, _ := grepRE(o.GrepInvert)
	for i, f := range flows {
		text := grepText(files[i], f)
		if (grep == nil || grep.MatchString(text)) && (invert == nil || !invert.MatchString(text)) {
			keep = append(keep, i)
		}
	}
	if len(keep) == 0 {
		var what []string
		if o.Grep != "" {
			what = append(what, fmt.Sprintf("--grep %q", o.Grep))
		}
		if o.GrepInvert != "" {
			what = append(what, fmt.Sprintf("--grep-invert %q", o.GrepInvert))
		}
		return nil, "", fmt.Errorf("no flow of %d is left by %s (it reads each flow's file, name and tags)", len(flows), strings.Join(what, " and "))
	}
	if !o.LastFailed {
		return keep, "", nil
	}
	last, err := readLastRun(o.Artifacts)
	if err != nil {
		return nil, "", err
	}
	failed := map[string]bool{}
	for _, f := range last.Failed {
		failed[f.File] = true
	}
	var again []int
	for _, i := range keep {
		if failed[absPath(files[i])] {
			again = append(again, i)
		}
	}
	if len(again) == 0 {
		return nil, fmt.Sprintf("--last-failed: no flow of these failed in the last run (%s)", lastRunPath(o.Artifacts)), nil
	}
	return again, "", nil
}

// repeatName is a flow's name in its r-th run (from 1) of --repeat-each.
func repeatName(name string, r int) string {
	if r == 1 {
		return name
	}
	return fmt.Sprintf("%s (%d)", name, r)
}

// absPath is a flow file's absolute path, how the last run's state names it.
func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// List prints the flows of the suite as a run would replay them, one a
// line (its file, name, tags and the setup flows it needs), then how
// many, and starts nothing (run --list). It returns ExitOK.
func List(s *Suite, stdout, stderr io.Writer) int {
	s.tellNotes(stderr)
	fmt.Fprintln(stdout, "Listing flows:")
	files := map[string]bool{}
	for _, t := range s.tests {
		files[t.file] = true
		line := "  " + t.file + " › " + t.name
		if len(t.flow.Tags) > 0 {
			line += " " + strings.Join(t.flow.Tags, " ")
		}
		if len(t.needs) > 0 {
			line += " (needs " + strings.Join(t.needNames(), ", ") + ")" // setup.go
		}
		fmt.Fprintln(stdout, line)
	}
	fmt.Fprintf(stdout, "Total: %s in %s\n", count(len(s.tests), "flow"), count(len(files), "file"))
	return ExitOK
}

// tellNotes says on stderr what the suite skipped and why.
func (s *Suite) tellNotes(stderr io.Writer) {
	for _, n := range s.notes {
		fmt.Fprintf(stderr, "e2e-mcp run: %s\n", n)
	}
	if s.none != "" {
		fmt.Fprintf(stderr, "e2e-mcp run: %s\n", s.none)
	}
}

// count is "1 flow", "3 flows".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
