// Package netguard is the network guard of a session's pages and their
// downloads. The DevTools Fetch domain pauses the requests of each tab's
// CDP sessions ([PageGuard]) and, at the browser level, those of frames no
// session of ours intercepts yet ([Browser]); netpolicy decides each, and
// the session's routes ([Route]) answer the rest. It owns that state: the
// blocked requests kept for the agent, the origins allowed at run time,
// the routes and the browser context's proxy ([Context]), which session a
// frame is and whether one of ours intercepts it, and the session's
// downloads ([Downloads]), a remote browser's fetched again in a hidden
// tab ([PageGuard.TakeBody]). A request step ([Request]) is made from a
// hidden tab too.
//
// It sits below the page engine: package browser imports it, calls it from
// a tab's event loop, and gives it what it needs of a Page, the Manager
// and a tab's Tabs through small interfaces ([Tab], [Page], [HiddenTab],
// [Engine], [DownloadSide], [Session]), all adapted in one file,
// browser/netguard.go.
// It may import chromedp and cdproto, zap, netpolicy and the module's leaf
// packages (internal/text); never browser, mcptools or transport. Events
// reach it on chromedp's read loop: it only updates state there, and
// sends commands from goroutines of its own.
package netguard
