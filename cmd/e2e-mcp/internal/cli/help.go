package cli

import (
	"fmt"
	"strings"
)

// The CLI's commands and their help: one table, from which the list in
// `e2e-mcp --help` and each command's own --help are written, and which
// says what a command is (IsCommand).

// verb is a CLI command: how the list shows it, and its own help.
type verb struct {
	name, args, summary string
	more                string // more of its own help, or ""
}

// verbs are the CLI's commands, in the order the help lists them.
var verbs = []verb{
	{"open", "<url>", "navigate the session's page (also: goto <url>)", ""},
	{"click", "<target>", "click an element", ""},
	{"dblclick", "<target>", "double-click an element", ""},
	{"fill", "<target> <text>", "replace a field's text", ""},
	{"type", "<target> <text>", "type text into a field key by key, at its caret", ""},
	{"press", "<key>", "press a key: Enter, Tab, Control+a", ""},
	{"hover", "<target>", "move the mouse over an element", ""},
	{"check", "<target>", "check a checkbox or radio button", ""},
	{"uncheck", "<target>", "uncheck a checkbox", ""},
	{"select", "<target> <value...>", "choose options of a <select>", ""},
	{"upload", "<target> <file...>", "give a file input its files", ""},
	{"wait", "<target|ms> [--text T] [--url U] [--load STATE]", "wait for an element, a time, a text, a URL or a load state",
		"--timeout bounds the wait (default 60s)."},
	{"snapshot", "[-i] [-d N] [-s target]", "the page's accessibility snapshot, with refs",
		"-i: interactive elements only; -d N: N levels deep; -s target: that element's part only.\n" +
			"With --json: {\"snapshot\":YAML,\"refs\":{\"e3\":{\"role\":...,\"name\":...}},\"origin\":URL}."},
	{"screenshot", "[path] [--full]", "save a PNG of the page (--full: all of it); prints its path", "No path: a temp file."},
	{"pdf", "<path>", "save the page as a PDF", ""},
	{"eval", "<js>", "run JavaScript in the page; prints its JSON result", "e.g. eval 'document.title'"},
	{"get", "text|html|value|attr NAME|title|url [target] | count <css>", "read the page or an element", ""},
	{"is", "visible|enabled|checked <target>", "true or false", ""},
	{"back", "", "go back in the tab's history", ""},
	{"forward", "", "go forward in the tab's history", ""},
	{"reload", "", "reload the page", ""},
	{"tab", "[list | new [url] | close [N] | N]", "list, open, close or select tabs", ""},
	{"console", "", "the page's console messages and uncaught exceptions", ""},
	{"errors", "", "the session's failed commands", ""},
	{"session", "list | start [--run CMD | --command PATH] [--cwd DIR] [--ready-path P] | status | restart | end",
		"the running sessions; the session's dev server",
		"list: the sessions of every running daemon (starts none).\n" +
			"start --run CMD: any dev command line (PORT is set); --command PATH: a dev-server contract command."},
	{"export", "[path]", "the session's steps as a flow for 'e2e-mcp run' (no path: printed)", ""},
	{"close", "[--all]", "end the session and its daemon (--all: every session's)", ""},
}

// aliases are other names of verbs.
var aliases = map[string]string{"goto": "open"}

// verbNamed is the verb called name (or an alias of it).
func verbNamed(name string) (verb, bool) {
	if v, ok := aliases[name]; ok {
		name = v
	}
	for _, v := range verbs {
		if v.name == name {
			return v, true
		}
	}
	return verb{}, false
}

const (
	cliSynopsis = "[--session NAME] [--json] [--headed] [--timeout D]"
	cliOptions  = `Options: --session NAME (env E2E_MCP_SESSION, default "default"), --json (print
{"success":bool,"data":...,"error":string|null}), --headed, --timeout D (e.g. 30s; default 60s).
Exit codes: 0 success, 1 failure, 2 usage, 3 timeout.
`
)

// Usage is the CLI's help, printed after the server's: one line a verb.
var Usage = func() string {
	var b strings.Builder
	b.WriteString("Usage: e2e-mcp <command> [args...] " + cliSynopsis + "\n\n" +
		"A browser for scripts and CI, on the same engine as the MCP server. Targets are\n" +
		"refs from the last snapshot (@e5) or selectors (role=button[name=\"Save\"], text=Sign in, #id).\n\n")
	for _, v := range verbs {
		if s := "  " + v.name + " " + v.args; len(s) < 30 {
			fmt.Fprintf(&b, "%-30s%s\n", s, v.summary)
		} else {
			fmt.Fprintf(&b, "%s\n%30s%s\n", s, "", v.summary)
		}
	}
	b.WriteString("\n'e2e-mcp COMMAND --help' says more of each.\n" + cliOptions)
	return b.String()
}()

// verbHelp is a verb's own help (COMMAND --help).
func verbHelp(name string) string {
	v, _ := verbNamed(name)
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: e2e-mcp %s ", name)
	if v.args != "" {
		b.WriteString(v.args + " ")
	}
	b.WriteString(cliSynopsis + "\n\n" + strings.ToUpper(v.summary[:1]) + v.summary[1:] + ".\n")
	if v.more != "" {
		b.WriteString(v.more + "\n")
	}
	if strings.Contains(v.args, "target") {
		b.WriteString("Targets are refs from the last snapshot (@e5) or selectors (role=button[name=\"Save\"], text=Sign in, #id).\n")
	}
	b.WriteString("\n" + cliOptions)
	return b.String()
}

// IsCommand reports whether a first argument is a CLI verb.
func IsCommand(s string) bool {
	_, ok := verbNamed(s)
	return ok
}
