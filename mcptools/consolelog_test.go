package mcptools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/eventlog"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestConsoleLine: a message's line is [LEVEL] text @ url:line, one line
// whatever the text holds, an uncaught exception an ERROR saying
// Uncaught, the session's secrets masked.
func TestConsoleLine(t *testing.T) {
	mask := redact.NewSet(nil)
	mask.Add("hunter2-secret")
	for _, tc := range []struct {
		m    eventlog.ConsoleMessage
		want string
	}{
		{eventlog.ConsoleMessage{Level: "warning", Text: "careful", Location: "http://h:8080/a.js:3:14"}, "[WARNING] careful @ http://h:8080/a.js:3"},
		{eventlog.ConsoleMessage{Level: "log", Text: "two\nlines\r\nhere"}, `[LOG] two\nlines\nhere`},
		{eventlog.ConsoleMessage{Level: "exception", Text: "Error: boom", Location: "http://h/:7:2"}, "[ERROR] Uncaught Error: boom @ http://h/:7"},
		{eventlog.ConsoleMessage{Level: "exception", Text: "Uncaught 42"}, "[ERROR] Uncaught 42"},
		{eventlog.ConsoleMessage{Level: "error", Text: "Failed to load resource: http://h/x", Location: "http://h/x"}, "[ERROR] Failed to load resource: http://h/x @ http://h/x"},
		{eventlog.ConsoleMessage{Level: "debug", Text: "token hunter2-secret"}, "[DEBUG] token " + redact.Mask},
	} {
		if got := consoleLine(tc.m, mask); got != tc.want {
			t.Errorf("consoleLine(%+v) = %q, want %q", tc.m, got, tc.want)
		}
	}
}

// testConsoleLog is the console log of a session whose output directory
// is a new temp dir.
func testConsoleLog(t *testing.T, maxSize int64) (*consoleLog, string) {
	t.Helper()
	dir := t.TempDir()
	d := &Deps{OutputDir: dir, OutputMaxSize: maxSize}
	c := d.newConsoleLog(newSession(sessionKey{id: "s"}, "", nil))
	if c == nil {
		t.Fatal("no console log with an output directory named")
	}
	return c, dir
}

// linked is what link adds to an answer.
func linked(c *consoleLog) (string, []consoleEntries) {
	res := &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("### Result\nok")}}
	c.link(res)
	sc, _ := res.StructuredContent.(map[string]any)
	list, _ := sc["consoleEntries"].([]consoleEntries)
	return ResultText(res), list
}

