package runner

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Options are a run's settings: cmd/e2e-mcp builds them from run's flags.
type Options struct {
	// Files are the flow files to replay, in the order given.
	Files []string
	// JUnit is the JUnit XML file to write ("" for none).
	JUnit string
	// Artifacts is the directory each failure's answer and images go
	// under ("" for none).
	Artifacts string
	// Report is the directory each flow's HTML report goes in ("" for none).
	Report string
	// Video is the directory videos are kept in ("" for none), and
	// VideoMode whose: VideoRetainOnFailure or VideoOn.
	Video, VideoMode string
	// Trace is the directory each flow's trace goes in ("" for none), and
	// TraceMode whose: TraceOn ("" too) or TraceOnFirstRetry.
	Trace, TraceMode string
	// Retries is how many times a failed flow runs again, each time in a
	// new session; one that passes on a retry is flaky (retry.go).
	Retries int
	// Parallel is how many flows run at once, each in its own session.
	Parallel int
	// UpdateSnapshots rewrites the baselines of visual checks instead of
	// comparing with them.
	UpdateSnapshots bool
	// Heal replays a drifted step on the likely same element (heal.go).
	Heal HealMode
	// HealOK: flows that passed only by healing do not fail the run.
	HealOK bool
	// Reporters are the reporters --reporter names (reporters.go): none
	// for list alone. --junit, --json and --blob add theirs.
	Reporters ReporterList
	// JSON is the file the json reporter writes ("" for stdout).
	JSON string
	// Blob is the directory the blob reporter writes its zip in ("" for
	// blob-report).
	Blob string
	// Shard is the part of the suite this run replays (zero: all of it).
	Shard Shard
	// Terminal says stdout is a terminal: the line reporter rewrites its
	// one line there.
	Terminal bool
	// title is the HTML index's title when it is not the run's
	// (merge-reports').
	title string

	// Which flows, how often, and for how long (select.go): Files may
	// name directories, every flow under them found; Grep and GrepInvert
	// keep the flows whose file, name and tags (joined by spaces) match
	// and do not match (Playwright's --grep: a /RE/flags form, else
	// case-insensitive); LastFailed keeps those that failed in the last
	// run (.last-run.json in Artifacts); RepeatEach runs each that many
	// times (0 or 1: once); List prints them and runs none.
	Grep, GrepInvert string
	LastFailed       bool
	RepeatEach       int
	List             bool
	// MaxFailures stops starting flows once this many failed (0: never);
	// the rest are reported as not run.
	MaxFailures int
	// Timeout bounds each flow's steps (0: none); a flow's own timeout:
	// wins, as test.setTimeout wins over Playwright's config.
	Timeout time.Duration
	// DevServerPerFlow starts a dev server for each flow, in its session,
	// instead of one for the flows that share a dev: (devshare.go).
	DevServerPerFlow bool
	// Config is the run config file (project.go; "": DefaultConfig when
	// it exists), and Projects the projects of it to run (none: all).
	Config   string
	Projects []string
}

// The values of Options.VideoMode.
const (
	VideoRetainOnFailure = "retain-on-failure" // the failed flows' videos
	VideoOn              = "on"                // every flow's
	VideoOnFirstRetry    = "on-first-retry"    // a flow's first retry's
)

// The values of Options.TraceMode, Playwright's names.
const (
	TraceOn           = "on"             // every attempt's trace
	TraceOnFirstRetry = "on-first-retry" // only a flow's first retry's
)

// Exit codes Run returns, the CLI's.
const (
	ExitOK     = 0 // every flow passed (some perhaps on a retry: flaky)
	ExitFailed = 1 // a flow failed, or was healed without HealOK
	ExitUsage  = 2 // a bad command line
)

// Check says what is wrong in the options, in the command line's words
// (cmd adds where its help is), or nil.
func (o Options) Check() error {
	switch {
	case len(o.Files) == 0:
		return errors.New("give the flow files to run")
	case o.Parallel < 1:
		return errors.New("--parallel must be 1 or more")
	case o.VideoMode != VideoRetainOnFailure && o.VideoMode != VideoOn && o.VideoMode != VideoOnFirstRetry:
		return errors.New("--video-mode is retain-on-failure, on or on-first-retry")
	case o.TraceMode != "" && o.TraceMode != TraceOn && o.TraceMode != TraceOnFirstRetry:
		return errors.New("--trace-mode is on or on-first-retry")
	case o.Retries < 0:
		return errors.New("--retries must be 0 or more")
	case o.RepeatEach < 0:
		return errors.New("--repeat-each must be 1 or more")
	case o.MaxFailures < 0:
		return errors.New("--max-failures must be 1 or more (0: no limit)")
	case o.Timeout < 0:
		return errors.New("--timeout must be more than 0")
	case o.LastFailed && o.Artifacts == "":
		return errors.New("--last-failed reads the last run's state from the --artifacts directory: give --artifacts DIR (the one of the last run)")
	}
	for flag, re := range map[string]string{"--grep": o.Grep, "--grep-invert": o.GrepInvert} {
		if _, err := grepRE(re); err != nil {
			return fmt.Errorf("%s: %w", flag, err)
		}
	}
	for _, r := range o.Reporters {
		if !isReporter(r) {
			return fmt.Errorf("--reporter %q: the reporters are %s", r, strings.Join(reporterNames, ", "))
		}
	}
	return o.Shard.check()
}
