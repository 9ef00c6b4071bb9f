// Package eventlog is what a tab keeps of its console and network for the
// agent, and the bounds of it: the console messages and uncaught
// exceptions ([ConsoleMessage]) and the requests ([NetworkRequest],
// [RequestDetail]) of each tab ([Log]), counted against one budget for
// all of a session's tabs ([Store]), every text clipped as it is stored
// (bounds.go); and how each action waited for its element ([Waits]). It
// turns the DevTools events into those records ([Log.Sent],
// [FromConsoleAPI], [FromException], [FromLogEntry]) and answers the
// queries on them.
//
// It sits below the page engine: package browser holds a Log in each
// Page and a Store in each session's Tabs, and feeds them on chromedp's
// read loop with the page's own lock held, then the store's ([Log.Lock]);
// the adapter is one file, browser/eventlog.go. It runs no CDP command
// and takes no other lock. It may import cdproto (for the events' types)
// and the module's leaf packages (internal/text); never browser, mcptools
// or transport.
package eventlog
