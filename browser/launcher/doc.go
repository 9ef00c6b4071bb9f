// Package launcher gets e2e-mcp a browser to drive: it finds a Chrome or
// Chromium executable, launches it with our flags in a profile directory of
// its own (named after our PID, so that a later server removes what a
// killed one left: [CleanStaleProfiles]), connects to a browser elsewhere
// over CDP ([Endpoint], --cdp-endpoint), asks WebDriver grids for one
// ([Config.GridCaps]), and watches a browser for hanging ([Watch]). What it
// hands over is a chromedp browser context and the way to end it: the
// process killed (Pdeathsig on Linux, through chromedp's allocator), its
// profile and temp directories removed on every path out.
//
// It knows nothing of sessions, tabs or pages: package browser decides
// which session gets which browser and builds its pages on the context
// given here. It may import chromedp and cdproto, zap and the module's leaf
// packages (metrics, redact, webdriver); it must not import browser, nor
// mcptools or transport (depguard: browser-parts-below-the-engine).
package launcher
