package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestEveryCommandHelps: every subcommand is in `e2e-mcp --help`, answers
// -h and --help with its own usage on stdout (exit 0), and a mistyped flag
// with one line on stderr that says where that help is (exit 2); only
// serve lists the server's flags.
func TestEveryCommandHelps(t *testing.T) {
	list := usage()
	for _, c := range commands {
		if !strings.Contains(list, "\n  e2e-mcp "+c.synopsis) {
			t.Errorf("e2e-mcp --help does not list %s:\n%s", c.name, list)
		}
		for _, h := range []string{"-h", "--help"} {
			var out, errb bytes.Buffer
			code := realMain([]string{c.name, h}, nil, &out, &errb)
			if code != 0 || !strings.HasPrefix(out.String(), "Usage: e2e-mcp "+c.name) || errb.Len() > 0 {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q", c.name, h, code, out.String(), errb.String())
			}
			if c.name != "serve" && strings.Contains(out.String(), "-max-sessions") {
				t.Errorf("%s %s lists the server's flags", c.name, h)
			}
		}
		var out, errb bytes.Buffer
		code := realMain([]string{c.name, "--no-such-flag"}, nil, &out, &errb)
		want := "e2e-mcp " + c.name + ": unknown flag --no-such-flag (see e2e-mcp " + c.name + " --help)\n"
		if code != 2 || errb.String() != want {
			t.Errorf("%s --no-such-flag: exit %d, stderr %q; want 2 and %q", c.name, code, errb.String(), want)
		}
	}
}

func TestRealMain_Commands(t *testing.T) {
	var out, errb bytes.Buffer
	if code := realMain([]string{"version"}, nil, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "e2e-mcp ") {
		t.Errorf("version: exit %d, output %q", code, out.String())
	}
	out.Reset()
	if code := realMain([]string{"help"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "doctor") {
		t.Errorf("help: exit %d, output %q", code, out.String())
	}
	errb.Reset()
	if code := realMain([]string{"frobnicate"}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), `unknown command "frobnicate"`) {
		t.Errorf("unknown command: exit %d, stderr %q", code, errb.String())
	}
	errb.Reset()
	if code := realMain([]string{"serve", "--log-level", "loud"}, nil, &out, &errb); code != 2 {
		t.Errorf("bad flag: exit %d, want 2; stderr %q", code, errb.String())
	}
}
