package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/config"
	"github.com/e2e-mcp/e2e-mcp/httpauth"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/e2e-mcp/e2e-mcp/transport"
	"github.com/mark3labs/mcp-go/server"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// The credentials TestURLFlags gives: in a URL's userinfo, its query and
// its fragment, a command's KEY=VALUE and --password= / --token arguments.
const (
	flagPW    = "pw-c41e7a"
	flagToken = "tk-5d92b0"
	flagFrag  = "fr-8a30f6"
	flagEnv   = "ev-17cf4d"
	flagArg   = "ar-e6b285"
)

var flagSecrets = []string{flagPW, flagToken, flagFrag, flagEnv, flagArg}

// urlFlags are the settings whose values are URLs or command lines, each
// given a value with credentials in every place one can hold them. A
// setting of the flag table that takes a URL or a command line and is not
// here fails TestEveryURLFlagListed.
var urlFlags = []struct {
	flag  string
	value string
	// also are the other settings it needs.
	also []string
	// shown is what browser_get_config shows of it; "" when the server
	// refuses the value (then refused must not show its credentials).
	shown string
	// refused is a value the server refuses, credentials and all.
	refused string
	// call is a tool call that fails on the value: its answer, the
	// server's log, /health and doctor must not show the credentials.
	call string
}{
	{flag: "cdp-endpoint", value: "ws://acct:" + flagPW + "@127.0.0.1:9/devtools/browser/a?token=" + flagToken + "#" + flagFrag,
		shown:   "ws://•••@127.0.0.1:9/devtools/browser/a?token=•••#•••",
		refused: "ftp://acct:" + flagPW + "@127.0.0.1:9/?token=" + flagToken + "#" + flagFrag, call: "browser_navigate"},
	{flag: "cdp-endpoint", value: "http://acct:" + flagPW + "@127.0.0.1:9/?token=" + flagToken + "#" + flagFrag,
		shown: "http://•••@127.0.0.1:9/?token=•••#•••", call: "browser_navigate"},
	{flag: "webdriver-url", value: "http://user:" + flagPW + "@127.0.0.1:9/wd/hub?token=" + flagToken + "#" + flagFrag,
		shown:   "http://•••@127.0.0.1:9/wd/hub?token=•••#•••",
		refused: "ftp://user:" + flagPW + "@127.0.0.1:9/wd/hub?token=" + flagToken + "#" + flagFrag, call: "browser_navigate"},
	{flag: "server-command",
		value: "API_KEY=" + flagEnv + " DATABASE_URL=postgres://u:" + flagPW + "@db/app ./no-such-dev --db=postgres://app:" + flagPW +
			"@db/app?sslpassword=" + flagToken + "#" + flagFrag + " --password=" + flagArg + " --token " + flagArg,
		shown: "API_KEY=••• DATABASE_URL=postgres://•••@db/app ./no-such-dev --db=postgres://•••@db/app?sslpassword=•••#••• --password=••• --token •••",
		call:  "session_start"},
	{flag: "server-command", value: "./no-such-dev --password " + flagArg + " postgres://" + flagPW + "@db/app",
		shown: "./no-such-dev --password ••• postgres://•••@db/app", call: "session_start"},
	{flag: "oauth-issuer", value: "https://u:" + flagPW + "@issuer.example.com/?k=" + flagToken + "#" + flagFrag,
		also:  []string{"--oauth-jwks-url", "https://issuer.example.com/jwks", "--oauth-resource", "https://mcp.example.com/mcp"},
		shown: "https://•••@issuer.example.com/?k=•••#•••"},
	{flag: "oauth-jwks-url", value: "https://u:" + flagPW + "@issuer.example.com/jwks?key=" + flagToken + "#" + flagFrag,
		also:    []string{"--oauth-issuer", "https://issuer.example.com", "--oauth-resource", "https://mcp.example.com/mcp"},
		shown:   "https://•••@issuer.example.com/jwks?key=•••#•••",
		refused: "ftp://u:" + flagPW + "@issuer.example.com/jwks?key=" + flagToken + "#" + flagFrag},
	{flag: "oauth-resource", value: "https://u:" + flagPW + "@mcp.example.com/mcp?k=" + flagToken + "#" + flagFrag,
		also:    []string{"--oauth-issuer", "https://issuer.example.com", "--oauth-jwks-url", "https://issuer.example.com/jwks"},
		shown:   "https://•••@mcp.example.com/mcp?k=•••#•••",
		refused: "ftp://u:" + flagPW + "@mcp.example.com/mcp?k=" + flagToken + "#" + flagFrag},
	{flag: "allowed-origins", refused: "https://u:" + flagPW + "@app.example.com/?k=" + flagToken + "#" + flagFrag},
	{flag: "blocked-origins", refused: "https://u:" + flagPW + "@app.example.com/?k=" + flagToken + "#" + flagFrag},
	{flag: "http-allowed-origins", refused: "https://u:" + flagPW + "@app.example.com/?k=" + flagToken + "#" + flagFrag},
	{flag: "proxy-server", value: "http://acct:" + flagPW + "@127.0.0.1:9", shown: "http://•••@127.0.0.1:9",
		refused: "ftp://acct:" + flagPW + "@127.0.0.1:9/?token=" + flagToken + "#" + flagFrag},
}

