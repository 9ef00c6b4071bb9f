package e2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func runDoctor(t *testing.T, env ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, "doctor")
	cmd.Env = append(os.Environ(), env...)
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
