package runner

import (
	"strings"

	"github.com/e2e-mcp/e2e-mcp/redact"
)

// envSecrets are the values of the environment's E2E_SECRET_n and of the
// variables whose names say they hold a secret (redact.IsSecretEnv:
// API_TOKEN, DB_PASSWORD; not SESSION_COOKIE_DOMAIN). All of them, not
// only those the flows read: the dev servers the run starts inherit the
// environment and may print any of them in a log a failure shows.
func envSecrets(env []string) []string {
	var out []string
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); v != "" && redact.IsSecretEnv(k) {
			out = append(out, v)
		}
	}
	return out
}
