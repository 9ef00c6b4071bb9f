package browser

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/network"
	"github.com/e2e-mcp/e2e-mcp/browser/eventlog"
)

// RequestDetail returns the page's request seq (NetworkRequest.Seq) with
// its headers, its post data and its response's body, while Chrome keeps
// them (a few MB of the page's latest responses).
func (p *Page) RequestDetail(ctx context.Context, seq int) (*eventlog.RequestDetail, error) {
	d, err := p.RequestHeaders(seq)
	if err != nil {
		return nil, err
	}
	found := &d.NetworkRequest
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	hosts := p.hosts()
	if found.HasPostData() {
		for _, h := range hosts {
			if pd, err := callOn(cctx, h, network.GetRequestPostData, network.GetRequestPostDataParams{RequestID: found.ID()}); err == nil {
				d.PostData = string(pd.PostData)
				break
			}
		}
	}
	switch {
	case !found.Done && found.Status == 0:
		d.BodyError = "no response yet"
	case found.Failure != "":
		d.BodyError = "the request failed: " + found.Failure
	default:
		var lastErr error
		for _, h := range hosts {
			res, err := callOn(cctx, h, network.GetResponseBody, network.GetResponseBodyParams{RequestID: found.ID()})
			if err == nil {
				d.Body, d.BodyBase64 = res.Body, res.Base64encoded
				lastErr = nil
				break
			}
			lastErr = err
		}
		if lastErr != nil && !found.Done {
			d.BodyError = "the body has not been read yet (the page has not consumed it)"
		} else if lastErr != nil {
			d.BodyError = fmt.Sprintf("Chrome no longer has it (%v)", lastErr)
		}
	}
	return d, nil
}

// RequestHeaders returns the page's request seq with its headers, as
// RequestDetail does but without asking Chrome for its bodies.
func (p *Page) RequestHeaders(seq int) (*eventlog.RequestDetail, error) {
	l, unlock := p.logs()
	d, first, last := l.Detail(seq)
	unlock()
	if d == nil {
		return nil, newError(KindInvalidInput, "use a number the list of network requests gives", "no request %d: the page's requests kept are %d to %d", seq, first, last)
	}
	return d, nil
}
