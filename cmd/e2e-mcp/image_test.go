package main

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/config"
)

// The Dockerfile and scripts/install-image.sh (which make image-check runs
// in CI) must be one set of steps: the Dockerfile installs nothing itself,
// runs every step of the script, and agrees with it and with go.mod on
// versions, user, ports and settings.

// dockerInstr is one Dockerfile instruction, continuation lines joined.
type dockerInstr struct{ op, args string }

func readDockerfile(t *testing.T) []dockerInstr {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var out []dockerInstr
	cur := ""
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") || line == "" && cur == "" {
			continue
		}
		if more, ok := strings.CutSuffix(line, "\\"); ok {
			cur += more + " "
			continue
		}
		cur += line
		if op, args, ok := strings.Cut(cur, " "); ok {
			out = append(out, dockerInstr{strings.ToUpper(op), strings.Join(strings.Fields(args), " ")})
		}
		cur = ""
	}
	return out
}

// scriptVar is NAME="value" or NAME=value from scripts/install-image.sh.
func scriptVar(t *testing.T, script, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + name + `="?([^"\n]*)"?$`).FindStringSubmatch(script)
	if m == nil {
		t.Fatalf("scripts/install-image.sh has no %s=", name)
	}
	return m[1]
}

func TestDockerfileRunsTheInstallScript(t *testing.T) {
	sb, err := os.ReadFile(filepath.Join("..", "..", "scripts", "install-image.sh"))
	if err != nil {
		t.Fatal(err)
	}
	script := string(sb)
	gomod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVer := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(gomod)
	if goVer == nil {
		t.Fatal("go.mod has no go directive")
	}

	var froms, ran []string
	env := map[string]string{}
	prefix := ""
	byOp := map[string][]string{}
	for _, in := range readDockerfile(t) {
		byOp[in.op] = append(byOp[in.op], in.args)
		switch in.op {
		case "FROM":
			froms = append(froms, strings.Fields(in.args)[0])
		case "RUN":
			for _, own := range []string{"apt-get", "apt ", "dpkg", "useradd", "groupadd", "adduser", "go build"} {
				if strings.Contains(in.args, own) {
					t.Errorf("RUN %s: %q belongs in scripts/install-image.sh, which CI checks", in.args, own)
				}
			}
			if !strings.Contains(in.args, "install-image.sh") {
				continue
			}
			f := strings.Fields(in.args)
			for i, w := range f {
				switch {
				case w == "--prefix" && i+1 < len(f) && f[i+1] != "/out":
					prefix = f[i+1]
				case w == "&&":
					f = f[:i]
				}
			}
			for _, w := range f {
				if strings.Contains(scriptVar(t, script, "STEPS"), w) && !strings.HasPrefix(w, "-") && !strings.Contains(w, "/") {
					ran = append(ran, w)
				}
			}
		case "ENV":
			for _, kv := range strings.Fields(in.args) {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
		}
	}

	// The toolchain is go.mod's, on the runtime's Debian release.
	if len(froms) != 2 {
		t.Fatalf("FROM %v: want a build stage and a runtime stage", froms)
	}
	build := regexp.MustCompile(`^golang:(\d+\.\d+)-(\w+)$`).FindStringSubmatch(froms[0])
	runtime := regexp.MustCompile(`^debian:(\w+)-slim$`).FindStringSubmatch(froms[1])
	if build == nil || runtime == nil {
		t.Fatalf("FROM %v: want golang:X.Y-RELEASE and debian:RELEASE-slim", froms)
	}
	if build[1] != string(goVer[1]) {
		t.Errorf("build stage Go %s, go.mod says %s", build[1], goVer[1])
	}
	if build[2] != runtime[1] {
		t.Errorf("build stage on Debian %s, runtime stage on %s", build[2], runtime[1])
	}

	// Every step of the script, each once, in its order.
	if want := strings.Fields(scriptVar(t, script, "STEPS")); !slices.Equal(ran, want) {
		t.Errorf("the Dockerfile runs install-image.sh steps %v, the script has %v", ran, want)
	}
	if prefix == "" {
		t.Fatal("the runtime stage's install-image.sh has no --prefix")
	}
	if !slices.ContainsFunc(byOp["COPY"], func(a string) bool { return strings.Contains(a, "/out/bin/e2e-mcp "+prefix+"/bin/e2e-mcp") }) {
		t.Errorf("COPY %v: the built binary goes to %s/bin/e2e-mcp", byOp["COPY"], prefix)
	}

	// The user, the port and the data directory are the script's.
	if u := byOp["USER"]; len(u) != 1 || u[0] != scriptVar(t, script, "IMAGE_UID")+":"+scriptVar(t, script, "IMAGE_UID") {
		t.Errorf("USER %v: want the script's uid %s", u, scriptVar(t, script, "IMAGE_UID"))
	}
	if env["HOME"] != scriptVar(t, script, "IMAGE_HOME") {
		t.Errorf("HOME %q: want the script's %s", env["HOME"], scriptVar(t, script, "IMAGE_HOME"))
	}
	_, port, err := net.SplitHostPort(env["E2E_MCP_HTTP"])
	if err != nil {
		t.Fatalf("ENV E2E_MCP_HTTP=%q: %v", env["E2E_MCP_HTTP"], err)
	}
	if e := byOp["EXPOSE"]; len(e) != 1 || e[0] != port {
		t.Errorf("EXPOSE %v, E2E_MCP_HTTP's port is %s", e, port)
	}
	if !strings.Contains(script, `E2E_MCP_HTTP:=`+env["E2E_MCP_HTTP"]) {
		t.Errorf("the entrypoint's default address is not the image's E2E_MCP_HTTP %s", env["E2E_MCP_HTTP"])
	}
	data := scriptVar(t, script, "DATA_DIR")
	if env["E2E_MCP_OUTPUT_DIR"] != data+"/output" || env["E2E_MCP_FILE_ROOTS"] != data+"/files" {
		t.Errorf("output %q and file roots %q: want the script's %s/output and %s/files", env["E2E_MCP_OUTPUT_DIR"], env["E2E_MCP_FILE_ROOTS"], data, data)
	}
	if v := byOp["VOLUME"]; len(v) != 1 || v[0] != data {
		t.Errorf("VOLUME %v: want %s", v, data)
	}
	// Every E2E_MCP_ variable the image sets is a setting of the server.
	for k := range env {
		if strings.HasPrefix(k, "E2E_MCP_") && !slices.ContainsFunc(config.Settings(), func(s config.Setting) bool { return s.Env == k }) {
			t.Errorf("ENV %s is no setting of e2e-mcp", k)
		}
	}

	// The health check and the entrypoint are what the script installs
	// (tini among its packages).
	hc := byOp["HEALTHCHECK"]
	if len(hc) != 1 || !strings.Contains(hc[0], `CMD ["`+prefix+`/bin/e2e-mcp", "healthcheck"]`) {
		t.Errorf("HEALTHCHECK %v: want %s/bin/e2e-mcp healthcheck", hc, prefix)
	}
	ep := byOp["ENTRYPOINT"]
	if len(ep) != 1 || ep[0] != `["/usr/bin/tini", "--", "`+prefix+`/bin/e2e-mcp-entrypoint"]` {
		t.Errorf("ENTRYPOINT %v: want tini running %s/bin/e2e-mcp-entrypoint", ep, prefix)
	}
	pkgs := strings.Fields(scriptVar(t, script, "PACKAGES"))
	for _, p := range []string{"chromium", "tini", "ca-certificates"} {
		if !slices.Contains(pkgs, p) {
			t.Errorf("the script's PACKAGES %v lack %s", pkgs, p)
		}
	}
}
