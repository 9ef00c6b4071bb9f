package browser

import (
	"context"
	"strings"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/snaptext"
)

// Content is the text or HTML of the page or of one element.
type Content struct {
	Text string `json:"text"`
	// Total is the length of the whole content in characters; Text is cut
	// when it is longer than the limit asked for.
	Total     int  `json:"total"`
	Truncated bool `json:"truncated,omitempty"`
}

// GetContent returns target's (or, with target "", the page's) rendered
// text (innerText) or its HTML (outerHTML; the whole document for the
// page), at most max characters.
func (p *Page) GetContent(ctx context.Context, target, format string, max int) (Content, error) {
	var c Content
	switch format {
	case "":
		format = "text"
	case "text", "html":
	default:
		return c, newError(KindInvalidInput, "use text or html", "format %q", format)
	}
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	call := func(el string) string { return fnContent.call(jsExpr(el), format, max) }
	var err error
	if target == "" {
		err = p.evalEngine(cctx, call("null"), &c)
	} else {
		_, err = p.resolveIn(cctx, target, func(loc located) error {
			return p.evalIn(cctx, loc.frame, call(loc.expr), &c)
		})
	}
	c.Truncated = c.Total > max
	return c, err
}

// Find searches the whole page, never folded, iframes included, and returns
// the lines that match q with their refs (snaptext.FindInSnapshot), at most
// limit of them, and how many matched in all.
func (p *Page) Find(ctx context.Context, q snaptext.FindQuery, limit int) ([]snaptext.FindMatch, int, error) {
	snap, err := p.FullSnapshot(ctx)
	if err != nil {
		return nil, 0, err
	}
	matches, total := snaptext.FindInSnapshot(snap.YAML, q, limit)
	return matches, total, nil
}

// PDF prints the page to PDF, backgrounds included, as Chrome prints it for
// Letter paper. Only a headless browser can print.
func (p *Page) PDF(ctx context.Context) ([]byte, error) {
	cctx, cancel := p.callCtx(ctx, p.m.opts.NavigationTimeout)
	defer cancel()
	var data []byte
	err := p.unlessDialog(cctx, func(ctx context.Context) error {
		res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PrintBackground: new(true)})
		data = res.Data
		return err
	}, false)
	if _, ok := AsError(err); ok {
		return nil, err
	}
	if err != nil {
		if strings.Contains(err.Error(), "not implemented") || strings.Contains(err.Error(), "PrintToPDF is not") {
			return nil, &Error{Kind: KindNotActionable, Message: "this browser cannot print to PDF (only headless Chrome can)",
				Hint: "run e2e-mcp without --headed, or take a full-page screenshot instead", Err: err}
		}
		return nil, p.ctxError(cctx, err, "print to PDF")
	}
	return data, nil
}
