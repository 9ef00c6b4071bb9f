// Package storage is a session's stored state as it is saved and put back:
// the State value (cookies, and each origin's local and session
// storage, in Playwright's storageState format, so that files carry over
// both ways), the checks of a cookie or a state an agent or a file gives,
// the conversion between the browser's cookies and ours, the cookie jar of
// a browser context ([Jar]: read, set, delete over CDP, given a context
// that runs browser-level commands), the origins a session's documents
// came from ([Origins]), and the page expressions that read and fill a
// document's web storage.
//
// It sits below the page engine: package browser runs the expressions in
// its tabs, walks the origins in scratch tabs, and reports this package's
// refusals, each a [*refusal.Error], as its invalid_input errors
// (browser.AsError; the seam is one file, browser/storage.go). It may
// import chromedp and cdproto, browser/refusal and the standard library;
// never browser, mcptools or transport.
package storage
