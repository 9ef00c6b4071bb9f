//go:build inspector

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// inspection is what one run of the Inspector's CLI said of tools/list.
type inspection struct {
	code     int
	tools    []string
	errors   []string // error-severity findings: --strict exits 6 on any
	warnings []string
	stderr   string
}

// inspect runs the pinned MCP Inspector's CLI (scripts/inspector) on a
// server: `inspector --cli --method tools/list --strict --format json`,
// then args (options, then a command after --, or --server-url).
func inspect(t *testing.T, args ...string) inspection {
	t.Helper()
	cli, err := filepath.Abs("../scripts/inspector/node_modules/.bin/inspector")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cli); err != nil {
		t.Fatalf("the MCP Inspector is not installed: run make inspector-check (%v)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli, append([]string{"--cli", "--method", "tools/list", "--strict", "--format", "json"}, args...)...)
	// Its catalog and client settings live under HOME: a temp one keeps
	// the user's out of the run and the run out of the user's.
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	in := inspection{stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		in.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("inspector: %v\n%s", err, in.stderr)
	}
	var out struct {
		Result struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"result"`
		SchemaFindings []struct {
			ToolName string `json:"toolName"`
			Findings []struct {
				Severity string `json:"severity"`
				Path     string `json:"path"`
				Issue    string `json:"issue"`
			} `json:"findings"`
		} `json:"schemaFindings"`
	}
	if stdout.Len() > 0 {
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			t.Fatalf("inspector output (exit %d): %v\n%s\n%s", in.code, err, stdout.String(), in.stderr)
		}
	}
	for _, tool := range out.Result.Tools {
		in.tools = append(in.tools, tool.Name)
	}
	for _, r := range out.SchemaFindings {
		for _, f := range r.Findings {
			finding := r.ToolName + " " + f.Path + ": " + f.Issue
			if f.Severity == "error" {
				in.errors = append(in.errors, finding)
			} else {
				in.warnings = append(in.warnings, finding)
			}
		}
	}
	return in
}

// mustPass fails the test unless the Inspector listed tools and --strict
// found no error, and logs its warnings.
func (in inspection) mustPass(t *testing.T) {
	t.Helper()
	if in.code != 0 || len(in.errors) > 0 || len(in.tools) == 0 {
		t.Fatalf("the Inspector's --strict tools/list: exit %d (6: a tool schema a strict client refuses), %d tools; errors:\n%s\n%s",
			in.code, len(in.tools), strings.Join(in.errors, "\n"), in.stderr)
	}
	for _, w := range in.warnings {
		t.Logf("warning: %s", w)
	}
}

// TestInspectorCheck (make inspector-check): the pinned MCP Inspector's CLI
// lists e2e-mcp's tools with --strict, which refuses (exit 6) a tool schema
// that clients mapping schemas onto a strict dialect would reject, over
// stdio and over Streamable HTTP with a token, with the default tools and
// with every capability group. First it runs on a server with one such
// schema, and must refuse it: else the check could pass on anything.
func TestInspectorCheck(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed: %v", err)
	}
	fixture, err := filepath.Abs("../scripts/inspector/unportable-server.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if bad := inspect(t, "--", node, fixture); bad.code != 6 || len(bad.errors) == 0 {
		t.Fatalf("a bare true schema: exit %d, errors %q; want exit 6 from --strict:\n%s", bad.code, bad.errors, bad.stderr)
	}

	listed := map[string][]string{}
	for _, caps := range []string{"", "all"} {
		name := "default tools"
		if caps != "" {
			name = "caps=" + caps
		}
		t.Run("stdio, "+name, func(t *testing.T) {
			args := []string{"-e", "TMPDIR=" + t.TempDir()}
			if caps != "" {
				args = append(args, "-e", "E2E_MCP_CAPS="+caps)
			}
			in := inspect(t, append(args, "--", bin)...)
			listed[caps] = in.tools
			in.mustPass(t)
			t.Logf("%d tools", len(in.tools))
		})
		t.Run("HTTP, "+name, func(t *testing.T) {
			env, _ := serverEnv(t)
			const token = "inspector-check-token"
			env = append(env, "E2E_MCP_AUTH_TOKEN="+token)
			if caps != "" {
				env = append(env, "E2E_MCP_CAPS="+caps)
			}
			s := startHTTP(t, env)
			in := inspect(t, "--transport", "http", "--server-url", s.base+"/mcp", "--header", "Authorization: Bearer "+token)
			in.mustPass(t)
			if want := listed[caps]; !slices.Equal(in.tools, want) {
				t.Errorf("over HTTP %d tools, over stdio %d: %v\nwant %v", len(in.tools), len(want), in.tools, want)
			}
		})
	}
	// Every group on must have offered more than the default: else the
	// second pass checked the same schemas again.
	for _, n := range listed[""] {
		if !slices.Contains(listed["all"], n) {
			t.Errorf("caps=all drops %s", n)
		}
	}
	if len(listed["all"]) <= len(listed[""]) {
		t.Errorf("caps=all lists %d tools, the default %d: the groups were not on", len(listed["all"]), len(listed[""]))
	}
}