// notURLFlags are the settings whose help speaks of URLs, origins or
// commands but whose values are neither, with why.
var notURLFlags = map[string]string{
	"start-timeout":      "a duration",
	"restart-timeout":    "a duration",
	"status-timeout":     "a duration",
	"shutdown-timeout":   "a duration",
	"allow-file-urls":    "a boolean",
	"cdp-header":         "headers: their values are the server's secrets (operatorSecrets), masked by value",
	"webdriver-header":   "headers: as --cdp-header",
	"http-allowed-hosts": "host names",
	"http":               "a listen address or a Unix socket's path",
	"user-data-dir":      "a directory",
	"grant-permissions":  "permission names",
	"proxy-bypass":       "host names and address ranges",
	"cdp-timeout":        "a duration",
}

// noEnv is an environment with no variables set.
func noEnv(string) string { return "" }

// urlFlagRE finds, in a setting's help, that it may take a URL or a
// command line.
var urlFlagRE = regexp.MustCompile(`(?i)url|://|command|origin|endpoint|proxy|issuer`)

// TestEveryURLFlagListed holds urlFlags to the flag table: a setting whose
// help says it takes a URL or a command line has rows there (or says in
// notURLFlags why not), and every row names a setting.
func TestEveryURLFlagListed(t *testing.T) {
	listed := map[string]bool{}
	for _, r := range urlFlags {
		listed[r.flag] = true
	}
	known := map[string]bool{}
	for _, s := range config.Settings() {
		known[s.Flag] = true
		if !urlFlagRE.MatchString(s.Flag+" "+s.Help) || listed[s.Flag] {
			continue
		}
		if _, ok := notURLFlags[s.Flag]; !ok {
			t.Errorf("--%s may take a URL or a command line (%q): give it a row in urlFlags with credentials in every place, or say in notURLFlags why not", s.Flag, s.Help)
		}
	}
	for f := range listed {
		if !known[f] {
			t.Errorf("urlFlags lists --%s, which the flag table no longer has", f)
		}
	}
	for f := range notURLFlags {
		if !known[f] {
			t.Errorf("notURLFlags lists --%s, which the flag table no longer has", f)
		}
	}
}

