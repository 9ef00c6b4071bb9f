package browser

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdpio "github.com/chromedp/cdproto/io"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/target"
	"go.uber.org/zap"
)

// Downloads of a remote browser (--cdp-endpoint, or a grid on another
// machine): it would save them on its own disk, where we cannot read. So
// its context denies downloads with events on. Chrome reports each one
// (begun, then canceled by the denial), and the session fetches the URL
// again itself: Network.loadNetworkResource in the frame that began it
// (with that frame's cookies), the body read over IO.read into a local
// directory of the session's own, then reported like a local download.
//
// A blob: URL is read in the page's frame (up to 64 MB), while the page
// still holds it. What cannot be fetched again is reported with why: a
// download a form posted (fetching it again would be a GET, another
// request), and a blob: URL the page revoked already.

const (
	// maxRemoteDownload bounds the bytes one fetched download may have.
	maxRemoteDownload = 1 << 30
	// remoteDownloadTimeout bounds one fetch, body included.
	remoteDownloadTimeout = 5 * time.Minute
	// maxBlobDownload bounds a blob: download, read in the page and sent
	// over CDP as one base64 string.
	maxBlobDownload = 64 << 20
	// ioChunk is how much one IO.read asks for.
	ioChunk = 1 << 20
)

// denyAndFetchDownloads denies the context's downloads, with events, and
// gives the session a local directory for the files it fetches.
func (t *Tabs) denyAndFetchDownloads(ctx context.Context) error {
	dir, err := newProfileDir(t.m.opts.ProfileRoot)
	if err != nil {
		return fmt.Errorf("downloads directory: %w", err)
	}
	if err := t.setDownloadBehavior(ctx, denyBehavior, ""); err != nil {
		_ = os.RemoveAll(dir)
		return err
	}
	t.downloads.mu.Lock()
	t.downloads.dir, t.downloads.fetch = dir, true
	t.downloads.changed = make(chan struct{})
	t.downloads.mu.Unlock()
	return nil
}

// startFetchLocked begins fetching a download the remote browser was denied, off
// the read loop. Called with the log's lock held, on the read loop.
func (t *Tabs) startFetchLocked(d *Download) {
	d.fetching = true
	dl := *d
	dir := t.downloads.dir
	t.downloads.fetches.Add(1)
	go func() {
		defer t.downloads.fetches.Done()
		path, size, err := t.fetchDownload(dl, dir)
		l := &t.downloads
		l.mu.Lock()
		defer l.mu.Unlock()
		d.fetching = false
		switch {
		case errors.Is(err, errNotOurs):
			d.State = "canceled" // another session's: dropOthers drops it
		case err != nil:
			d.State, d.Error = "canceled", err.Error()
		default:
			d.State, d.Path, d.Size = "completed", path, size
		}
		l.signalLocked()
	}()
}

var errNotOurs = errors.New("another session's download")

