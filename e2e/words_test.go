package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// wordPasswords are passwords people really type that are ordinary words:
// issue 37 found "short" turning the heading "Keyboard shortcuts" into
// "Keyboard •••cuts" in every later answer, so an agent told to open the
// keyboard-shortcuts dialog found none.
var wordPasswords = []string{"short", "test", "admin", "password", "Password1"}

// pageWords are what the words app shows after signing in, each holding
// one of the passwords inside a longer word, or as a word of its own.
var pageWords = []string{`heading "Keyboard shortcuts"`, "The latest tests passed", `link "Admin"`, "Change your password here"}

// TestWordPasswords: the agent signs in with a password that is a word,
// then reads a page holding that word inside others (and some as words of
// their own): what every answer shows of the page (snapshots, browser_find,
// evaluate, console, network, the dialog the `?` shortcut opens) is the
// page as it is, since the agent typed that value itself. What is written
// for people and CI (the flow, the Playwright spec, the report) holds the
// typed password nowhere as a word and every other word unchanged, and the
// flow replays with the password from E2E_SECRET_1.
func TestWordPasswords(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	env, _ := serverEnv(t)
	env = append(env, "E2E_MCP_CAPS=report", "E2E_MCP_FILE_ROOTS="+dir)
	c := startClient(t, env)
	for i, pw := range wordPasswords {
		t.Run(pw, func(t *testing.T) {
			s := fmt.Sprintf("words-%d", i+1)
			do := func(tool string, args map[string]any) string {
				t.Helper()
				if args == nil {
					args = map[string]any{}
				}
				args["sessionId"] = s
				return mustCall(t, c, tool, args)
			}
			asWord := regexp.MustCompile(`(^|[^\p{L}\p{N}_])` + regexp.QuoteMeta(pw) + `($|[^\p{L}\p{N}_])`)

			do("browser_navigate", map[string]any{"url": f.URL + "/words/signin.html"})
			do("browser_type", map[string]any{"target": "label=Username", "text": "ada"})
			do("browser_type", map[string]any{"target": "label=Password", "text": pw})
			answers := map[string]string{}
			answers["click"] = do("browser_click", map[string]any{"target": `role=button[name="Sign in"]`})
			do("browser_wait_for", map[string]any{"text": "Keyboard shortcuts loaded"})
			answers["key"] = do("browser_press_key", map[string]any{"key": "?"})
			answers["snapshot"] = do("browser_snapshot", nil)
			mustContain(t, "the snapshot", answers["snapshot"], append(pageWords, `dialog "Keyboard shortcuts"`, "Keyboard shortcuts loaded")...)
			mustContain(t, "the answer of the key that opened the dialog", answers["key"], `dialog "Keyboard shortcuts"`)
			mustContain(t, "browser_find", do("browser_find", map[string]any{"text": "shortcuts"}), `heading "Keyboard shortcuts"`)
			mustContain(t, "evaluate", do("browser_evaluate", map[string]any{"function": "() => document.body.innerText"}),
				"Keyboard shortcuts", "The latest tests passed", "Change your password here", "Admin")
			mustContain(t, "the console", do("browser_console_messages", nil), "The latest tests passed: 12 of 12")
			mustContain(t, "the network", do("browser_network_requests", nil), "/words/shortcuts.json")
			for name, a := range answers {
				if strings.Contains(a, "•••") {
					t.Errorf("the %s answer masks what the page shows:\n%s", name, a)
				}
			}
			do("browser_expect", map[string]any{"target": `role=heading[name="Keyboard shortcuts"]`, "check": "visible"})

			// What is written for people: no password as a word, every
			// other word as the page has it.
			flowFile := filepath.Join(dir, s+".yaml")
			do("session_export_flow", map[string]any{"path": flowFile, "name": s})
			specFile := filepath.Join(dir, s+".spec.ts")
			do("session_export_flow", map[string]any{"path": specFile, "name": s, "format": "playwright"})
			reportFile := filepath.Join(dir, s+".html")
			do("session_report", map[string]any{"path": reportFile})
			written := map[string]string{"flow": readFile(t, flowFile), "spec": readFile(t, specFile), "report": readFile(t, reportFile)}
			mustContain(t, "the flow", written["flow"], "${E2E_SECRET_1}", "Keyboard shortcuts", "/words/signin.html")
			mustContain(t, "the report", written["report"], "Keyboard shortcuts", "The latest tests passed")
			// The spec's own code says test(...) and imports
			// '@playwright/test': its other strings are what the flow
			// wrote into it.
			written["spec"] = strings.ReplaceAll(written["spec"], "'@playwright/test'", "")
			written["spec"] = strings.Join(regexp.MustCompile(`'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`+"`[^`]*`").FindAllString(written["spec"], -1), "\n")
			// A step's fingerprint is the page's own words, which a heal
			// matches against the page: it holds no value the agent typed,
			// and none of its words is masked (a link to /admin stays one).
			if strings.Contains(written["flow"], "•••") {
				t.Errorf("the flow masks words of the page:\n%s", written["flow"])
			}
			written["flow"] = regexp.MustCompile(`(?m)^\s*fingerprint: .*$`).ReplaceAllString(written["flow"], "")
			for name, w := range written {
				if m := asWord.FindStringIndex(w); m != nil {
					t.Errorf("the %s holds the password %q: …%s…", name, pw, w[max(0, m[0]-80):min(len(w), m[1]+40)])
				}
				if strings.Contains(w, "•••cuts") || strings.Contains(w, "•••s passed") {
					t.Errorf("the %s masks inside words", name)
				}
			}

			out, code := runFlows(t, append(env, "E2E_SECRET_1="+pw), flowFile)
			if code != 0 || !strings.Contains(out, "PASS  "+s) {
				b, _ := os.ReadFile(flowFile)
				t.Fatalf("the flow does not replay (exit %d):\n%s\n%s", code, out, b)
			}
		})
	}
}
