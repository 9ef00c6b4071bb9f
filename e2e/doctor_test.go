package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

func runDoctor(t *testing.T, env ...string) (string, int) {
	t.Helper()
	return doctorIn(t, append(os.Environ(), env...))
}

// doctorIn runs doctor in exactly the environment env.
func doctorIn(t *testing.T, env []string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, "doctor")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

func TestDoctor(t *testing.T) {
	out, code := runDoctor(t)
	if code != 0 || !strings.Contains(out, "browser version: Chrome/") {
		t.Errorf("doctor with a browser: exit %d, want 0 with the version:\n%s", code, out)
	}
	out, code = runDoctor(t, "E2E_MCP_BROWSER_PATH=/nonexistent/chromium")
	if code == 0 || !strings.Contains(out, "apt-get install chromium") {
		t.Errorf("doctor with a missing browser: exit %d, want non-zero with an install hint:\n%s", code, out)
	}
	out, code = runDoctor(t, "E2E_MCP_BROWSER_PATH=/bin/false")
	if code == 0 || !strings.Contains(out, "DOES NOT START") || !strings.Contains(out, "apt-get install chromium") {
		t.Errorf("doctor with a program that is not a browser: exit %d, want non-zero with a hint:\n%s", code, out)
	}
}

// withoutEnv is env without the variables named.
func withoutEnv(env []string, names ...string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			drop = drop || k == n
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// TestBrowserPathMissingServes: a --browser-path (or E2E_MCP_BROWSER_PATH)
// that names no executable does not keep the server from starting: a real
// MCP client initializes, and the first browser call answers
// browser_not_found naming the path, with the hint a machine without any
// browser gets; a call that needs no browser works.
func TestBrowserPathMissingServes(t *testing.T) {
	env, _ := serverEnv(t)
	for _, how := range []struct {
		name string
		env  []string
		args []string
	}{
		{"flag", env, []string{"--browser-path", "/nonexistent/chromium"}},
		{"variable", append(env, "E2E_MCP_BROWSER_PATH=/nonexistent/chromium"), nil},
	} {
		t.Run(how.name, func(t *testing.T) {
			stderr := &lockedBuffer{}
			c, err := client.NewStdioMCPClientWithOptions(bin, how.env, how.args, transport.WithCommandStderrWriter(stderr))
			if err != nil {
				t.Fatal(err)
			}
			c = initialized(t, c, stderr)
			mustCall(t, c, "session_list", nil)
			res := call(t, c, "browser_navigate", map[string]any{"url": "about:blank"})
			wantError(t, res, "browser_not_found", "/nonexistent/chromium", "Next: "+installHint)
		})
	}
}

// installHint is what a machine without a browser is told to do.
const installHint = "install Chromium (Debian/Ubuntu: sudo apt-get install chromium; macOS: brew install --cask chromium) " +
	"or point --browser-path / E2E_MCP_BROWSER_PATH at a Chrome or Chromium executable"

// TestHeadedWithoutDisplay: HEADLESS=false on a machine with no display
// (DISPLAY and WAYLAND_DISPLAY unset) is said as such, with what to do (run
// headless, or under xvfb-run), by the server's first browser call, by
// doctor, and by `run --headed` before any flow starts; never chromedp's own
// advice about its options, never an install hint.
func TestHeadedWithoutDisplay(t *testing.T) {
	base, _ := serverEnv(t)
	env := withoutEnv(base, "DISPLAY", "WAYLAND_DISPLAY")
	noChromedp := func(what, out string) {
		t.Helper()
		for _, bad := range []string{"CHROMEDP", "VisibleWindow", "apt-get install"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s says %q:\n%s", what, bad, out)
			}
		}
	}

	c := startClient(t, append(env, "HEADLESS=false"))
	res := call(t, c, "browser_navigate", map[string]any{"url": "about:blank"})
	wantError(t, res, "browser_launch_failed", "no display", "DISPLAY", "headless", "xvfb-run")
	noChromedp("the tool's answer", text(res))

	out, code := doctorIn(t, append(env, "HEADLESS=false"))
	if code == 0 || !strings.Contains(out, "no display") || !strings.Contains(out, "xvfb-run") {
		t.Errorf("doctor with HEADLESS=false and no display: exit %d:\n%s", code, out)
	}
	noChromedp("doctor", out)

	flowFile := filepath.Join(t.TempDir(), "f.yaml")
	if err := os.WriteFile(flowFile, []byte("name: f\nsteps:\n  - navigate: about:blank\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = runFlows(t, env, flowFile, "--headed")
	if code != 2 || !strings.Contains(out, "no display") || !strings.Contains(out, "xvfb-run") || strings.Contains(out, "PASS") || strings.Contains(out, "FAIL") {
		t.Errorf("run --headed with no display: exit %d, want 2 before any flow:\n%s", code, out)
	}
	noChromedp("run --headed", out)
}

// TestLaunchTriedTwice: a browser that exits as it starts is started once
// more at once, before the call fails (Debian's chromium script can fail
// on a busy machine reading the size of /dev/shm); one that fails twice
// still fails the call, saying why.
func TestLaunchTriedTwice(t *testing.T) {
	f := newFixture(t)
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("no chromium on PATH: %v", err)
	}
	dir := t.TempDir()
	marker := filepath.Join(dir, "failed-once")
	wrapper := filepath.Join(dir, "flaky-chromium")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nif [ ! -e "+marker+" ]; then touch "+marker+"; echo 'passing trouble' >&2; exit 1; fi\nexec "+chromium+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_BROWSER_PATH="+wrapper))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the wrapper never failed, so the test proves nothing: %v", err)
	}

	env, _ = serverEnv(t)
	bad := startClient(t, append(env, "E2E_MCP_BROWSER_PATH=/bin/false"))
	wantError(t, call(t, bad, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"}), "browser_launch_failed")
}
