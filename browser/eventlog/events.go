package eventlog

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
	// (Store).
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
	// (Store).
	at   uint64
	cost int
}

// Failed reports whether the request failed or got an HTTP error status.
func (r NetworkRequest) Failed() bool { return r.Failure != "" || r.Status >= 400 }

// ID is Chrome's ID of the request.
func (r NetworkRequest) ID() network.RequestID { return r.id }

// HasPostData says whether the request had a body.
func (r NetworkRequest) HasPostData() bool { return r.postData }

// Bounds of what a page keeps: the newest records win (see bounds.go for
// the bounds of their texts and the session's).
const (
	MaxConsoleRecords = 500  // console messages of all levels, a tab
	MaxNetworkRecords = 500  // network requests, a tab
	MaxOpenRequests   = 1000 // requests in flight we follow
	maxStackFrames    = 12   // frames of an exception's stack
)

// ConsoleLevels are the levels [Log.ConsoleMessages] filters by, least
// severe first; each includes the more severe ones.
const ConsoleLevels = "debug info warning error"

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

// Log is what a page records of its console and network. It is guarded
// by its session's Store (taken after the page's own lock: [Log.Lock]),
// whose budget its records count against; every method but Lock and
// Close is called with that lock held.
type Log struct {
	store   *Store
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

// New is an empty log whose records count against store.
func New(store *Store) Log {
	return Log{store: store, console: ring[ConsoleMessage]{max: MaxConsoleRecords},
		network: ring[*NetworkRequest]{max: MaxNetworkRecords}, open: map[network.RequestID]*NetworkRequest{}}
}

// Lock locks the log (its session's store); unlock it with the function
// returned.
func (l *Log) Lock() (unlock func()) {
	l.store.mu.Lock()
	return l.store.mu.Unlock
}

// Close gives back what the log held, for a closed tab: what comes after
// is not kept. It takes the lock itself.
func (l *Log) Close() { l.store.forget(l) }

// AddConsole keeps a console message.
func (l *Log) AddConsole(m ConsoleMessage) {
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

// addRequest keeps a request.
func (l *Log) addRequest(r *NetworkRequest) {
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
// then no longer kept.
func (l *Log) grow(r *NetworkRequest, more int) bool {
	l.store.charge(l, more)
	if l.open[r.id] != r {
		l.store.used -= more
		return false
	}
	r.cost += more
	return true
}

// SmallBody says whether a response announces a body of at most 1 MB.
func SmallBody(r *network.Response) bool {
	for k, v := range r.Headers {
		if strings.EqualFold(k, "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(fmt.Sprint(v)))
			return err == nil && n <= 1<<20
		}
	}
	return false // chunked or unknown: wait for the end
}

// Sent records a request being sent (or going on to a redirect's target)
// with route, the pattern of the route that answered it ("" if none), and
// reports whether it keeps a record of it: not of a data: URL nor of the
// browser's own favicon request. What it keeps is bounded as it is stored
// (bounds.go): the event's long texts are not kept.
func (l *Log) Sent(e *network.EventRequestWillBeSent, route string) bool {
	if r := l.open[e.RequestID]; r != nil && e.RedirectResponse != nil {
		// The same request ID goes on to the redirect's target.
		r.Status, r.StatusText = e.RedirectResponse.Status, keep(e.RedirectResponse.StatusText, MaxShortKept)
		r.DurationMS, r.Done = msSince(r.start, float64(e.Timestamp)), true
	}
	if e.Request == nil || strings.HasPrefix(e.Request.URL, "data:") || isFaviconRequest(e) {
		delete(l.open, e.RequestID)
		return false
	}
	r := &NetworkRequest{Method: keep(e.Request.Method, MaxShortKept), URL: KeepURL(e.Request.URL), Type: string(e.Type),
		Start: time.Now(), Seq: l.network.total + 1, id: e.RequestID, frame: string(e.FrameID), start: float64(e.Timestamp),
		reqHeaders: keepHeaders(e.Request.Headers), postData: e.Request.HasPostData}
	if len(l.open) >= MaxOpenRequests {
		l.dropOldestOpen()
	}
	r.Route = route
	l.open[e.RequestID] = r
	l.addRequest(r)
	return true
}

// Response records the response of a request kept: its status and
// headers.
func (l *Log) Response(e *network.EventResponseReceived) {
	if r := l.open[e.RequestID]; r != nil && e.Response != nil {
		h := keepHeaders(e.Response.Headers)
		if l.grow(r, headersCost(h)+len(e.Response.MimeType)) {
			r.Status, r.StatusText = e.Response.Status, keep(e.Response.StatusText, MaxShortKept)
			r.respHeaders, r.mimeType = h, keep(e.Response.MimeType, MaxShortKept)
		}
	}
}

// Finished records the end of a request that loaded.
func (l *Log) Finished(e *network.EventLoadingFinished) {
	if r := l.open[e.RequestID]; r != nil {
		r.DurationMS, r.Done = msSince(r.start, float64(e.Timestamp)), true
		delete(l.open, e.RequestID)
	}
}

// Failed records the end of a request that failed, with Chrome's reason.
func (l *Log) Failed(e *network.EventLoadingFailed) {
	if r := l.open[e.RequestID]; r != nil {
		failure := e.ErrorText
		if failure == "" {
			failure = "failed"
		}
		if e.BlockedReason != "" {
			failure += " (blocked: " + string(e.BlockedReason) + ")"
		}
		r.DurationMS, r.Done, r.Failure = msSince(r.start, float64(e.Timestamp)), true, keep(failure, MaxShortKept)
		delete(l.open, e.RequestID)
	}
}

// Routed notes on the record of the request id in flight that a route
// answered it; false when no such record is open (yet).
func (l *Log) Routed(id network.RequestID, pattern string) bool {
	r := l.open[id]
	if r != nil {
		r.Route = keep(pattern, MaxURLKept)
	}
	return r != nil
}

// NewDocument notes that the tab's main frame committed a new document:
// the current page's console messages are those that follow.
func (l *Log) NewDocument() { l.consoleDoc = l.console.total }

// FromConsoleAPI is the console message of a console call.
func FromConsoleAPI(e *runtime.EventConsoleAPICalled) ConsoleMessage {
	m := ConsoleMessage{Level: consoleLevel(e.Type), Text: formatConsoleArgs(e.Args), Location: topFrame(e.StackTrace)}
	if e.Type == runtime.ConsoleAPICalledTypeAssert {
		m.Text = strings.TrimSpace("Assertion failed: " + m.Text)
	}
	return m
}

// FromLogEntry is the console message of one of the browser's own
// messages, and whether it counts as an error to tell; ok is false for
// those not kept (console calls, which come as such, and the tab's icon
// failing to load).
func FromLogEntry(e *log.EventEntryAdded) (m ConsoleMessage, pending, ok bool) {
	// The browser's own messages: CSP and deprecation notes,
	// interventions, and a load that failed ("Failed to load resource:
	// the server responded with a status of 500"), with its URL, as
	// DevTools shows it. Console calls come as such.
	if e.Entry == nil || e.Entry.Source == "console-api" {
		return m, false, false
	}
	m = ConsoleMessage{Level: string(e.Entry.Level), Text: e.Entry.Text, Location: topFrame(e.Entry.StackTrace)}
	if e.Entry.Source == log.EntrySourceNetwork {
		if e.Entry.URL == "" || strings.HasSuffix(e.Entry.URL, "/favicon.ico") {
			return m, false, false
		}
		m.Text += ": " + KeepURL(e.Entry.URL)
		return m, m.Level == "error", true
	}
	if m.Level == string(log.EntryLevelVerbose) {
		m.Level = "debug"
	}
	if m.Location == "" && e.Entry.URL != "" {
		m.Location = e.Entry.URL
	}
	return m, false, true
}

// Arrived is m as a log keeps it, arriving now: its texts bounded.
func Arrived(m ConsoleMessage) ConsoleMessage {
	m.Level = keep(m.Level, MaxShortKept)
	m.Text = keep(m.Text, MaxConsoleText)
	m.Location = KeepURL(m.Location)
	m.Stack = keep(m.Stack, MaxStackKept)
	m.Time = time.Now()
	return m
}

// isFaviconRequest reports the browser's own request for the tab's icon,
// which is not the app's (the app's own <link rel=icon> loads are kept).
func isFaviconRequest(e *network.EventRequestWillBeSent) bool {
	return e.Type == network.ResourceTypeOther && strings.HasSuffix(strings.SplitN(e.Request.URL, "?", 2)[0], "/favicon.ico")
}

func (l *Log) dropOldestOpen() {
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

// ConsoleMessages returns the console messages kept at level (one of
// ConsoleLevels) or above (exceptions count as errors), oldest first: the
// current page's (since its document committed), or with all every one
// since the tab opened. Dropped counts those of the same span no longer
// kept.
func (l *Log) ConsoleMessages(level string, all bool) (msgs []ConsoleMessage, dropped int) {
	min := levelRank(level)
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
	return msgs, dropped
}

// ConsoleLog returns every console message kept, oldest first, and how
// many fell out of the buffer.
func (l *Log) ConsoleLog() (msgs []ConsoleMessage, dropped int) {
	kept := l.console.list()
	dropped = l.console.total
	if len(kept) > 0 {
		dropped = kept[0].seq - 1
	}
	return kept, dropped
}

// NetworkRequests returns the requests kept, oldest first: those whose
// URL (as kept) matches re (nil matches all), and only failed ones when
// failedOnly is set. Dropped counts the tab's requests no longer kept.
func (l *Log) NetworkRequests(re *regexp.Regexp, failedOnly bool) (reqs []NetworkRequest, dropped int) {
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
	return reqs, dropped
}

// FailedSince returns the requests kept that failed and ended at since or
// later, oldest first.
func (l *Log) FailedSince(since time.Time) []NetworkRequest {
	var out []NetworkRequest
	for _, r := range l.network.list() {
		end := r.Start.Add(time.Duration(r.DurationMS * float64(time.Millisecond)))
		if r.Done && r.Failed() && !end.Before(since) {
			out = append(out, *r)
		}
	}
	return out
}

// LastMethodOf is the method of the latest request kept of u, if any.
func (l *Log) LastMethodOf(u string) string {
	u = KeepURL(u) // as the log keeps it
	list := l.network.list()
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].URL == u {
			return list[i].Method
		}
	}
	return ""
}

// Open returns the request id while it is in flight.
func (l *Log) Open(id network.RequestID) (NetworkRequest, bool) {
	if r := l.open[id]; r != nil {
		return *r, true
	}
	return NetworkRequest{}, false
}

// OpenDocuments returns the document requests of frame in flight.
func (l *Log) OpenDocuments(frame string) []NetworkRequest {
	var out []NetworkRequest
	for _, r := range l.open {
		if r.Type == string(network.ResourceTypeDocument) && r.frame == frame {
			out = append(out, *r)
		}
	}
	return out
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

// FromException turns an uncaught exception into a console message with
// its stack: V8's own rendering of an Error (its message, then "at ..."
// lines), else the call frames CDP reports.
func FromException(d *runtime.ExceptionDetails) ConsoleMessage {
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
	m.Text, m.Stack = keep(m.Text, MaxConsoleText), keep(strings.Join(stack, "\n"), MaxStackKept)
	return m
}
