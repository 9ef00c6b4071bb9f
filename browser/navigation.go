package browser

import (
	"context"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
)

// Info is what a response says about the page.
type Info struct {
	URL    string `json:"url"`
	Title  string `json:"title"`
	Status int64  `json:"status,omitempty"` // HTTP status of the last navigation, when known
	// Download: the URL navigated to is a file the browser downloaded
	// (the tab stayed on its page); the call's answer lists the download.
	Download bool `json:"-"`
}

// Info returns the page's URL and title.
func (p *Page) Info(ctx context.Context) (Info, error) {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	var info Info
	err := p.evalEngine(cctx, fnPageInfo.call(), &info)
	return info, err
}

// Navigate loads url in the tab and waits for its DOM (DOMContentLoaded),
// then for its load event up to loadGrace (waitDOM).
func (p *Page) Navigate(ctx context.Context, url string) (Info, error) {
	cctx, cancel := p.callCtx(ctx, p.m.opts.NavigationTimeout)
	defer cancel()
	if v := p.m.policy().Check(cctx, url, p.tabs.devOrigins()); v.Blocked {
		return Info{}, notAllowed(url, v.Rule)
	}
	p.takeBlockedDoc()
	p.unstick()
	before := p.mark()
	var nav page.NavigateResult
	err := p.act(cctx, func(cctx context.Context) error {
		var err error
		nav, err = chromedp.Call(cctx, page.Navigate, page.NavigateParams{URL: url})
		return err
	})
	if err == nil && p.Dialog() != nil {
		return p.LastInfo(), nil // the page waits for the dialog's answer
	}
	if err == nil && nav.IsDownload {
		// Chrome aborts the navigation (net::ERR_ABORTED) and downloads
		// the file instead: that is the outcome, not a failure.
		info := p.LastInfo()
		info.Download = true
		return info, nil
	}
	if err == nil && nav.ErrorText != "" {
		if b := p.takeBlockedDoc(); b != nil && strings.Contains(nav.ErrorText, "BLOCKED_BY_CLIENT") {
			rule := b.Rule
			if b.URL != url {
				rule += " (" + url + " redirected there)"
			}
			return Info{}, notAllowed(b.URL, rule)
		}
		return Info{}, &Error{Kind: KindNavigationFailed, Message: fmt.Sprintf("%s: %s", url, nav.ErrorText),
			Hint: "check that the server is running and the URL is right"}
	}
	if err == nil && nav.LoaderID != "" {
		// A new document (a navigation within the document has no
		// loader): wait for its DOM, then briefly for its load.
		err = p.waitDOM(cctx, before, nav.LoaderID)
	}
	if err != nil {
		if cctx.Err() != nil && ctx.Err() == nil && p.ctx.Err() == nil {
			if e := p.serverWaitError("navigation to "+url, p.m.opts.NavigationTimeout); e != nil {
				return Info{}, e
			}
			if !p.answers() {
				return Info{}, p.hungError("navigation to " + url)
			}
			return Info{}, &Error{Kind: KindTimeout, Message: fmt.Sprintf("navigation to %s did not load its document (DOMContentLoaded) within %s", url, p.m.opts.NavigationTimeout),
				Hint: "the page may still be usable: take a snapshot", Err: err}
		}
		return Info{}, p.ctxError(cctx, err, "navigate to "+url)
	}
	var info Info
	icctx, icancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer icancel()
	err = p.evalEngine(icctx, fnLoadedInfo.call(), &info)
	p.mu.Lock()
	if nav.LoaderID != "" && p.load.statusLoader == nav.LoaderID {
		info.Status = p.load.status
	}
	p.mu.Unlock()
	return info, err
}

// GoBack goes one step back in the tab's history (delta -1) or forward
// (+1), and waits for the page to load as a click's navigation is waited for.
func (p *Page) GoBack(ctx context.Context, delta int) error {
	p.unstick()
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	h, err := chromedp.Call(cctx, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		return p.ctxError(cctx, err, "read the history")
	}
	i := int(h.CurrentIndex) + delta
	if i < 0 || i >= len(h.Entries) {
		dir := "back"
		if delta > 0 {
			dir = "forward"
		}
		return stepError(KindNavigationFailed, StepNavigate,
			"there is no page to go %s to in this tab's history (%d entries, at %d)", dir, len(h.Entries), h.CurrentIndex+1)
	}
	before := p.mark()
	err = p.act(cctx, func(cctx context.Context) error {
		_, err := chromedp.Call(cctx, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: h.Entries[i].ID})
		return err
	})
	if err != nil {
		return p.ctxError(cctx, err, "go through the history")
	}
	return p.settle(ctx, before)
}

// Reload reloads the page and waits for it to load.
func (p *Page) Reload(ctx context.Context) error {
	p.unstick()
	cctx, cancel := p.callCtx(ctx, p.m.opts.NavigationTimeout)
	defer cancel()
	before := p.mark()
	err := p.act(cctx, func(cctx context.Context) error {
		_, err := chromedp.Call(cctx, page.Reload, page.ReloadParams{})
		return err
	})
	if err != nil {
		return p.ctxError(cctx, err, "reload")
	}
	return p.settle(ctx, before)
}

// maxViewport bounds browser_resize: beyond it Chrome's surfaces fail
// (devices.MaxViewport, which bounds an emulated viewport too).
const maxViewport = devices.MaxViewport

// Resize sets the size of the tab's viewport in CSS pixels, as a window of
// that size would have.
func (p *Page) Resize(ctx context.Context, width, height int) error {
	if width < 1 || height < 1 || width > maxViewport || height > maxViewport {
		return newError(KindInvalidInput, fmt.Sprintf("use 1 to %d pixels, e.g. 1280x720 or 390x844 for a phone", maxViewport),
			"size %dx%d is out of range", width, height)
	}
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	err := p.act(cctx, func(cctx context.Context) error {
		_, err := chromedp.Call(cctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: int64(width), Height: int64(height), DeviceScaleFactor: 1})
		if err == nil {
			p.fitWindow(cctx, width, height)
		}
		return err
	})
	if err != nil {
		return p.ctxError(cctx, err, "resize")
	}
	// The page sees the new size, and runs its resize handlers, in its
	// next rendering step: wait for that, so the response shows the page
	// as it laid itself out.
	return p.evalEngine(cctx, fmt.Sprintf(`new Promise((done) => {
		const check = () => requestAnimationFrame(() => (innerWidth === %d && innerHeight === %d) ? requestAnimationFrame(() => done(true)) : check());
		check();
	})`, width, height), nil)
}
