package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/config"
	"github.com/e2e-mcp/e2e-mcp/devserver"
)

const devserverUsage = `Usage: e2e-mcp devserver [flags] [--] COMMAND [ARGS...] [--start|--restart|--status|--shutdown]

Runs any dev-server command line as a contract-compliant dev-server command:
it starts COMMAND on a free port (given as $PORT in ARGS and as PORT in its
environment), finds its URL, keeps its output in log files, and answers each
verb with one JSON object on stdout. The last argument is the verb (no verb
means --start); each verb is a separate run, the state is kept in files.

  e2e-mcp devserver --name web --cwd ./app -- npm run dev -- --port '$PORT' --start
  e2e-mcp devserver --name web --status

Exit status: 0 on success (including already_running, stopped, unhealthy),
1 on failure ({"status":"error","error":KIND,"message":...}), 2 on usage errors.

Flags:
`

// verbArgs are the contract's verb flags.
var verbArgs = map[string]devserver.Verb{
	"--start": devserver.Start, "--restart": devserver.Restart, "--status": devserver.Status, "--shutdown": devserver.Shutdown,
}

// envList is a repeatable KEY=VALUE flag.
type envList []string

func (e *envList) String() string { return strings.Join(*e, " ") }
func (e *envList) Set(v string) error {
	if k, _, ok := strings.Cut(v, "="); !ok || k == "" {
		return errors.New("want KEY=VALUE")
	}
	*e = append(*e, v)
	return nil
}

// devserverMain runs the devserver subcommand and returns its exit code.
func devserverMain(args []string, stdout, stderr io.Writer) int {
	verb := devserver.Start
	if n := len(args); n > 0 {
		if v, ok := verbArgs[args[n-1]]; ok {
			verb, args = v, args[:n-1]
		}
	}
	fs := config.NewFlagSet("devserver")
	name := fs.String("name", "default", "`name` of the dev server; one state directory per name")
	cwd := fs.String("cwd", ".", "working `directory` of the dev server")
	run := fs.String("run", "", "the command line as one `string` (instead of COMMAND [ARGS...]), split with shell quoting rules, run without a shell")
	readyPath := fs.String("ready-path", "", "`path` probed over HTTP for readiness and health; any status below 500 is ready (default: the announced URL's path, or /)")
	readyPattern := fs.String("ready-pattern", "", "`regexp`: ready when a line of output matches and the port accepts connections, instead of the HTTP probe")
	stateDir := fs.String("state-dir", "", "`directory` for state.json and the logs (default $XDG_STATE_HOME/e2e-mcp/devservers/NAME or ~/.local/state/e2e-mcp/devservers/NAME)")
	startTimeout := fs.Duration("start-timeout", devserver.DefaultStartTimeout, "how long to wait for the server to be ready")
	var env envList
	fs.Var(&env, "env", "`KEY=VALUE` added to the server's environment (repeatable); PORT=N pins the port")
	// A usage error is answered on stdout too, as every verb is: one JSON
	// object.
	usageErr := func(msg string) int {
		writeJSON(stdout, map[string]string{"status": "error", "error": "usage", "message": msg})
		return usageError(stderr, "devserver", msg)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printDevserverUsage(fs, stdout)
			return 0
		}
		return usageErr(config.FlagMistake(err))
	}
	explicit := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	command := *run
	if fs.NArg() > 0 {
		if command != "" {
			return usageErr("give the command either with --run or after the flags, not both")
		}
		command = joinCommandLine(fs.Args())
	}
	if command == "" && (verb == devserver.Start || verb == devserver.Restart) {
		if _, err := os.Stat(stateFile(*stateDir, *name)); err != nil {
			return usageErr("no command: give the dev server's command line after the flags (or with --run)")
		}
	}
	m, err := devserver.NewManaged(devserver.ManagedSpec{Name: *name, Run: command, Dir: *cwd, Env: env,
		ReadyPath: *readyPath, ReadyPattern: *readyPattern, StateDir: *stateDir, StartTimeout: *startTimeout, Detach: true})
	if err != nil {
		return usageErr(err.Error())
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, verbBudget(verb, *startTimeout, explicit["start-timeout"]))
	defer cancel()
	res, err := m.Do(ctx, verb)
	if err != nil {
		var e *devserver.Error
		if !errors.As(err, &e) {
			e = &devserver.Error{Kind: devserver.KindIO, Verb: verb, Message: err.Error()}
		}
		writeJSON(stdout, struct {
			Status  string          `json:"status"`
			Error   string          `json:"error"`
			Message string          `json:"message"`
			Logs    *devserver.Logs `json:"logs,omitempty"`
		}{"error", string(e.Kind), e.Message, logsOrNil(e.Logs)})
		return 1
	}
	writeJSON(stdout, res)
	return 0
}

// verbBudget is how long a verb may take: within the contract's timeout
// for it (30, 40, 5, 15 s) with a margin to answer before the caller gives
// up, unless --start-timeout asks for longer starts.
func verbBudget(verb devserver.Verb, start time.Duration, explicitStart bool) time.Duration {
	d := devserver.DefaultTimeouts.For(verb)
	switch verb {
	case devserver.Status:
		return d - 500*time.Millisecond
	case devserver.Start:
		if explicitStart {
			return start + 3*time.Second
		}
	case devserver.Restart:
		if explicitStart {
			return devserver.DefaultTimeouts.Shutdown + start + 3*time.Second
		}
	}
	return d - time.Second
}

func logsOrNil(l devserver.Logs) *devserver.Logs {
	if l == (devserver.Logs{}) {
		return nil
	}
	return &l
}

// stateFile is where the state of the named server would be.
func stateFile(dir, name string) string {
	if dir == "" {
		dir, _ = devserver.DefaultStateDir(name)
	}
	return dir + string(os.PathSeparator) + "state.json"
}

func writeJSON(w io.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(`{"status":"error","error":"io_error","message":"cannot encode the answer"}`)
	}
	_, _ = w.Write(append(b, '\n'))
}

func printDevserverUsage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprint(w, devserverUsage)
	config.PrintFlags(w, fs)
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./{}$-]+$`)

// joinCommandLine quotes args into one command line that the managed
// runner splits back into the same words. Double quotes keep $PORT
// expandable.
func joinCommandLine(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		if plainWord.MatchString(a) {
			quoted[i] = a
			continue
		}
		r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`")
		quoted[i] = `"` + r.Replace(a) + `"`
	}
	return strings.Join(quoted, " ")
}