// TestConsoleLogFilesPerDocument: a tab's documents each get a file,
// made with their first line; an answer links the lines written since the
// last one, a range a file; the file of a document that went is closed,
// and every file at close. No output directory named: no log.
func TestConsoleLogFilesPerDocument(t *testing.T) {
	if (&Deps{}).newConsoleLog(newSession(sessionKey{id: "s"}, "", nil)) != nil ||
		(&Deps{OutputDir: t.TempDir(), Remote: true}).newConsoleLog(newSession(sessionKey{id: "s"}, "", nil)) != nil {
		t.Error("a console log without an output directory named")
	}
	c, dir := testConsoleLog(t, 0)
	a, b := &browser.Page{}, &browser.Page{}
	msg := func(p *browser.Page, doc int, text string) {
		c.add(browser.ConsoleEvent{Page: p, Doc: doc, Message: eventlog.ConsoleMessage{Level: "log", Text: text}})
	}
	msg(a, 1, "a1 one")
	msg(a, 1, "a1 two")
	msg(b, 0, "b0 one")
	text, list := linked(c)
	if len(list) != 2 || list[0].From != 1 || list[0].To != 2 || list[1].From != 1 || list[1].To != 1 {
		t.Fatalf("first links %+v:\n%s", list, text)
	}
	if !strings.Contains(text, "\n\n### Events\n- New console entries: "+list[0].Path+"#L1-L2\n- New console entries: "+list[1].Path+"#L1") {
		t.Errorf("the answer's Events:\n%s", text)
	}
	if list[0].Path == list[1].Path || filepath.Dir(list[0].Path) != dir {
		t.Errorf("two tabs' files: %+v in %s", list, dir)
	}
	if text, list := linked(c); len(list) != 0 || strings.Contains(text, "Events") {
		t.Errorf("nothing new, yet linked %+v:\n%s", list, text)
	}
	aFile := c.docs[a].f
	c.add(browser.ConsoleEvent{Page: a, Doc: 2, Navigated: true})
	msg(a, 2, "a2 one")
	c.add(browser.ConsoleEvent{Page: b, Closed: true})
	_, list = linked(c)
	if len(list) != 1 || list[0].Path == aFile.o.path || list[0].From != 1 || list[0].To != 1 {
		t.Errorf("after a's navigation, links %+v; a's first file %s", list, aFile.o.path)
	}
	if err := aFile.write([]byte("x\n"), 1); !errors.Is(err, os.ErrClosed) {
		t.Errorf("the file of a document that went is open: %v", err)
	}
	if _, ok := c.docs[b]; ok {
		t.Error("a closed tab keeps its file")
	}
	if got := readFile(t, aFile.o.path); got != "[LOG] a1 one\n[LOG] a1 two\n" {
		t.Errorf("a's first document's file holds %q", got)
	}
	c.close()
	if len(c.docs) != 0 {
		t.Errorf("files left open after close: %d", len(c.docs))
	}
	msg(a, 2, "after close")
	if len(c.queue) != 0 {
		t.Error("a message queued after close")
	}
}

// TestConsoleLogShown: a link names a file below the server's working
// directory from there, another whole, and every file whole over HTTP.
func TestConsoleLogShown(t *testing.T) {
	c := &consoleLog{wd: "/srv/app"}
	for path, want := range map[string]string{
		"/srv/app/output/console-x.log":  "output/console-x.log",
		"/srv/application/console-x.log": "/srv/application/console-x.log",
		"/tmp/out/console-x.log":         "/tmp/out/console-x.log",
	} {
		if got := c.shown(path); got != want {
			t.Errorf("shown(%q) = %q, want %q", path, got, want)
		}
	}
	dir := t.TempDir()
	remote := (&Deps{OutputDir: dir, OutputDirNamed: true, Remote: true}).newConsoleLog(newSession(sessionKey{id: "s"}, "", nil))
	if remote == nil || remote.wd != "" {
		t.Errorf("over HTTP with an output directory named: %+v", remote)
	}
}

