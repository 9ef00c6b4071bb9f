package browser

import (
	"context"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Init scripts: JavaScript that runs in every new document of a session's
// tabs (and their iframes) before the page's own scripts, in the page's
// world, as Playwright's addInitScript: to stub an API, seed a global,
// switch a feature flag.

// maxInitScripts bounds a session's init scripts.
const maxInitScripts = 20

// AddInitScript makes src run in every document the session's tabs load
// from now on (not in those already loaded), and in tabs opened later.
func (t *Tabs) AddInitScript(ctx context.Context, src string) (int, error) {
	n := 0
	t.changeSetup(func(s *pageSetup) {
		if len(s.initScripts) < maxInitScripts {
			s.initScripts = append(s.initScripts, src)
			n = len(s.initScripts)
		}
	})
	if n == 0 {
		return 0, newError(KindInvalidInput, "join scripts into one", "the session has %d init scripts, the most it may", maxInitScripts)
	}
	for _, p := range t.livePages() {
		if err := p.addInitScript(ctx, src); err != nil {
			return n, err
		}
	}
	return n, nil
}

// addInitScript registers src for the page's next documents, every frame.
func (p *Page) addInitScript(ctx context.Context, src string) error {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	if _, err := chromedp.Call(cctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		return p.ctxError(cctx, err, "add the init script")
	}
	return nil
}
