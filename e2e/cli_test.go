package e2e

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
)

// cliEnv runs CLI commands with their daemons' sockets in dir and Chrome's
// profiles under tmp.
type cliEnv struct {
	env      []string
	dir, tmp string
}

// run runs one CLI command and returns its stdout and exit code.
func (e *cliEnv) run(t *testing.T, args ...string) (string, int) {
	t.Helper()
	out, errOut, code := e.exec(t, args...)
	if errOut != "" {
		t.Logf("stderr of %v: %s", args, errOut)
	}
	return out, code
}

// exec runs the binary with args and returns its stdout, stderr and exit
// code.
func (e *cliEnv) exec(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = e.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// envelope is the --json answer.
type envelope struct {
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   *string         `json:"error"`
}

func (e *cliEnv) json(t *testing.T, args ...string) (envelope, int) {
	t.Helper()
	out, code := e.run(t, append(args, "--json")...)
	var env envelope
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &env); err != nil {
		t.Fatalf("%v --json printed no JSON envelope (%v):\n%s", args, err, out)
	}
	if !strings.HasPrefix(out, `{"success":`) {
		t.Errorf("the envelope does not start with success: %s", out)
	}
	return env, code
}

func (e *cliEnv) ok(t *testing.T, args ...string) envelope {
	t.Helper()
	env, code := e.json(t, args...)
	if !env.Success || code != 0 || env.Error != nil {
		t.Fatalf("%v: exit %d, %s", args, code, deref(env.Error))
	}
	return env
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// TestCLI plays an agent's CLI session against the binary: help,
// open, snapshot -i with the refs map, act by ref, a bad target, a timeout,
// two isolated sessions, and close --all leaving no process.
func TestCLI(t *testing.T) {
	f := newFixture(t, isolationRoutes, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /hang", func(w http.ResponseWriter, r *http.Request) {
			select { // a page that never finishes loading
			case <-r.Context().Done():
			case <-time.After(30 * time.Second):
			}
		})
	})
	base, tmp := serverEnv(t)
	e := &cliEnv{env: append(base, "E2E_MCP_CLI_DIR="+t.TempDir(), "E2E_MCP_LOG_LEVEL=info"), tmp: tmp}
	e.dir = e.env[len(e.env)-2][len("E2E_MCP_CLI_DIR="):]
	t.Cleanup(func() { e.run(t, "close", "--all") })

	if out, code := e.run(t, "--help"); code != 0 || !strings.Contains(out, "--session NAME") {
		t.Fatalf("--help: exit %d\n%s", code, out)
	}

	opened := e.ok(t, "open", f.URL+"/signup.html", "--session", "s1")
	if !strings.Contains(string(opened.Data), `"title":"Sign up"`) {
		t.Errorf("open data: %s", opened.Data)
	}
	snap := e.ok(t, "snapshot", "-i", "--session", "s1")
	var sd struct {
		Snapshot string                       `json:"snapshot"`
		Refs     map[string]map[string]string `json:"refs"`
		Origin   string                       `json:"origin"`
	}
	if err := json.Unmarshal(snap.Data, &sd); err != nil {
		t.Fatal(err)
	}
	var name, submit string
	for ref, r := range sd.Refs {
		switch {
		case r["role"] == "textbox" && r["name"] == "Name":
			name = ref
		case r["role"] == "button" && r["name"] == "Sign up":
			submit = ref
		}
	}
	if name == "" || submit == "" || !strings.Contains(sd.Origin, "/signup.html") || !strings.Contains(sd.Snapshot, "[ref="+submit+"]") {
		t.Fatalf("snapshot -i data: %+v", sd)
	}
	e.ok(t, "fill", "@"+name, "Ada", "--session", "s1")
	clicked := e.ok(t, "click", "@"+submit, "--session", "s1")
	if !strings.Contains(string(clicked.Data), "Welcome, Ada!") {
		t.Errorf("the click's answer does not show the page's change: %s", clicked.Data)
	}
	text := e.ok(t, "get", "text", "--session", "s1")
	if !strings.Contains(string(text.Data), "Welcome, Ada!") {
		t.Errorf("get text after the click: %s", text.Data)
	}

	// A screenshot goes where its user says (the folder made), through the
	// file writer, and the answer gives its absolute path.
	shotPath := filepath.Join(t.TempDir(), "shots", "page.png")
	shot := e.ok(t, "screenshot", shotPath, "--session", "s1")
	var sh struct {
		Path  string `json:"path"`
		Bytes int    `json:"bytes"`
	}
	if err := json.Unmarshal(shot.Data, &sh); err != nil || sh.Path != shotPath {
		t.Errorf("screenshot data: %s (%v)", shot.Data, err)
	}
	if b, err := os.ReadFile(shotPath); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) || len(b) != sh.Bytes {
		t.Errorf("the screenshot file: %d bytes (%v), the answer says %d", len(b), err, sh.Bytes)
	}

	bad, code := e.json(t, "click", "#no-such-thing", "--session", "s1", "--timeout", "10")
	if bad.Success || code == 0 || bad.Error == nil || !strings.Contains(*bad.Error, "element_not_found") || string(bad.Data) != "null" {
		t.Errorf("a bad target: exit %d, %+v", code, bad)
	}
	slow, code := e.json(t, "open", f.URL+"/hang", "--session", "s1", "--timeout", "1")
	if slow.Success || code != 3 || slow.Error == nil || !strings.Contains(*slow.Error, "timeout") {
		t.Errorf("a page that never settles with --timeout 1: exit %d, %+v", code, slow)
	}

	// Two sessions: each its own browser context.
	e.ok(t, "open", f.URL+"/iso?who=one", "--session", "s1")
	e.ok(t, "open", f.URL+"/iso?who=two", "--session", "s2")
	for who, other := range map[string]string{"one": "two", "two": "one"} {
		sess := map[string]string{"one": "s1", "two": "s2"}[who]
		got := e.ok(t, "open", f.URL+"/iso", "--session", sess)
		if !strings.Contains(string(got.Data), "cookie=who="+who) || strings.Contains(string(got.Data), "="+other) {
			t.Errorf("session %s sees: %s", sess, got.Data)
		}
	}
	list := e.ok(t, "session", "list", "--session", "s1")
	if !strings.Contains(string(list.Data), `"id":"s1"`) {
		t.Errorf("session list: %s", list.Data)
	}

	closed := e.ok(t, "close", "--all")
	if string(closed.Data) != `{"closed":2}` {
		t.Errorf("close --all closed %s, want 2 daemons", closed.Data)
	}
	requireNoChrome(t, e.tmp, 10*time.Second)
	if socks, _ := filepath.Glob(filepath.Join(e.dir, "*.sock")); len(socks) > 0 {
		t.Errorf("sockets left: %v", socks)
	}
	if daemons := cliDaemons(e.dir); len(daemons) > 0 {
		t.Errorf("daemons left: %v", daemons)
	}
}

