package e2e

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
)

// consoleLink is a line of an answer's ### Events: a console log file and
// the lines of it the answer links.
type consoleLink struct {
	path     string
	from, to int
}

var consoleLinkLine = regexp.MustCompile(`(?m)^- New console entries: (.+?\.log)#L(\d+)(?:-L(\d+))?$`)

// consoleLinks are the console log lines an answer links, in its
// ### Events section.
func consoleLinks(t *testing.T, answer string) []consoleLink {
	t.Helper()
	var out []consoleLink
	for _, m := range consoleLinkLine.FindAllStringSubmatch(answer, -1) {
		l := consoleLink{path: m[1]}
		l.from, _ = strconv.Atoi(m[2])
		l.to = l.from
		if m[3] != "" {
			l.to, _ = strconv.Atoi(m[3])
		}
		out = append(out, l)
	}
	if len(out) > 0 && !strings.Contains(answer, "\n### Events\n") {
		t.Errorf("console entries linked outside an ### Events section:\n%s", answer)
	}
	return out
}

// consoleFiles are the console-*.log files of dir, oldest name first.
func consoleFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "console-*.log"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

// fileLines are a file's lines.
func fileLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// openUnder are the files under dir the server whose TMPDIR is tmp holds
// open (/proc/PID/fd).
func openUnder(t *testing.T, tmp, dir string) []string {
	t.Helper()
	ps := proctest.MustFind(proctest.HasEnv("TMPDIR="+tmp), proctest.CmdlineContains(bin), proctest.Live)
	if len(ps) != 1 {
		t.Fatalf("want the one server under test, found %d processes", len(ps))
	}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", ps[0].PID))
	if err != nil {
		t.Fatal(err)
	}
	var open []string
	for _, fd := range fds {
		target, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", ps[0].PID, fd.Name()))
		if err == nil && strings.HasPrefix(target, dir+"/") {
			open = append(open, target)
		}
	}
	return open
}

// consoleLogSite serves pages that log: /cl/one three messages as it
// loads (one of them the secret's value) and one at each click of its
// button, /cl/two an error and an uncaught exception, /cl/quiet nothing.
func consoleLogSite(secret string) func(mux *http.ServeMux, _ *fixture) {
	pages := map[string]string{
		"/cl/one": `<!doctype html><title>One</title>
<script>
console.warn("one warn");
console.error("one error");
console.log("token " + "` + secret + `");
</script>
<button onclick="window.n = (window.n || 0) + 1; console.log('clicked ' + window.n)">Log</button>`,
		"/cl/two": `<!doctype html><title>Two</title>
<script>console.error("two error");</script>
<script>throw new Error("two thrown");</script>`,
		"/cl/quiet": `<!doctype html><title>Quiet</title><p>Nothing logged.</p>`,
	}
	return func(mux *http.ServeMux, _ *fixture) {
		for path, body := range pages {
			mux.HandleFunc("GET "+path, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, body)
			})
		}
	}
}

