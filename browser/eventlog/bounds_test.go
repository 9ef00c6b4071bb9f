package eventlog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
)

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

// send hands l the request as a page's event loop does.
func send(l *Log, e *network.EventRequestWillBeSent) {
	unlock := l.Lock()
	defer unlock()
	l.Sent(e, "")
}

// requests are the requests l keeps, and how many it says it dropped.
func requests(l *Log) ([]NetworkRequest, int) {
	unlock := l.Lock()
	defer unlock()
	return l.NetworkRequests(nil, false)
}

// TestSessionLogBudget: the records of all a session's tabs count against
// one budget; past it the session's oldest go first, whichever tab holds
// them (a popup's flood takes the opener's old records, not its new
// ones); each tab says how many of its own it no longer keeps; a closed
// tab gives its bytes back.
func TestSessionLogBudget(t *testing.T) {
	store := &Store{max: 200 << 10}
	opener, popup := New(store), New(store)
	for i := range 5 {
		send(&opener, hostileRequest(fmt.Sprint("a", i)))
	}
	for i := range 20 {
		send(&popup, hostileRequest(fmt.Sprint("b", i)))
		if store.Used() > store.max {
			t.Fatalf("the session's logs hold %d bytes, over their budget of %d", store.Used(), store.max)
		}
	}
	send(&opener, hostileRequest("a-new"))
	kept, dropped := requests(&opener)
	if len(kept) != 1 || !strings.Contains(kept[0].URL, "a-new=") || dropped != 5 {
		t.Errorf("the opener keeps %d requests and says %d dropped; want its newest and 5", len(kept), dropped)
	}
	pkept, pdropped := requests(&popup)
	if len(pkept) == 0 || pdropped == 0 || pdropped+len(pkept) != 20 {
		t.Errorf("the popup keeps %d and says %d dropped of 20", len(pkept), pdropped)
	}
	unlock := opener.Lock()
	msgs, lost := opener.ConsoleLog()
	unlock()
	if len(msgs) != 0 || lost != 0 {
		t.Errorf("console: %d kept, %d lost", len(msgs), lost)
	}
	before := store.Used()
	popup.Close()
	if used := store.Used(); used >= before || used <= 0 {
		t.Errorf("closing the popup left %d bytes of %d", used, before)
	}
	send(&popup, hostileRequest("after-close"))
	if reqs, _ := requests(&popup); len(reqs) != 0 {
		t.Errorf("a closed tab keeps %d requests", len(reqs))
	}
}
