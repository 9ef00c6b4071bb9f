package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
	"github.com/e2e-mcp/e2e-mcp/webdriver"
	"go.uber.org/zap"
)

func TestCleanStaleProfiles(t *testing.T) {
	root := t.TempDir()
	dead := filepath.Join(root, fmt.Sprintf("%s%d-abc", profilePrefix, 1<<22+12345)) // beyond pid_max
	mine := filepath.Join(root, fmt.Sprintf("%s%d-def", profilePrefix, os.Getpid()))
	other := filepath.Join(root, "something-else")
	for _, d := range []string{dead, mine, other} {
		if err := os.MkdirAll(filepath.Join(d, "Default"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	removed := CleanStaleProfiles(root, zap.NewNop())
	if len(removed) != 1 || removed[0] != dead {
		t.Errorf("CleanStaleProfiles removed %v, want [%s]", removed, dead)
	}
	for _, d := range []string{mine, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}

func TestFindExecutable(t *testing.T) {
	_, err := FindExecutable("/nonexistent/chrome")
	e, ok := refusal.As(err)
	if !ok || e.Kind != refusal.BrowserNotFound || !strings.Contains(e.Hint, "apt-get install chromium") {
		t.Errorf("FindExecutable(missing) = %v, want browser_not_found with an install hint", err)
	}
	if p, err := FindExecutable(""); err != nil || p == "" {
		t.Errorf("FindExecutable(\"\") = %q, %v", p, err)
	}
}

// TestChromeFlagsEverywhere: a grid's session asks for every switch a
// local launch gives Chrome, headless or not, with JavaScript or without
// (Blink's settings in one switch: a second would replace the first).
func TestChromeFlagsEverywhere(t *testing.T) {
	for _, o := range []Config{{}, {Headed: true}, {JavaScriptDisabled: true}, {Headed: true, JavaScriptDisabled: true}} {
		headed := o.Headed
		var blink []string
		for _, f := range o.Flags() {
			if f.Name == "blink-settings" {
				blink = append(blink, f.Value)
			}
		}
		if len(blink) > 1 || o.JavaScriptDisabled != (len(blink) == 1 && strings.Contains(blink[0], "scriptEnabled=false")) {
			t.Errorf("%+v: Blink's settings %q", o, blink)
		}
		g, err := webdriver.New("http://127.0.0.1:4444", nil)
		if err != nil {
			t.Fatal(err)
		}
		caps := o.GridCaps(g)
		always, _ := caps["alwaysMatch"].(map[string]any)
		opts, _ := always["goog:chromeOptions"].(map[string]any)
		args, _ := opts["args"].([]string)
		for _, f := range o.Flags() {
			want := "--" + f.Name
			if f.Value != "" {
				want += "=" + f.Value
			}
			if !slices.Contains(args, want) {
				t.Errorf("headed %v: the grid's session lacks %s: %v", headed, want, args)
			}
		}
	}
}
