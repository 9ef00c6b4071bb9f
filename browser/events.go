package browser

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
)

// ConsoleMessage is one console message or uncaught exception of the page.
type ConsoleMessage struct {
	// Level is log, info, warning, error or debug for console calls (and
	// the browser's own messages), exception for an uncaught exception.
	Level string `json:"level"`
	Text  string `json:"text"`
	// Location is where it was logged or thrown: url:line:column.
	Location string `json:"location,omitempty"`
	// Stack is the call stack of an exception, one frame a line.
	Stack string    `json:"stack,omitempty"`
	Time  time.Time `json:"time"`
	seq   int
	// at orders it among the session's records, cost is what it holds
	// (sessionLogs).
	at   uint64
	cost int
}

// NetworkRequest is one request of the page, from the request being sent
// to its end (finished or failed). A redirect ends one request and starts
// the next.
type NetworkRequest struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	// Type is the resource type: Document, Fetch, XHR, Script, Image, ...
	Type       string    `json:"type,omitempty"`
	Status     int64     `json:"status,omitempty"`
	StatusText string    `json:"statusText,omitempty"`
	Start      time.Time `json:"start"`
	// DurationMS is how long it took until its end (0 while in flight).
	DurationMS float64 `json:"durationMs,omitempty"`
	// Failure is Chrome's reason for a request that got no complete
	// response (net::ERR_CONNECTION_REFUSED, net::ERR_ABORTED, ...).
	Failure string `json:"failure,omitempty"`
	// Done is false while the request is in flight.
	Done bool `json:"done"`
	// Route is the pattern of the route that answered the request (it was
	// mocked, aborted or changed), if one did.
	Route string `json:"route,omitempty"`

	// Seq numbers the page's requests from 1, for RequestDetail.
	Seq int `json:"seq"`

	id    network.RequestID
	frame string
	start float64 // monotonic seconds, CDP's clock
	// What RequestDetail shows: the headers each way (as kept:
	// keepHeaders), and the response's content type.
	reqHeaders, respHeaders map[string]string
	postData                bool
	mimeType                string
	// at orders it among the session's records, cost is what it holds
	// (sessionLogs).
	at   uint64
	cost int
}

// Failed reports whether the request failed or got an HTTP error status.
func (r NetworkRequest) Failed() bool { return r.Failure != "" || r.Status >= 400 }

// Bounds of what a page keeps: the newest records win (see bounds.go for
// the bounds of their texts and the session's).
const (
	maxConsole        = 50   // console errors between two responses (TakeEvents)
	MaxConsoleRecords = 500  // console messages of all levels, a tab
	MaxNetworkRecords = 500  // network requests, a tab
	maxOpenRequests   = 1000 // requests in flight we follow
	maxStackFrames    = 12   // frames of an exception's stack
)

// consoleLevelsOrder are the levels ConsoleMessages filters by, least
// severe first; each includes the more severe ones.
const consoleLevelsOrder = "debug info warning error"

// ring is a bounded buffer that drops its oldest entries when full.
type ring[T any] struct {
	items []T
	start int // index of the oldest item
	n     int // items held
	max   int
	total int // items ever added
}

// add adds v, dropping the oldest item when the ring is full; it returns
// the item dropped.
func (r *ring[T]) add(v T) (old T, dropped bool) {
	r.total++
	if r.n == r.max {
		old, _ = r.pop()
		dropped = true
	}
	switch {
	case r.n < len(r.items):
		r.items[(r.start+r.n)%len(r.items)] = v
	case r.start == 0:
		r.items = append(r.items, v)
	default:
		r.items, r.start = append(r.list(), v), 0
	}
	r.n++
	return old, dropped
}

// pop takes out the oldest item.
func (r *ring[T]) pop() (T, bool) {
	var zero T
	if r.n == 0 {
		return zero, false
	}
	v := r.items[r.start]
	r.items[r.start] = zero
	r.start = (r.start + 1) % len(r.items)
	r.n--
	return v, true
}

