package browser

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// Storage state: a session's cookies and web storage, saved to a file and
// put into another session, in Playwright's storageState format (cookies,
// and per origin its localStorage), so that files carry over both ways.
// Session storage, which Playwright leaves out, is kept for the origins the
// current tab shows; it comes back only into a tab that has shown nothing
// yet (a new session's).

// StorageState is what a session holds of a user's state.
type StorageState struct {
	Cookies []Cookie      `json:"cookies"`
	Origins []OriginState `json:"origins"`
}

// Cookie is a cookie as Playwright writes it. Expires is in seconds since
// the epoch, -1 for a session cookie; SameSite is Strict, Lax or None.
type Cookie struct {
	Name     string  `json:"name"`
	Value    string  `json:"value"`
	Domain   string  `json:"domain"`
	Path     string  `json:"path"`
	Expires  float64 `json:"expires"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	SameSite string  `json:"sameSite,omitempty"`
}

// OriginState is the web storage of one origin.
type OriginState struct {
	Origin         string      `json:"origin"`
	LocalStorage   []NameValue `json:"localStorage"`
	SessionStorage []NameValue `json:"sessionStorage,omitempty"`
}

// NameValue is one storage item.
type NameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// maxOrigins bounds the origins a session remembers having shown.
const maxOrigins = 200

// noteOrigin remembers an origin a document of the session came from, so
// that its local storage is saved even when no tab shows it any more.
func (t *Tabs) noteOrigin(rawURL string) {
	o := webOrigin(rawURL)
	if o == "" {
		return
	}
	t.originsMu.Lock()
	defer t.originsMu.Unlock()
	if t.origins == nil {
		t.origins = map[string]bool{}
	}
	if len(t.origins) < maxOrigins {
		t.origins[o] = true
	}
}

// webOrigin is the origin of an http(s) URL, or "".
func webOrigin(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// Cookies are the session's cookies.
func (t *Tabs) Cookies(ctx context.Context) ([]Cookie, error) {
	cctx, cancel := t.browserCtx(ctx)
	defer cancel()
	res, err := chromedp.CallBrowser(cctx, storage.GetCookies, storage.GetCookiesParams{BrowserContextID: t.id})
	if err != nil {
		return nil, fmt.Errorf("read the cookies: %w", err)
	}
	out := make([]Cookie, 0, len(res.Cookies))
	for _, c := range res.Cookies {
		exp := c.Expires
		if c.Session {
			exp = -1
		}
		out = append(out, Cookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Expires: exp,
			HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: string(c.SameSite)})
	}
	return out, nil
}

// SetCookies adds cookies to the session (replacing those of the same
// name, domain and path). A cookie needs a domain and path, or a URL in
// Domain ("https://app.test/") that gives both.
func (t *Tabs) SetCookies(ctx context.Context, cookies []Cookie) error {
	params := make([]*network.CookieParam, 0, len(cookies))
	for i, c := range cookies {
		if c.Name == "" {
			return newError(KindInvalidInput, "give each cookie a name", "cookie %d has no name", i+1)
		}
		p := &network.CookieParam{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path,
			HTTPOnly: c.HTTPOnly, Secure: c.Secure}
		if strings.Contains(c.Domain, "://") {
			p.URL, p.Domain = c.Domain, ""
		} else if c.Domain == "" {
			return newError(KindInvalidInput, "give the cookie's domain (app.test) or a URL (https://app.test/)", "cookie %q has no domain", c.Name)
		}
		if p.Path == "" && p.URL == "" {
			p.Path = "/"
		}
		if c.Expires > 0 {
			p.Expires = cdp.TimeSinceEpoch(c.Expires)
		}
		switch strings.ToLower(c.SameSite) {
		case "":
		case "strict":
			p.SameSite = network.CookieSameSiteStrict
		case "lax":
			p.SameSite = network.CookieSameSiteLax
		case "none":
			p.SameSite = network.CookieSameSiteNone
		default:
			return newError(KindInvalidInput, "use Strict, Lax or None", "cookie %q: sameSite %q", c.Name, c.SameSite)
		}
		params = append(params, p)
	}
	if len(params) == 0 {
		return nil
	}
	cctx, cancel := t.browserCtx(ctx)
	defer cancel()
	if _, err := chromedp.CallBrowser(cctx, storage.SetCookies, storage.SetCookiesParams{Cookies: params, BrowserContextID: t.id}); err != nil {
		return newError(KindInvalidInput, "check the cookies' domains, paths and flags (a SameSite=None cookie must be secure)", "the browser refused the cookies: %v", err)
	}
	return nil
}

// DeleteCookies removes the session's cookies named name (all of them when
// name is ""), of any domain unless domain is given, and reports how many.
func (t *Tabs) DeleteCookies(ctx context.Context, name, domain string) (int, error) {
	all, err := t.Cookies(ctx)
	if err != nil {
		return 0, err
	}
	keep := slices.DeleteFunc(slices.Clone(all), func(c Cookie) bool {
		return (name == "" || c.Name == name) && (domain == "" || strings.TrimPrefix(c.Domain, ".") == strings.TrimPrefix(domain, "."))
	})
	if len(keep) == len(all) {
		return 0, nil
	}
	cctx, cancel := t.browserCtx(ctx)
	defer cancel()
	if _, err := chromedp.CallBrowser(cctx, storage.ClearCookies, storage.ClearCookiesParams{BrowserContextID: t.id}); err != nil {
		return 0, fmt.Errorf("clear the cookies: %w", err)
	}
	return len(all) - len(keep), t.SetCookies(ctx, keep)
}

// WebStorage runs a step on the local or session storage of the current
// tab's document: list, get, set, delete or clear. It returns the origin
// and the items the step found: list, every item; get, the item (none
// when the key is not there); delete, the item it removed (none when there
// was none); clear, the keys it removed, without their values; set, none.
func (p *Page) WebStorage(ctx context.Context, session bool, action, key, value string) ([]NameValue, string, error) {
	area := "localStorage"
	if session {
		area = "sessionStorage"
	}
	expr := fmt.Sprintf(`(() => { const s = %s, a = %q, k = %s, v = %s;
  if (!/^https?:/.test(location.protocol)) return { origin: location.origin, error: 'no web storage on ' + location.href };
  const one = () => s.getItem(k) === null ? [] : [{ name: k, value: s.getItem(k) }];
  const keys = () => Array.from({ length: s.length }, (_, i) => s.key(i));
  let items = [];
  if (a === 'get') items = one();
  else if (a === 'list') items = keys().map(name => ({ name, value: s.getItem(name) }));
  else if (a === 'set') s.setItem(k, v);
  else if (a === 'delete') { items = one(); s.removeItem(k); }
  else if (a === 'clear') { items = keys().map(name => ({ name, value: '' })); s.clear(); }
  return { origin: location.origin, items };
})()`, area, action, jsString(key), jsString(value))
	var out struct {
		Origin string      `json:"origin"`
		Items  []NameValue `json:"items"`
		Error  string      `json:"error"`
	}
	if err := p.evalEngine(ctx, expr, &out); err != nil {
		return nil, "", err
	}
	if out.Error != "" {
		return nil, out.Origin, newError(KindInvalidInput, "navigate to a page of the app first", "%s", out.Error)
	}
	return out.Items, out.Origin, nil
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// StorageState reads the session's cookies, the local storage of every
// origin its documents came from, and the session storage of the current
// tab's origin (current may be nil).
func (t *Tabs) StorageState(ctx context.Context, current *Page) (*StorageState, error) {
	cookies, err := t.Cookies(ctx)
	if err != nil {
		return nil, err
	}
	st := &StorageState{Cookies: cookies, Origins: []OriginState{}}
	var session []NameValue
	curOrigin := ""
	if current != nil {
		if items, o, err := current.WebStorage(ctx, true, "list", "", ""); err == nil {
			session, curOrigin = items, o
			t.noteOrigin(o + "/")
		}
	}
	t.originsMu.Lock()
	origins := sortedKeys(t.origins)
	t.originsMu.Unlock()
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
			os := OriginState{Origin: o, LocalStorage: items}
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
func (t *Tabs) SetStorageState(ctx context.Context, st *StorageState, current *Page) ([]string, error) {
	for _, o := range st.Origins {
		if webOrigin(o.Origin) == "" || webOrigin(o.Origin) != strings.TrimSuffix(o.Origin, "/") {
			return nil, newError(KindInvalidInput, "an origin is scheme://host[:port], as http://localhost:3000", "origin %q", o.Origin)
		}
	}
	cctx, cancel := t.browserCtx(ctx)
	_, err := chromedp.CallBrowser(cctx, storage.ClearCookies, storage.ClearCookiesParams{BrowserContextID: t.id})
	cancel()
	if err != nil {
		return nil, fmt.Errorf("clear the cookies: %w", err)
	}
	if err := t.SetCookies(ctx, st.Cookies); err != nil {
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
	err = t.withScratch(ctx, current, func(p *Page) error {
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
func (p *Page) fillStorage(ctx context.Context, area string, items []NameValue) error {
	b, _ := json.Marshal(items)
	return p.evalEngine(ctx, fmt.Sprintf(`(() => { const s = %s; s.clear(); for (const it of %s) s.setItem(String(it.name), String(it.value)); return true; })()`, area, b), nil)
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
