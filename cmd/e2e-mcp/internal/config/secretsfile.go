package config

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// --secrets FILE (Playwright MCP's): a dotenv file of NAME=value lines
// whose values are secrets the agent never sees. The values go into the
// server's secret set (redact, via Registry.Secrets), so every answer, log
// and file masks them; ${NAME} in a tool call's arguments is the value
// (mcptools.SecretVars), and a flow records it as ${NAME} again, for CI
// to set.

// secretNameRE is a secret's name: what a dotenv file and Playwright MCP's
// names take (X-PASSWORD), and a flow's ${NAME} reads.
var secretNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`)

// maxSecretsFile bounds the secrets file read.
const maxSecretsFile = 1 << 20

// readSecrets reads --secrets into c.secrets, over the config file's.
func (c *Config) readSecrets() error {
	if c.SecretsFile == "" {
		return nil
	}
	f, err := os.Open(c.SecretsFile)
	if err != nil {
		return fmt.Errorf("--secrets: %w", err)
	}
	defer f.Close() //nolint:errcheck // read only
	if fi, err := f.Stat(); err == nil && fi.Size() > maxSecretsFile {
		return fmt.Errorf("--secrets %s: %d bytes, more than a secrets file may be (%d)", c.SecretsFile, fi.Size(), maxSecretsFile)
	}
	vals, err := parseDotenv(f)
	if err != nil {
		return fmt.Errorf("--secrets %s: %w", c.SecretsFile, err)
	}
	if c.secrets == nil {
		c.secrets = map[string]string{}
	}
	for k, v := range vals {
		c.secrets[k] = v
	}
	return nil
}

// parseDotenv reads NAME=value lines: blank lines and # comments skipped,
// an optional "export ", a value bare (a " #" starts a comment), in single
// quotes (as it is) or in double quotes (\n, \t, \" and \\ escaped). An
// error names the line, never its value.
func parseDotenv(f *os.File) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxSecretsFile)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		name, value, ok := strings.Cut(line, "=")
		name = strings.TrimSpace(name)
		if !ok || !secretNameRE.MatchString(name) {
			return nil, fmt.Errorf("line %d is not NAME=value (a name of letters, digits, _, . and -)", n)
		}
		value = strings.TrimSpace(value)
		switch {
		case strings.HasPrefix(value, "'"):
			end := strings.LastIndex(value, "'")
			if end == 0 {
				return nil, fmt.Errorf("line %d (%s): the quote is not closed", n, name)
			}
			value = value[1:end]
		case strings.HasPrefix(value, `"`):
			end := strings.LastIndex(value, `"`)
			if end == 0 {
				return nil, fmt.Errorf("line %d (%s): the quote is not closed", n, name)
			}
			value = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\\`, `\`).Replace(value[1:end])
		default:
			if i := strings.Index(value, " #"); i >= 0 {
				value = strings.TrimSpace(value[:i])
			}
		}
		out[name] = value
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