// oldest is the oldest item.
func (r *ring[T]) oldest() (T, bool) {
	if r.n == 0 {
		var zero T
		return zero, false
	}
	return r.items[r.start], true
}

// list returns the items, oldest first.
func (r *ring[T]) list() []T {
	out := make([]T, 0, r.n)
	for i := range r.n {
		out = append(out, r.items[(r.start+i)%len(r.items)])
	}
	return out
}

// eventLog is what a page records of its console and network. It is
// guarded by its session's sessionLogs.mu (taken after Page.mu), whose
// budget its records count against.
type eventLog struct {
	store   *sessionLogs
	console ring[ConsoleMessage]
	// consoleDoc is the count of console messages when the tab's current
	// document committed: the current page's are those after it.
	consoleDoc int
	network    ring[*NetworkRequest]
	open       map[network.RequestID]*NetworkRequest
	// evictedConsole and evictedNetwork count the records the session's
	// budget took from this tab (the rings' own counts drop others).
	evictedConsole, evictedNetwork int
	// closed: the tab closed and its log gave its bytes back; what
	// comes after is not kept.
	closed bool
}

// newEventLog is an empty log whose records count against store.
func newEventLog(store *sessionLogs) eventLog {
	return eventLog{store: store, console: ring[ConsoleMessage]{max: MaxConsoleRecords},
		network: ring[*NetworkRequest]{max: MaxNetworkRecords}, open: map[network.RequestID]*NetworkRequest{}}
}

// logs is the page's event log, locked; unlock it with the function
// returned. It may be called with p.mu held, never the other way round.
func (p *Page) logs() (*eventLog, func()) {
	l := &p.events
	l.store.mu.Lock()
	return l, l.store.mu.Unlock
}

// addConsole keeps a console message. Called with the store's mu held.
func (l *eventLog) addConsole(m ConsoleMessage) {
	if l.closed {
		return
	}
	m.cost = recordCost + len(m.Level) + len(m.Text) + len(m.Location) + len(m.Stack)
	l.store.charge(l, m.cost)
	m.at = l.store.next()
	m.seq = l.console.total + 1
	if old, dropped := l.console.add(m); dropped {
		l.store.used -= old.cost
	}
}

// addRequest keeps a request. Called with the store's mu held.
func (l *eventLog) addRequest(r *NetworkRequest) {
	if l.closed {
		return
	}
	r.cost = recordCost + len(r.Method) + len(r.URL) + len(r.Type) + len(r.frame) + len(r.Route) + headersCost(r.reqHeaders)
	l.store.charge(l, r.cost)
	r.at = l.store.next()
	if old, dropped := l.network.add(r); dropped {
		l.store.used -= old.cost
		if l.open[old.id] == old {
			delete(l.open, old.id)
		}
	}
}

// grow counts what a kept request took on (its response's headers);
// false when the session's budget took the request to make room, which is
// then no longer kept. Called with the store's mu held.
func (l *eventLog) grow(r *NetworkRequest, more int) bool {
	l.store.charge(l, more)
	if l.open[r.id] != r {
		l.store.used -= more
		return false
	}
	r.cost += more
	return true
}

// smallBody says whether a response announces a body of at most 1 MB.
func smallBody(r *network.Response) bool {
	for k, v := range r.Headers {
		if strings.EqualFold(k, "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(fmt.Sprint(v)))
			return err == nil && n <= 1<<20
		}
	}
	return false // chunked or unknown: wait for the end
}

