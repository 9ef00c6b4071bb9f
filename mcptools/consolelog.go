package mcptools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/eventlog"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/mark3labs/mcp-go/mcp"
	"go.uber.org/zap"
)

// When the operator names an output directory (--output-dir, the config's
// outputDir), each document a session's tabs show has its console written
// to a file there, console-TIME.log, as Playwright MCP does: a line a
// message or uncaught exception, appended as it arrives (the browser tells
// them as they come: browser.Tabs.OnConsole), whether or not a call runs,
// its secrets masked as the answers mask them. A document that logs
// nothing has no file. The answer of a call after which lines were written
// links them (### Events: "- New console entries: FILE#L3-L7"), so the
// agent reads the lines it wants and the answer stays small; the console
// errors of ### Page are there as before. Nothing of this happens when no
// output directory is named.

// Bounds of a session's console log files.
const (
	// maxConsoleQueue and maxConsoleQueued bound the messages waiting for
	// the writer, and their bytes: a page that logs faster than a disk
	// takes them loses the rest, and its file says how many.
	maxConsoleQueue  = 10_000
	maxConsoleQueued = 4 << 20
	// maxConsoleFile is the bytes a document's file may take: a page that
	// logs in a loop fills no disk. The file says where it stopped.
	maxConsoleFile = 16 << 20
	// maxConsoleLinks is the files an answer links; it counts the others.
	maxConsoleLinks = 5
)

// consoleLog writes a session's console log files. The browser's events
// come to add, on its read loop, which only queues them; a goroutine of
// its own writes them as they come, and an answer writes what is queued
// before it links the new lines (link).
type consoleLog struct {
	// open makes a new file in the output directory (Deps.newLogFile, in
	// the session's file namespace).
	open func(name string) (*logFile, error)
	log  *zap.Logger
	mask *redact.Set // the session's secrets, which its answers mask
	// wd is the server's working directory, which a link to a file below
	// it starts in, as Playwright MCP's do; "" over HTTP, whose clients
	// get the whole path.
	wd string

	mu     sync.Mutex
	queue  []browser.ConsoleEvent
	queued int  // the queue's bytes of text
	lost   int  // messages the full queue let go
	closed bool // the session ended: nothing more is queued
	wake   chan struct{}
	stop   chan struct{}
	done   chan struct{} // closed when the writer ends; nil until it starts

	// The writer's state, under wmu: one write at a time.
	wmu sync.Mutex
	// docs is the file of each open tab's current document.
	docs map[*browser.Page]*consoleFile
	// unlinked are the files with lines no answer linked yet, oldest
	// first, at most maxConsoleLinks; older counts those that fell out.
	unlinked []*consoleFile
	older    int
	warned   bool // a failure to write was logged
}

// consoleFile is the log of one document.
type consoleFile struct {
	doc    int
	f      *logFile // made with its first line
	buf    []byte   // lines waiting to be written
	bufN   int
	bytes  int  // written and waiting
	full   bool // maxConsoleFile reached: no more lines
	linked int  // lines an answer linked
	listed bool // in unlinked
	failed bool // its file could not be made or written
}

// newConsoleLog is the console log of session s, or nil when no output
// directory is named.
func (d *Deps) newConsoleLog(s *Session) *consoleLog {
	if d == nil || !d.savesUnasked() {
		return nil
	}
	ctx := withFileSpace(context.Background(), s.key.owner)
	open := func(name string) (*logFile, error) { return d.newLogFile(ctx, "console", "", name) }
	c := &consoleLog{open: open, log: d.Logger, mask: s.secrets, wake: make(chan struct{}, 1),
		stop: make(chan struct{}), docs: map[*browser.Page]*consoleFile{}}
	if !d.Remote {
		if wd, err := os.Getwd(); err == nil {
			c.wd, _ = filepath.EvalSymlinks(wd)
		}
	}
	return c
}

// watch has the browser context t tell its tabs' console to the log, and
// starts the writer.
func (c *consoleLog) watch(t *browser.Tabs) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	t.OnConsole(c.add)
	if c.done == nil {
		c.done = make(chan struct{})
		go c.run()
	}
}

