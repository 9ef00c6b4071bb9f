package browser

import "github.com/e2e-mcp/e2e-mcp/browser/eventlog"

// ConsoleEvent is a console message of a session's tab as it arrives, a
// new document of the tab, or the tab's end, for the hook [Tabs.OnConsole]
// sets.
type ConsoleEvent struct {
	// Page is the tab the message is of: its own, or one of its iframes'.
	Page *Page
	// Doc numbers the tab's documents: it grows by one at each navigation
	// of its main frame to a new document (not a fragment or a
	// history.pushState change), so the messages of one document share it.
	Doc int
	// Message is the message, its texts bounded as the tab keeps them
	// (eventlog's bounds.go). Zero when Navigated or Closed.
	Message eventlog.ConsoleMessage
	// Navigated says the tab's main frame committed a new document, Doc:
	// no message of the document before follows.
	Navigated bool
	// Closed says the tab closed: none of its messages follows.
	Closed bool
}

// consoleHook is what OnConsole sets.
type consoleHook func(ConsoleEvent)

// OnConsole has fn told every console message and uncaught exception of
// the session's attached tabs and their iframes as it arrives, each new
// document of a tab, and the close of each tab (nil: none). fn runs on the browser connection's read
// loop with the tab's lock held: it must not block, nor call the browser.
// It is told from the moment it is set: not what tabs logged before.
func (t *Tabs) OnConsole(fn func(ConsoleEvent)) {
	if fn == nil {
		t.console.Store(nil)
		return
	}
	h := consoleHook(fn)
	t.console.Store(&h)
}

// tellConsoleLocked tells the session's console hook, if one is set, of
// ev, a message, new document or close of the tab (its page and document
// filled in here). p.mu is held.
func (p *Page) tellConsoleLocked(ev ConsoleEvent) {
	if p.tabs == nil {
		return
	}
	h := p.tabs.console.Load()
	if h == nil {
		return
	}
	ev.Page, ev.Doc = p, p.doc
	(*h)(ev)
}