// recordLocked records console messages, exceptions and network requests of
// any of the page's sessions (tab or iframe), and keeps the in-flight map
// that settle waits on. It reports whether ev was one of them. It runs on
// chromedp's read loop: no commands, no blocking. What it keeps of each is
// bounded as it is stored (bounds.go): the event's long texts are not kept.
func (p *Page) recordLocked(ev any) bool {
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		p.net.inflight[e.RequestID] = time.Now()
		p.net.changed = time.Now()
		l, unlock := p.logs()
		defer unlock()
		if r := l.open[e.RequestID]; r != nil && e.RedirectResponse != nil {
			// The same request ID goes on to the redirect's target.
			r.Status, r.StatusText = e.RedirectResponse.Status, keep(e.RedirectResponse.StatusText, maxShortKept)
			r.DurationMS, r.Done = msSince(r.start, float64(e.Timestamp)), true
		}
		if e.Request == nil || strings.HasPrefix(e.Request.URL, "data:") || isFaviconRequest(e) {
			delete(l.open, e.RequestID)
			return true
		}
		r := &NetworkRequest{Method: keep(e.Request.Method, maxShortKept), URL: keepURL(e.Request.URL), Type: string(e.Type),
			Start: time.Now(), Seq: l.network.total + 1, id: e.RequestID, frame: string(e.FrameID), start: float64(e.Timestamp),
			reqHeaders: keepHeaders(e.Request.Headers), postData: e.Request.HasPostData}
		if len(l.open) >= maxOpenRequests {
			l.dropOldestOpen()
		}
		if pat, ok := p.net.routed[e.RequestID]; ok {
			r.Route = pat
			delete(p.net.routed, e.RequestID)
		}
		l.open[e.RequestID] = r
		l.addRequest(r)
		if e.Type == network.ResourceTypeDocument && p.tabs != nil {
			p.tabs.noteOrigin(e.Request.URL)
		}
	case *network.EventResponseReceived:
		l, unlock := p.logs()
		if r := l.open[e.RequestID]; r != nil && e.Response != nil {
			h := keepHeaders(e.Response.Headers)
			if l.grow(r, headersCost(h)+len(e.Response.MimeType)) {
				r.Status, r.StatusText = e.Response.Status, keep(e.Response.StatusText, maxShortKept)
				r.respHeaders, r.mimeType = h, keep(e.Response.MimeType, maxShortKept)
			}
		}
		unlock()
		// A page's fetch resolves with the headers; Chrome reports the load
		// finished only once the page reads the body, tens of milliseconds
		// later or never when it does not. For what settle waits on, a
		// fetch or XHR with a small body is done here.
		if (e.Type == network.ResourceTypeFetch || e.Type == network.ResourceTypeXHR) && e.Response != nil && smallBody(e.Response) {
			if _, ok := p.net.inflight[e.RequestID]; ok {
				delete(p.net.inflight, e.RequestID)
				p.net.answered++
				return true
			}
		}
		return false // nothing anyone waits on changed
	case *network.EventLoadingFinished:
		delete(p.net.inflight, e.RequestID)
		p.net.changed = time.Now()
		l, unlock := p.logs()
		defer unlock()
		if r := l.open[e.RequestID]; r != nil {
			r.DurationMS, r.Done = msSince(r.start, float64(e.Timestamp)), true
			delete(l.open, e.RequestID)
		}
	case *network.EventLoadingFailed:
		delete(p.net.inflight, e.RequestID)
		p.net.changed = time.Now()
		l, unlock := p.logs()
		defer unlock()
		if r := l.open[e.RequestID]; r != nil {
			failure := e.ErrorText
			if failure == "" {
				failure = "failed"
			}
			if e.BlockedReason != "" {
				failure += " (blocked: " + string(e.BlockedReason) + ")"
			}
			r.DurationMS, r.Done, r.Failure = msSince(r.start, float64(e.Timestamp)), true, keep(failure, maxShortKept)
			delete(l.open, e.RequestID)
		}
	case *runtime.EventConsoleAPICalled:
		m := ConsoleMessage{Level: consoleLevel(e.Type), Text: formatConsoleArgs(e.Args), Location: topFrame(e.StackTrace)}
		if e.Type == runtime.ConsoleAPICalledTypeAssert {
			m.Text = strings.TrimSpace("Assertion failed: " + m.Text)
		}
		p.addRecordLocked(m, m.Level == "error")
	case *runtime.EventExceptionThrown:
		p.addRecordLocked(exceptionMessage(e.ExceptionDetails), true)
	case *log.EventEntryAdded:
		// The browser's own messages: CSP and deprecation notes,
		// interventions, and a load that failed ("Failed to load resource:
		// the server responded with a status of 500"), with its URL, as
		// DevTools shows it. Console calls come above.
		if e.Entry == nil || e.Entry.Source == "console-api" {
			return false
		}
		m := ConsoleMessage{Level: string(e.Entry.Level), Text: e.Entry.Text, Location: topFrame(e.Entry.StackTrace)}
		if e.Entry.Source == log.EntrySourceNetwork {
			if e.Entry.URL == "" || strings.HasSuffix(e.Entry.URL, "/favicon.ico") {
				return false
			}
			m.Text += ": " + keepURL(e.Entry.URL)
			p.addRecordLocked(m, m.Level == "error")
			return true
		}
		if m.Level == string(log.EntryLevelVerbose) {
			m.Level = "debug"
		}
		if m.Location == "" && e.Entry.URL != "" {
			m.Location = e.Entry.URL
		}
		p.addRecordLocked(m, false)
	default:
		return false
	}
	return true
}

