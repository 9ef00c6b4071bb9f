package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/cli"
	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/config"
)

// command is one subcommand: how `e2e-mcp --help` lists it and what runs
// it. Every subcommand answers -h and --help with its own usage (exit 0)
// and a mistake on its command line with one line saying where that help
// is (exit 2): usageError, parseFlags.
type command struct {
	name     string
	synopsis string // what follows "e2e-mcp " in the list
	summary  string
	run      func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands are the subcommands in the order the help lists them; the CLI's
// verbs (cli.IsCommand) come after them. Set in init: help reads it.
var commands []command

func init() {
	commands = []command{
		{"serve", "[serve] [flags]", "serve MCP over stdio (default), or Streamable HTTP with --http ADDR", configMain("serve")},
		{"doctor", "doctor [flags]", "find the browser, start it once and print its version", configMain("doctor")},
		{"devserver", "devserver [flags] -- COMMAND [ARGS...] [--start|--restart|--status|--shutdown]",
			"run a dev server under the dev-server command contract", noStdin(devserverMain)},
		{"run", "run FLOW.yaml|DIR...", "replay flows (session_export_flow) in CI: --grep, --reporter, --shard, --retries, --parallel", noStdin(runMain)},
		{"merge-reports", "merge-reports DIR...", "merge the blobs of a sharded run (run --shard i/n --reporter blob): one JUnit, HTML index, summary", noStdin(mergeMain)},
		{"convert", "convert FLOW.yaml|DIR... --to playwright --out DIR", "write flows as Playwright Test specs with a playwright.config.ts", noStdin(convertMain)},
		{"healthcheck", "healthcheck [URL]", "exit 0 when the HTTP server's /health answers 200 (the container's HEALTHCHECK)",
			func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
				return healthcheckMain(args, os.Getenv, stdout, stderr)
			}},
		{"version", "version", "print the version", noStdin(versionMain)},
		{"help", "help [COMMAND]", "this text, or a command's own help", noStdin(helpMain)},
	}
}

func noStdin(f func(args []string, stdout, stderr io.Writer) int) func([]string, io.Reader, io.Writer, io.Writer) int {
	return func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return f(args, stdout, stderr) }
}

// commandNamed is the subcommand called name.
func commandNamed(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// usage is the text of `e2e-mcp --help`: the subcommands, then the CLI's.
func usage() string {
	var b strings.Builder
	b.WriteString("e2e-mcp: end-to-end testing tools for AI coding agents, over MCP.\n\nUsage:\n")
	line := func(synopsis, summary string) {
		if s := "  e2e-mcp " + synopsis; len(s) < 30 {
			fmt.Fprintf(&b, "%-30s%s\n", s, summary)
		} else {
			fmt.Fprintf(&b, "%s\n%30s%s\n", s, "", summary)
		}
	}
	for _, c := range commands {
		line(c.synopsis, c.summary)
	}
	line("<command> ...", "a browser from the shell: open, click, snapshot... (below)")
	b.WriteString("\n" + cli.Usage) // it ends with where each command's help is
	return b.String()
}

// helpMain is `e2e-mcp help [COMMAND]`: the list, or COMMAND --help.
func helpMain(args []string, stdout, stderr io.Writer) int {
	fs := config.NewFlagSet("help")
	if err := fs.Parse(args); err != nil {
		return flagsFailed("help", err, func(w io.Writer) {
			fmt.Fprint(w, "Usage: e2e-mcp help [COMMAND]\n\nLists the commands, or prints COMMAND's own help (as COMMAND --help does).\n")
		}, stdout, stderr)
	}
	switch fs.NArg() {
	case 0:
		fmt.Fprint(stdout, usage())
		return cli.ExitOK
	case 1:
		return realMain([]string{fs.Arg(0), "--help"}, nil, stdout, stderr)
	}
	return usageError(stderr, "help", "give one command")
}

// versionMain is `e2e-mcp version`.
func versionMain(args []string, stdout, stderr io.Writer) int {
	fs := config.NewFlagSet("version")
	if err := fs.Parse(args); err != nil {
		return flagsFailed("version", err, func(w io.Writer) {
			fmt.Fprint(w, "Usage: e2e-mcp version\n\nPrints the version, the commit and the date it was built from.\n")
		}, stdout, stderr)
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "version", fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	printVersion(stdout)
	return cli.ExitOK
}

// flagsFailed answers a flag set's error: -h or --help prints the
// command's help on stdout (exit 0); a mistake is one line on stderr
// (exit 2).
func flagsFailed(cmd string, err error, help func(io.Writer), stdout, stderr io.Writer) int {
	if errors.Is(err, flag.ErrHelp) {
		help(stdout)
		return cli.ExitOK
	}
	return usageError(stderr, cmd, config.FlagMistake(err))
}

// usageError says a mistake on cmd's command line in one line, with where
// its help is, and returns the usage exit code.
func usageError(w io.Writer, cmd, msg string) int {
	fmt.Fprintf(w, "e2e-mcp %s: %s (see e2e-mcp %s --help)\n", cmd, msg, cmd)
	return cli.ExitUsage
}
