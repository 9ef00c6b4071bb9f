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
	"github.com/e2e-mcp/e2e-mcp/internal/text"
)

// logPage is a page of tabs that records events as a tab does, with no
// browser: what recordLocked keeps is all that is looked at.
func logPage(tabs *Tabs) *Page {
	return &Page{tabs: tabs, net: netState{inflight: map[network.RequestID]time.Time{}}, events: newEventLog(&tabs.logs),
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
		within(t, "a status text", q.StatusText, maxShortKept)
		within(t, "a failure", q.Failure, maxShortKept)
		d, err := p.RequestHeaders(q.Seq)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []map[string]string{d.RequestHeaders, d.ResponseHeaders} {
			total := 0
			for k, v := range h {
				within(t, "a header", v, maxHeaderKept)
				total += len(k) + len(v)
			}
			if total > maxHeadersKept+200 || !strings.Contains(h["…"], "more headers") {
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
		within(t, m.Level+" stack", m.Stack, maxStackKept)
	}
	pending, _ := p.TakeEvents()
	for _, m := range pending {
		within(t, "a pending console error", m.Text, maxConsoleText)
	}
	if used := p.tabs.logs.used; used > 10*(maxURLKept+2*maxHeadersKept+4096)+4*(maxConsoleText+maxURLKept+maxStackKept+1024) {
		t.Errorf("the session's logs count %d bytes", used)
	}
}

// TestSessionLogBudget: the records of all a session's tabs count against
// one budget; past it the session's oldest go first, whichever tab holds
// them (a popup's flood takes the opener's old records, not its new
// ones); each tab says how many of its own it no longer keeps; a closed
// tab gives its bytes back.
func TestSessionLogBudget(t *testing.T) {
	tabs := &Tabs{}
	tabs.logs.max = 200 << 10
	opener, popup := logPage(tabs), logPage(tabs)
	for i := range 5 {
		opener.record(hostileRequest(fmt.Sprint("a", i)))
	}
	for i := range 20 {
		popup.record(hostileRequest(fmt.Sprint("b", i)))
		if tabs.logs.used > tabs.logs.max {
			t.Fatalf("the session's logs hold %d bytes, over their budget of %d", tabs.logs.used, tabs.logs.max)
		}
	}
	opener.record(hostileRequest("a-new"))
	kept, dropped, _ := opener.NetworkRequests("", false)
	if len(kept) != 1 || !strings.Contains(kept[0].URL, "a-new=") || dropped != 5 {
		t.Errorf("the opener keeps %d requests and says %d dropped; want its newest and 5", len(kept), dropped)
	}
	pkept, pdropped, _ := popup.NetworkRequests("", false)
	if len(pkept) == 0 || pdropped == 0 || pdropped+len(pkept) != 20 {
		t.Errorf("the popup keeps %d and says %d dropped of 20", len(pkept), pdropped)
	}
	msgs, lost := opener.ConsoleLog()
	if len(msgs) != 0 || lost != 0 {
		t.Errorf("console: %d kept, %d lost", len(msgs), lost)
	}
	before := tabs.logs.used
	popup.events.store.forget(&popup.events)
	if tabs.logs.used >= before || tabs.logs.used <= 0 {
		t.Errorf("closing the popup left %d bytes of %d", tabs.logs.used, before)
	}
	popup.record(hostileRequest("after-close"))
	if reqs, _, _ := popup.NetworkRequests("", false); len(reqs) != 0 {
		t.Errorf("a closed tab keeps %d requests", len(reqs))
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
