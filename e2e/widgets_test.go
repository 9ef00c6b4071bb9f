package e2e

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// Real widgets (issue 31): the shapes of the libraries browser agents fail
// on in real projects, on pages of our own.

// startClientArgs is startClient with command-line flags for the server.
func startClientArgs(t *testing.T, env []string, args ...string) *client.Client {
	t.Helper()
	stderr := &lockedBuffer{}
	c, err := client.NewStdioMCPClientWithOptions(bin, env, args, transport.WithCommandStderrWriter(stderr))
	if err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	return initialized(t, c, stderr)
}

// TestDefaultViewport: a fresh session's page measures 1280x720, as
// Playwright's, not headless Chrome's 780x493; --viewport-size changes it,
// a popup starts with it too, and a size that is not WxH stops the server
// with a message that says what to give.
func TestDefaultViewport(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	size := `() => innerWidth + "x" + innerHeight`

	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/index.html"})
	mustContain(t, "default viewport", mustCall(t, c, "browser_evaluate", map[string]any{"function": size}), `"1280x720"`)

	c = startClientArgs(t, env, "--viewport-size", "1024x600", "--caps", "emulation")
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/index.html"})
	mustContain(t, "--viewport-size", mustCall(t, c, "browser_evaluate", map[string]any{"function": size}), `"1024x600"`)
	// A popup is a tab the session did not open: it starts at the size too.
	mustCall(t, c, "browser_evaluate", map[string]any{"function": `() => { window.open(location.href, "_blank"); }`})
	mustCall(t, c, "browser_tabs", map[string]any{"action": "select", "index": 1})
	mustContain(t, "popup's viewport", mustCall(t, c, "browser_evaluate", map[string]any{"function": size}), `"1024x600"`)
	// An emulation reset comes back to the session's size, not the window's.
	mustCall(t, c, "browser_emulate", map[string]any{"device": "Desktop 1080p"})
	mustContain(t, "device", mustCall(t, c, "browser_evaluate", map[string]any{"function": size}), `"1920x1080"`)
	mustCall(t, c, "browser_emulate", map[string]any{"reset": true})
	mustContain(t, "reset", mustCall(t, c, "browser_evaluate", map[string]any{"function": size}), `"1024x600"`)

	cmd := exec.Command(bin, "serve", "--viewport-size", "1280*720")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), `--viewport-size "1280*720": want WIDTHxHEIGHT`) {
		t.Errorf("serve --viewport-size 1280*720: %v\n%s", err, out)
	}
}
