package browser

// ConsoleEvent is a console message of a session's tab as it arrives, or
// the tab's end, for the hook [Tabs.OnConsole] sets.
type ConsoleEvent struct {
	// Page is the tab the message is of: its own, or one of its iframes'.
	Page *Page
	// Doc numbers the tab's documents: it grows by one at each navigation
	// of its main frame to a new document (not a fragment or a
	// history.pushState change), so the messages of one document share it.
	Doc int
	// Message is the message, its texts bounded as the tab keeps them
	// (bounds.go). Zero when Closed.
	Message ConsoleMessage
	// Closed says the tab closed: none of its messages follows.
	Closed bool
}

// consoleHook is what OnConsole sets.
type consoleHook func(ConsoleEvent)

// OnConsole has fn told every console message and uncaught exception of
// the session's attached tabs and their iframes as it arrives, and the
// close of each tab (nil: none). fn runs on the browser connection's read
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

// tellConsoleLocked tells the session's console hook, if one is set, of a
// message of the tab's current document (m), or of the tab's close
// (closed). p.mu is held.
func (p *Page) tellConsoleLocked(m ConsoleMessage, closed bool) {
	if p.tabs == nil {
		return
	}
	h := p.tabs.console.Load()
	if h == nil {
		return
	}
	ev := ConsoleEvent{Page: p, Doc: p.doc, Closed: closed}
	if !closed {
		m.seq, m.at, m.cost = 0, 0, 0
		ev.Message = m
	}
	(*h)(ev)
}
