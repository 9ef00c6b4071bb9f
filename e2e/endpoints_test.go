package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The credentials of the endpoint tests: distinct enough that no other text
// holds them.
const (
	endpointPW    = "pw-5b7e2c" // a userinfo password
	endpointToken = "tk-9d41fa" // a cloud browser's API key in the query
	endpointFrag  = "fg-07c3e1" // a fragment
	dbPW          = "db-3c8a61" // a database URL's password in a command line
	flagPW        = "fl-7e02d4" // a --password= flag's value
	envKey        = "ek-41b9f0" // an API_KEY=VALUE assignment's value
	gridKey       = "gk-8f15c2" // a grid's access key (userinfo)
	gridToken     = "gt-2a6d93" // a grid's query token
	jwksKey       = "jk-6e0f47" // a key in the JWKS URL's query
	nextToken     = "nt-0b5e88" // a --token flag's separate value
	dbURLPassword = "du-93c1e5" // DATABASE_URL's userinfo password
)

// noneOf fails the test when out holds any of the secrets.
func noneOf(t *testing.T, what, out string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("%s shows %q:\n%s", what, s, out)
		}
	}
}

// TestEndpointCredentialsNeverShown (issue 37, defect 1): a cloud browser's
// API key in the --cdp-endpoint query (wss://host/?token=KEY, as
// Browserless, Browserbase and Steel take it), the userinfo password of
// another endpoint and a fragment are in neither the browser_launch_failed
// answer a client of a shared server gets, nor session_errors, nor /health,
// nor the server's log; the answer still names each endpoint's host, port
// and path, and the query's parameter names.
func TestEndpointCredentialsNeverShown(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	endpoints := "ws://acct:" + endpointPW + "@127.0.0.1:9/devtools/browser/a ws://127.0.0.1:9/devtools/browser/b?token=" +
		endpointToken + "&region=eu#" + endpointFrag
	s := startHTTP(t, append(env, "E2E_MCP_CAPS=config"), "--cdp-endpoint", endpoints)
	c := s.client(t)
	secrets := []string{endpointPW, endpointToken, endpointFrag}

	out := mustFail(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"}, "browser_launch_failed")
	noneOf(t, "the browser_launch_failed answer", out, secrets...)
	mustContain(t, "the browser_launch_failed answer", out, "127.0.0.1:9/devtools/browser/a", "127.0.0.1:9/devtools/browser/b?token=•••&region=•••")

	out = mustCall(t, c, "session_errors", nil)
	noneOf(t, "session_errors", out, secrets...)
	mustContain(t, "session_errors", out, "ws://•••@127.0.0.1:9/devtools/browser/a")

	_, health := s.get(t, "/health")
	noneOf(t, "/health", health, secrets...)
	mustContain(t, "/health", health, "127.0.0.1:9/devtools/browser/")

	out = mustCall(t, c, "browser_get_config", nil)
	noneOf(t, "browser_get_config", out, secrets...)
	// (json.MarshalIndent writes & as \u0026.)
	mustContain(t, "browser_get_config", out, "ws://•••@127.0.0.1:9/devtools/browser/a", "ws://127.0.0.1:9/devtools/browser/b?token=•••", "region=•••#•••")

	waitFor(t, 10*time.Second, "the server to log the unreachable endpoints", func() bool {
		return strings.Count(s.log.String(), "remote browser unreachable") >= 2
	})
	log := s.log.String()
	noneOf(t, "the server's log", log, secrets...)
	mustContain(t, "the server's log", log, "127.0.0.1:9/devtools/browser/b?token=•••")
}

// TestConfigAndCommandsMasked (issue 37, "also seen"): browser_get_config
// shows every URL and command-line setting (it showed --cdp-endpoint and
// --webdriver-url as empty strings, and --server-command whole) with their
// credentials masked and the rest as given: userinfo passwords, query
// values, fragments, secret-looking KEY=VALUE assignments, --password= and
// --token flag values, URLs inside arguments. session_start's answer
// names the dev-server command the same way, and a dev command line that
// fails says which one without its credentials.
func TestConfigAndCommandsMasked(t *testing.T) {
	env, tmp := serverEnv(t)
	grid := "https://user:" + gridKey + "@hub.example.com/wd/hub?token=" + gridToken + "#" + endpointFrag
	command := devfixture + " --db postgres://app:" + dbPW + "@db/app --password=" + flagPW + " --token " + nextToken
	c, log := startClientLog(t, append(env, "E2E_MCP_CAPS=config", "FIXTURE_STATE="+filepath.Join(tmp, "fixture"),
		"E2E_MCP_WEBDRIVER_URLS="+grid, "E2E_MCP_SERVER_COMMAND="+command,
		"E2E_MCP_OAUTH_ISSUER=https://issuer.example.com", "E2E_MCP_OAUTH_RESOURCE=https://mcp.example.com/mcp",
		"E2E_MCP_OAUTH_JWKS_URL=https://issuer.example.com/jwks?key="+jwksKey))
	secrets := []string{gridKey, gridToken, endpointFrag, dbPW, flagPW, nextToken, jwksKey}

	out := mustCall(t, c, "browser_get_config", nil)
	noneOf(t, "browser_get_config", out, secrets...)
	mustContain(t, "browser_get_config", out,
		`"webdriver-url": "https://•••@hub.example.com/wd/hub?token=•••#•••"`,
		`"server-command": "`+devfixture+` --db postgres://•••@db/app --password=••• --token •••"`,
		`"oauth-jwks-url": "https://issuer.example.com/jwks?key=•••"`,
		`"oauth-issuer": "https://issuer.example.com"`)

	out = mustCall(t, c, "session_start", nil)
	noneOf(t, "session_start's answer", out, secrets...)
	mustContain(t, "session_start's answer", out, "--db postgres://•••@db/app --password=••• --token •••")
	mustCall(t, c, "session_end", nil)

	run := "DATABASE_URL=postgres://u:" + dbURLPassword + "@h/db API_KEY=" + envKey + " sh -c 'exit 3' --password=" + flagPW
	out = mustFail(t, c, "session_start", map[string]any{"run": run, "sessionId": "failing"}, "not_ready")
	// What the server says of it; the Context line after it echoes the
	// agent's own arguments, as it gave them.
	out, _, _ = strings.Cut(out, "Context:")
	noneOf(t, "a failed dev command line", out, dbURLPassword, envKey, flagPW)
	mustContain(t, "a failed dev command line", out, "DATABASE_URL=postgres://•••@h/db API_KEY=••• sh -c 'exit 3' --password=•••")

	noneOf(t, "the server's log", log.String(), secrets...)
}
