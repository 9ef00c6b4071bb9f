package config

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/redact"
)

// SecretEnv are the environment variables that carry credentials of this
// server: read into the Config, then removed from the environment.
var SecretEnv = []string{"E2E_MCP_AUTH_TOKEN", "E2E_MCP_CDP_HEADERS", "E2E_MCP_WEBDRIVER_URLS", "E2E_MCP_WEBDRIVER_HEADERS",
	"E2E_MCP_PROXY_SERVER", "PLAYWRIGHT_MCP_CDP_HEADERS", "PLAYWRIGHT_MCP_PROXY_SERVER"}

// userinfoRE finds the password of a URL's userinfo in a setting, whatever
// separates the URLs (a password may hold a comma).
var userinfoRE = regexp.MustCompile(`://[^/@:\s]*:([^@\s]+)@`)

// OperatorSecrets are the credentials in the server's own settings: the
// HTTP token, the headers sent to remote browsers and grids, the passwords
// in their URLs and the values of their secret-named query parameters
// (?token=, ?apiKey=). No answer or log shows them: where the server shows
// those URLs it masks them by position too (redact.URL); this also masks
// them wherever a library quotes them.
func (c *Config) OperatorSecrets() []string {
	out := []string{c.AuthToken}
	for _, h := range strings.FieldsFunc(c.CDPHeaders+";"+c.WebDriverHeaders, func(r rune) bool { return r == ';' || r == '\n' }) {
		if _, v, ok := strings.Cut(h, ":"); ok {
			out = append(out, redact.CredentialParts(strings.TrimSpace(v))...)
		}
	}
	urls := c.WebDriverURLs + " " + c.CDPEndpoints + " " + c.ProxyServer
	for _, m := range userinfoRE.FindAllStringSubmatch(urls, -1) {
		out = append(out, m[1])
	}
	for _, raw := range splitURLs(urls) {
		u, err := url.Parse(raw)
		if err != nil {
			continue
		}
		for name, values := range u.Query() {
			if redact.IsSecretKey(name) {
				out = append(out, values...)
			}
		}
	}
	return out
}
