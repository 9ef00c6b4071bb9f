package config

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The MCP registry's server.json (schema 2025-12-11), the parts this
// project uses. Decoding rejects any other field, so a typo fails the test.
type registryServer struct {
	Schema      string `json:"$schema"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description"`
	Version     string `json:"version"`
	Repository  struct {
		URL    string `json:"url"`
		Source string `json:"source"`
	} `json:"repository"`
	Packages []registryPackage `json:"packages"`
}

type registryPackage struct {
	RegistryType string `json:"registryType"`
	Identifier   string `json:"identifier"`
	Transport    struct {
		Type string `json:"type"`
		URL  string `json:"url,omitempty"`
	} `json:"transport"`
	RuntimeHint      string             `json:"runtimeHint,omitempty"`
	RuntimeArguments []registryArgument `json:"runtimeArguments,omitempty"`
	PackageArguments []registryArgument `json:"packageArguments,omitempty"`
	Env              []registryEnv      `json:"environmentVariables"`
}

type registryArgument struct {
	Type        string `json:"type"`
	Name        string `json:"name,omitempty"`
	Value       string `json:"value,omitempty"`
	Description string `json:"description,omitempty"`
}

type registryEnv struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Format      string `json:"format,omitempty"`
	Default     string `json:"default,omitempty"`
	Value       string `json:"value,omitempty"`
	IsSecret    bool   `json:"isSecret,omitempty"`
}

// httpInContainer is what E2E_MCP_HTTP is inside the image for the
// streamable-http package: every interface of the container, whose port
// the runtime arguments publish on the host's loopback.
const httpInContainer = "0.0.0.0:8931"

// registryEnvFor is the environment a package of the given transport
// lists: every E2E_MCP_* variable of the flag table, with its help, default
// and format. Over stdio E2E_MCP_HTTP is left out (it would switch the
// transport); the streamable-http package fixes it.
func registryEnvFor(transport string) []registryEnv {
	fs := flag.NewFlagSet("registry", flag.ContinueOnError)
	var c Config
	var out []registryEnv
	for _, s := range settings {
		s.bind(fs, &c, s.flag, s.def, s.help)
		e := registryEnv{Name: s.env, Description: s.help, Default: s.def, IsSecret: slices.Contains(SecretEnv, s.env)}
		switch fmt.Sprintf("%T", fs.Lookup(s.flag).Value) {
		case "*flag.boolValue":
			e.Format = "boolean"
		case "*flag.intValue", "*flag.int64Value":
			e.Format = "number"
		}
		if s.env == "E2E_MCP_HTTP" {
			if transport != "streamable-http" {
				continue
			}
			e.Description, e.Default, e.Value = "listen address inside the container", "", httpInContainer
		}
		out = append(out, e)
	}
	return out
}

