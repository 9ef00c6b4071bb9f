// Package launcher gets e2e-mcp a browser to drive: it finds a Chrome or
// Chromium executable, launches it with our flags in a profile directory of
// its own (named after our PID, so that a later server removes what a
// killed one left: [CleanStaleProfiles]), connects to a browser elsewhere
// over CDP ([Endpoint], --cdp-endpoint), asks WebDriver grids for one
// ([Config.GridCaps]), and watches a browser for hanging ([Watch]). What it
// hands over is a chromedp browser context and the way to end it: the
// process killed (Pdeathsig on Linux, through chromedp's allocator), its
// profile and temp directories removed on every path out. Its [Pool] holds
// the browsers elsewhere under a lock of its own: which endpoint a new
// session gets (the fewest sessions, reconnecting to one that came back),
// a grid's browser per session, the connections marked lost or hung, and
// at exit the grid sessions deleted and the connections dropped. The
// DevTools traffic it logs is masked ([CDPDebugf]).
//
// It knows nothing of tabs or pages: package browser ties a pool's browser
// to the session that got it and builds its pages on the context given
// here. It may import chromedp and cdproto, zap, browser/recording (the
// demonstration's binding, masked in the log) and the module's leaf
// packages (metrics, redact, webdriver); it must not import browser, nor
// mcptools or transport (depguard: browser-parts-below-the-engine).
package launcher
