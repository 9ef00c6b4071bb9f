package browser

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/e2e-mcp/e2e-mcp/browser/eventlog"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
)

// logPage is a page of tabs that records events as a tab does, with no
// browser: what recordLocked keeps is all that is looked at.
func logPage(tabs *Tabs) *Page {
	return &Page{tabs: tabs, net: netState{inflight: map[network.RequestID]time.Time{}}, events: eventlog.New(&tabs.logs),
		changed: make(chan struct{})}
}

// record hands the page an event as its listener does.
func (p *Page) record(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.recordLocked(ev)
}

const mb = 1 << 20

// hostileRequest is a request whose URL is 1 MB and whose headers are 40
// of 64 KB.
func hostileRequest(id string) *network.EventRequestWillBeSent {
	h := network.Headers{"Accept": "*/*"}
	for i := range 40 {
		h[fmt.Sprintf("X-Big-%d", i)] = strings.Repeat("h", 64<<10)
	}
	return &network.EventRequestWillBeSent{RequestID: network.RequestID(id), Type: network.ResourceTypeFetch,
		Request: &network.Request{Method: "POST", URL: "http://app.test/x?" + id + "=" + strings.Repeat("u", mb), Headers: h}}
}

// stringArg is a console argument holding s.
func stringArg(s string) *runtime.RemoteObject {
	v, _ := json.Marshal(s)
	return &runtime.RemoteObject{Type: runtime.RemoteObjectTypeString, Value: v}
}

// within fails when a kept text is over its bound, or clipped without
// saying so.
func within(t *testing.T, what, s string, bound int) {
	t.Helper()
	if len(s) > bound+len(text.ClipMark)+32 {
		t.Errorf("%s kept at %d bytes (bound %d)", what, len(s), bound)
	}
	if len(s) > bound && !strings.Contains(s, text.ClipMark) {
		t.Errorf("%s clipped without saying so: %q", what, s[len(s)-40:])
	}
}

// TestRecordsBoundedWhenStored: a page's requests with 1 MB URLs and
// 2.5 MB of headers each way, 1 MB console messages, exceptions and
// browser messages are kept within their bounds, each clip said; the
// event's long texts are not what is kept.
func TestRecordsBoundedWhenStored(t *testing.T) {
	p := logPage(&Tabs{})
	for i := range 10 {
		id := fmt.Sprint("r", i)
		p.record(hostileRequest(id))
		big := network.Headers{"Content-Type": "text/plain"}
		for j := range 40 {
			big[fmt.Sprintf("X-Answer-%d", j)] = strings.Repeat("a", 64<<10)
		}
		p.record(&network.EventResponseReceived{RequestID: network.RequestID(id), Type: network.ResourceTypeFetch,
			Response: &network.Response{Status: 200, StatusText: strings.Repeat("s", mb), Headers: big, MimeType: "text/plain"}})
		p.record(&network.EventLoadingFailed{RequestID: network.RequestID(id), ErrorText: strings.Repeat("f", mb)})
	}
	huge := strings.Repeat("c", mb)
	p.record(&runtime.EventConsoleAPICalled{Type: runtime.ConsoleAPICalledTypeError, Args: []*runtime.RemoteObject{stringArg(huge)},
		StackTrace: &runtime.StackTrace{CallFrames: []*runtime.CallFrame{{URL: "http://app.test/" + huge}}}})
	frames := strings.Repeat("\n    at f (http://app.test/"+strings.Repeat("s", 64<<10)+":1:1)", 100)
	p.record(&runtime.EventExceptionThrown{ExceptionDetails: &runtime.ExceptionDetails{Text: "Uncaught",
		Exception: &runtime.RemoteObject{Type: "object", Description: "Error: " + huge + frames}}})
	p.record(&log.EventEntryAdded{Entry: &log.Entry{Source: log.EntrySourceNetwork, Level: log.EntryLevelError,
		Text: "Failed to load resource", URL: "http://app.test/" + huge}})
	p.record(&log.EventEntryAdded{Entry: &log.Entry{Source: log.EntrySourceJavascript, Level: log.EntryLevelWarning,
		Text: huge, URL: "http://app.test/" + huge}})

	reqs, dropped, err := p.NetworkRequests("", false)
	if err != nil || len(reqs) != 10 || dropped != 0 {
		t.Fatalf("%d requests kept, %d dropped (%v)", len(reqs), dropped, err)
	}
	for _, q := range reqs {
		within(t, "a URL", q.URL, maxURLKept)
		within(t, "a status text", q.StatusText, eventlog.MaxShortKept)
		within(t, "a failure", q.Failure, eventlog.MaxShortKept)
		d, err := p.RequestHeaders(q.Seq)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []map[string]string{d.RequestHeaders, d.ResponseHeaders} {
			total := 0
			for k, v := range h {
				within(t, "a header", v, eventlog.MaxHeaderKept)
				total += len(k) + len(v)
			}
			if total > eventlog.MaxHeadersKept+200 || !strings.Contains(h["…"], "more headers") {
				t.Errorf("the headers kept are %d bytes, the left out said as %q", total, h["…"])
			}
			if h["Accept"] == "" && h["Content-Type"] == "" {
				t.Errorf("the small headers went before the big ones: %v", len(h))
			}
		}
	}
	msgs, _ := p.ConsoleLog()
	if len(msgs) != 4 {
		t.Fatalf("%d console messages kept, want 4", len(msgs))
	}
	for _, m := range msgs {
		within(t, m.Level+" text", m.Text, maxConsoleText)
		within(t, m.Level+" location", m.Location, maxURLKept)
		within(t, m.Level+" stack", m.Stack, eventlog.MaxStackKept)
	}
	pending, _ := p.TakeEvents()
	for _, m := range pending {
		within(t, "a pending console error", m.Text, maxConsoleText)
	}
	if used := p.tabs.logs.Used(); used > 10*(maxURLKept+2*eventlog.MaxHeadersKept+4096)+4*(maxConsoleText+maxURLKept+eventlog.MaxStackKept+1024) {
		t.Errorf("the session's logs count %d bytes", used)
	}
}

// TestTabAndDialogTextsBounded: a tab's URL and title as the browser
// reports them, and a dialog's message, are kept within their bounds; the
// prompt's whole default text is still what accepting it sends.
func TestTabAndDialogTextsBounded(t *testing.T) {
	tabs := &Tabs{infos: map[target.ID]*target.Info{}, newTgt: make(chan struct{}), id: "ctx"}
	huge := strings.Repeat("t", mb)
	tabs.onBrowserEvent(&target.EventTargetInfoChanged{TargetInfo: &target.Info{TargetID: "T1", Type: "page", BrowserContextID: "ctx",
		URL: "http://app.test/?" + huge, Title: huge}})
	info := tabs.infoOf("T1")
	within(t, "a tab's URL", info.URL, maxURLKept)
	within(t, "a tab's title", info.Title, maxTitleKept)

	p := logPage(tabs)
	p.main = &host{}
	p.onEvent(p.main, &page.EventJavascriptDialogOpening{Type: page.DialogTypePrompt, Message: huge, DefaultPrompt: huge})
	d := p.Dialog()
	within(t, "a dialog's message", d.Message, maxConsoleText)
	within(t, "a dialog's default text", d.DefaultPrompt, maxConsoleText)
	if d.defaultPrompt != huge {
		t.Errorf("the prompt's default text to send back is %d bytes", len(d.defaultPrompt))
	}
}
