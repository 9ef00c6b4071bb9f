// Package trace writes what a browser session did as a trace in
// Playwright's trace format: a zip that Playwright's own Trace Viewer
// (`npx playwright show-trace trace.zip`, trace.playwright.dev) opens, with
// an action list, a screenshot after each action in the film strip and the
// action's pane, the console, the network with headers and bodies, and the
// errors.
//
// The format is Playwright's, read from its recorder and viewer (the types of
// packages/trace, the loader and modernizer of packages/isomorphic/trace): a
// zip holding trace.trace (JSON lines: context-options first, then before
// and after pairs, screenshot and screencast-frame events, console messages,
// page events), trace.network (one resource-snapshot line, a HAR entry, per
// request) and the files those name. Its version is [Version]; a viewer
// modernizes older versions and refuses newer ones, so Playwright 1.65 or
// later opens these traces (trace.playwright.dev is always the latest).
//
// What is left out: DOM snapshots (the viewer shows the screenshots
// instead), the "before" screenshot of an action (the viewer shows the one
// after the action before it), and whatever the budgets leave out of a long
// session, which the trace says in its console ([Trace.Notes] and the
// budgets' own notes). The package knows nothing of MCP or of the browser:
// mcptools turns a session into a [Trace], its texts already masked.
package trace

import (
	"archive/zip"
	"bytes"
	"crypto/sha1" //nolint:gosec // names files by content, as Playwright does; not a security use
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg" // the screenshots' sizes
	_ "image/png"
	"io"
	"runtime"
	"sort"
	"strings"
	"time"
)

// Version is the version of the trace format written: Playwright 1.65's.
const Version = 10

// Budgets: what a trace keeps of the network. A body over MaxBody is
// clipped (text) or left out (anything else); once the bodies kept add up
// to MaxBodies, later ones are left out. Each entry so treated says it in
// its content's comment, and the trace's console counts them.
const (
	MaxBody   = 256 << 10
	MaxBodies = 8 << 20
)

// Trace is one trace: the session's actions and what its pages logged.
type Trace struct {
	// Title is shown at the top of the viewer's metadata.
	Title string
	// Browser is the browser's name (chromium).
	Browser string
	// Viewport is the pages' viewport in CSS pixels, when known.
	Viewport *Size
	// TestIDAttribute is the attribute getByTestId reads.
	TestIDAttribute string
	// Start is when tracing began.
	Start    time.Time
	Actions  []Action
	Console  []Console
	Requests []Request
	// Notes say what the trace leaves out; they are its console's first
	// lines.
	Notes []string
}

// Size is a width and height in pixels.
type Size struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// Action is one call: a Playwright API call where one does the same
// (Class "Frame", Method "click"), whose title the viewer knows, or a call
// of its own, named by Title.
type Action struct {
	Class, Method string
	// Title is the action list's line; empty for a Playwright call, whose
	// title the viewer makes from its parameters.
	Title  string
	Params map[string]any
	// Selector is the target as the engine reads it, and Locator the same
	// as Playwright code (page.getByRole(...)), which the list shows under
	// the title.
	Selector, Locator string
	// Page is the page it ran in (any name that tells pages apart).
	Page       string
	Start, End time.Time
	// Error is why it failed; nil when it passed.
	Error *Error
	// After is the page once it was done.
	After *Image
	// Parent is the group it is in, as the 1-based index in the trace's
	// Actions of a group: an action of Class "Test", Method "step" (what
	// Playwright writes for test.step; a flow's `- group:`), which comes
	// before the actions it holds. 0 for none. The viewer lists an action
	// under its group, and a group can nest in another.
	Parent int
}

// Group is an action that names a group of the actions after it (those
// whose Parent is its index), as Playwright's test.step: it spans them.
func Group(title string, start, end time.Time) Action {
	return Action{Class: "Test", Method: "step", Title: title, Start: start, End: end}
}

// Error is a failed action's error.
type Error struct {
	// Name is the error's kind (timeout, expect_failed...).
	Name, Message string
}

// Image is a JPEG or PNG of a page's viewport.
type Image struct {
	Data []byte
	Time time.Time
}

// Console is one console message, or an uncaught exception.
type Console struct {
	Page string
	Time time.Time
	// Level is log, debug, info, warning or error; Exception marks an
	// uncaught exception, whose Stack the viewer shows under it.
	Level     string
	Text      string
	Exception bool
	Stack     string
	// URL, Line and Column say where it was logged (0-based, as the
	// DevTools protocol counts).
	URL          string
	Line, Column int
}