// isFaviconRequest reports the browser's own request for the tab's icon,
// which is not the app's (the app's own <link rel=icon> loads are kept).
func isFaviconRequest(e *network.EventRequestWillBeSent) bool {
	return e.Type == network.ResourceTypeOther && strings.HasSuffix(strings.SplitN(e.Request.URL, "?", 2)[0], "/favicon.ico")
}

func (l *eventLog) dropOldestOpen() {
	var oldest *NetworkRequest
	for _, r := range l.open {
		if oldest == nil || r.start < oldest.start {
			oldest = r
		}
	}
	if oldest != nil {
		delete(l.open, oldest.id)
	}
}

// addRecordLocked keeps a console message, its texts bounded, and when
// pending (an error or an exception) also for the next response's page
// state (see [Page.TakeEvents]). p.mu is held.
func (p *Page) addRecordLocked(m ConsoleMessage, pending bool) {
	m.Level = keep(m.Level, maxShortKept)
	m.Text = keep(m.Text, maxConsoleText)
	m.Location = keepURL(m.Location)
	m.Stack = keep(m.Stack, maxStackKept)
	m.Time = time.Now()
	if !p.closed {
		p.tellConsoleLocked(ConsoleEvent{Message: m})
	}
	if pending {
		p.addConsoleLocked(ConsoleMessage{Level: m.Level, Text: m.Text})
	}
	l, unlock := p.logs()
	defer unlock()
	l.addConsole(m)
}

// addConsoleLocked keeps a console error for the next response's page
// state (see [Page.TakeEvents]).
func (p *Page) addConsoleLocked(m ConsoleMessage) {
	if len(p.console) >= maxConsole {
		p.console = p.console[1:]
		p.dropped++
	}
	p.console = append(p.console, m)
}

// levelRank orders message levels by severity.
func levelRank(level string) int {
	switch level {
	case "debug":
		return 0
	case "warning":
		return 2
	case "error", "exception":
		return 3
	}
	return 1 // log, info
}

// ConsoleMessages returns the console messages kept at level or above
// (debug, info, warning, error; exceptions count as errors), oldest first:
// the current page's (since its document committed), or with all every
// one since the tab opened. Dropped counts those of the same span no longer
// kept.
func (p *Page) ConsoleMessages(level string, all bool) (msgs []ConsoleMessage, dropped int, err error) {
	if level == "" {
		level = "info"
	}
	if !strings.Contains(" "+consoleLevelsOrder+" ", " "+level+" ") {
		return nil, 0, newError(KindInvalidInput, "use one of: "+consoleLevelsOrder, "level %q", level)
	}
	min := levelRank(level)
	l, unlock := p.logs()
	defer unlock()
	from := 0
	if !all {
		from = l.consoleDoc
	}
	kept := l.console.list()
	dropped = l.console.total - from
	if len(kept) > 0 {
		dropped = max(0, kept[0].seq-from-1)
	}
	for _, m := range kept {
		if m.seq > from && levelRank(m.Level) >= min {
			msgs = append(msgs, m)
		}
	}
	return msgs, dropped, nil
}

