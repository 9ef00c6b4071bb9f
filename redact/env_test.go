package redact

import "testing"

// TestIsSecretEnv: the names of environment variables whose values the
// flow runner masks and a heal never types into a field that shows them:
// E2E_SECRET_n and the names whose last word says secret; a word
// elsewhere in the name does not.
func TestIsSecretEnv(t *testing.T) {
	for name, want := range map[string]bool{
		"E2E_SECRET_1": true, "E2E_SECRET_12": true, "E2E_SECRET_ADMIN": true,
		"DB_PASSWORD": true, "DB_PASSWORD_2": true, "ADMIN_PASS": true, "SMTP_PASSWD": true, "GPG_PASSPHRASE": true, "ADMIN_PW": true,
		"APP_SECRET": true, "JWT_SECRET": true, "GITHUB_TOKEN": true, "AWS_SESSION_TOKEN": true, "NPM_TOKENS": true,
		"STRIPE_API_KEY": true, "OPENAI_APIKEY": true, "AWS_SECRET_ACCESS_KEY": true, "SSH_PRIVATE_KEY": true,
		"GCP_CREDENTIALS": true, "SERVICE_CREDENTIAL": true, "SESSION_COOKIE": true, "BASIC_AUTH": true,
		"SECRET_KEY_BASE": true, "PASSWORD": true, "TOKEN": true, "apiKey": true, "dbPassword": true, "ci-token": true,
		"SESSION_COOKIE_DOMAIN": false, "COOKIE_DOMAIN": false, "TOKEN_URL": false, "AUTH_URL": false, "PASSWORD_FILE": false,
		"KEY_PATH": false, "SECRETS_DIR": false, "AWS_ACCESS_KEY_ID": false, "API_KEY_HEADER": false, "PASSWORD_MIN_LENGTH": false,
		"PGPASSWORD": true, "MYSQL_PWD": true, "GHTOKEN": true,
		"PWD": false, "OLDPWD": false, "HOME": false, "PATH": false, "MONKEY": false, "PASSPORT": false, "KEYBOARD_LAYOUT": false,
		"E2E_MCP_LOG_LEVEL": false, "BYPASS": false, "COMPASS": false, "": false, "_": false, "DB_2": false,
	} {
		if got := IsSecretEnv(name); got != want {
			t.Errorf("IsSecretEnv(%q) = %v, want %v", name, got, want)
		}
	}
}
