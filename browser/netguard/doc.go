// Package netguard holds a session's requests to the request policy and
// its routes over CDP: the Fetch domain pauses the requests of each tab's
// sessions ([PageGuard]) and, at the browser level, those of frames no
// session of ours intercepts yet ([Browser]); netpolicy decides each, and
// the session's routes ([Route]) answer the rest. It owns that state: the
// blocked requests kept for the agent, the origins allowed at run time,
// the routes, and the browser context's proxy ([Context]).
//
// It sits below the page engine: package browser imports it and gives it
// what it needs of a tab or of the browser through small interfaces ([Tab],
// [Engine], [Session]), adapted in one file (browser/netguard.go). It may
// import chromedp and cdproto, zap, netpolicy and the module's leaf
// packages (internal/text); never browser, mcptools or transport.
package netguard
