package netguard

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
)

// Downloads of a remote browser (--cdp-endpoint, or a grid on another
// machine): it would save them on its own disk, where we cannot read. So
// its context denies downloads with events on. Chrome reports each one
// (begun, then canceled by the denial), and the session fetches the URL
// again itself, in the remote browser: a hidden tab of the session's
// context (its cookies) navigates to it, each hop (the URL, every
// redirect) paused by the tab's guard and held to the request policy and
// the session's routes as the page's own requests are; the final response
// is taken at the response stage, before Chrome would make a download of
// it, its body read over IO.read into a local directory of the session's
// own, and the navigation aborted. It is then reported like a local
// download. (Network.loadNetworkResource, the obvious way, follows
// redirects where neither the Fetch domain nor the Network events see
// them: a redirect on it reached origins the policy blocks.)
//
// A blob: URL is read in the page's frame (up to 64 MB), while the page
// still holds it. What cannot be fetched again is reported with why: a
// download a form posted (fetching it again would be a GET, another
// request), and a blob: URL the page revoked already.

const (
	// maxBlobDownload bounds a blob: download, read in the page and sent
	// over CDP as one base64 string.
	maxBlobDownload = 64 << 20
)

// HiddenTab is a tab of the session's browser context that is none of its
// tabs (browser's Tabs.hiddenTab): a remote browser's download is fetched
// again in one, a request step is made from one.
type HiddenTab interface {
	// Guard is the tab's guard.
	Guard() *PageGuard
	// Session is the tab's own CDP session.
	Session() Session
	// EnableGuard turns request interception on in the tab's session, as
	// the policy, the session's routes and the guard need.
	EnableGuard(ctx context.Context) error
	// OpenBlank loads an empty document of origin in the tab.
	OpenBlank(ctx context.Context, origin string) error
	// Eval evaluates expr in the engine's world of the tab and decodes its
	// JSON value into out.
	Eval(ctx context.Context, expr string, out any) error
	// Close closes the tab.
	Close()
}

// OpenHidden opens a hidden tab of the session.
type OpenHidden func(ctx context.Context) (HiddenTab, error)

// fetchDownload gets the body of a download the remote browser was denied
// (frame began it; unsure: an iframe not known to be the session's) into
// path.
func fetchDownload(side DownloadSide, frame cdp.FrameID, unsure bool, rawURL, path string) (int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), RemoteDownloadTimeout)
	defer cancel()
	// The tab of the frame that began it; nil when that tab is gone
	// already (a tab opened only to download closes itself), or when the
	// frame is another session's.
	p := frameOwner(side.Pages(), frame)
	if p == nil && unsure {
		return 0, ErrNotOurs
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return 0, fmt.Errorf("its URL: %w", err)
	}
	max := side.MaxBytes()
	switch u.Scheme {
	case "data":
		return saveDataURL(rawURL, path, max)
	case "blob":
		if p == nil {
			return 0, errors.New("the tab that made the blob: URL closed before it could be read")
		}
		return saveBlob(ctx, p, frame, rawURL, path, min(max, maxBlobDownload))
	case "http", "https":
	default:
		return 0, fmt.Errorf("the remote browser saves a %s: download on its own machine, and e2e-mcp cannot fetch it again", u.Scheme)
	}
	referrer := ""
	if p != nil {
		if m := p.LastMethodOf(rawURL); m != "" && m != "GET" {
			return 0, fmt.Errorf("a %s download of a remote browser cannot be fetched again (it would be a GET, another request)", m)
		}
		referrer = p.URL()
	}
	return fetchInTab(ctx, side, rawURL, referrer, path)
}

// fetchInTab fetches u again in a hidden tab of the session, as the page
// would (its cookies, its network, the request policy and routes on every
// hop), and writes the body of its final response to path.
func fetchInTab(ctx context.Context, side DownloadSide, u, referrer, path string) (int64, error) {
	p, err := side.OpenHidden(ctx)
	if err != nil {
		return 0, fmt.Errorf("a tab to fetch it again in: %w", err)
	}
	defer p.Close()
	g := p.Guard()
	taken := g.TakeBody(path, side.MaxBytes())
	if err := p.EnableGuard(ctx); err != nil {
		return 0, err
	}
	navigated := make(chan string, 1)
	go func() {
		res, err := callOn(ctx, p.Session(), page.Navigate, page.NavigateParams{URL: u, Referrer: referrer})
		switch {
		case err != nil:
			navigated <- err.Error()
		default:
			navigated <- res.ErrorText
		}
	}()
	select {
	case r := <-taken:
		return r.N, r.Err
	case why := <-navigated:
		select {
		case r := <-taken: // the body was taken, then the navigation aborted
			return r.N, r.Err
		default:
		}
		if b := g.TakeBlockedDoc(); b != nil {
			side.Context().Block(*b) // the agent's next answer lists it
			return 0, fmt.Errorf("fetching it again led to %s, which the request policy blocks (%s)", b.URL, b.Rule)
		}
		if why == "" {
			why = "it loaded without a response to read (a route of the session may answer it)"
		}
		return 0, fmt.Errorf("fetching it again in the remote browser failed: %s", why)
	case <-ctx.Done():
		return 0, fmt.Errorf("fetching it again in the remote browser: %w", ctx.Err())
	}
}

// saveBlob writes the bytes of a blob: URL, read in the frame that began
// the download, to path: at most max.
func saveBlob(ctx context.Context, p Page, frame cdp.FrameID, rawURL, path string, max int64) (int64, error) {
	var r struct {
		B64   string `json:"b64"`
		Size  int64  `json:"size"`
		Error string `json:"error"`
	}
	if err := p.ReadBlob(ctx, frame, rawURL, max, &r); err != nil {
		return 0, fmt.Errorf("reading the blob: URL in the page: %w", err)
	}
	if r.Error != "" {
		return 0, errors.New(r.Error)
	}
	b, err := base64.StdEncoding.DecodeString(r.B64)
	if err != nil {
		return 0, fmt.Errorf("the blob's base64: %w", err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return 0, err
	}
	return int64(len(b)), nil
}

// saveDataURL writes a data: URL's bytes to path: at most max.
func saveDataURL(s, path string, max int64) (int64, error) {
	meta, data, ok := strings.Cut(strings.TrimPrefix(s, "data:"), ",")
	if !ok {
		return 0, errors.New("a data: URL without a comma")
	}
	var b []byte
	if strings.HasSuffix(meta, ";base64") {
		var err error
		if b, err = base64.StdEncoding.DecodeString(data); err != nil {
			if b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(data, "=")); err != nil {
				return 0, fmt.Errorf("a data: URL's base64: %w", err)
			}
		}
	} else {
		text, err := url.PathUnescape(data)
		if err != nil {
			return 0, fmt.Errorf("a data: URL's text: %w", err)
		}
		b = []byte(text)
	}
	if int64(len(b)) > max {
		return 0, ErrTooLarge(max)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return 0, err
	}
	return int64(len(b)), nil
}
