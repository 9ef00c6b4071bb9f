package browser

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/storage"
)

// What browser does with browser/storage, a session's stored state: the
// cookie jar of the session's browser context, the web storage of a tab's
// document, and the whole state read and put back by walking the origins
// the session showed in a scratch tab (a hidden one, or the session's own
// while it shows nothing); the scratch tabs themselves, which other
// features borrow. The package's refusals come back as they are: AsError
// reads them as invalid_input errors.

// jar is the cookie jar of the session's browser context.
func (t *Tabs) jar() storage.Jar { return storage.Jar{ID: t.id, Bound: t.browserCtx} }

// noteOrigin remembers an origin a document of the session came from, so
// that its local storage is saved even when no tab shows it any more.
func (t *Tabs) noteOrigin(rawURL string) { t.origins.Note(rawURL) }

// Cookies are the session's cookies.
func (t *Tabs) Cookies(ctx context.Context) ([]storage.Cookie, error) { return t.jar().Cookies(ctx) }

// SetCookies adds cookies to the session (replacing those of the same
// name, domain and path). A cookie needs a domain and path, or a URL in
// Domain ("https://app.test/") that gives both.
func (t *Tabs) SetCookies(ctx context.Context, cookies []storage.Cookie) error {
	return t.jar().Set(ctx, cookies)
}

// DeleteCookies removes the session's cookies named name (all of them when
// name is ""), of any domain unless domain is given, and reports how many.
func (t *Tabs) DeleteCookies(ctx context.Context, name, domain string) (int, error) {
	return t.jar().Delete(ctx, name, domain)
}

// WebStorage runs a step on the local or session storage of the current
// tab's document: list, get, set, delete or clear. It returns the origin
// and the items the step found: list, every item; get, the item (none
// when the key is not there); delete, the item it removed (none when there
// was none); clear, the keys it removed, without their values; set, none.
func (p *Page) WebStorage(ctx context.Context, session bool, action, key, value string) ([]storage.NameValue, string, error) {
	var out storage.StepResult
	if err := p.evalEngine(ctx, storage.StepScript(session, action, key, value), &out); err != nil {
		return nil, "", err
	}
	if out.Error != "" {
		return nil, out.Origin, newError(KindInvalidInput, "navigate to a page of the app first", "%s", out.Error)
	}
	return out.Items, out.Origin, nil
}

// StorageState reads the session's cookies, the local storage of every
// origin its documents came from, and the session storage of the current
// tab's origin (current may be nil).
func (t *Tabs) StorageState(ctx context.Context, current *Page) (*storage.State, error) {
	cookies, err := t.Cookies(ctx)
	if err != nil {
		return nil, err
	}
	st := &storage.State{Cookies: cookies, Origins: []storage.OriginState{}}
	var session []storage.NameValue
	curOrigin := ""
	if current != nil {
		if items, o, err := current.WebStorage(ctx, true, "list", "", ""); err == nil {
			session, curOrigin = items, o
			t.noteOrigin(o + "/")
		}
	}
	origins := t.origins.List()
	if len(origins) == 0 {
		return st, nil
	}
	err = t.withScratch(ctx, nil, func(p *Page) error {
		for _, o := range origins {
			if err := p.openBlank(ctx, o); err != nil {
				return err
			}
			items, _, err := p.WebStorage(ctx, false, "list", "", "")
			if err != nil {
				return err
			}
			os := storage.OriginState{Origin: o, LocalStorage: items}
			if o == curOrigin {
				os.SessionStorage = session
			}
			if len(items) > 0 || len(os.SessionStorage) > 0 {
				st.Origins = append(st.Origins, os)
			}
		}
		return nil
	})
	return st, err
}

