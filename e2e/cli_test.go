package e2e

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os/exec"
	"path/filepath"
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
	if errb.Len() > 0 {
		t.Logf("stderr of %v: %s", args, errb.String())
	}
	return out.String(), code
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
