package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/launcher"
	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/cli"
	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/config"
	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/logs"
	"github.com/e2e-mcp/e2e-mcp/runner"
)

// runMain parses run's command line into runner.Options and the server's
// settings, assembles the server's parts, and has the runner replay the
// flows (package runner). It returns the exit code: 0 when every flow
// passed (perhaps on a retry), 1 when one failed, 2 for a bad command line.
func runMain(args []string, stdout, stderr io.Writer) int {
	fs := config.NewFlagSet("run")
	var o runner.Options
	fs.StringVar(&o.JUnit, "junit", "", "write a JUnit XML report to this `file`")
	fs.StringVar(&o.Artifacts, "artifacts", "", "save each failure's response and screenshot under this `directory`")
	fs.StringVar(&o.Report, "report", "", "write each flow's HTML report (steps, a screenshot after each action, the failure, logs) under this `directory`")
	fs.StringVar(&o.Video, "video", "", "keep each failed flow's video (an animated PNG the report plays) under this `directory`")
	fs.StringVar(&o.VideoMode, "video-mode", runner.VideoRetainOnFailure, "which flows' videos --video keeps: retain-on-failure, on (every flow's) or on-first-retry (only a first retry's)")
	fs.StringVar(&o.Trace, "trace", "", "write each flow's trace under this `directory`: a zip that Playwright's Trace Viewer opens (npx playwright show-trace)")
	fs.StringVar(&o.TraceMode, "trace-mode", runner.TraceOn, "which traces --trace writes: on (every attempt's) or on-first-retry (only a first retry's)")
	fs.IntVar(&o.Retries, "retries", 0, "run a failed flow again, each time in a new session, up to `N` times; one that then passes is flaky: it does not fail the run, and the summary says why it flaked")
	fs.IntVar(&o.Parallel, "parallel", 1, "flows run at once, each in its own session")
	headed := fs.Bool("headed", false, "show the browser")
	fs.BoolVar(&o.UpdateSnapshots, "update-snapshots", false, "rewrite the baselines of visual checks (FLOW.snapshots/NAME.png) instead of comparing")
	logLevel := fs.String("log-level", "", "log level on stderr: debug, info, warn or error (default warn, or $E2E_MCP_LOG_LEVEL)")
	fs.Var(&o.Heal, "heal", "replay a step whose target no longer finds its element on the likely same element (the same test id, a near name, label, place), mark it HEALED and write the repaired flow to FLOW.healed.yaml (--heal=write: over FLOW.yaml), with a diff")
	fs.BoolVar(&o.HealOK, "heal-ok", false, "exit 0 when flows passed only by healing (by default a healed run exits 1, so that CI notices)")
	fs.Var(&o.Reporters, "reporter", "the `reporters`, comma-separated or the flag again: list (each flow's line, the default), line, dot, json, junit, html, github, blob")
	fs.StringVar(&o.JSON, "json", "", "write the json reporter's document to this `file` (and turn it on); without it json goes to stdout")
	fs.StringVar(&o.Blob, "blob", "", "write the blob reporter's zip in this `directory` (and turn it on; default blob-report)")
	shard := fs.String("shard", "", "replay only part `i/n` of the flows (1/4 to 4/4), split by flow file, the same on every machine")
	fs.StringVar(&o.Grep, "grep", "", "run only the flows whose file, name and tags (joined by spaces) match this `RE` (Go syntax, case-insensitive; /RE/ for case-sensitive)")
	fs.StringVar(&o.GrepInvert, "grep-invert", "", "run only the flows whose file, name and tags do not match this `RE`")
	fs.IntVar(&o.RepeatEach, "repeat-each", 1, "run each flow `N` times (the whole list N times over; the later runs named NAME (2), NAME (3)...)")
	fs.IntVar(&o.MaxFailures, "max-failures", 0, "start no flow once `N` failed; the rest are reported as not run (SKIP, JUnit skipped) (0: no limit)")
	stopFirst := fs.Bool("x", false, "stop after the first failure (--max-failures 1)")
	fs.BoolVar(&o.LastFailed, "last-failed", false, "run only the flows that failed in the last run (each run with --artifacts DIR keeps what failed in DIR/.last-run.json)")
	fs.BoolVar(&o.List, "list", false, "print the flows the run would replay (file, name, tags), one a line, and exit 0, starting no browser")
	fs.Func("timeout", "the most each flow's steps may take, e.g. 90s or 2m (a flow's own timeout: wins; default none): past it the flow fails naming its step", func(v string) error {
		d, err := flow.ParseTimeout(v)
		o.Timeout = d
		return err
	})
	fs.BoolVar(&o.DevServerPerFlow, "dev-server-per-flow", false, "start a dev server for each flow, in its session (its log in a failure's answer), instead of one for all the flows that share a dev: (the default, as Playwright's webServer)")
	fs.StringVar(&o.Config, "config", "", "the run config `file` naming projects (default "+runner.DefaultConfig+" in the working directory, when there is one)")
	fs.Func("project", "run only this project of the run config (`NAME`; comma-separated or the flag again); default every project", func(v string) error {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				o.Projects = append(o.Projects, n)
			}
		}
		return nil
	})
	help := func(w io.Writer) {
		fmt.Fprintf(w, "Usage: e2e-mcp run FLOW.yaml|DIR... [--grep RE] [--grep-invert RE] [--last-failed] [--list] [--repeat-each N] [--max-failures N | -x] [--timeout D] [--reporter list,line,dot,json,junit,html,github,blob] [--shard i/n] [--junit report.xml] [--json FILE] [--blob DIR] [--artifacts DIR] [--report DIR] [--video DIR] [--trace DIR] [--retries N] [--parallel N] [--dev-server-per-flow] [--config FILE] [--project NAME] [--headed] [--update-snapshots] [--heal[=write]] [--heal-ok]\n\n"+
			"Replays flows (session_export_flow writes them) with the same engine and actionability rules,\n"+
			"each in its own session, and prints each one's PASS or FAIL as it ends, then a summary.\n"+
			"A directory runs every *.yaml and *.yml flow under it (hidden directories and node_modules\n"+
			"left out); a YAML file there without steps: is skipped, and said so.\n"+
			"A flow with needs: login.yaml runs after that setup flow (once per run, even when --grep or\n"+
			"--shard did not choose it), starting in the cookies and storage it ended with; when it fails,\n"+
			"the flows that need it are skipped.\n"+
			"A flow with data: (a list of rows, or a CSV file beside it) runs once per row, NAME [row 2] or\n"+
			"named by its name field, ${row.FIELD} in its texts that row's field.\n"+
			"Flows with the same dev: (command, cwd, readyPath) share one dev server, started with the first\n"+
			"and stopped when the run ends; each still runs in its own session (--dev-server-per-flow: one each).\n"+
			"A run config (--config, else e2e-mcp.yaml here) may name projects (device, viewport, baseURL,\n"+
			"storageState, headers under use:): every flow runs in each (--project picks), named NAME [project].\n"+
			"The browser and dev-server settings come from the E2E_MCP_* environment, as for serve.\n"+
			"A step whose target finds nothing or more than one element is diagnosed: the failure names the\n"+
			"likely same element's locator, ready to paste; --heal replays on it.\n"+
			"With --retries a failed flow runs again in a new session; one that passes on a retry is FLAKY, and\n"+
			"the runner names where its failed and passing attempts parted and what differed before (a slower or\n"+
			"failed request, a console error, the target appearing late, covered or still moving). A retry's files\n"+
			"end in -retryN (FLOW-retry1.zip).\n\n"+
			"Reporters (Playwright Test's names; several at once):\n"+
			"  list    each flow's PASS, FAIL or HEALED line as it ends, then the summary (the default)\n"+
			"  line    one progress line (on a terminal); the flows that did not pass, in full; the summary\n"+
			"  dot     a character a flow (· passed, F failed, H healed, ± flaky, ° skipped), then the flows that\n"+
			"          did not pass in full, the summary\n"+
			"  json    the run as one JSON document: flows, outcome, duration, steps, error, files (--json FILE, else stdout)\n"+
			"  junit   JUnit XML (--junit FILE, else stdout)\n"+
			"  html    each flow's HTML report and an index.html of them all, in --report DIR (default e2e-mcp-report)\n"+
			"  github  GitHub Actions annotations: an error on the failing step's line of the flow file\n"+
			"  blob    a zip for `e2e-mcp merge-reports` (--blob DIR, default blob-report): the results, each flow's\n"+
			"          HTML report (as html writes them) and its trace, video and artifacts\n\n"+
			"--shard i/n sorts the flow files by their path below the directory that holds them all and\n"+
			"replays the i-th of n parts, as Playwright Test splits: run each part on its own machine with\n"+
			"--reporter blob, then merge-reports the blobs into one JUnit, HTML index and summary.\n\n"+
			"Exit status: 0 every flow passed (some perhaps flaky), 1 one failed (or was healed, without --heal-ok),\n"+
			"2 a bad command line.\n\n")
		config.PrintFlags(w, fs)
	}
	files, err := parseFiles(fs, args)
	if err != nil {
		return flagsFailed("run", err, help, stdout, stderr)
	}
	o.Files = files
	if *stopFirst {
		o.MaxFailures = 1
	}
	if *shard != "" {
		if o.Shard, err = runner.ParseShard(*shard); err != nil {
			return usageError(stderr, "run", err.Error())
		}
	}
	if f, ok := stdout.(*os.File); ok {
		o.Terminal = isTerminal(f) // the line reporter rewrites its line
	}
	if err := o.Check(); err != nil {
		return usageError(stderr, "run", err.Error())
	}
	suite, err := runner.Load(o)
	if err != nil {
		fmt.Fprintf(stderr, "e2e-mcp run: %v\n", err)
		return cli.ExitUsage
	}
	if o.List {
		return runner.List(suite, stdout, stderr)
	}
	cfg, err := config.Parse("run", nil, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "e2e-mcp run: %v\n", err)
		return cli.ExitUsage
	}
	cfg.Headed = cfg.Headed || *headed
	if err := runnable(cfg); err != nil {
		fmt.Fprintf(stderr, "e2e-mcp run: %v\n", err)
		return cli.ExitUsage
	}
	log, err := logs.New(runLogLevel(*logLevel, os.Getenv), "console")
	if err != nil {
		fmt.Fprintf(stderr, "e2e-mcp run: --log-level: %v\n", err)
		return cli.ExitUsage
	}
	launcher.CleanStaleProfiles("", log)
	superviseVerbs(log)
	a := newApp(cfg, log)
	a.reg.SetEndBudget(cfg.ShutdownTimeout) // no client waits to kill a CI run
	defer a.close()
	return runner.Run(context.Background(), o, suite, a.deps, stdout, stderr)
}

