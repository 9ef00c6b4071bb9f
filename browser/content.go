package browser

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
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
	call := func(el string) string { return fmt.Sprintf("__e2e.content(%s, %s, %d)", el, jsString(format), max) }
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

// FindMatch is one snapshot line that matched [Page.Find].
type FindMatch struct {
	// Line is the snapshot line, trimmed.
	Line string `json:"line"`
	// Ref is the line's own ref, or else the ref of the nearest element
	// above it that has one (Under is then that element's line).
	Ref   string `json:"ref,omitempty"`
	Under string `json:"under,omitempty"`
}

// refInLineRE finds the ref of a snapshot line.
var refInLineRE = regexp.MustCompile(`\[ref=([a-z0-9]+)\]`)

// Find takes a snapshot of the whole page (iframes included) and returns the
// lines whose text contains text (case-insensitive) or matches re, with
// their refs, at most limit of them, and how many matched in all.
func (p *Page) Find(ctx context.Context, text string, re *regexp.Regexp, limit int) ([]FindMatch, int, error) {
	snap, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		return nil, 0, err
	}
	matches, total := FindInSnapshot(snap.YAML, text, re, limit)
	return matches, total, nil
}

// FindInSnapshot searches snapshot YAML line by line; refs and the YAML
// list markers are not part of what is searched.
func FindInSnapshot(yaml, text string, re *regexp.Regexp, limit int) ([]FindMatch, int) {
	needle := strings.ToLower(strings.Join(strings.Fields(text), " "))
	type open struct {
		indent int
		line   string
		ref    string
	}
	var stack []open // the lines above, each less indented than the next
	var out []FindMatch
	total := 0
	for _, line := range strings.Split(yaml, "\n") {
		body := strings.TrimSpace(line)
		if body == "" {
			continue
		}
		ind := indent(line)
		for len(stack) > 0 && stack[len(stack)-1].indent >= ind {
			stack = stack[:len(stack)-1]
		}
		ref := ""
		if m := refInLineRE.FindStringSubmatch(body); m != nil {
			ref = m[1]
		}
		stack = append(stack, open{ind, body, ref})
		hay := strings.TrimPrefix(refInLineRE.ReplaceAllString(body, ""), "- ")
		var hit bool
		if re != nil {
			hit = re.MatchString(hay)
		} else {
			hit = strings.Contains(strings.ToLower(strings.Join(strings.Fields(hay), " ")), needle)
		}
		if !hit {
			continue
		}
		total++
		if len(out) >= limit {
			continue
		}
		m := FindMatch{Line: body, Ref: ref}
		for i := len(stack) - 2; i >= 0 && m.Ref == ""; i-- {
			if stack[i].ref != "" {
				m.Ref, m.Under = stack[i].ref, stack[i].line
			}
		}
		out = append(out, m)
	}
	return out, total
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
