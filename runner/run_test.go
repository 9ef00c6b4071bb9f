package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// TestReportNames: each flow's report and trace are named after it, numbered only
// when two flows share a name, never with a path separator.
func TestReportNames(t *testing.T) {
	got := reportNames([]*flow.Flow{{Name: "sign-up"}, {Name: "a/b"}, {Name: "sign-up"}, {Name: "log-in"}})
	want := map[string]string{"flow-1": "sign-up-1", "flow-2": "a_b", "flow-3": "sign-up-3", "flow-4": "log-in"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q, want %q", k, got[k], v)
		}
	}
}

// TestJUnitLinksReports: a flow's report is linked from its test case,
// relative to the JUnit file, and a failure's text names it.
func TestJUnitLinksReports(t *testing.T) {
	dir := t.TempDir()
	junit := filepath.Join(dir, "out", "junit.xml")
	if err := os.MkdirAll(filepath.Dir(junit), 0o755); err != nil {
		t.Fatal(err)
	}
	results := []flowResult{
		{name: "ok", file: "ok.yaml", report: filepath.Join(dir, "reports", "ok.html")},
		{name: "bad", file: "bad.yaml", failed: true, failedStep: 2, step: "click #go", headline: "element_not_found: x",
			message: "### Error", report: filepath.Join(dir, "reports", "bad.html"), video: filepath.Join(dir, "videos", "bad.png")},
		{name: "plain", file: "plain.yaml"},
	}
	if err := writeJUnit(junit, results, 0, redact.NewSet(nil), false); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	x := string(b)
	for _, want := range []string{"[[ATTACHMENT|../reports/ok.html]]", "[[ATTACHMENT|../reports/bad.html]]", "Report: ../reports/bad.html",
		"[[ATTACHMENT|../videos/bad.png]]", "Video: ../videos/bad.png"} {
		if !strings.Contains(x, want) {
			t.Errorf("the JUnit file lacks %q:\n%s", want, x)
		}
	}
	if strings.Count(x, "<system-out>") != 2 {
		t.Errorf("want a link only where there is a report:\n%s", x)
	}
}

// TestEnvSecrets: the run masks the values of E2E_SECRET_n and of the
// variables whose names say secret (redact.IsSecretEnv), not of a
// variable that only has a secret's word inside its name.
func TestEnvSecrets(t *testing.T) {
	got := envSecrets([]string{"E2E_SECRET_1=pw-1", "CI_API_TOKEN=tok-2", "DB_PASSWORD=db-3", "E2E_SECRET_2=",
		"SESSION_COOKIE_DOMAIN=localhost", "TOKEN_URL=https://auth.example.com/token", "PASSWORD_FILE=/run/pw", "HOME=/root", "PWD=/src"})
	want := []string{"pw-1", "tok-2", "db-3"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("envSecrets: %q, want %q", got, want)
	}
}