// cliDaemons lists live processes serving a socket in dir.
func cliDaemons(dir string) []string {
	ps := proctest.MustFind(proctest.CmdlineContains("unix:" + dir))
	var out []string
	for _, p := range ps {
		out = append(out, "/proc/"+strconv.Itoa(p.PID)+"/cmdline")
	}
	return out
}

// commandsOf lists the commands `e2e-mcp --help` names: the subcommands
// ("  e2e-mcp NAME ..." lines) and the CLI's verbs (the lines "  VERB ..."
// after its own usage line).
func commandsOf(help string) (subcommands, verbs []string) {
	sub := regexp.MustCompile(`^  e2e-mcp \[?([a-z]+(?:-[a-z]+)*)\b`)
	verb := regexp.MustCompile(`^  ([a-z]+)\b`)
	inCLI := false
	for _, l := range strings.Split(help, "\n") {
		switch {
		case strings.HasPrefix(l, "Usage: e2e-mcp <command>"):
			inCLI = true
		case inCLI:
			if m := verb.FindStringSubmatch(l); m != nil {
				verbs = append(verbs, m[1])
			}
		default:
			if m := sub.FindStringSubmatch(l); m != nil {
				subcommands = append(subcommands, m[1])
			}
		}
	}
	return subcommands, verbs
}