// runnable says what would fail every flow, before any starts: a
// --browser-path that names no browser, a browser that cannot be shown
// (--headed with no display). Remote browsers are not checked here.
func runnable(cfg *config.Config) error {
	if cfg.CDPEndpoints != "" || cfg.WebDriverURLs != "" {
		return nil
	}
	if cfg.BrowserPath != "" {
		if _, err := launcher.FindExecutable(cfg.BrowserPath); err != nil {
			return fmt.Errorf("--browser-path: %v; %s", err, launcher.InstallHint)
		}
	}
	if cfg.Headed {
		if be, ok := browser.AsError(launcher.HeadedWithoutDisplay()); ok {
			return fmt.Errorf("%s; %s", be.Message, be.Hint)
		}
	}
	return nil
}

// runLogLevel is the run's log level: --log-level, else E2E_MCP_LOG_LEVEL,
// else warn, so that a CI job's output shows the results, not INFO logs.
func runLogLevel(flagged string, getenv func(string) string) string {
	for _, l := range []string{flagged, getenv("E2E_MCP_LOG_LEVEL")} {
		if l != "" {
			return l
		}
	}
	return "warn"
}

// parseFiles parses a subcommand's flags, which may come before, between
// or after its file arguments (run a.yaml --junit r.xml b.yaml), and
// returns the files; an error is the flag set's (flagsFailed answers it).
func parseFiles(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	rest := args
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			return nil, err
		}
		rest = fs.Args()
		if len(rest) > 0 {
			files, rest = append(files, rest[0]), rest[1:]
		}
	}
	return files, nil
}
