package main

import (
	"fmt"
	"io"

	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/config"
	"github.com/e2e-mcp/e2e-mcp/runner"
)

// mergeMain is `e2e-mcp merge-reports DIR...`: it parses the command line
// into runner.MergeOptions and has the runner merge the shards' blobs.
// It returns the exit code: 0 every flow passed, 1 one failed or a
// shard's blob is missing, 2 a bad command line or blob.
func mergeMain(args []string, stdout, stderr io.Writer) int {
	fs := config.NewFlagSet("merge-reports")
	var m runner.MergeOptions
	fs.Var(&m.Reporters, "reporter", "the `reporters`, comma-separated or the flag again: list, line, dot, json, junit, html, github (default list,html)")
	fs.StringVar(&m.Report, "report", "", "put the blobs' files (each flow's report, trace, video, artifacts) and the HTML index in this `directory` (default e2e-mcp-report)")
	fs.StringVar(&m.JUnit, "junit", "", "write the JUnit XML of every flow to this `file` (and turn junit on)")
	fs.StringVar(&m.JSON, "json", "", "write the JSON document of every flow to this `file` (and turn json on)")
	help := func(w io.Writer) {
		fmt.Fprint(w, "Usage: e2e-mcp merge-reports DIR... [--reporter list,html,junit,json,github,line,dot] [--report DIR] [--junit FILE] [--json FILE]\n\n"+
			"Reads the blobs that `e2e-mcp run --shard i/n --reporter blob` wrote on each machine (the zips\n"+
			"in each DIR and below it, or the zip files named) and reports on every flow of them as one run:\n"+
			"each flow's line and the summary, the HTML index linking each flow's report (in --report DIR,\n"+
			"with the traces, videos and artifacts), JUnit, JSON, GitHub annotations, as run's reporters do.\n"+
			"Exit status: 0 every flow passed, 1 one failed (or was healed, without run's --heal-ok) or a\n"+
			"shard's blob is missing, 2 a bad command line or a blob that cannot be read or merged.\n\n")
		config.PrintFlags(w, fs)
	}
	dirs, err := parseFiles(fs, args)
	if err != nil {
		return flagsFailed("merge-reports", err, help, stdout, stderr)
	}
	m.Dirs = dirs
	if err := m.Check(); err != nil {
		return usageError(stderr, "merge-reports", err.Error())
	}
	return runner.Merge(m, stdout, stderr)
}
