// Package browser owns Chromium: it gets one browser process lazily
// (browser/launcher finds, launches or connects to it), gives every
// session its own BrowserContext (separate cookies, storage and cache) with
// a tab, injects the page engine (js/*.js, joined in name order) into an
// isolated world of each document, and performs navigation, snapshots and
// trusted input over CDP.
//
// It keeps the page engine whole (Page, Tabs, Manager and what needs their
// insides); the concerns that do not need them are packages below it
// (launcher, netguard, recording, measure, eventlog, storage, devices,
// keyboard, selector, snaptext), which it imports and which never import it
// back, each adapted in one file of this package named after it; what they
// refuse is one type (browser/refusal), which [AsError] alone reads. With them it is the
// only code that imports chromedp and cdproto, and it knows nothing of MCP.
// Failures an agent can act on are returned as [*Error] with a [Kind];
// anything else is an infrastructure error.
//
// Process hygiene: Chrome runs with a profile directory named after our PID
// under the temp directory, is killed with the server (Pdeathsig on Linux, and
// an orderly Close otherwise), and profile directories left by a server that
// was killed are removed, with any Chrome still using them, by
// [launcher.CleanStaleProfiles] at the next start.
package browser