// fetchDownload gets the download's body into dir/GUID.
func (t *Tabs) fetchDownload(d Download, dir string) (string, int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), remoteDownloadTimeout)
	defer cancel()
	frame := d.frameID
	p, h := t.frameOwner(frame)
	if p == nil && d.frame != "" {
		return "", 0, errNotOurs
	}
	if p == nil {
		// A tab of the session's that is gone already, as a tab opened
		// only to download closes itself: any of its tabs will do, the
		// cookies being the context's.
		pages := t.livePages()
		if len(pages) == 0 {
			return "", 0, errors.New("the session's tabs closed before the file could be fetched from the remote browser")
		}
		t.m.log.Debug("fetching a download of a closed tab in another", zap.String("url", d.URL))
		p = pages[0]
		p.mu.Lock()
		h, frame = p.main, p.frame
		p.mu.Unlock()
		if h == nil {
			return "", 0, errors.New("the session's tab is not attached")
		}
	}
	u, err := url.Parse(d.URL)
	if err != nil {
		return "", 0, fmt.Errorf("its URL: %w", err)
	}
	path := filepath.Join(dir, d.guid)
	switch u.Scheme {
	case "data":
		return saveDataURL(d.URL, path)
	case "blob":
		if frame != d.frameID {
			return "", 0, errors.New("the tab that made the blob: URL closed before it could be read")
		}
		return p.saveBlob(ctx, d, path)
	case "http", "https":
	default:
		return "", 0, fmt.Errorf("the remote browser saves a %s: download on its own machine, and e2e-mcp cannot fetch it again", u.Scheme)
	}
	if m := p.lastMethodOf(d.URL); m != "" && m != "GET" {
		return "", 0, fmt.Errorf("a %s download of a remote browser cannot be fetched again (it would be a GET, another request)", m)
	}
	res, err := callOn(ctx, h, network.LoadNetworkResource, network.LoadNetworkResourceParams{
		FrameID: frame, URL: d.URL, Options: &network.LoadNetworkResourceOptions{IncludeCredentials: true}})
	if err != nil {
		return "", 0, fmt.Errorf("fetching it from the remote browser: %w", err)
	}
	r := res.Resource
	if r == nil || !r.Success {
		why := "no response"
		if r != nil && r.NetErrorName != "" {
			why = r.NetErrorName
		} else if r != nil && r.HTTPStatusCode != 0 {
			why = fmt.Sprintf("HTTP %.0f", r.HTTPStatusCode)
		}
		return "", 0, fmt.Errorf("fetching it again from the remote browser failed: %s", why)
	}
	if r.Stream == "" {
		return "", 0, errors.New("the remote browser gave no body")
	}
	defer func() {
		rctx, cancel := detached(ctx)
		defer cancel()
		_, _ = callOn(rctx, h, cdpio.Close, cdpio.CloseParams{Handle: r.Stream})
	}()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) //nolint:gosec // our own directory
	if err != nil {
		return "", 0, err
	}
	var n int64
	for {
		rr, err := callOn(ctx, h, cdpio.Read, cdpio.ReadParams{Handle: r.Stream, Size: ioChunk})
		if err == nil && n+int64(len(rr.Data)) > maxRemoteDownload {
			err = fmt.Errorf("it is larger than %d MB, the most e2e-mcp fetches from a remote browser", maxRemoteDownload>>20)
		}
		if err == nil {
			_, err = f.Write(rr.Data)
			n += int64(len(rr.Data))
		}
		if err != nil || rr.EOF {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				_ = os.Remove(path)
				return "", 0, err
			}
			return path, n, nil
		}
	}
}

// frameOwner finds the session's tab that holds the frame and the target
// session to ask about it: the frame's own (a tab or an out-of-process
// iframe) or its tab's. A frame no tab of the session knows is nil.
func (t *Tabs) frameOwner(f cdp.FrameID) (*Page, *host) {
	for _, p := range t.livePages() {
		if h := p.hostOf(target.ID(f)); h != nil {
			return p, h
		}
	}
	for _, p := range t.livePages() {
		p.mu.Lock()
		_, known := p.frames.parent[f]
		h := p.main
		p.mu.Unlock()
		if known && h != nil {
			return p, h
		}
	}
	return nil, nil
}

// lastMethodOf is the method of the page's latest request of u, if the
// page saw one.
func (p *Page) lastMethodOf(u string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	list := p.events.network.list()
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].URL == u {
			return list[i].Method
		}
	}
	return ""
}

// saveBlob writes the bytes of a blob: URL, read in the frame that began
// the download, to path.
func (p *Page) saveBlob(ctx context.Context, d Download, path string) (string, int64, error) {
	var r struct {
		B64   string `json:"b64"`
		Size  int64  `json:"size"`
		Error string `json:"error"`
	}
	if err := p.evalIn(ctx, d.frameID, fnReadBlob.call(d.URL, maxBlobDownload), &r); err != nil {
		return "", 0, fmt.Errorf("reading the blob: URL in the page: %w", err)
	}
	if r.Error != "" {
		return "", 0, errors.New(r.Error)
	}
	b, err := base64.StdEncoding.DecodeString(r.B64)
	if err != nil {
		return "", 0, fmt.Errorf("the blob's base64: %w", err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return "", 0, err
	}
	return path, int64(len(b)), nil
}

// saveDataURL writes a data: URL's bytes to path.
func saveDataURL(s, path string) (string, int64, error) {
	meta, data, ok := strings.Cut(strings.TrimPrefix(s, "data:"), ",")
	if !ok {
		return "", 0, errors.New("a data: URL without a comma")
	}
	var b []byte
	if strings.HasSuffix(meta, ";base64") {
		var err error
		if b, err = base64.StdEncoding.DecodeString(data); err != nil {
			if b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(data, "=")); err != nil {
				return "", 0, fmt.Errorf("a data: URL's base64: %w", err)
			}
		}
	} else {
		text, err := url.PathUnescape(data)
		if err != nil {
			return "", 0, fmt.Errorf("a data: URL's text: %w", err)
		}
		b = []byte(text)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return "", 0, err
	}
	return path, int64(len(b)), nil
}
