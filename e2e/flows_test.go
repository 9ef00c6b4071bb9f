package e2e

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
)

// runFlows runs `e2e-mcp run` and returns its output and exit code.
func runFlows(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"run"}, args...)...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), 0
}

// appProcesses lists live processes running the flow app from dir.
func appProcesses(dir string) []string {
	ps := proctest.MustFind(proctest.CmdlineContains(filepath.Join(dir, "app.py")))
	var out []string
	for _, p := range ps {
		out = append(out, "/proc/"+strconv.Itoa(p.PID)+"/cmdline")
	}
	return out
}

// signUpApp copies the sign-up app (testdata/flowapp/app.py) into dir and
// returns python3's path and dir.
func signUpApp(t *testing.T, dir string) (python, _ string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for this test: %v", err)
	}
	app, err := os.ReadFile("testdata/flowapp/app.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "app.py"), app, 0o644); err != nil {
		t.Fatal(err)
	}
	return python, dir
}

// TestFlowExportAndRun: sign up through MCP and check the welcome text;
// export the session as a flow; `e2e-mcp run` replays it green with a
// fresh dev server; with the button's label changed the run fails at that
// step, with artifacts and a JUnit report; --parallel 4 over 8 copies
// passes and leaves no process.
func TestFlowExportAndRun(t *testing.T) {
	python, dir := signUpApp(t, t.TempDir())
	env, tmp := serverEnv(t)
	env = append(env, "E2E_MCP_STATE_DIR="+t.TempDir(), "E2E_MCP_FILE_ROOTS="+dir, "E2E_MCP_LOG_LEVEL=warn")

	c := startClient(t, env)
	mustCall(t, c, "session_start", map[string]any{"run": python + " " + filepath.Join(dir, "app.py") + " $PORT", "cwd": dir})
	snap := mustCall(t, c, "browser_navigate", map[string]any{"url": "/"})
	mustCall(t, c, "browser_type", map[string]any{"target": refOf(t, snap, "textbox", "Name"), "text": "Ada"})
	mustCall(t, c, "browser_type", map[string]any{"target": refOf(t, snap, "textbox", "Password"), "text": "hunter2"})
	mustCall(t, c, "browser_click", map[string]any{"target": refOf(t, snap, "button", "Sign up")})
	mustCall(t, c, "browser_expect", map[string]any{"target": "role=status", "check": "text", "expected": "Welcome, Ada!"})
	flowFile := filepath.Join(dir, "signup.yaml")
	out := mustCall(t, c, "session_export_flow", map[string]any{"path": flowFile, "name": "sign-up"})
	mustContain(t, "export", out, "Wrote flow sign-up (5 steps)", "set E2E_SECRET_1 in the environment")
	_ = c.Close()
	b, err := os.ReadFile(flowFile)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	t.Logf("the exported flow:\n%s", text)
	mustContain(t, "the flow file", text, "name: sign-up", "run: "+python, "navigate: /",
		`role=textbox[name="Name"]`, `role=button[name="Sign up"]`, "expect:", "Welcome, Ada!")
	if regexp.MustCompile(`\be\d+\b`).MatchString(text) {
		t.Errorf("the flow holds a snapshot ref:\n%s", text)
	}
	if strings.Contains(text, "hunter2") || !strings.Contains(text, "${E2E_SECRET_1}") {
		t.Errorf("the password is written out, or not as an environment reference:\n%s", text)
	}
	env = append(env, "E2E_SECRET_1=hunter2")

	out, code := runFlows(t, env, flowFile)
	if code != 0 || !strings.Contains(out, "PASS  sign-up") {
		t.Fatalf("the exported flow does not replay green (exit %d):\n%s", code, out)
	}

	// The app changes under the flow: the run fails at the click.
	if err := os.WriteFile(filepath.Join(dir, "label.txt"), []byte("Register"), 0o644); err != nil {
		t.Fatal(err)
	}
	art, report := filepath.Join(dir, "artifacts"), filepath.Join(dir, "report.xml")
	out, code = runFlows(t, env, flowFile, "--junit", report, "--artifacts", art)
	if code != 1 || !strings.Contains(out, `FAIL  sign-up`) || !strings.Contains(out, `step 4, click role=button[name="Sign up"]`) {
		t.Fatalf("the changed app: exit %d:\n%s", code, out)
	}
	md, err := os.ReadFile(filepath.Join(art, "sign-up", "step-4.md"))
	if err != nil {
		t.Fatalf("no artifact of the failing step: %v\n%s", err, out)
	}
	mustContain(t, "the failure artifact", string(md), "element_not_found", "### Dev server log")
	if fi, err := os.Stat(filepath.Join(art, "sign-up", "step-4.jpg")); err != nil || fi.Size() < 1000 {
		t.Errorf("no screenshot of the failing step: %v", err)
	}
	var suites struct {
		Suites []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Cases    []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	rb, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(rb, &suites); err != nil {
		t.Fatalf("the JUnit report does not parse: %v\n%s", err, rb)
	}
	if len(suites.Suites) != 1 || suites.Suites[0].Tests != 1 || suites.Suites[0].Failures != 1 ||
		suites.Suites[0].Cases[0].Failure == nil || !strings.Contains(suites.Suites[0].Cases[0].Failure.Message, "step 4") {
		t.Errorf("JUnit report: %+v\n%s", suites, rb)
	}

	// Eight copies, four at a time, each in its own session with its own
	// dev server: no cross-talk, nothing left.
	_ = os.Remove(filepath.Join(dir, "label.txt"))
	var files []string
	for i := range 8 {
		f := filepath.Join(dir, fmt.Sprintf("copy%d.yaml", i))
		copyText := strings.Replace(text, "name: sign-up", fmt.Sprintf("name: sign-up-%d", i), 1)
		copyText = strings.Replace(copyText, "text: Ada", fmt.Sprintf("text: Ada%d", i), 1)
		copyText = strings.Replace(copyText, "Welcome, Ada!", fmt.Sprintf("Welcome, Ada%d!", i), 1)
		if err := os.WriteFile(f, []byte(copyText), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	start := time.Now()
	out, code = runFlows(t, env, append(files, "--parallel", "4")...)
	if code != 0 || strings.Count(out, "PASS  sign-up-") != 8 {
		t.Fatalf("8 copies, 4 at a time: exit %d:\n%s", code, out)
	}
	t.Logf("8 flows, 4 at a time: %s", time.Since(start).Round(time.Millisecond))
	requireNoChrome(t, tmp, 10*time.Second)
	if left := appProcesses(dir); len(left) > 0 {
		t.Errorf("dev servers left: %v", left)
	}
}
