package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadSelectorAnswers: a selector that does not parse is refused where
// the agent gives it (an action, browser_expect, the recorder's locator)
// as invalid_input naming the position and what to fix, and by e2e-mcp
// convert as the flow's error at its step, with the same words.
func TestBadSelectorAnswers(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=testing"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/pwtools/index.html"})

	const bad = `role=button[name="Save"`
	const msg = `selector "role=button[name=\"Save\"": at position 23: expected ]`
	const next = `Next: fix the selector (forms: css, text=, role=button[name="x"], xpath=, data-testid=, label=, nth=, >>), or use a ref from a snapshot`
	for tool, args := range map[string]map[string]any{
		"browser_click":            {"target": bad},
		"browser_expect":           {"target": bad, "check": "visible", "timeout": 1},
		"browser_generate_locator": {"target": bad},
	} {
		out := mustFail(t, c, tool, args, "invalid_input")
		mustContain(t, tool+"'s answer", out, "\ninvalid_input: "+msg+"\n"+next+"\n")
		if strings.Count(out, "invalid_input") != 1 {
			t.Errorf("%s says invalid_input more than once:\n%s", tool, out)
		}
	}

	dir := t.TempDir()
	flowFile := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(flowFile, []byte("name: bad\nsteps:\n  - navigate: /\n  - click: {target: '"+bad+"'}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o, err := exec.Command(bin, "convert", flowFile, "--to", "playwright", "--out", filepath.Join(dir, "out")).CombinedOutput()
	if err == nil || !strings.Contains(string(o), "step 2: invalid_input: "+msg+"\n") {
		t.Errorf("convert of a flow with a bad selector: %v\n%s", err, o)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Errorf("convert refused the flow but wrote %s (%v)", filepath.Join(dir, "out"), err)
	}
}
