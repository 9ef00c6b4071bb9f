package redact

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"a cloud browser's key in the query", "wss://chrome.example.com/?token=KEY", "wss://chrome.example.com/?token=•••"},
		{"userinfo", "ws://acct:PW@127.0.0.1:9/devtools/browser/a", "ws://•••@127.0.0.1:9/devtools/browser/a"},
		{"a lone user name is a key", "https://KEY@sentry.example.com/1", "https://•••@sentry.example.com/1"},
		{"every value, names kept", "wss://h:443/chromium?token=T&region=eu&launch={\"x\":1}", "wss://h:443/chromium?token=•••&region=•••&launch=•••"},
		{"a bare value and an empty one", "http://h/?KEY&debug=", "http://h/?•••&debug="},
		{"fragment", "https://h/p#access_token=T", "https://h/p#•••"},
		{"all at once", "https://u:p@h:1/a/b?k=v#f", "https://•••@h:1/a/b?k=•••#•••"},
		{"a password holding @ and :", "postgres://app:p@ss:w@db:5432/app", "postgres://•••@db:5432/app"},
		{"@ in the path is no userinfo", "https://medium.example.com/@someone", "https://medium.example.com/@someone"},
		{"nothing to mask", "http://127.0.0.1:9222", "http://127.0.0.1:9222"},
		{"a list", "ws://a:1/?t=X http://u:P@b:2,ws://c:3/#F", "ws://a:1/?t=••• http://•••@b:2,ws://c:3/#•••"},
		{"quoted in an error", `could not dial "ws://h:9/devtools/browser/b?token=T": refused`, `could not dial "ws://h:9/devtools/browser/b?token=•••": refused`},
		{"escaped in JSON", `{"error":"dial \"ws://h/?token=T\""}`, `{"error":"dial \"ws://h/?token=•••\""}`},
		{"single-quoted", `curl 'https://h/?k=v' -o x`, `curl 'https://h/?k=•••' -o x`},
		{"a password holding /", "ws://u:p/w?x#y@h:1/devtools/browser/a", "ws://•••@h:1/devtools/browser/a"},
		{"a port, then @ in the path", "https://host:8080/@someone", "https://host:8080/@someone"},
		{"without a scheme", "--webdriver-url user:key@hub.example.com/wd/hub", "--webdriver-url •••@hub.example.com/wd/hub"},
		{"an address is no userinfo", "git@github.com:org/repo 127.0.0.1:9222", "git@github.com:org/repo 127.0.0.1:9222"},
		{"no URL", "no browser", "no browser"},
	}
	for _, tt := range tests {
		if got := URL(tt.in); got != tt.want {
			t.Errorf("%s: URL(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

func TestCommandLine(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"a database URL in an argument", "./dev.sh --db postgres://app:S3cret@db/app", "./dev.sh --db postgres://•••@db/app"},
		{"an assignment whose value holds a URL", "DATABASE_URL=postgres://u:p@h/db ./dev", "DATABASE_URL=postgres://•••@h/db ./dev"},
		{"an assignment named like a secret", "PGPASSWORD=hunter2 API_KEY=k PORT=3000 npm run dev", "PGPASSWORD=••• API_KEY=••• PORT=3000 npm run dev"},
		{"--name=value flags", "app --password=hunter2 --api-key=k --port=3000", "app --password=••• --api-key=••• --port=3000"},
		{"a flag and its value apart", "app --token abc -v --db-password x y", "app --token ••• -v --db-password ••• y"},
		{"a secret flag before another flag", "app --password --verbose", "app --password --verbose"},
		{"a flag's URL", "app --upstream=https://u:p@h/?k=v", "app --upstream=https://•••@h/?k=•••"},
		{"quoted", `sh -c "PGPASSWORD=hunter2 psql"`, `sh -c "PGPASSWORD=••• psql"`},
		{"quoted whole", `sh -c "PGPASSWORD=hunter2"`, `sh -c "PGPASSWORD=•••"`},
		{"spacing kept", "a  b\tc", "a  b\tc"},
		{"nothing secret", "npm run dev -- --port $PORT", "npm run dev -- --port $PORT"},
		{"a URL alone", "wss://h/?token=T", "wss://h/?token=•••"},
		{"a URL quoted in a quoted argument", `sh -c 'curl "http://u:p@h/?k=v"'`, `sh -c 'curl "http://•••@h/?k=•••"'`},
	}
	for _, tt := range tests {
		if got := CommandLine(tt.in); got != tt.want {
			t.Errorf("%s: CommandLine(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

func TestErr(t *testing.T) {
	base := fmt.Errorf(`could not dial "ws://h/?token=T": %w`, fs.ErrNotExist)
	err := Err(base)
	if got, want := err.Error(), `could not dial "ws://h/?token=•••": file does not exist`; got != want {
		t.Errorf("Err(%v) = %q, want %q", base, got, want)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("Err hides what it wraps from errors.Is")
	}
	if Err(nil) != nil {
		t.Error("Err(nil) is not nil")
	}
}

// TestCommandArgs: a command's arguments as a list are masked as its line
// is, a secret flag's value in the next argument too.
func TestCommandArgs(t *testing.T) {
	got := CommandArgs([]string{"--token", "T1", "--port", "3000", "--password=P2", "postgres://u:P3@db/app", "sh -c \"PGPASSWORD=P4 psql\"", "SESSION_COOKIE_DOMAIN=localhost"})
	want := []string{"--token", Mask, "--port", "3000", "--password=" + Mask, "postgres://•••@db/app", "sh -c \"PGPASSWORD=" + Mask + " psql\"", "SESSION_COOKIE_DOMAIN=localhost"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("CommandArgs:\n got %q\nwant %q", got, want)
	}
}