// Request is one network request and its response.
type Request struct {
	Page   string
	Start  time.Time
	Method string
	URL    string
	// Type is the resource type (Document, Fetch, Script...).
	Type string
	// Duration is how long it took to its end (0 while in flight).
	Duration time.Duration
	// Status is the response's status, 0 when none came; Failure says why
	// the request failed (net::ERR_...).
	Status         int
	StatusText     string
	Failure        string
	RequestHeaders []Header
	PostData       []byte
	// ResponseHeaders, MIME and Body are the response's; BodyNote says why
	// a response has no body.
	ResponseHeaders []Header
	MIME            string
	Body            []byte
	BodyNote        string
}

// Header is one HTTP header.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// epoch is the start of this process's monotonic clock, which times every
// event, as Playwright's own traces count from their process's start.
var epoch = time.Now()

// mono is t on the trace's monotonic clock, in milliseconds.
func mono(t time.Time) float64 {
	return float64(t.Sub(epoch).Microseconds()) / 1000
}

// wall is t as milliseconds since the Unix epoch.
func wall(t time.Time) float64 {
	return float64(t.UnixMicro()) / 1000
}

// Zip is the trace as a zip file.
func (t *Trace) Zip() ([]byte, error) {
	var buf bytes.Buffer
	if err := t.WriteZip(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteZip writes the trace as a zip file.
func (t *Trace) WriteZip(w io.Writer) error {
	a := &archive{files: map[string][]byte{}}
	network, note := t.network(a)
	notes := t.Notes
	if note != "" {
		notes = append(notes[:len(notes):len(notes)], note)
	}
	events := t.events(a, notes)
	z := zip.NewWriter(w)
	put := func(name string, data []byte, method uint16) error {
		f, err := z.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: t.Start})
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	}
	if err := put("trace.trace", events, zip.Deflate); err != nil {
		return err
	}
	if err := put("trace.network", network, zip.Deflate); err != nil {
		return err
	}
	for _, name := range a.order {
		method := zip.Deflate
		if strings.HasSuffix(name, ".jpeg") || strings.HasSuffix(name, ".png") {
			method = zip.Store // compressed already
		}
		if err := put(name, a.files[name], method); err != nil {
			return err
		}
	}
	return z.Close()
}

// archive holds the files the events name, each once.
type archive struct {
	files map[string][]byte
	order []string
}

// add keeps data in dir under a name made of its SHA-1 and ext, and
// returns the name.
func (a *archive) add(dir string, data []byte, ext string) string {
	sum := sha1.Sum(data) //nolint:gosec // a content name, as Playwright's
	name := dir + "/" + hex.EncodeToString(sum[:]) + ext
	if _, ok := a.files[name]; !ok {
		a.files[name] = data
		a.order = append(a.order, name)
	}
	return name
}

// lines encodes each value as one JSON line.
func lines(vals []any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, v := range vals {
		if err := enc.Encode(v); err != nil {
			// Every value is made of maps, strings and numbers; one that
			// will not encode is said in its place.
			_ = enc.Encode(map[string]any{"type": "stderr", "text": fmt.Sprintf("e2e-mcp: an event could not be written: %v", err)})
		}
	}
	return buf.Bytes()
}

// platform is this machine's OS as Playwright names it.
func platform() string {
	if runtime.GOOS == "windows" {
		return "win32"
	}
	return runtime.GOOS
}

// timed is an event and the time it sorts by.
type timed struct {
	at time.Time
	ev any
}