// TestConsoleLogWritesAsItComes: with no answer asking, the writer puts a
// message in its file; close ends the writer.
func TestConsoleLogWritesAsItComes(t *testing.T) {
	c, dir := testConsoleLog(t, 0)
	defer func() {
		c.close()
		select {
		case <-c.done:
		default:
			t.Error("the writer runs on after close")
		}
	}()
	c.done = make(chan struct{}) // as watch starts it, with no browser
	go c.run()
	c.add(browser.ConsoleEvent{Page: &browser.Page{}, Message: eventlog.ConsoleMessage{Level: "info", Text: "hello"}})
	deadline := time.Now().Add(10 * time.Second)
	for {
		files, _ := filepath.Glob(filepath.Join(dir, "console-*.log"))
		if len(files) == 1 && readFile(t, files[0]) == "[INFO] hello\n" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the message never reached a file: %v", files)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestConsoleLogBounds: a full queue loses messages and the file says how
// many; a file stops at maxConsoleFile saying so; a file removed from its
// name (--output-max-size) is made again, its lines from 1, and the
// answer links no line of the file that went.
func TestConsoleLogBounds(t *testing.T) {
	c, dir := testConsoleLog(t, 0)
	defer c.close()
	p := &browser.Page{}
	for i := range maxConsoleQueue + 3 {
		c.add(browser.ConsoleEvent{Page: p, Message: eventlog.ConsoleMessage{Level: "log", Text: "m" + string(rune('a'+i%26))}})
	}
	_, list := linked(c)
	if len(list) != 1 || list[0].To != maxConsoleQueue+1 {
		t.Fatalf("links %+v, want the queue's messages and the note", list)
	}
	if got := readFile(t, list[0].Path); !strings.HasPrefix(got, "[…] 3 console messages were not written") {
		t.Errorf("the file does not start with the lost messages' note: %.80q", got)
	}
	cf := c.docs[p]
	cf.bytes = maxConsoleFile - 10
	c.add(browser.ConsoleEvent{Page: p, Message: eventlog.ConsoleMessage{Level: "log", Text: "past the bound"}})
	c.add(browser.ConsoleEvent{Page: p, Message: eventlog.ConsoleMessage{Level: "log", Text: "and more"}})
	_, list = linked(c)
	got := readFile(t, list[0].Path)
	if len(list) != 1 || list[0].From != list[0].To || !strings.HasSuffix(got, "its log reached 16 MB\n") {
		t.Errorf("a full file: links %+v, ends %q", list, got[len(got)-80:])
	}

	// Removed from its name, as --output-max-size removes files.
	q := &browser.Page{}
	c.add(browser.ConsoleEvent{Page: q, Message: eventlog.ConsoleMessage{Level: "log", Text: "first"}})
	c.drain()
	gone := c.docs[q].f.o.path
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	if _, list := linked(c); len(list) != 0 {
		t.Errorf("links %+v to a file that is gone", list)
	}
	c.add(browser.ConsoleEvent{Page: q, Message: eventlog.ConsoleMessage{Level: "log", Text: "second"}})
	_, list = linked(c)
	if len(list) != 1 || list[0].From != 1 || list[0].To != 1 || readFile(t, list[0].Path) != "[LOG] second\n" {
		t.Errorf("after its file went: links %+v (gone: %s) in %v", list, gone, dirNames(dir))
	}
}

// TestLogFileNamesAndSize: two log files named alike are two files (the
// second numbered), of mode 0644; one that grows past --output-max-size
// removes the oldest automatically named files but itself.
func TestLogFileNamesAndSize(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "page-2020-01-01T00-00-00-000Z.png")
	if err := os.WriteFile(old, make([]byte, 300), 0o644); err != nil {
		t.Fatal(err)
	}
	d := &Deps{OutputDir: dir, OutputMaxSize: 250}
	ctx := context.Background()
	name := "console-" + fileStamp(time.Now()) + ".log"
	f1, err := d.newLogFile(ctx, "console", "", name)
	if err != nil {
		t.Fatal(err)
	}
	defer f1.close() //nolint:errcheck // a test's file
	f2, err := d.newLogFile(ctx, "console", "", name)
	if err != nil {
		t.Fatal(err)
	}
	defer f2.close() //nolint:errcheck // a test's file
	if filepath.Base(f1.o.path) != name || filepath.Base(f2.o.path) != strings.TrimSuffix(name, ".log")+" (2).log" {
		t.Errorf("two files named alike: %s, %s", f1.o.path, f2.o.path)
	}
	if fi, err := os.Stat(f1.o.path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (%v), want 0644", fi.Mode(), err)
	}
	if err := f1.write([]byte("[LOG] x\n"), 1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the older file is kept past --output-max-size: %v", err)
	}
	if !f1.there() || !f2.there() {
		t.Error("the log files are not there")
	}
	if err := f2.write(make([]byte, 400), 1); err != nil {
		t.Fatal(err)
	}
	if f1.there() || !f2.there() {
		t.Errorf("past the bound: the first log there %v, the growing one %v", f1.there(), f2.there())
	}
	if nf, err := (&Deps{}).newLogFile(ctx, "console", "", name); nf != nil || err != nil {
		t.Errorf("a log file with no output directory named: %v, %v", nf, err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func dirNames(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
