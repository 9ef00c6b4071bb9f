package launcher

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
	"github.com/e2e-mcp/e2e-mcp/redact"
	"github.com/e2e-mcp/e2e-mcp/webdriver"
)

// Endpoint is a browser that runs elsewhere (a browser farm, a container),
// reached over CDP instead of launched: ws://host:9222/devtools/browser/ID,
// or http://host:9222 (its /json/version names the websocket).
type Endpoint struct {
	// RawURL is the endpoint as given, credentials and all (a browser
	// service's key is often in its query): it is dialled, and shown only
	// as String shows it.
	RawURL string
	// Header goes with the websocket handshake (Authorization for a
	// hosted browser service).
	Header http.Header
	// exact: URL is the browser's websocket, to be dialled as it is (a
	// grid's se:cdp has no /devtools/browser/ in it).
	exact bool
}

// String is the endpoint for messages and logs, its credentials masked
// (redact.URL): the host, port and path say which one it is.
func (e Endpoint) String() string { return redact.URL(e.RawURL) }

// Connect connects to the browser at ep within timeout and returns its
// browser context and what drops the connection (the browser and what
// others made in it stay). It turns on target discovery, which popups and
// titles need. Its errors may quote the URL dialled: the caller masks them.
func (c Config) Connect(ep Endpoint, timeout time.Duration) (context.Context, context.CancelFunc, error) {
	ws, err := webSocket(ep, timeout)
	if err != nil {
		return nil, nil, err
	}
	opts := []remote.Option{remote.WithDialTimeout(timeout)}
	if len(ep.Header) > 0 {
		opts = append(opts, remote.WithDialHTTPHeader(ep.Header))
	}
	// The websocket is known: chromedp would ask /json/version again,
	// without the endpoint's headers.
	actx, acancel := remote.NewAllocator(context.Background(), ws, append([]remote.Option{remote.NoModifyURL}, opts...)...)
	sugar := c.logger().Sugar()
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithLogf(sugar.Debugf), chromedp.WithErrorf(sugar.Debugf), chromedp.WithDebugf(c.debugf()))
	cancel := func() { bcancel(); acancel() }
	// Listening binds the connection to bctx without opening a tab (a
	// first Run would open one); a version call checks it answers.
	err = chromedp.ListenBrowser(bctx, func(any) {})
	if err == nil {
		cctx, ccancel := context.WithTimeout(bctx, timeout)
		_, err = chromedp.CallBrowser(cctx, browser.GetVersion, cdp.Empty{})
		if err == nil {
			// Target events (popups, titles) come only with discovery on.
			_, err = chromedp.CallBrowser(cctx, target.SetDiscoverTargets, target.SetDiscoverTargetsParams{Discover: true})
		}
		ccancel()
	}
	if err != nil {
		cancel()
		return nil, nil, err
	}
	return bctx, cancel, nil
}

// webSocket is the websocket of an endpoint: as given when it is one (a
// grid's se:cdp, ws://host/devtools/browser/ID), else what its
// /json/version names, asked with the endpoint's headers.
func webSocket(ep Endpoint, timeout time.Duration) (string, error) {
	if ep.exact || strings.Contains(ep.RawURL, "/devtools/browser/") {
		return ep.RawURL, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return webdriver.DevToolsWebSocket(ctx, nil, ep.RawURL, ep.Header)
}
