package runner

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// TestHealFlag: --heal alone writes beside the flow, --heal=write over it,
// anything else is a mistake.
func TestHealFlag(t *testing.T) {
	for args, want := range map[string]HealMode{"": HealOff, "--heal": HealBeside, "--heal=write": HealWrite, "--heal=false": HealOff} {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		var h HealMode
		fs.Var(&h, "heal", "")
		if err := fs.Parse(strings.Fields(args)); err != nil || h != want {
			t.Errorf("%q: %q, %v; want %q", args, h, err, want)
		}
	}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var h HealMode
	fs.Var(&h, "heal", "")
	if err := fs.Parse([]string{"--heal=yes"}); err == nil {
		t.Error("--heal=yes is accepted")
	}
	if healedPath("a/sign-up.yaml", HealBeside) != "a/sign-up.healed.yaml" || healedPath("a/sign-up.yaml", HealWrite) != "a/sign-up.yaml" {
		t.Error("healedPath")
	}
}

// TestWriteHealed: the repaired flow is the file with the healed steps'
// targets and fingerprints changed and every other byte as it was (its
// comment, its URL whose host an environment value may equal), a $ of
// the page's escaped, nothing masked; a step whose new locator holds a
// secret's value is not written, and the answer says so; the diff shows
// each change with its context.
func TestWriteHealed(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.yaml")
	src := "# kept by hand\nname: f\nsteps:\n  - navigate: http://localhost:8000/\n  - click: role=button[name=\"Sign up\"]\n  - type: {target: '#a', text: \"${NAME}\"}\n  - click: '#b'   # the last\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	heals := []heal{
		{step: 2, action: "click", from: `role=button[name="Sign up"]`, to: `role=button[name="Pay $HOME"]`,
			print: &flow.Fingerprint{Role: "button", Name: "Pay $HOME"}},
		{step: 4, action: "click", from: "#b", to: `role=button[name="Token s3cr3t-token"]`,
			print: &flow.Fingerprint{Role: "button", Name: "Token s3cr3t-token"}},
	}
	secrets := redact.NewSet(nil)
	secrets.Add("s3cr3t-token", "localhost")
	path, diff, notes, err := writeHealed(file, heals, HealBeside, secrets)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	want := strings.Replace(src, `click: role=button[name="Sign up"]`, "click: role=button[name=\"Pay $$HOME\"]\n    fingerprint: {role: button, name: Pay $HOME}", 1)
	if string(b) != want {
		t.Errorf("the repaired flow:\n%s\nwant\n%s", b, want)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "step 4 was not written: its new locator or fingerprint holds a secret's value") {
		t.Errorf("notes: %q", notes)
	}
	for _, want := range []string{"--- " + file, "+++ " + path, `-   - click: role=button[name="Sign up"]`, `+   - click: role=button[name="Pay $$HOME"]`,
		"+     fingerprint: {role: button, name: Pay $HOME}", "    - navigate: http://localhost:8000/"} {
		if !strings.Contains(diff, want) {
			t.Errorf("the diff lacks %q:\n%s", want, diff)
		}
	}
	if strings.Contains(diff, "#b") {
		t.Errorf("the diff shows a line that did not change, far from any that did:\n%s", diff)
	}
	// Over the file: the same bytes; nothing written when no step can be.
	if p, _, _, err := writeHealed(file, heals, HealWrite, secrets); err != nil || p != file {
		t.Fatal(p, err)
	}
	if again, _ := os.ReadFile(file); string(again) != want {
		t.Errorf("--heal=write wrote\n%s", again)
	}
	if p, _, notes, err := writeHealed(file, heals[1:], HealBeside, secrets); err != nil || p != "" || len(notes) != 1 {
		t.Errorf("a repaired flow of no step: %q %q %v", p, notes, err)
	}
	if lineDiff("a", "b", "x\ny\n", "x\ny\n") != "" {
		t.Error("a diff of the same texts")
	}
}