// TestHelp: every command `e2e-mcp --help` names (the subcommands, the
// hidden healthcheck among them, and every CLI verb) answers -h and --help
// with its own short usage on stdout (exit 0), doing nothing else, and a
// mistyped flag with one line that says where the help is (exit 2); only
// serve's help lists the server's flags.
func TestHelp(t *testing.T) {
	base, _ := serverEnv(t)
	cliDir := t.TempDir()
	// (healthcheck's default URL is a port nobody answers on.)
	e := &cliEnv{env: append(base, "E2E_MCP_CLI_DIR="+cliDir, "E2E_MCP_HTTP=127.0.0.1:9")}
	run := func(args ...string) (string, string, int) { return e.exec(t, args...) }
	help, _, code := run("--help")
	subs, verbs := commandsOf(help)
	t.Logf("subcommands %v; verbs %v", subs, verbs)
	if code != 0 || !slices.Contains(subs, "healthcheck") || !slices.Contains(subs, "doctor") || len(verbs) < 25 ||
		!slices.Contains(verbs, "open") || !slices.Contains(verbs, "session") || !slices.Contains(verbs, "export") {
		t.Fatalf("e2e-mcp --help: exit %d; subcommands %v, verbs %v:\n%s", code, subs, verbs, help)
	}
	serverFlag := "max-sessions" // a flag only serve takes
	for _, cmd := range append(subs, verbs...) {
		for _, h := range []string{"-h", "--help"} {
			out, errOut, code := run(cmd, h)
			if code != 0 || !strings.HasPrefix(out, "Usage: e2e-mcp "+cmd) || errOut != "" {
				t.Errorf("%s %s: exit %d, want 0 with its usage on stdout:\n%s\nstderr: %s", cmd, h, code, out, errOut)
			}
			if cmd != "serve" && strings.Contains(out, serverFlag) {
				t.Errorf("%s %s lists the server's flags:\n%s", cmd, h, out)
			}
		}
		out, errOut, code := run(cmd, "--no-such-flag")
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != 2 || len(lines) != 1 || !strings.Contains(errOut, "--no-such-flag") || !strings.Contains(errOut, "see e2e-mcp "+cmd+" --help") {
			t.Errorf("%s --no-such-flag: exit %d, want 2 and one line saying where the help is:\n%s", cmd, code, errOut)
		}
		if strings.Contains(out+errOut, serverFlag) {
			t.Errorf("%s --no-such-flag lists the server's flags:\n%s%s", cmd, out, errOut)
		}
	}
	if socks, _ := filepath.Glob(filepath.Join(cliDir, "*")); len(socks) > 0 {
		t.Errorf("asking for help started a session daemon: %v", socks)
	}
}

// TestCLISessions: `session list` without --session lists the sessions of
// every running daemon, all of them the user's, and starts none;
// the CLI's errors name its own commands, not the tools behind them
// (`session status` without a dev server); `export --json` without a path
// carries the flow's text.
func TestCLISessions(t *testing.T) {
	f := newFixture(t)
	base, tmp := serverEnv(t)
	dir := t.TempDir()
	e := &cliEnv{env: append(withoutEnv(base, "E2E_MCP_SESSION"), "E2E_MCP_CLI_DIR="+dir, "E2E_MCP_LOG_LEVEL=info"), dir: dir, tmp: tmp}
	t.Cleanup(func() { e.run(t, "close", "--all") })

	e.ok(t, "open", f.URL+"/signup.html", "--session", "s1")
	e.ok(t, "open", f.URL+"/signup.html", "--session", "ci")
	list := e.ok(t, "session", "list")
	var sessions []map[string]any
	if err := json.Unmarshal(list.Data, &sessions); err != nil {
		t.Fatalf("session list data: %v\n%s", err, list.Data)
	}
	var ids []string
	for _, s := range sessions {
		id, _ := s["id"].(string)
		ids = append(ids, id)
		if s["yours"] == false {
			t.Errorf("session list says session %s is not the user's: %s", id, list.Data)
		}
	}
	slices.Sort(ids)
	if strings.Join(ids, ",") != "ci,s1" {
		t.Errorf("session list without --session lists %v, want ci and s1:\n%s", ids, list.Data)
	}
	if _, err := os.Stat(filepath.Join(dir, "default.sock")); err == nil {
		t.Errorf("session list started a daemon of its own")
	}
	if n := len(cliDaemons(dir)); n != 2 {
		t.Errorf("%d daemons after session list, want the 2 sessions'", n)
	}
	text, _ := e.run(t, "session", "list")
	mustContain(t, "session list's text", text, "ci", "s1", f.URL+"/signup.html")

	status, code := e.json(t, "session", "status", "--session", "s1")
	if status.Success || code != 1 || status.Error == nil || !strings.Contains(*status.Error, "e2e-mcp session start") || strings.Contains(*status.Error, "session_start") {
		t.Errorf("session status without a dev server: exit %d, %s; want it to name e2e-mcp session start", code, deref(status.Error))
	}

	exported := e.ok(t, "export", "--session", "s1")
	var ex struct {
		Flow  string `json:"flow"`
		Steps int    `json:"steps"`
	}
	if err := json.Unmarshal(exported.Data, &ex); err != nil || ex.Steps != 1 || !strings.Contains(ex.Flow, "navigate: "+f.URL+"/signup.html") {
		t.Errorf("export --json without a path: %v, data %s; want the flow's text", err, exported.Data)
	}
}
