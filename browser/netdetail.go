package browser

import (
	"context"
	"fmt"
	"maps"

	"github.com/chromedp/cdproto/network"
)

// RequestDetail is one request as browser_network_request shows it.
type RequestDetail struct {
	NetworkRequest
	RequestHeaders  map[string]string `json:"requestHeaders"`
	ResponseHeaders map[string]string `json:"responseHeaders,omitempty"`
	MimeType        string            `json:"mimeType,omitempty"`
	// PostData is the request's body, when it had one Chrome kept.
	PostData string `json:"postData,omitempty"`
	// Body is the response's body (BodyBase64: Chrome sent it as binary);
	// BodyError says why there is none.
	Body       []byte `json:"-"`
	BodyBase64 bool   `json:"-"`
	BodyError  string `json:"bodyError,omitempty"`
}

// RequestDetail returns the page's request seq (NetworkRequest.Seq) with
// its headers, its post data and its response's body, while Chrome keeps
// them (a few MB of the page's latest responses).
func (p *Page) RequestDetail(ctx context.Context, seq int) (*RequestDetail, error) {
	d, err := p.RequestHeaders(seq)
	if err != nil {
		return nil, err
	}
	found := &d.NetworkRequest
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	hosts := p.hosts()
	if found.postData {
		for _, h := range hosts {
			if pd, err := callOn(cctx, h, network.GetRequestPostData, network.GetRequestPostDataParams{RequestID: found.id}); err == nil {
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
			res, err := callOn(cctx, h, network.GetResponseBody, network.GetResponseBodyParams{RequestID: found.id})
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
func (p *Page) RequestHeaders(seq int) (*RequestDetail, error) {
	l, unlock := p.logs()
	var found *NetworkRequest
	list := l.network.list()
	for _, r := range list {
		if r.Seq == seq {
			cp := *r
			found = &cp
		}
	}
	first, last := 0, l.network.total
	if len(list) > 0 {
		first = list[0].Seq
	}
	unlock()
	if found == nil {
		return nil, newError(KindInvalidInput, "use a number the list of network requests gives", "no request %d: the page's requests kept are %d to %d", seq, first, last)
	}
	return &RequestDetail{NetworkRequest: *found, RequestHeaders: maps.Clone(found.reqHeaders),
		ResponseHeaders: maps.Clone(found.respHeaders), MimeType: found.mimeType}, nil
}