// SetStorageState puts a saved state into the session: its cookies
// replace the session's, each origin's local storage replaces what the
// origin held. Session storage goes into current when it has shown
// nothing yet (else it is reported as left out). It returns the origins
// whose session storage was left out.
func (t *Tabs) SetStorageState(ctx context.Context, st *storage.State, current *Page) ([]string, error) {
	if err := st.CheckOrigins(); err != nil {
		return nil, err
	}
	if err := t.jar().Replace(ctx, st.Cookies); err != nil {
		return nil, err
	}
	if len(st.Origins) == 0 {
		return nil, nil
	}
	blank := current != nil && current.LastInfo().URL == "about:blank"
	if !blank {
		current = nil
	}
	var left []string
	err := t.withScratch(ctx, current, func(p *Page) error {
		for _, o := range st.Origins {
			origin := strings.TrimSuffix(o.Origin, "/")
			if err := p.openBlank(ctx, origin); err != nil {
				return err
			}
			if err := p.fillStorage(ctx, "localStorage", o.LocalStorage); err != nil {
				return err
			}
			if len(o.SessionStorage) > 0 {
				if p != current {
					left = append(left, origin)
				} else if err := p.fillStorage(ctx, "sessionStorage", o.SessionStorage); err != nil {
					return err
				}
			}
			t.noteOrigin(origin + "/")
		}
		return nil
	})
	return left, err
}

// fillStorage replaces the items of a storage area of the page's origin.
func (p *Page) fillStorage(ctx context.Context, area string, items []storage.NameValue) error {
	return p.evalEngine(ctx, storage.FillScript(area, items), nil)
}

// withScratch runs fn on a tab where documents of any origin load blank:
// use when given (then brought back to about:blank with no history),
// else a hidden tab opened for it and closed after, which never joins the
// session's tabs.
func (t *Tabs) withScratch(ctx context.Context, use *Page, fn func(p *Page) error) (err error) {
	p := use
	if p == nil {
		var closeTab func()
		if p, closeTab, err = t.hiddenTab(ctx); err != nil {
			return err
		}
		defer closeTab()
	}
	p.guard.SetBlank(true)
	defer func() {
		rctx, cancel := detached(ctx)
		defer cancel()
		if rerr := p.leaveScratch(rctx, use != nil); err == nil {
			err = rerr
		}
	}()
	if err = p.enableGuard(ctx, p.main); err == nil {
		err = fn(p)
	}
	return err
}

// hiddenURL is where a hidden tab starts: onBrowserEvent tells it from a
// popup by it, as the target appears (a page cannot guess it).
var hiddenURL = "about:blank#e2e-mcp-hidden-" + rand.Text()

// hiddenTab opens a tab in the session's context that never joins its
// tabs, is not counted as a popup, and whose downloads are not the
// session's; the function returned closes it.
func (t *Tabs) hiddenTab(ctx context.Context) (*Page, func(), error) {
	cctx, cancel := t.browserCtx(ctx)
	res, err := chromedp.CallBrowser(cctx, target.CreateTarget, target.CreateTargetParams{URL: hiddenURL, BrowserContextID: t.id})
	cancel()
	if err != nil {
		return nil, nil, fmt.Errorf("open a hidden tab: %w", err)
	}
	id := res.TargetID
	p, err := t.open(ctx, id)
	if err != nil {
		rctx, cancel := t.browserCtx(context.Background())
		defer cancel()
		_, _ = chromedp.CallBrowser(rctx, target.CloseTarget, target.CloseTargetParams{TargetID: id})
		return nil, nil, err
	}
	return p, p.Close, nil
}

// leaveScratch ends a scratch tab's blank mode; the session's own tab
// (own) is brought back to about:blank with no history.
func (p *Page) leaveScratch(ctx context.Context, own bool) error {
	p.guard.SetBlank(false)
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	if !p.intercepting() {
		_, _ = callOn(cctx, p.main, fetch.Disable, cdp.Empty{})
	}
	if !own {
		return nil
	}
	if _, err := p.Navigate(ctx, "about:blank"); err != nil {
		return err
	}
	_, err := chromedp.Call(cctx, page.ResetNavigationHistory, cdp.Empty{})
	return err
}

// openBlank loads an empty document of origin in a scratch tab.
func (p *Page) openBlank(ctx context.Context, origin string) error {
	_, err := p.Navigate(ctx, origin+"/")
	return err
}

// browserCtx bounds a browser-level call by the action timeout and ctx.
func (t *Tabs) browserCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	cctx, cancel := context.WithTimeout(t.bctx, t.m.opts.ActionTimeout)
	stop := context.AfterFunc(ctx, cancel)
	return cctx, func() { stop(); cancel() }
}