// events is trace.trace: the context's options, then every event in time
// order (an action's before and after pairs stay in order because its end
// is not before its start).
func (t *Trace) events(a *archive, notes []string) []byte {
	ctx := map[string]any{"version": Version, "type": "context-options", "origin": "library",
		"browserName": t.Browser, "platform": platform(), "wallTime": wall(t.Start), "monotonicTime": mono(t.Start),
		"sdkLanguage": "javascript", "options": map[string]any{}}
	if t.Title != "" {
		ctx["title"] = t.Title
	}
	if t.Viewport != nil {
		ctx["options"] = map[string]any{"viewport": t.Viewport}
	}
	if t.TestIDAttribute != "" {
		ctx["testIdAttributeName"] = t.TestIDAttribute
	}
	var evs []timed
	for i, n := range notes {
		// A microsecond apart, so that they keep their order.
		at := t.Start.Add(time.Duration(i) * time.Microsecond)
		evs = append(evs, timed{at, map[string]any{"type": "stdout", "timestamp": mono(at), "text": "e2e-mcp: " + n}})
	}
	pages := map[string]bool{}
	page := func(id string, at time.Time) {
		if id == "" || pages[id] {
			return
		}
		pages[id] = true
		evs = append(evs, timed{at, map[string]any{"type": "event", "time": mono(at), "class": "BrowserContext",
			"method": "page", "params": map[string]any{"pageId": id}}})
	}
	for i, act := range t.Actions {
		page(act.Page, act.Start)
		evs = append(evs, t.action(a, fmt.Sprintf("call@%d", i+1), act)...)
	}
	for _, c := range t.Console {
		page(c.Page, c.Time)
		evs = append(evs, timed{c.Time, consoleEvent(c)})
	}
	for _, r := range t.Requests {
		page(r.Page, r.Start)
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].at.Before(evs[j].at) })
	out := []any{ctx}
	for _, e := range evs {
		out = append(out, e.ev)
	}
	return lines(out)
}

// action is an action's events: before, after, and its screenshot as the
// action's own and as a frame of its page's film strip.
func (t *Trace) action(a *archive, id string, act Action) []timed {
	params := map[string]any{}
	for k, v := range act.Params {
		params[k] = v
	}
	if act.Selector != "" {
		params["selector"] = describedSelector(act.Selector, act.Locator)
	}
	before := map[string]any{"type": "before", "callId": id, "startTime": mono(act.Start),
		"class": act.Class, "method": act.Method, "params": params}
	if act.Title != "" {
		before["title"] = act.Title
	}
	if act.Page != "" {
		before["pageId"] = act.Page
	}
	if act.Parent > 0 {
		before["parentId"] = fmt.Sprintf("call@%d", act.Parent)
	}
	end := act.End
	if end.Before(act.Start) {
		end = act.Start
	}
	after := map[string]any{"type": "after", "callId": id, "endTime": mono(end)}
	if act.Error != nil {
		after["error"] = map[string]any{"name": act.Error.Name, "message": act.Error.Message}
	}
	out := []timed{{act.Start, before}, {end, after}}
	if img := act.After; img != nil && len(img.Data) > 0 {
		cfg, format, err := image.DecodeConfig(bytes.NewReader(img.Data))
		if err == nil {
			file := a.add("screenshots", img.Data, "."+map[string]string{"jpeg": "jpeg", "png": "png"}[format])
			at := img.Time
			if at.Before(end) {
				at = end // after its action, so that the viewer pairs them
			}
			shot := map[string]any{"type": "screenshot", "callId": id, "phase": "after", "timestamp": mono(at), "file": file}
			frame := map[string]any{"type": "screencast-frame", "file": file, "width": cfg.Width, "height": cfg.Height, "timestamp": mono(at)}
			if act.Page != "" {
				shot["pageId"], frame["pageId"] = act.Page, act.Page
			}
			out = append(out, timed{at, shot}, timed{at, frame})
		}
	}
	return out
}

// describedSelector is the selector with the locator as its description:
// the viewer shows a selector's last internal:describe part as it is, and
// so lists the locator as the Playwright code we wrote for it.
func describedSelector(sel, locator string) string {
	if locator == "" {
		return sel
	}
	d, _ := json.Marshal(strings.TrimPrefix(locator, "page."))
	return sel + " >> internal:describe=" + string(d)
}

// consoleEvent is a console message as the viewer's console reads it: a
// console event, or a pageError event for an uncaught exception.
func consoleEvent(c Console) map[string]any {
	if c.Exception {
		e := map[string]any{"name": "Error", "message": c.Text}
		if c.Stack != "" {
			e["stack"] = c.Text + "\n" + c.Stack
		}
		ev := map[string]any{"type": "event", "time": mono(c.Time), "class": "Page", "method": "pageError",
			"params": map[string]any{"error": map[string]any{"error": e}}}
		if c.Page != "" {
			ev["pageId"] = c.Page
		}
		return ev
	}
	level := c.Level
	if level == "" {
		level = "log"
	}
	ev := map[string]any{"type": "console", "time": mono(c.Time), "messageType": level, "text": c.Text,
		"location": map[string]any{"url": c.URL, "lineNumber": c.Line, "columnNumber": c.Column}}
	if c.Page != "" {
		ev["pageId"] = c.Page
	}
	return ev
}