// TestConsoleLogFiles: with an output directory named, each document's
// console goes to a file of its own there, console-TIME.log, as Playwright
// MCP's (issue 39): a line a message of every level or uncaught exception,
// [LEVEL] text @ url:line, the --secrets value masked; appended as it
// comes, a later message written with no call running; each answer after
// which lines were written links them in ### Events with their range, and
// the ### Page console errors stay; a navigation starts a new file, a
// document that logs nothing has none, and a file is closed when its
// document, or the session, ends. --output-max-size counts the files both
// ways. Without an output directory named no file is written and answers
// have no ### Events. A link names a file below the server's working
// directory from there, as Playwright MCP's do; another one whole.
func TestConsoleLogFiles(t *testing.T) {
	const secret = "tok-5d8e1f93a2b7"
	f := newFixture(t, consoleLogSite(secret))
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	secrets := filepath.Join(dir, "secrets.env")
	if err := os.WriteFile(secrets, []byte("API_TOKEN="+secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env, tmp := serverEnv(t)
	c := startClientArgs(t, env, "--output-dir", out, "--secrets", secrets)
	one := f.URL + "/cl/one"
	stamped := regexp.MustCompile(`^console-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.log$`)

	nav := mustCall(t, c, "browser_navigate", map[string]any{"url": one})
	files := consoleFiles(t, out)
	if len(files) != 1 || !stamped.MatchString(filepath.Base(files[0])) {
		t.Fatalf("want one console-TIME.log in the output directory, got %v", dirNames(t, out))
	}
	first := files[0]
	if got, want := consoleLinks(t, nav), []consoleLink{{first, 1, 3}}; !slices.Equal(got, want) {
		t.Errorf("the navigation links %v, want %v:\n%s", got, want, nav)
	}
	mustContain(t, "the navigation's page section", nav, "- New console errors: 1", "one error")
	lines := fileLines(t, first)
	wantLine := func(i int, re string) {
		t.Helper()
		if i >= len(lines) || !regexp.MustCompile(re).MatchString(lines[i]) {
			t.Errorf("line %d of the log does not match %s:\n%s", i+1, re, strings.Join(lines, "\n"))
		}
	}
	at := func(url string, line int) string { return regexp.QuoteMeta(" @ "+url+":"+strconv.Itoa(line)) + "$" }
	wantLine(0, `^\[WARNING\] one warn`+at(one, 3))
	wantLine(1, `^\[ERROR\] one error`+at(one, 4))
	wantLine(2, `^\[LOG\] token •••`+at(one, 5))
	if b, _ := os.ReadFile(first); strings.Contains(string(b), secret) {
		t.Errorf("the log shows the secret:\n%s", b)
	}

	// Each click's message is appended to the same file, and linked alone.
	for i := 4; i <= 5; i++ {
		click := mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=Log]"})
		if got, want := consoleLinks(t, click), []consoleLink{{first, i, i}}; !slices.Equal(got, want) {
			t.Errorf("click %d links %v, want %v:\n%s", i-3, got, want, click)
		}
		lines = fileLines(t, first)
		wantLine(i-1, fmt.Sprintf(`^\[LOG\] clicked %d @ `, i-3))
	}
	if snap := mustCall(t, c, "browser_snapshot", nil); strings.Contains(snap, "### Events") {
		t.Errorf("an answer after which nothing was logged has ### Events:\n%s", snap)
	}

	// Messages logged after the call answered reach the file with no call.
	eval := mustCall(t, c, "browser_evaluate", map[string]any{
		"function": `() => { setTimeout(() => { for (let i = 0; i < 5; i++) console.debug("late " + i) }, 500); return "scheduled" }`})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(strings.Join(fileLines(t, first), "\n"), "late 4") {
		if time.Now().After(deadline) {
			t.Fatalf("the late messages never reached the file:\n%s", strings.Join(fileLines(t, first), "\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	lines = fileLines(t, first)
	for i := range 5 {
		wantLine(5+i, fmt.Sprintf(`^\[DEBUG\] late %d @ `, i))
	}
	next := mustCall(t, c, "browser_snapshot", nil)
	if got, want := append(consoleLinks(t, eval), consoleLinks(t, next)...), []consoleLink{{first, 6, 10}}; !slices.Equal(got, want) {
		t.Errorf("the late lines are linked as %v, want %v:\n%s\n%s", got, want, eval, next)
	}

	// A new document, a new file; the old one is closed and stays as it was.
	two := f.URL + "/cl/two"
	nav = mustCall(t, c, "browser_navigate", map[string]any{"url": two})
	files = consoleFiles(t, out)
	if len(files) != 2 || files[0] != first {
		t.Fatalf("want a second file beside %s, got %v", first, dirNames(t, out))
	}
	second := files[1]
	if got, want := consoleLinks(t, nav), []consoleLink{{second, 1, 2}}; !slices.Equal(got, want) {
		t.Errorf("the second navigation links %v, want %v:\n%s", got, want, nav)
	}
	lines = fileLines(t, second)
	wantLine(0, `^\[ERROR\] two error`+at(two, 2))
	wantLine(1, `^\[ERROR\] Uncaught Error: two thrown`+at(two, 3))
	if n := len(fileLines(t, first)); n != 10 {
		t.Errorf("the first document's file has %d lines after the navigation, want its 10", n)
	}
	if open := openUnder(t, tmp, out); !slices.Equal(open, []string{second}) {
		t.Errorf("the server holds open %v, want only the current document's %s", open, second)
	}
	quiet := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/cl/quiet"})
	if strings.Contains(quiet, "### Events") || len(consoleFiles(t, out)) != 2 {
		t.Errorf("a document that logs nothing made a file or a link (%v):\n%s", dirNames(t, out), quiet)
	}
	if open := openUnder(t, tmp, out); len(open) != 0 {
		t.Errorf("the server holds open %v after their documents went", open)
	}
	mustCall(t, c, "browser_navigate", map[string]any{"url": two})
	if open := openUnder(t, tmp, out); len(open) != 1 {
		t.Errorf("the server holds open %v, want the third document's file", open)
	}
	mustCall(t, c, "session_end", nil)
	if open := openUnder(t, tmp, out); len(open) != 0 {
		t.Errorf("the server holds open %v after the session ended", open)
	}

	// An output directory below the working directory, as Playwright MCP's
	// users name it: the links start there.
	t.Run("output-max-size", func(t *testing.T) {
		env, _ := serverEnv(t)
		work := t.TempDir()
		out := filepath.Join(work, "output")
		c := startServerIn(t, work, append(env, "E2E_MCP_OUTPUT_DIR="+out, "E2E_MCP_OUTPUT_MAX_SIZE=3000"), nil)
		mustCall(t, c, "browser_navigate", map[string]any{"url": one})
		logs := consoleFiles(t, out)
		if len(logs) != 1 {
			t.Fatalf("want one console log, got %v", dirNames(t, out))
		}
		// A screenshot past the bound removes the older log...
		mustCall(t, c, "browser_take_screenshot", nil)
		if got := consoleFiles(t, out); len(got) != 0 {
			t.Fatalf("the screenshot past --output-max-size left the console log: %v", dirNames(t, out))
		}
		// ...whose next message starts a new file, which removes the
		// screenshot in turn, and is linked from its first line.
		click := mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=Log]"})
		logs = consoleFiles(t, out)
		if len(logs) != 1 || !slices.Equal(dirNames(t, out), []string{filepath.Base(logs[0])}) {
			t.Fatalf("want only a new console log in the output directory, got %v", dirNames(t, out))
		}
		if got, want := consoleLinks(t, click), []consoleLink{{"output/" + filepath.Base(logs[0]), 1, 1}}; !slices.Equal(got, want) {
			t.Errorf("the click links %v, want %v:\n%s", got, want, click)
		}
		if lines := fileLines(t, logs[0]); len(lines) != 1 || !strings.HasPrefix(lines[0], "[LOG] clicked 1 @ ") {
			t.Errorf("the new log holds %q", lines)
		}
	})

	t.Run("no output dir", func(t *testing.T) {
		env, tmp := serverEnv(t)
		work := t.TempDir()
		c := startServerIn(t, work, env, nil)
		for _, answer := range []string{
			mustCall(t, c, "browser_navigate", map[string]any{"url": one}),
			mustCall(t, c, "browser_click", map[string]any{"target": "role=button[name=Log]"}),
			mustCall(t, c, "browser_navigate", map[string]any{"url": two}),
		} {
			if strings.Contains(answer, "### Events") || strings.Contains(answer, "console entries") {
				t.Errorf("an answer without an output directory links a console log:\n%s", answer)
			}
		}
		for _, d := range []string{work, tmp} {
			_ = filepath.WalkDir(d, func(path string, e os.DirEntry, err error) error {
				if err == nil && strings.HasPrefix(e.Name(), "console-") {
					t.Errorf("a console log without an output directory: %s", path)
				}
				return nil
			})
		}
	})
}
