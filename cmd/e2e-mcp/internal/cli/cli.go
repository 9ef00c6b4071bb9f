package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/mark3labs/mcp-go/mcp"
)

// DaemonEnv marks the server process a CLI session daemon.
const DaemonEnv = "E2E_MCP_CLI_DAEMON"

// Exit codes of CLI commands.
const (
	ExitOK      = 0
	ExitFailed  = 1
	ExitUsage   = 2
	ExitTimeout = 3
)

// cliOpts are the options every command takes.
type cliOpts struct {
	version string // the binary's, the client version the daemon sees
	session string
	json    bool
	headed  bool
	timeout time.Duration
	// command-specific flags
	interactive, full  bool
	depth              int
	scope, text, url   string
	load, run, command string
	cwd, readyPath     string
	all                bool
}

// usageError is a mistake in the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// parseCLI splits args into positional words and options, which may come
// anywhere on the line.
func parseCLI(args []string, getenv func(string) string) ([]string, *cliOpts, error) {
	o := &cliOpts{session: getenv("E2E_MCP_SESSION"), timeout: 60 * time.Second}
	if o.session == "" {
		o.session = "default"
	}
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() (string, error) {
			if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "--") {
				return v, nil
			}
			if i+1 >= len(args) {
				return "", &usageError{a + " needs a value"}
			}
			i++
			return args[i], nil
		}
		name, _, _ := strings.Cut(a, "=")
		var err error
		switch name {
		case "--session":
			o.session, err = val()
		case "--json":
			o.json = true
		case "--headed":
			o.headed = true
		case "--timeout":
			var v string
			if v, err = val(); err == nil {
				o.timeout, err = parseTimeout(v)
			}
		case "-i", "--interactive":
			o.interactive = true
		case "-c", "--compact":
			// Our snapshots are compact already.
		case "-d", "--depth":
			var v string
			if v, err = val(); err == nil {
				if o.depth, err = strconv.Atoi(v); err != nil || o.depth < 0 {
					err = &usageError{"--depth wants a number of levels"}
				}
			}
		case "-s", "--selector":
			o.scope, err = val()
		case "--full":
			o.full = true
		case "--text":
			o.text, err = val()
		case "--url":
			o.url, err = val()
		case "--load":
			o.load, err = val()
		case "--run":
			o.run, err = val()
		case "--command":
			o.command, err = val()
		case "--cwd":
			o.cwd, err = val()
		case "--ready-path":
			o.readyPath, err = val()
		case "--all":
			o.all = true
		default:
			if strings.HasPrefix(a, "--") {
				return nil, nil, &usageError{"unknown option " + a}
			}
			pos = append(pos, a)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if !regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`).MatchString(o.session) {
		return nil, nil, &usageError{fmt.Sprintf("--session %q: use 1-64 letters, digits, '.', '_' or '-'", o.session)}
	}
	return pos, o, nil
}

// parseTimeout takes "30s", "2m" or a number of seconds.
func parseTimeout(v string) (time.Duration, error) {
	if n, err := strconv.ParseFloat(v, 64); err == nil && n > 0 {
		return time.Duration(n * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, &usageError{fmt.Sprintf("--timeout %q: give seconds or a duration such as 30s", v)}
	}
	return d, nil
}

// cliResult is what a command prints.
type cliResult struct {
	data any
	text string
}

// Main runs one CLI command and returns its exit code; version is the
// binary's, which the CLI gives as its client version.
func Main(version, cmd string, args []string, stdout, stderr io.Writer) int {
	for _, a := range args {
		if a == "-h" || a == "--help" {
			fmt.Fprint(stdout, verbHelp(cmd))
			return ExitOK
		}
	}
	pos, o, err := parseCLI(args, os.Getenv)
	if err != nil {
		return cliFail(o, cmd, stdout, stderr, ExitUsage, fmt.Sprintf("%v (see e2e-mcp %s --help)", err, cmd))
	}
	o.version = version
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	if cmd == "close" && o.all {
		n, err := closeAllDaemons(ctx)
		if err != nil {
			return cliFail(o, cmd, stdout, stderr, ExitFailed, err.Error())
		}
		return cliOK(o, stdout, cliResult{data: map[string]int{"closed": n}, text: fmt.Sprintf("Closed %d session(s).", n)})
	}
	res, code, err := runCLI(ctx, cmd, pos, o)
	var ue *usageError
	if errors.As(err, &ue) {
		return cliFail(o, cmd, stdout, stderr, code, fmt.Sprintf("%v (see e2e-mcp %s --help)", err, cmd))
	}
	if cmd == "close" && err == nil {
		// The session ended: its daemon goes too.
		if _, cerr := stopDaemon(ctx, o.session); cerr != nil {
			err, code = cerr, ExitFailed
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return cliFail(o, cmd, stdout, stderr, ExitTimeout, fmt.Sprintf("timeout: %s did not finish within %s", cmd, o.timeout))
		}
		return cliFail(o, cmd, stdout, stderr, code, err.Error())
	}
	return cliOK(o, stdout, res)
}

// envelope is the CLI's JSON answer (--json), fields in this order.
type envelope struct {
	Success bool    `json:"success"`
	Data    any     `json:"data"`
	Error   *string `json:"error"`
}

func cliOK(o *cliOpts, stdout io.Writer, res cliResult) int {
	if o.json {
		b, _ := json.Marshal(envelope{Success: true, Data: res.data})
		fmt.Fprintln(stdout, string(b))
	} else if res.text != "" {
		fmt.Fprintln(stdout, strings.TrimRight(res.text, "\n"))
	}
	return ExitOK
}

func cliFail(o *cliOpts, cmd string, stdout, stderr io.Writer, code int, msg string) int {
	if o != nil && o.json {
		b, _ := json.Marshal(envelope{Error: &msg})
		fmt.Fprintln(stdout, string(b))
	} else {
		fmt.Fprintf(stderr, "e2e-mcp %s: %s\n", cmd, msg)
	}
	return code
}

// toolCall is the MCP tool a command becomes.
type toolCall struct {
	tool string
	args map[string]any
	// shape turns the tool's answer into the command's data and text.
	shape func(res *mcp.CallToolResult, text string) (cliResult, error)
}

// runCLI maps a command to a tool call on the session's daemon.
func runCLI(ctx context.Context, cmd string, pos []string, o *cliOpts) (cliResult, int, error) {
	tc, err := toCall(cmd, pos, o)
	if err != nil {
		return cliResult{}, ExitUsage, err
	}
	if tc.tool == "session_list" {
		// Every daemon's session, not one daemon's (which each is).
		r, err := listSessions(ctx, o)
		return r, ExitFailed, err
	}
	c, err := connectDaemon(ctx, o)
	if err != nil {
		return cliResult{}, ExitFailed, err
	}
	defer func() { _ = c.Close() }()
	tc.args["sessionId"] = o.session
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tc.tool, tc.args
	req.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{mcptools.MetaSnapshotYAML: true}}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return cliResult{}, ExitFailed, err
	}
	text := mcptools.ResultText(res)
	if res.IsError {
		return cliResult{}, ExitFailed, errors.New(inCLIWords(mcptools.ResultError(res).Line()))
	}
	if tc.shape == nil {
		return cliResult{data: structured(res), text: text}, ExitOK, nil
	}
	r, err := tc.shape(res, text)
	return r, ExitFailed, err
}

// target strips the @ of a ref (@e5 -> e5).
func target(s string) string { return strings.TrimPrefix(s, "@") }

func need(pos []string, n int, what string) error {
	if len(pos) < n {
		return &usageError{"missing " + what}
	}
	return nil
}

// toCall builds the tool call of a command; the commands that are flow
// actions take their tool from flow.Verbs, the one table of actions.
func toCall(cmd string, pos []string, o *cliOpts) (toolCall, error) {
	a := map[string]any{}
	switch cmd {
	case "open", "goto":
		if err := need(pos, 1, "the URL: open <url>"); err != nil {
			return toolCall{}, err
		}
		a["url"] = pos[0]
		return toolCall{tool: flow.ToolOf("navigate"), args: a, shape: pageShape}, nil
	case "click", "dblclick", "hover", "check", "uncheck":
		if err := need(pos, 1, "the target: "+cmd+" <target>"); err != nil {
			return toolCall{}, err
		}
		a["target"] = target(pos[0])
		tool := flow.ToolOf(cmd)
		if cmd == "dblclick" {
			tool, a["doubleClick"] = flow.ToolOf("click"), true
		}
		return toolCall{tool: tool, args: a, shape: pageShape}, nil
	case "fill", "type":
		if err := need(pos, 2, "the target and the text: "+cmd+" <target> <text>"); err != nil {
			return toolCall{}, err
		}
		a["target"], a["text"] = target(pos[0]), strings.Join(pos[1:], " ")
		if cmd == "type" {
			a["slowly"] = true
		}
		return toolCall{tool: flow.ToolOf(cmd), args: a, shape: pageShape}, nil
	case "press":
		if err := need(pos, 1, "the key: press <key>"); err != nil {
			return toolCall{}, err
		}
		a["key"] = pos[0]
		return toolCall{tool: flow.ToolOf(cmd), args: a, shape: pageShape}, nil
	case "select":
		if err := need(pos, 2, "the target and values: select <target> <value...>"); err != nil {
			return toolCall{}, err
		}
		a["target"], a["values"] = target(pos[0]), pos[1:]
		return toolCall{tool: flow.ToolOf(cmd), args: a, shape: pageShape}, nil
	case "upload":
		if err := need(pos, 2, "the target and files: upload <target> <file...>"); err != nil {
			return toolCall{}, err
		}
		var files []string
		for _, f := range pos[1:] {
			abs, err := filepath.Abs(f)
			if err != nil {
				return toolCall{}, err
			}
			files = append(files, abs)
		}
		a["target"], a["paths"] = target(pos[0]), files
		return toolCall{tool: flow.ToolOf(cmd), args: a, shape: pageShape}, nil
	case "wait":
		a["timeout"] = o.timeout.Seconds()
		switch {
		case o.text != "":
			a["text"] = o.text
		case o.url != "":
			a["url"] = o.url
		case o.load != "":
			a["loadState"] = o.load
		case len(pos) > 0:
			if ms, err := strconv.Atoi(pos[0]); err == nil {
				a["time"] = float64(ms) / 1000
				delete(a, "timeout")
			} else {
				a["target"] = target(pos[0])
			}
		default:
			return toolCall{}, &usageError{"wait needs a target, milliseconds, --text, --url or --load"}
		}
		return toolCall{tool: flow.ToolOf(cmd), args: a, shape: pageShape}, nil
	case "snapshot":
		if o.interactive {
			a["interactiveOnly"] = true
		}
		if o.depth > 0 {
			a["depth"] = o.depth
		}
		if o.scope != "" {
			a["target"] = target(o.scope)
		}
		return toolCall{tool: "browser_snapshot", args: a, shape: snapshotShape}, nil
	case "screenshot":
		if o.full {
			a["fullPage"] = true
		}
		path := ""
		if len(pos) > 0 {
			path = pos[0]
		}
		return toolCall{tool: "browser_take_screenshot", args: a, shape: screenshotShape(path)}, nil
	case "pdf":
		if err := need(pos, 1, "the file: pdf <path>"); err != nil {
			return toolCall{}, err
		}
		abs, err := filepath.Abs(pos[0])
		if err != nil {
			return toolCall{}, err
		}
		a["path"] = abs
		return toolCall{tool: "browser_pdf_save", args: a}, nil
	case "eval":
		if err := need(pos, 1, "the JavaScript: eval <js>"); err != nil {
			return toolCall{}, err
		}
		a["function"] = strings.Join(pos, " ")
		return toolCall{tool: "browser_evaluate", args: a, shape: evalShape}, nil
	case "get":
		return getCall(pos)
	case "is":
		if err := need(pos, 2, "what and the target: is visible|enabled|checked <target>"); err != nil {
			return toolCall{}, err
		}
		check := map[string]string{"visible": "visible", "enabled": "enabled", "checked": "checked"}[pos[0]]
		if check == "" {
			return toolCall{}, &usageError{"is takes visible, enabled or checked"}
		}
		fn := map[string]string{
			"visible": "(el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el); return r.width > 0 && r.height > 0 && s.visibility === 'visible' }",
			"enabled": "(el) => !el.disabled && el.getAttribute('aria-disabled') !== 'true'",
			"checked": "(el) => el.checked === true || el.getAttribute('aria-checked') === 'true'"}[check]
		a["function"], a["target"] = fn, target(pos[1])
		return toolCall{tool: "browser_evaluate", args: a, shape: evalShape}, nil
	case "back", "forward", "reload":
		return toolCall{tool: flow.ToolOf(cmd), args: a, shape: pageShape}, nil
	case "tab":
		return tabCall(pos)
	case "console":
		return toolCall{tool: "browser_console_messages", args: map[string]any{"all": true}}, nil
	case "errors":
		return toolCall{tool: "session_errors", args: a}, nil
	case "close":
		return toolCall{tool: "session_end", args: a}, nil
	case "export":
		if len(pos) > 0 {
			abs, err := filepath.Abs(pos[0])
			if err != nil {
				return toolCall{}, err
			}
			a["path"] = abs
		}
		return toolCall{tool: "session_export_flow", args: a}, nil
	case "session":
		return sessionCall(pos, o)
	}
	return toolCall{}, &usageError{"unknown command " + cmd}
}

func getCall(pos []string) (toolCall, error) {
	if err := need(pos, 1, "what to get: get text|html|value|attr NAME|title|url [target], get count <css>"); err != nil {
		return toolCall{}, err
	}
	a := map[string]any{}
	rest := pos[1:]
	switch pos[0] {
	case "text", "html":
		a["format"] = pos[0]
		if len(rest) > 0 {
			a["target"] = target(rest[0])
		}
		return toolCall{tool: "browser_get_content", args: a}, nil
	case "title":
		a["function"] = "() => document.title"
	case "url":
		a["function"] = "() => location.href"
	case "value":
		if err := need(rest, 1, "the target: get value <target>"); err != nil {
			return toolCall{}, err
		}
		a["function"], a["target"] = "(el) => el.value", target(rest[0])
	case "attr":
		if err := need(rest, 2, "the attribute and target: get attr <name> <target>"); err != nil {
			return toolCall{}, err
		}
		name, _ := json.Marshal(rest[0])
		a["function"], a["target"] = "(el) => el.getAttribute("+string(name)+")", target(rest[1])
	case "count":
		if err := need(rest, 1, "the CSS selector: get count <css>"); err != nil {
			return toolCall{}, err
		}
		sel, _ := json.Marshal(rest[0])
		a["function"] = "() => document.querySelectorAll(" + string(sel) + ").length"
	default:
		return toolCall{}, &usageError{"get takes text, html, value, attr, title, url or count"}
	}
	return toolCall{tool: "browser_evaluate", args: a, shape: evalShape}, nil
}

func tabCall(pos []string) (toolCall, error) {
	a := map[string]any{"action": "list"}
	if len(pos) > 0 {
		switch pos[0] {
		case "list":
		case "new":
			a["action"] = "new"
			if len(pos) > 1 {
				a["url"] = pos[1]
			}
		case "close":
			a["action"] = "close"
			if len(pos) > 1 {
				n, err := strconv.Atoi(pos[1])
				if err != nil {
					return toolCall{}, &usageError{"tab close takes a tab number"}
				}
				a["index"] = n
			}
		default:
			n, err := strconv.Atoi(pos[0])
			if err != nil {
				return toolCall{}, &usageError{"tab takes list, new, close or a tab number"}
			}
			a["action"], a["index"] = "select", n
		}
	}
	return toolCall{tool: "browser_tabs", args: a}, nil
}

func sessionCall(pos []string, o *cliOpts) (toolCall, error) {
	if len(pos) == 0 {
		return toolCall{}, &usageError{"session takes list, start, status, restart or end"}
	}
	a := map[string]any{}
	switch pos[0] {
	case "list":
		return toolCall{tool: "session_list", args: a}, nil
	case "start":
		if o.run != "" {
			a["run"] = o.run
		}
		if o.command != "" {
			a["commandPath"] = o.command
		}
		if o.cwd != "" {
			abs, err := filepath.Abs(o.cwd)
			if err != nil {
				return toolCall{}, err
			}
			a["cwd"] = abs
		}
		if o.readyPath != "" {
			a["readyPath"] = o.readyPath
		}
		return toolCall{tool: "session_start", args: a}, nil
	case "status", "restart", "end":
		return toolCall{tool: "session_" + pos[0], args: a}, nil
	}
	return toolCall{}, &usageError{"session takes list, start, status, restart or end"}
}