// add queues a message or a tab's close. It runs on the browser's read
// loop: it never blocks.
func (c *consoleLog) add(ev browser.ConsoleEvent) {
	ev.Message.Stack = "" // a line says where, not the stack
	cost := len(ev.Message.Level) + len(ev.Message.Text) + len(ev.Message.Location)
	c.mu.Lock()
	full := len(c.queue) >= maxConsoleQueue || c.queued+cost > maxConsoleQueued
	switch {
	case c.closed:
	case full && ev.Navigated:
		// The next message says its document: only the old file's close
		// waits for it.
	case full && !ev.Closed:
		c.lost++
	default:
		c.queue = append(c.queue, ev)
		c.queued += cost
	}
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// run writes what is queued as it comes, until close.
func (c *consoleLog) run() {
	defer close(c.done)
	for {
		select {
		case <-c.wake:
			c.drain()
		case <-c.stop:
			return
		}
	}
}

// close writes what is queued and closes every file: the session ended.
func (c *consoleLog) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	already := c.closed
	c.closed = true
	done := c.done
	c.mu.Unlock()
	if already {
		return
	}
	close(c.stop)
	if done != nil {
		<-done
	}
	c.drain()
	c.wmu.Lock()
	defer c.wmu.Unlock()
	for p, cf := range c.docs {
		c.finish(cf)
		delete(c.docs, p)
	}
	c.unlinked, c.older = nil, 0
}

// drain writes the queued messages, each to its document's file.
func (c *consoleLog) drain() {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.mu.Lock()
	batch, lost := c.queue, c.lost
	c.queue, c.queued, c.lost = nil, 0, 0
	c.mu.Unlock()
	var touched []*consoleFile // in the order their lines came
	for _, ev := range batch {
		cf := c.docs[ev.Page]
		if cf != nil && (ev.Closed || cf.doc != ev.Doc) {
			// Its document went: a new one has a new file.
			c.finish(cf)
			delete(c.docs, ev.Page)
			cf = nil
		}
		if ev.Closed || ev.Navigated {
			continue
		}
		if cf == nil {
			cf = &consoleFile{doc: ev.Doc}
			c.docs[ev.Page] = cf
		}
		if len(cf.buf) == 0 && !cf.full && !cf.failed {
			touched = append(touched, cf)
		}
		if lost > 0 {
			c.line(cf, fmt.Sprintf("[…] %d console messages were not written: they came faster than they could be", lost))
			lost = 0
		}
		c.line(cf, consoleLine(ev.Message, c.mask))
	}
	for _, cf := range touched {
		c.flush(cf) // a no-op for one finished already
	}
}

// line adds a line to cf, unless its file is full.
func (c *consoleLog) line(cf *consoleFile, line string) {
	if cf.full || cf.failed {
		return
	}
	if cf.bytes+len(line)+1 > maxConsoleFile {
		cf.full = true
		line = fmt.Sprintf("[…] the document's later console messages are not written: its log reached %d MB", maxConsoleFile>>20)
	}
	cf.buf = append(append(cf.buf, line...), '\n')
	cf.bufN++
	cf.bytes += len(line) + 1
}

// flush writes cf's waiting lines to its file, made now when it has none
// yet, or again when it went from its name (--output-max-size removed
// it): its lines then start again at 1, and those no answer linked are
// gone with it.
func (c *consoleLog) flush(cf *consoleFile) {
	if len(cf.buf) == 0 || cf.failed {
		return
	}
	buf, n := cf.buf, cf.bufN
	cf.buf, cf.bufN = nil, 0
	if cf.f != nil && !cf.f.there() {
		_ = cf.f.close()
		cf.f, cf.linked, cf.bytes = nil, 0, len(buf)
	}
	if cf.f == nil {
		f, err := c.open("console-" + fileStamp(time.Now()) + ".log")
		if err != nil || f == nil {
			c.fail(cf, err)
			return
		}
		cf.f = f
	}
	if err := cf.f.write(buf, n); err != nil {
		c.fail(cf, err)
		return
	}
	if !cf.listed {
		cf.listed = true
		c.unlinked = append(c.unlinked, cf)
		if len(c.unlinked) > maxConsoleLinks {
			c.unlinked[0].listed = false
			c.unlinked = c.unlinked[1:]
			c.older++
		}
	}
}

