package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// Every run with --artifacts DIR keeps what failed in DIR/.last-run.json
// (Playwright keeps its own in its output directory), written whole after
// the run, atomically (a new file renamed over the old), so that a run cut
// short leaves the last one's. `run --last-failed --artifacts DIR` reads it
// and replays only the flows of the command line that failed then. A flow
// is known by its file's absolute path; a flow that did not run (after
// --max-failures) did not fail, as in Playwright.

// lastRunFile is the state's name in the artifacts directory.
const lastRunFile = ".last-run.json"

// lastRun is the state: how the run ended and what failed.
type lastRun struct {
	// Status is passed, failed, or interrupted (--max-failures left
	// flows not run).
	Status string     `json:"status"`
	Failed []lastFlow `json:"failedTests"`
}

// lastFlow is a flow that failed: its file's absolute path and its name
// (for a person: masked, as every writer masks).
type lastFlow struct {
	File string `json:"file"`
	Name string `json:"name"`
}

// lastRunPath is where the state of runs with --artifacts dir is.
func lastRunPath(dir string) string { return filepath.Join(dir, lastRunFile) }

// readLastRun reads the last run's state from the artifacts directory.
func readLastRun(dir string) (lastRun, error) {
	var l lastRun
	b, err := os.ReadFile(lastRunPath(dir)) //nolint:gosec // the directory the user named
	if errors.Is(err, fs.ErrNotExist) {
		return l, fmt.Errorf("--last-failed: no last run in %s (%s is missing): run once with --artifacts %s first", dir, lastRunFile, dir)
	}
	if err != nil {
		return l, fmt.Errorf("--last-failed: %w", err)
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return l, fmt.Errorf("--last-failed: %s is not a run's state: %w", lastRunPath(dir), err)
	}
	return l, nil
}

// lastRunState writes the state when the run ends (a reporter).
type lastRunState struct {
	dir     string
	secrets *redact.Set
}

func (l *lastRunState) flowEnded(flowResult) {}

func (l *lastRunState) runEnded(s summary) error {
	st := lastRun{Status: "passed", Failed: []lastFlow{}}
	seen := map[string]bool{}
	for _, r := range s.results {
		if !r.failed {
			continue
		}
		st.Status = "failed"
		if f := absPath(r.file); !seen[f] {
			seen[f] = true
			st.Failed = append(st.Failed, lastFlow{File: f, Name: l.secrets.String(r.name)})
		}
	}
	if s.skipped > 0 {
		st.Status = "interrupted"
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := mcptools.WriteUserFile(l.dir, lastRunFile, append(b, '\n')); err != nil {
		return fmt.Errorf("the last run's state (--last-failed reads it): %w", err)
	}
	return nil
}
