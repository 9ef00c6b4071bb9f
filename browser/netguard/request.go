package netguard

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

// A request step (`request:` in a flow, browser_request) is an HTTP call
// made by the session's browser context, as Playwright's context.request
// is: it carries the context's cookies, the cookies its answer sets stay
// in the context, and the request policy decides whether it may go. It is
// made by fetch() in a hidden tab of the session that shows a blank
// document of the URL's origin, so it is a same-origin call whatever page
// the session shows (no CORS), and no page script sees it.

// HTTPRequest is a request the session's browser context makes.
type HTTPRequest struct {
	Method string
	// URL is absolute, http or https.
	URL     string
	Headers map[string]string
	// Body is sent as is (nil: none).
	Body []byte
}

// HTTPResponse is what the server answered.
type HTTPResponse struct {
	Status     int    `json:"status"`
	StatusText string `json:"statusText"`
	// URL is the answer's, after redirects.
	URL         string `json:"url"`
	ContentType string `json:"contentType"`
	// Body is the body as text, at most MaxResponseBody bytes of it.
	Body string `json:"body"`
	// Size is the body's length in UTF-16 units, as fetch read it.
	Size int `json:"size"`
	// Cut says Body is the body's start only.
	Cut bool `json:"cut"`
}

// MaxResponseBody bounds the body a request step reads.
const MaxResponseBody = 1 << 20

// requestJS makes the request in the page: its argument is the request as
// JSON; a failure to get any answer is {error}.
const requestJS = `(async (r) => {
  let res;
  try {
    res = await fetch(r.url, {method: r.method, headers: r.headers || {}, body: r.body == null ? undefined : r.body,
      credentials: 'include', redirect: 'follow', cache: 'no-store'});
  } catch (e) {
    return {error: String(e && e.message || e)};
  }
  const text = await res.text();
  return {status: res.status, statusText: res.statusText, url: res.url, contentType: res.headers.get('content-type') || '',
    body: text.length > %d ? text.slice(0, %d) : text, size: text.length, cut: text.length > %d};
})(%s)`

// Request makes req from the session's browser context (see above), in a
// hidden tab open opens. It fails with a [*refusal.Error] when the URL is
// not http(s) (invalid_input) or the request got no answer
// (navigation_failed).
func Request(ctx context.Context, open OpenHidden, req HTTPRequest) (*HTTPResponse, error) {
	u, err := url.Parse(req.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, refusal.Invalid("give an absolute http(s) URL, or a path on the dev server", "%q is not an http(s) URL", req.URL)
	}
	in := map[string]any{"method": strings.ToUpper(req.Method), "url": req.URL, "headers": req.Headers}
	if req.Body != nil {
		in["body"] = string(req.Body)
	}
	arg, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	var out struct {
		HTTPResponse
		Error string `json:"error"`
	}
	p, err := open(ctx)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	// The blank document of the URL's origin loads as a scratch tab's
	// does; then the tab leaves blank mode, so that the request itself goes
	// to the server (the policy still checks it).
	p.Guard().SetBlank(true)
	if err := p.EnableGuard(ctx); err != nil {
		return nil, err
	}
	if err := p.OpenBlank(ctx, u.Scheme+"://"+u.Host); err != nil {
		return nil, err
	}
	p.Guard().SetBlank(false)
	js := fmt.Sprintf(requestJS, MaxResponseBody, MaxResponseBody, MaxResponseBody, arg)
	if err := p.Eval(ctx, js, &out); err != nil {
		return nil, err
	}
	if out.Error != "" {
		return nil, refusal.New(refusal.NavigationFailed, "check that the server is up and the URL right; the request policy may also block it",
			"%s %s got no answer: %s", in["method"], req.URL, out.Error)
	}
	return &out.HTTPResponse, nil
}
