package storage

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	cdpstorage "github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// Jar is the cookies of one browser context: ID names the context, and
// Bound gives, for a caller's ctx, a context that runs browser-level CDP
// commands (chromedp.CallBrowser), bounded by the action timeout and ctx,
// and the function that releases it. Each command gets one of its own.
type Jar struct {
	ID    cdp.BrowserContextID
	Bound func(ctx context.Context) (context.Context, context.CancelFunc)
}

// Cookies are the context's cookies.
func (j Jar) Cookies(ctx context.Context) ([]Cookie, error) {
	cctx, cancel := j.Bound(ctx)
	defer cancel()
	res, err := chromedp.CallBrowser(cctx, cdpstorage.GetCookies, cdpstorage.GetCookiesParams{BrowserContextID: j.ID})
	if err != nil {
		return nil, fmt.Errorf("read the cookies: %w", err)
	}
	out := make([]Cookie, 0, len(res.Cookies))
	for _, c := range res.Cookies {
		out = append(out, FromCDP(c))
	}
	return out, nil
}

// FromCDP is a cookie of the browser's as Playwright writes it (a session
// cookie expires at -1).
func FromCDP(c *network.Cookie) Cookie {
	exp := c.Expires
	if c.Session {
		exp = -1
	}
	return Cookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Expires: exp,
		HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: string(c.SameSite)}
}

// Params are cookies as the browser takes them, each checked: it needs a
// name, and a domain and path or a URL in Domain ("https://app.test/")
// that gives both (no path is "/"); SameSite is Strict, Lax or None in any
// case, or none; Expires > 0 is kept, else it is a session cookie. The
// first cookie refused is a [*refusal.Error].
func Params(cookies []Cookie) ([]*network.CookieParam, error) {
	params := make([]*network.CookieParam, 0, len(cookies))
	for i, c := range cookies {
		if c.Name == "" {
			return nil, refusal.Invalid("give each cookie a name", "cookie %d has no name", i+1)
		}
		p := &network.CookieParam{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path,
			HTTPOnly: c.HTTPOnly, Secure: c.Secure}
		if strings.Contains(c.Domain, "://") {
			p.URL, p.Domain = c.Domain, ""
		} else if c.Domain == "" {
			return nil, refusal.Invalid("give the cookie's domain (app.test) or a URL (https://app.test/)", "cookie %q has no domain", c.Name)
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
			return nil, refusal.Invalid("use Strict, Lax or None", "cookie %q: sameSite %q", c.Name, c.SameSite)
		}
		params = append(params, p)
	}
	return params, nil
}

// Set adds cookies to the context (replacing those of the same name,
// domain and path), checked as [Params] checks them. What the browser
// refuses is a [*refusal.Error] too.
func (j Jar) Set(ctx context.Context, cookies []Cookie) error {
	params, err := Params(cookies)
	if err != nil {
		return err
	}
	if len(params) == 0 {
		return nil
	}
	cctx, cancel := j.Bound(ctx)
	defer cancel()
	if _, err := chromedp.CallBrowser(cctx, cdpstorage.SetCookies, cdpstorage.SetCookiesParams{Cookies: params, BrowserContextID: j.ID}); err != nil {
		return refusal.Invalid("check the cookies' domains, paths and flags (a SameSite=None cookie must be secure)", "the browser refused the cookies: %v", err)
	}
	return nil
}

// Replace makes cookies the context's whole jar. They are checked before
// the jar is touched, and should the browser refuse them, the cookies it
// held are put back: a refused state or delete leaves the session as it
// was. Every caller that clears the jar to set it again goes through here.
func (j Jar) Replace(ctx context.Context, cookies []Cookie) error {
	if _, err := Params(cookies); err != nil {
		return err
	}
	old, err := j.Cookies(ctx)
	if err != nil {
		return err
	}
	if err := j.clearAll(ctx); err != nil {
		return err
	}
	if err := j.Set(ctx, cookies); err != nil {
		if back := j.Set(ctx, old); back != nil {
			return fmt.Errorf("%w (and the cookies it held could not be put back: %v)", err, back)
		}
		return err
	}
	return nil
}

// clearAll removes every cookie of the context; only Replace calls it, so
// that no caller empties the jar without putting it back on a refusal.
func (j Jar) clearAll(ctx context.Context) error {
	cctx, cancel := j.Bound(ctx)
	defer cancel()
	if _, err := chromedp.CallBrowser(cctx, cdpstorage.ClearCookies, cdpstorage.ClearCookiesParams{BrowserContextID: j.ID}); err != nil {
		return fmt.Errorf("clear the cookies: %w", err)
	}
	return nil
}

// Delete removes the context's cookies named name (all of them when name
// is ""), of any domain unless domain is given, and reports how many.
func (j Jar) Delete(ctx context.Context, name, domain string) (int, error) {
	all, err := j.Cookies(ctx)
	if err != nil {
		return 0, err
	}
	keep := slices.DeleteFunc(slices.Clone(all), func(c Cookie) bool {
		return (name == "" || c.Name == name) && (domain == "" || strings.TrimPrefix(c.Domain, ".") == strings.TrimPrefix(domain, "."))
	})
	if len(keep) == len(all) {
		return 0, nil
	}
	return len(all) - len(keep), j.Replace(ctx, keep)
}
