package main

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
	for args, want := range map[string]healMode{"": healOff, "--heal": healBeside, "--heal=write": healWrite, "--heal=false": healOff} {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		var h healMode
		fs.Var(&h, "heal", "")
		if err := fs.Parse(strings.Fields(args)); err != nil || h != want {
			t.Errorf("%q: %q, %v; want %q", args, h, err, want)
		}
	}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var h healMode
	fs.Var(&h, "heal", "")
	if err := fs.Parse([]string{"--heal=yes"}); err == nil {
		t.Error("--heal=yes is accepted")
	}
	if healedPath("a/sign-up.yaml", healBeside) != "a/sign-up.healed.yaml" || healedPath("a/sign-up.yaml", healWrite) != "a/sign-up.yaml" {
		t.Error("healedPath")
	}
}

// TestWriteHealed: the repaired flow changes the healed steps' targets and
// fingerprints only, escapes a $ of the page's, masks a secret, and the
// diff shows each change with its context.
func TestWriteHealed(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.yaml")
	src := "name: f\nsteps:\n  - navigate: /\n  - click: role=button[name=\"Sign up\"]\n  - type: {target: '#a', text: \"${NAME}\"}\n  - click: '#b'\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := flow.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	heals := []heal{{step: 2, action: "click", from: `role=button[name="Sign up"]`, to: `role=button[name="Pay $HOME s3cr3t-token"]`,
		print: &flow.Fingerprint{Role: "button", Name: "Pay $HOME s3cr3t-token"}}}
	secrets := redact.NewSet(nil)
	secrets.Add("s3cr3t-token")
	path, diff, err := writeHealed(file, f, heals, healBeside, secrets)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	out := string(b)
	if !strings.Contains(out, `click: role=button[name="Pay $$HOME •••"]`) || !strings.Contains(out, "text: ${NAME}") || strings.Contains(out, "s3cr3t") {
		t.Errorf("the repaired flow:\n%s", out)
	}
	again, err := flow.Parse(b)
	if err != nil || again.Steps[1].Fingerprint == nil || again.Steps[3].Args["target"] != "#b" {
		t.Errorf("the repaired flow does not read back: %v\n%s", err, out)
	}
	for _, want := range []string{"--- " + file, "+++ " + path, `-   - click: role=button[name="Sign up"]`, `+   - click: role=button[name="Pay $$HOME •••"]`, "    - navigate: /"} {
		if !strings.Contains(diff, want) {
			t.Errorf("the diff lacks %q:\n%s", want, diff)
		}
	}
	if lineDiff("a", "b", "x\ny\n", "x\ny\n") != "" {
		t.Error("a diff of the same texts")
	}
}
