package browser

import (
	"regexp"
	"strings"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/e2e-mcp/e2e-mcp/browser/eventlog"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
)

// The seam with browser/eventlog, what a tab keeps of its console and
// network and its bounds: a Page holds its Log (events) and its action
// waits, its session's Tabs the Store their records count against. The
// page's event loop hands the records' events to its Log under p.mu, then
// the store's lock (logs); what the events change of the page itself (the
// requests in flight settle waits on, the routes noted, the origins, the
// console errors of the next answer, the console hook) stays here.

// maxConsole bounds the console errors kept between two responses
// (TakeEvents).
const maxConsole = 50

// maxTitleKept bounds a tab's title.
const maxTitleKept = 1 << 10

// The bounds of the texts a page makes, as its records keep them.
const (
	maxURLKept     = eventlog.MaxURLKept
	maxConsoleText = eventlog.MaxConsoleText
)

// keep is what a store keeps of a text a page made: at most n bytes, the
// rest said (text.Keep).
func keep(s string, n int) string { return text.Keep(s, n) }

// keepURL is what a store keeps of a URL.
func keepURL(u string) string { return eventlog.KeepURL(u) }

// logs is the page's event log, locked; unlock it with the function
// returned. It may be called with p.mu held, never the other way round.
func (p *Page) logs() (*eventlog.Log, func()) {
	l := &p.events
	return l, l.Lock()
}

// recordLocked records console messages, exceptions and network requests of
// any of the page's sessions (tab or iframe), and keeps the in-flight map
// that settle waits on. It reports whether ev was one of them. It runs on
// chromedp's read loop: no commands, no blocking. What it keeps of each is
// bounded as it is stored (eventlog's bounds.go): the event's long texts
// are not kept.
func (p *Page) recordLocked(ev any) bool {
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		p.net.inflight[e.RequestID] = time.Now()
		p.net.changed = time.Now()
		pat, routed := p.net.routed[e.RequestID]
		l, unlock := p.logs()
		defer unlock()
		if !l.Sent(e, pat) {
			return true
		}
		if routed {
			delete(p.net.routed, e.RequestID)
		}
		if e.Type == network.ResourceTypeDocument && p.tabs != nil {
			p.tabs.noteOrigin(e.Request.URL)
		}
	case *network.EventResponseReceived:
		l, unlock := p.logs()
		l.Response(e)
		unlock()
		// A page's fetch resolves with the headers; Chrome reports the load
		// finished only once the page reads the body, tens of milliseconds
		// later or never when it does not. For what settle waits on, a
		// fetch or XHR with a small body is done here.
		if (e.Type == network.ResourceTypeFetch || e.Type == network.ResourceTypeXHR) && e.Response != nil && eventlog.SmallBody(e.Response) {
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
		l.Finished(e)
	case *network.EventLoadingFailed:
		delete(p.net.inflight, e.RequestID)
		p.net.changed = time.Now()
		l, unlock := p.logs()
		defer unlock()
		l.Failed(e)
	case *runtime.EventConsoleAPICalled:
		m := eventlog.FromConsoleAPI(e)
		p.addRecordLocked(m, m.Level == "error")
	case *runtime.EventExceptionThrown:
		p.addRecordLocked(eventlog.FromException(e.ExceptionDetails), true)
	case *log.EventEntryAdded:
		m, pending, ok := eventlog.FromLogEntry(e)
		if !ok {
			return false
		}
		p.addRecordLocked(m, pending)
	default:
		return false
	}
	return true
}

// addRecordLocked keeps a console message, its texts bounded, and when
// pending (an error or an exception) also for the next response's page
// state (see [Page.TakeEvents]). p.mu is held.
func (p *Page) addRecordLocked(m eventlog.ConsoleMessage, pending bool) {
	m = eventlog.Arrived(m)
	if !p.closed {
		p.tellConsoleLocked(ConsoleEvent{Message: m})
	}
	if pending {
		p.addConsoleLocked(eventlog.ConsoleMessage{Level: m.Level, Text: m.Text})
	}
	l, unlock := p.logs()
	defer unlock()
	l.AddConsole(m)
}

// addConsoleLocked keeps a console error for the next response's page
// state (see [Page.TakeEvents]).
func (p *Page) addConsoleLocked(m eventlog.ConsoleMessage) {
	if len(p.console) >= maxConsole {
		p.console = p.console[1:]
		p.dropped++
	}
	p.console = append(p.console, m)
}

// ConsoleMessages returns the console messages kept at level or above
// (debug, info, warning, error; exceptions count as errors), oldest first:
// the current page's (since its document committed), or with all every
// one since the tab opened. Dropped counts those of the same span no longer
// kept.
func (p *Page) ConsoleMessages(level string, all bool) (msgs []eventlog.ConsoleMessage, dropped int, err error) {
	if level == "" {
		level = "info"
	}
	if !strings.Contains(" "+eventlog.ConsoleLevels+" ", " "+level+" ") {
		return nil, 0, newError(KindInvalidInput, "use one of: "+eventlog.ConsoleLevels, "level %q", level)
	}
	l, unlock := p.logs()
	defer unlock()
	msgs, dropped = l.ConsoleMessages(level, all)
	return msgs, dropped, nil
}

// ConsoleLog returns every console message kept, oldest first, and how
// many fell out of the buffer, without marking any as read (a report reads
// them; the agent's next browser_console_messages still gets them).
func (p *Page) ConsoleLog() (msgs []eventlog.ConsoleMessage, dropped int) {
	l, unlock := p.logs()
	defer unlock()
	return l.ConsoleLog()
}

// NetworkRequests returns the requests kept (the newest MaxNetworkRecords
// since the tab opened, within the session's budget), oldest first: those
// whose URL (as kept: a long one is clipped) matches filter (a regular
// expression; "" matches all), and only failed ones when failedOnly is
// set. Dropped counts the tab's requests no longer kept.
func (p *Page) NetworkRequests(filter string, failedOnly bool) (reqs []eventlog.NetworkRequest, dropped int, err error) {
	var re *regexp.Regexp
	if filter != "" {
		if re, err = regexp.Compile(filter); err != nil {
			return nil, 0, newError(KindInvalidInput, "give a regular expression (RE2 syntax), e.g. /api/ or \\.js$", "filter %q: %v", filter, err)
		}
	}
	l, unlock := p.logs()
	defer unlock()
	reqs, dropped = l.NetworkRequests(re, failedOnly)
	return reqs, dropped, nil
}

// networkIdleSince reports whether no request of the page is in flight,
// and since when. Called with mu held.
func (p *Page) networkIdleSinceLocked() (bool, time.Time) {
	return len(p.net.inflight) == 0, p.net.changed
}

// scriptError is a script_error with the exception's message and its stack.
func scriptError(d *runtime.ExceptionDetails, hint string) *Error {
	m := eventlog.FromException(d)
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
	noted := l.Routed(id, pattern)
	unlock()
	if noted {
		return
	}
	if p.net.routed == nil {
		p.net.routed = map[network.RequestID]string{}
	}
	if len(p.net.routed) >= eventlog.MaxOpenRequests {
		clear(p.net.routed)
	}
	p.net.routed[id] = pattern
}

// waitDone ends the wait n, ready or not, and keeps it in p's log.
func (p *Page) waitDone(n *eventlog.WaitNote, ready bool) { p.waits.Done(n, ready) }

// ActionWaits are the tab's newest action waits, oldest first.
func (p *Page) ActionWaits() []eventlog.ActionWait { return p.waits.List() }