// TestServerJSON keeps server.json (MCP registry metadata) in step with the
// flag table: its packages' environment variables are the table's (make
// snaps rewrites them), its transports are stdio and streamable-http, and
// its version is the placeholder make release fills in.
func TestServerJSON(t *testing.T) {
	const path = "../../../../server.json"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var s registryServer
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("server.json: %v", err)
	}
	if s.Schema != "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json" {
		t.Errorf("$schema = %q", s.Schema)
	}
	if !regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`).MatchString(s.Name) || !strings.HasPrefix(s.Name, "io.github.e2e-mcp/") {
		t.Errorf("name %q: want reverse-DNS io.github.e2e-mcp/NAME", s.Name)
	}
	if n := len(s.Description); n < 1 || n > 100 {
		t.Errorf("description has %d characters; the registry takes 1 to 100", n)
	}
	const placeholder = "0.0.0-dev" // scripts/release.sh replaces it with the release's version
	if s.Version != placeholder {
		t.Errorf("version = %q, want the placeholder %q", s.Version, placeholder)
	}
	var transports []string
	for i := range s.Packages {
		p := &s.Packages[i]
		transports = append(transports, p.Transport.Type)
		if p.RegistryType != "oci" || !strings.HasSuffix(p.Identifier, ":"+placeholder) {
			t.Errorf("package %d: %s %q: want an oci image tagged %s", i, p.RegistryType, p.Identifier, placeholder)
		}
		// The image serves HTTP unless told otherwise (its entrypoint and
		// E2E_MCP_HTTP): over stdio it runs `serve --http=`, stdin open.
		if p.Transport.Type == "stdio" {
			var args []string
			for _, a := range p.PackageArguments {
				args = append(args, a.Value)
			}
			if strings.Join(args, " ") != "serve --http=" || len(p.RuntimeArguments) != 1 || p.RuntimeArguments[0].Name != "-i" {
				t.Errorf("package %d: stdio runs the image with %v %v: want -i, then serve --http=", i, p.RuntimeArguments, args)
			}
		}
		if p.Transport.Type == "streamable-http" && !strings.HasSuffix(p.Transport.URL, "/mcp") {
			t.Errorf("package %d: streamable-http url %q: want the /mcp endpoint", i, p.Transport.URL)
		}
		p.Env = registryEnvFor(p.Transport.Type)
	}
	slices.Sort(transports)
	if !slices.Equal(transports, []string{"stdio", "streamable-http"}) {
		t.Errorf("transports %v, want stdio and streamable-http", transports)
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&s); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(raw, want.Bytes()) {
		return
	}
	if os.Getenv("UPDATE_TOOLSNAPS") == "true" {
		if err := os.WriteFile(path, want.Bytes(), 0o644); err != nil { //nolint:gosec // a tracked file
			t.Fatal(err)
		}
		return
	}
	t.Errorf("server.json's environment variables differ from the flag table: run make snaps")
}

// TestRegistryEnv checks the generated lists themselves: every E2E_MCP_*
// variable appears, the token is secret, and stdio leaves out E2E_MCP_HTTP.
func TestRegistryEnv(t *testing.T) {
	names := func(env []registryEnv) map[string]registryEnv {
		m := map[string]registryEnv{}
		for _, e := range env {
			m[e.Name] = e
		}
		return m
	}
	stdio, httpEnv := names(registryEnvFor("stdio")), names(registryEnvFor("streamable-http"))
	for _, s := range settings {
		if _, ok := httpEnv[s.env]; !ok {
			t.Errorf("streamable-http lacks %s", s.env)
		}
		if _, ok := stdio[s.env]; !ok && s.env != "E2E_MCP_HTTP" {
			t.Errorf("stdio lacks %s", s.env)
		}
	}
	if len(httpEnv) != len(settings) || len(stdio) != len(settings)-1 {
		t.Errorf("%d and %d variables for %d settings", len(stdio), len(httpEnv), len(settings))
	}
	if _, ok := stdio["E2E_MCP_HTTP"]; ok {
		t.Error("stdio lists E2E_MCP_HTTP: it would turn the server into an HTTP one")
	}
	if e := httpEnv["E2E_MCP_HTTP"]; e.Value != httpInContainer {
		t.Errorf("streamable-http E2E_MCP_HTTP = %+v", e)
	}
	if !stdio["E2E_MCP_AUTH_TOKEN"].IsSecret || !httpEnv["E2E_MCP_AUTH_TOKEN"].IsSecret || stdio["E2E_MCP_LOG_LEVEL"].IsSecret {
		t.Error("E2E_MCP_AUTH_TOKEN must be secret, E2E_MCP_LOG_LEVEL not")
	}
	if stdio["E2E_MCP_HEADED"].Format != "boolean" || stdio["E2E_MCP_MAX_SESSIONS"].Format != "number" || stdio["E2E_MCP_IDLE_TIMEOUT"].Format != "" {
		t.Errorf("formats: headed %q, max-sessions %q, idle-timeout %q", stdio["E2E_MCP_HEADED"].Format,
			stdio["E2E_MCP_MAX_SESSIONS"].Format, stdio["E2E_MCP_IDLE_TIMEOUT"].Format)
	}
}