// fail stops writing cf, and logs why once a session.
func (c *consoleLog) fail(cf *consoleFile, err error) {
	cf.failed, cf.buf = true, nil
	if err != nil && !c.warned && c.log != nil {
		c.warned = true
		c.log.Warn("a console log file was not written", zap.Error(err))
	}
}

// finish writes what cf waits with and closes its file.
func (c *consoleLog) finish(cf *consoleFile) {
	c.flush(cf)
	if cf.f != nil {
		_ = cf.f.close()
	}
}

// consoleEntries is a range of lines of a console log file an answer
// links.
type consoleEntries struct {
	Path string `json:"path"`
	From int    `json:"from"`
	To   int    `json:"to"`
}

// link writes what is queued, then adds to res an ### Events section that
// links the lines written since the last answer (one line a file), and
// the list to its structured content.
func (c *consoleLog) link(res *mcp.CallToolResult) {
	if c == nil || res == nil {
		return
	}
	c.drain()
	c.wmu.Lock()
	var list []consoleEntries
	for _, cf := range c.unlinked {
		cf.listed = false
		if cf.f == nil || cf.f.lines <= cf.linked || !cf.f.there() {
			continue
		}
		list = append(list, consoleEntries{Path: c.shown(cf.f.o.path), From: cf.linked + 1, To: cf.f.lines})
		cf.linked = cf.f.lines
	}
	older := c.older
	c.unlinked, c.older = nil, 0
	c.wmu.Unlock()
	if len(list) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("\n\n### Events\n")
	for _, e := range list {
		fmt.Fprintf(&b, "- New console entries: %s#L%d", e.Path, e.From)
		if e.To > e.From {
			fmt.Fprintf(&b, "-L%d", e.To)
		}
		b.WriteByte('\n')
	}
	if older > 0 {
		fmt.Fprintf(&b, "- New console entries in %d more files: console-*.log beside these\n", older)
	}
	appendText(res, strings.TrimRight(b.String(), "\n"))
	switch sc := res.StructuredContent.(type) {
	case map[string]any:
		sc["consoleEntries"] = list
	case nil:
		res.StructuredContent = map[string]any{"consoleEntries": list}
	}
}

// shown is how a link names the file at path: from the server's working
// directory when it is below it (output/console-TIME.log), else whole.
func (c *consoleLog) shown(path string) string {
	if c.wd == "" {
		return path
	}
	if rel, err := filepath.Rel(c.wd, path); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return path
}

// appendText adds text to the end of an answer's text.
func appendText(res *mcp.CallToolResult, text string) {
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(mcp.TextContent); ok {
			tc.Text += text
			res.Content[0] = tc
			return
		}
	}
	res.Content = append([]mcp.Content{mcp.NewTextContent(strings.TrimSpace(text))}, res.Content...)
}

// lineCol is a location's line and column at its end (url:line:col).
var lineCol = regexp.MustCompile(`:(\d+):\d+$`)

// consoleLine is a message as its file's line: [LEVEL] text @ url:line,
// the text's secrets masked and its line breaks written \n. An uncaught
// exception is an ERROR that says Uncaught, as DevTools shows it.
func consoleLine(m eventlog.ConsoleMessage, mask *redact.Set) string {
	level, text := strings.ToUpper(m.Level), m.Text
	if m.Level == "exception" {
		level = "ERROR"
		if !strings.HasPrefix(text, "Uncaught") {
			text = "Uncaught " + text
		}
	}
	line := "[" + level + "] " + text
	if loc := lineCol.ReplaceAllString(m.Location, ":$1"); loc != "" {
		line += " @ " + loc
	}
	line = mask.String(line)
	return strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\n`).Replace(line)
}