// TestURLFlags gives each URL and command-line setting a value with
// credentials and reads what the server shows of it: browser_get_config
// (the value, masked), the answer of a call that fails on it and the
// server's log, /health and doctor, and the error of a value the server
// refuses. The server's own secret set is emptied first: what is shown is
// masked by position (redact.URL, redact.CommandLine), not because a
// value was marked, as a query's token never is.
func TestURLFlags(t *testing.T) {
	for i, r := range urlFlags {
		t.Run(r.flag+"/"+string(rune('a'+i)), func(t *testing.T) {
			t.Parallel()
			if r.refused != "" {
				if msg := refusal(t, r.flag, r.refused, r.also); msg == "" {
					t.Errorf("--%s %q: the server took it", r.flag, r.refused)
				} else {
					noSecret(t, "the refusal of --"+r.flag, msg)
					if !strings.Contains(msg, "--"+r.flag) && !strings.Contains(msg, "OAuth") && !strings.Contains(msg, "origin") {
						t.Errorf("the refusal of --%s does not say what it refused: %s", r.flag, msg)
					}
				}
			}
			if r.value == "" {
				return
			}
			cfg, err := config.Parse("serve", append([]string{"--" + r.flag, r.value, "--caps", "config"}, r.also...), noEnv)
			if err != nil {
				t.Fatalf("--%s %q: %v", r.flag, r.value, err)
			}
			var logged lockedBuffer
			log := zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), zapcore.AddSync(&logged), zap.DebugLevel))
			a := newApp(cfg, log)
			a.reg.Secrets = redact.NewSet(nil)
			defer a.close()
			srv := mcptools.NewServer("test", a.deps)

			out := callTool(t, srv, "browser_get_config", nil)
			noSecret(t, "browser_get_config", out)
			var cfgShown struct {
				Result struct {
					StructuredContent struct {
						Config map[string]any `json:"config"`
					} `json:"structuredContent"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(out), &cfgShown); err != nil || cfgShown.Result.StructuredContent.Config == nil {
				t.Fatalf("browser_get_config: %v\n%s", err, out)
			}
			if at := shownAt(r.flag); dig(cfgShown.Result.StructuredContent.Config, at) != r.shown {
				t.Errorf("browser_get_config shows --%s at %s as %q, want %q", r.flag, at, dig(cfgShown.Result.StructuredContent.Config, at), r.shown)
			}
			if r.call == "" {
				return
			}
			args, fails := map[string]any{}, "command_not_found"
			if r.call == "browser_navigate" {
				args, fails = map[string]any{"url": "http://127.0.0.1:9/"}, "browser_launch_failed"
			}
			out = callTool(t, srv, r.call, args)
			if !strings.Contains(out, `"isError":true`) || !strings.Contains(out, fails+": ") {
				t.Fatalf("%s with --%s: want %s, got %s", r.call, r.flag, fails, out)
			}
			noSecret(t, r.call+"'s answer", out)
			noSecret(t, "session_errors", callTool(t, srv, "session_errors", nil))
			rec := httptest.NewRecorder()
			transport.HealthHandler(health(a.bm, a.reg, 1), func() (int, int) { return 0, 1 }).ServeHTTP(rec, httptest.NewRequest("GET", "/health", nil))
			noSecret(t, "/health", rec.Body.String())
			noSecret(t, "the log", logged.String())
			if r.call == "browser_navigate" {
				var stdout, stderr bytes.Buffer
				doctor(cfg, &stdout, &stderr)
				noSecret(t, "doctor", stdout.String()+stderr.String())
			}
		})
	}
}

// shownAt is where browser_get_config's config object shows a setting:
// the key of Playwright MCP's config that says it (a proxy's server in
// the proxy's object), else ours (TestConfigViewRoundTrip of the config
// package holds every key of theirs to the setting it shows).
func shownAt(flag string) string {
	switch flag {
	case "cdp-endpoint":
		return "browser.cdpEndpoint"
	case "proxy-server":
		return "browser.launchOptions.proxy.server"
	}
	return mcptools.ConfigOwnKey + "." + flag
}

// dig is the value at a dotted key of a config object (nil: none).
func dig(m map[string]any, key string) any {
	var v any = m
	for _, p := range strings.Split(key, ".") {
		o, _ := v.(map[string]any)
		v = o[p]
	}
	return v
}

// refusal is the error the server starts with when flag has value: its
// settings' checks (Validate), or the HTTP guard's (origins, OAuth).
func refusal(t *testing.T, flag, value string, also []string) string {
	t.Helper()
	cfg, err := config.Parse("serve", append([]string{"--" + flag, value}, also...), noEnv)
	if err != nil {
		return err.Error()
	}
	if _, err := httpauth.New(guardOptions(cfg, "127.0.0.1:8931")); err != nil {
		return err.Error()
	}
	return ""
}

// callTool calls a tool in-process on session "t" and returns the JSON-RPC
// response.
func callTool(t *testing.T, srv *server.MCPServer, name string, args map[string]any) string {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	args["sessionId"] = "t"
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": name, "arguments": args}})
	b, err := json.Marshal(srv.HandleMessage(context.Background(), req))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func noSecret(t *testing.T, what, out string) {
	t.Helper()
	for _, s := range flagSecrets {
		if strings.Contains(out, s) {
			t.Errorf("%s shows %q:\n%s", what, s, out)
		}
	}
}

// lockedBuffer is a log sink tests read while the server writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