// ConsoleLog returns every console message kept, oldest first, and how
// many fell out of the buffer, without marking any as read (a report reads
// them; the agent's next browser_console_messages still gets them).
func (p *Page) ConsoleLog() (msgs []ConsoleMessage, dropped int) {
	l, unlock := p.logs()
	defer unlock()
	kept := l.console.list()
	dropped = l.console.total
	if len(kept) > 0 {
		dropped = kept[0].seq - 1
	}
	return kept, dropped
}

// NetworkRequests returns the requests kept (the newest MaxNetworkRecords
// since the tab opened, within the session's budget), oldest first: those
// whose URL (as kept: a long one is clipped) matches filter (a regular
// expression; "" matches all), and only failed ones when failedOnly is
// set. Dropped counts the tab's requests no longer kept.
func (p *Page) NetworkRequests(filter string, failedOnly bool) (reqs []NetworkRequest, dropped int, err error) {
	var re *regexp.Regexp
	if filter != "" {
		if re, err = regexp.Compile(filter); err != nil {
			return nil, 0, newError(KindInvalidInput, "give a regular expression (RE2 syntax), e.g. /api/ or \\.js$", "filter %q: %v", filter, err)
		}
	}
	l, unlock := p.logs()
	defer unlock()
	list := l.network.list()
	dropped = l.network.total
	if len(list) > 0 {
		dropped = list[0].Seq - 1
	}
	for _, r := range list {
		if (re == nil || re.MatchString(r.URL)) && (!failedOnly || r.Failed()) {
			reqs = append(reqs, *r)
		}
	}
	return reqs, dropped, nil
}

// networkIdleSince reports whether no request of the page is in flight,
// and since when. Called with mu held.
func (p *Page) networkIdleSinceLocked() (bool, time.Time) {
	return len(p.net.inflight) == 0, p.net.changed
}

func msSince(start, end float64) float64 {
	if start == 0 || end < start {
		return 0
	}
	return float64(int64((end-start)*1e4)) / 10 // 0.1 ms precision
}

func consoleLevel(t runtime.ConsoleAPICalledType) string {
	switch t {
	case runtime.ConsoleAPICalledTypeError, runtime.ConsoleAPICalledTypeAssert:
		return "error"
	case runtime.ConsoleAPICalledTypeWarning:
		return "warning"
	case runtime.ConsoleAPICalledTypeDebug:
		return "debug"
	case runtime.ConsoleAPICalledTypeInfo:
		return "info"
	}
	return "log"
}

// formatConsoleArgs renders console arguments as the console shows them,
// briefly: a first string argument's %s, %d, %i, %f, %o, %O and %c are
// replaced by the following arguments, and the rest are joined by spaces.
func formatConsoleArgs(args []*runtime.RemoteObject) string {
	if len(args) == 0 {
		return ""
	}
	var parts []string
	rest := args
	if first := args[0]; first != nil && first.Type == runtime.RemoteObjectTypeString {
		format := remoteText(first)
		rest = args[1:]
		var b strings.Builder
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c != '%' || i+1 >= len(format) {
				b.WriteByte(c)
				continue
			}
			switch v := format[i+1]; v {
			case '%':
				b.WriteByte('%')
				i++
			case 's', 'd', 'i', 'f', 'o', 'O', 'c':
				i++
				if len(rest) == 0 {
					b.WriteByte('%')
					b.WriteByte(v)
					continue
				}
				if v != 'c' { // %c styles the text; the style is dropped
					b.WriteString(remoteText(rest[0]))
				}
				rest = rest[1:]
			default:
				b.WriteByte(c)
			}
		}
		parts = append(parts, b.String())
	}
	for _, a := range rest {
		parts = append(parts, remoteText(a))
	}
	return strings.Join(parts, " ")
}

// remoteText renders a console argument as the console would, briefly.
func remoteText(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	if len(o.Value) > 0 {
		var s string
		if json.Unmarshal(o.Value, &s) == nil {
			return s
		}
		return string(o.Value)
	}
	if o.UnserializableValue != "" {
		return string(o.UnserializableValue)
	}
	if o.Preview != nil && len(o.Preview.Properties) > 0 {
		return previewText(o.Preview)
	}
	return o.Description
}

