package redact

import (
	"strings"
	"unicode"
)

// secretEnvWords are the last words of the names of environment variables
// that hold secrets: DB_PASSWORD, GITHUB_TOKEN, STRIPE_API_KEY,
// SESSION_COOKIE. PWD is not one: it is the shell's working directory.
var secretEnvWords = map[string]bool{
	"PASSWORD": true, "PASSWORDS": true, "PASSWD": true, "PASS": true, "PASSPHRASE": true, "PW": true, "PIN": true,
	"SECRET": true, "SECRETS": true, "TOKEN": true, "TOKENS": true, "KEY": true, "KEYS": true, "APIKEY": true,
	"CREDENTIAL": true, "CREDENTIALS": true, "CREDS": true, "COOKIE": true, "COOKIES": true, "AUTH": true,
}

// secretEnvNames are whole names that hold secrets whatever their last
// word says.
var secretEnvNames = map[string]bool{"SECRET_KEY_BASE": true}

// IsSecretEnv says whether an environment variable of this name holds a
// secret, so that `e2e-mcp run` masks its value and a heal never types it
// into a field that shows it: E2E_SECRET_n, and the names whose last word
// (after any trailing number: DB_PASSWORD_2) says so: *_PASSWORD, *_PASS,
// *_PASSWD, *_PW, *_SECRET, *_TOKEN, *_KEY, *_API_KEY, *_CREDENTIALS,
// *_COOKIE, *_AUTH..., a last word ending in PASSWORD, PASSWD, TOKEN or
// SECRET (PGPASSWORD), and *_PWD (MYSQL_PWD; PWD alone is the shell's
// working directory). A word anywhere else does not (SESSION_COOKIE_DOMAIN,
// TOKEN_URL, PASSWORD_FILE, AWS_ACCESS_KEY_ID hold no secret). Words are
// split at _, -, . and a camelCase hump (apiKey).
func IsSecretEnv(name string) bool {
	words := envWords(name)
	if len(words) == 0 {
		return false
	}
	if strings.HasPrefix(strings.ToUpper(name), "E2E_SECRET_") || secretEnvNames[strings.Join(words, "_")] {
		return true
	}
	for len(words) > 1 && isDigits(words[len(words)-1]) {
		words = words[:len(words)-1]
	}
	last := words[len(words)-1]
	if secretEnvWords[last] {
		return true
	}
	// A word that joins its secret to a prefix (PGPASSWORD, GHTOKEN),
	// for the words no ordinary word ends with; MYSQL_PWD, not PWD.
	for _, w := range secretEnvSuffixes {
		if strings.HasSuffix(last, w) {
			return true
		}
	}
	return last == "PWD" && len(words) > 1
}

// secretEnvSuffixes end a one-word name that holds a secret.
var secretEnvSuffixes = []string{"PASSWORD", "PASSWD", "TOKEN", "SECRET"}

// envWords are a name's words, upper case.
func envWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToUpper(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.':
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]):
			flush() // apiKey: a hump starts a word
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

func isDigits(s string) bool {
	return s != "" && strings.TrimFunc(s, unicode.IsDigit) == ""
}