// previewText renders an object preview: {a: 1, b: "x"} or [1, 2].
func previewText(pv *runtime.ObjectPreview) string {
	var b strings.Builder
	arr := pv.Subtype == "array"
	if arr {
		b.WriteByte('[')
	} else {
		b.WriteByte('{')
	}
	for i, pr := range pv.Properties {
		if i > 0 {
			b.WriteString(", ")
		}
		if !arr {
			b.WriteString(pr.Name + ": ")
		}
		if pr.Type == runtime.PropertyPreviewTypeString {
			b.WriteString(strconv.Quote(pr.Value))
		} else {
			b.WriteString(pr.Value)
		}
	}
	if pv.Overflow {
		b.WriteString(", …")
	}
	if arr {
		b.WriteByte(']')
	} else {
		b.WriteByte('}')
	}
	return b.String()
}

// topFrame is the location of a stack's innermost frame, url:line:col.
func topFrame(st *runtime.StackTrace) string {
	if st == nil || len(st.CallFrames) == 0 {
		return ""
	}
	return frameLocation(st.CallFrames[0])
}

func frameLocation(f *runtime.CallFrame) string {
	return fmt.Sprintf("%s:%d:%d", f.URL, f.LineNumber+1, f.ColumnNumber+1)
}

// exceptionMessage turns an uncaught exception into a console message with
// its stack: V8's own rendering of an Error (its message, then "at ..."
// lines), else the call frames CDP reports.
func exceptionMessage(d *runtime.ExceptionDetails) ConsoleMessage {
	m := ConsoleMessage{Level: "exception", Text: d.Text}
	if d.URL != "" {
		m.Location = fmt.Sprintf("%s:%d:%d", d.URL, d.LineNumber+1, d.ColumnNumber+1)
	}
	var stack []string
	if ex := d.Exception; ex != nil {
		switch {
		case ex.Description != "":
			lines := strings.Split(ex.Description, "\n")
			m.Text = lines[0]
			for _, l := range lines[1:] {
				if t := strings.TrimSpace(l); strings.HasPrefix(t, "at ") {
					stack = append(stack, t)
				}
			}
		case len(ex.Value) > 0:
			m.Text = strings.TrimSpace(d.Text + " " + remoteText(ex))
		}
	}
	if len(stack) == 0 && d.StackTrace != nil {
		for _, f := range d.StackTrace.CallFrames {
			name := f.FunctionName
			if name == "" {
				name = "<anonymous>"
			}
			stack = append(stack, "at "+name+" ("+frameLocation(f)+")")
		}
	}
	if m.Location == "" && d.StackTrace != nil {
		m.Location = topFrame(d.StackTrace)
	}
	if len(stack) > maxStackFrames {
		stack = append(stack[:maxStackFrames], fmt.Sprintf("… %d more frames", len(stack)-maxStackFrames))
	}
	m.Text, m.Stack = keep(m.Text, maxConsoleText), keep(strings.Join(stack, "\n"), maxStackKept)
	return m
}

// scriptError is a script_error with the exception's message and its stack.
func scriptError(d *runtime.ExceptionDetails, hint string) *Error {
	m := exceptionMessage(d)
	msg := m.Text
	if m.Stack != "" {
		msg += "\nStack:\n  " + strings.ReplaceAll(m.Stack, "\n", "\n  ")
	}
	return &Error{Kind: KindScriptError, Message: msg, Hint: hint}
}

// markRouted notes that a route answered the request id: on its record, or
// on the one its requestWillBeSent makes when that comes later.
func (p *Page) markRouted(id network.RequestID, pattern string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	l, unlock := p.logs()
	r := l.open[id]
	if r != nil {
		r.Route = keep(pattern, maxURLKept)
	}
	unlock()
	if r != nil {
		return
	}
	if p.net.routed == nil {
		p.net.routed = map[network.RequestID]string{}
	}
	if len(p.net.routed) >= maxOpenRequests {
		clear(p.net.routed)
	}
	p.net.routed[id] = pattern
}
