package mcptools

import (
	"context"
	"encoding/binary"
	"regexp"
	"strconv"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/mark3labs/mcp-go/mcp"
)

// SnapshotParams are the arguments of browser_snapshot.
type SnapshotParams struct {
	Target          string `json:"target,omitempty" jsonschema:"Only the subtree of this ref or selector"`
	Depth           int    `json:"depth,omitempty" jsonschema:"Maximum depth of the tree (0: all)"`
	InteractiveOnly bool   `json:"interactiveOnly,omitempty" jsonschema:"Only elements that have refs"`
	Diff            bool   `json:"diff,omitempty" jsonschema:"Only changes since your last snapshot of this page"`
	SessionArg
}

func snapshotTool(d *Deps) Tool {
	return define(d, "browser_snapshot", ToolsetReading,
		"Accessibility snapshot of the page as YAML; elements you can act on carry refs (e5) for other tools.",
		annotations{title: "Page snapshot", readOnly: true, idempotent: true},
		func(ctx context.Context, s *Session, a SnapshotParams) (*mcp.CallToolResult, error) {
			if a.Depth < 0 {
				return nil, invalidInput("depth", "%d: use 0 (no limit) or more", a.Depth)
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			if a.Diff && (a.Target != "" || a.Depth != 0 || a.InteractiveOnly) {
				return nil, invalidInput("diff", "compares whole-page snapshots: leave out target, depth and interactiveOnly")
			}
			var r response
			mode := snapFull
			if a.Diff {
				mode = snapDiff
			}
			opts := browser.SnapshotOptions{Target: a.Target, Depth: a.Depth, InteractiveOnly: a.InteractiveOnly}
			if err := r.pageState(ctx, s, p, mode, opts, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}

// ScreenshotParams are the arguments of browser_take_screenshot.
type ScreenshotParams struct {
	Target   string `json:"target,omitempty" jsonschema:"Only this element (ref or selector)"`
	FullPage bool   `json:"fullPage,omitempty" jsonschema:"The whole scrollable page"`
	Type     string `json:"type,omitempty" jsonschema:"Default png,enum=png,enum=jpeg"`
	SessionArg
}

func screenshotTool(d *Deps) Tool {
	return define(d, "browser_take_screenshot", ToolsetReading,
		"Screenshot of the viewport, the full page or one element, returned as an image.",
		annotations{title: "Take a screenshot", readOnly: true},
		func(ctx context.Context, s *Session, a ScreenshotParams) (*mcp.CallToolResult, error) {
			if a.Target != "" && a.FullPage {
				return nil, invalidInput("fullPage", "give either target or fullPage, not both")
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			img, err := p.Screenshot(ctx, browser.ScreenshotOptions{Target: a.Target, FullPage: a.FullPage, Format: a.Type})
			if err != nil {
				return nil, err
			}
			mime, what := "image/png", "viewport"
			if a.Type == "jpeg" {
				mime = "image/jpeg"
			}
			switch {
			case a.Target != "":
				what = a.Target
			case a.FullPage:
				what = "full page"
			}
			var r response
			if w, h, ok := pngSize(img); ok {
				r.resultf("Screenshot of the %s: %dx%d PNG, %d KB.", what, w, h, (len(img)+1023)/1024)
			} else {
				r.resultf("Screenshot of the %s: %s, %d KB.", what, mime, (len(img)+1023)/1024)
			}
			r.images = append(r.images, mcp.NewImageContent(browser.EncodeBase64(img), mime))
			return r.build(), nil
		})
}

// pngSize reads a PNG's dimensions from its IHDR chunk.
func pngSize(b []byte) (w, h uint32, ok bool) {
	if len(b) < 24 || string(b[1:4]) != "PNG" || string(b[12:16]) != "IHDR" {
		return 0, 0, false
	}
	return binary.BigEndian.Uint32(b[16:20]), binary.BigEndian.Uint32(b[20:24]), true
}

// maxContentChars caps the text or HTML browser_get_content returns.
const maxContentChars = 40_000

// GetContentParams are the arguments of browser_get_content.
type GetContentParams struct {
	Target string `json:"target,omitempty" jsonschema:"Only this element (ref or selector)"`
	Format string `json:"format,omitempty" jsonschema:"Default text (as rendered),enum=text,enum=html"`
	SessionArg
}

func getContentTool(d *Deps) Tool {
	return define(d, "browser_get_content", ToolsetReading,
		"The rendered text (innerText) or the HTML of the page or of one element.",
		annotations{title: "Get text or HTML", readOnly: true, idempotent: true},
		func(ctx context.Context, s *Session, a GetContentParams) (*mcp.CallToolResult, error) {
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			c, err := p.GetContent(ctx, a.Target, a.Format, maxContentChars)
			if err != nil {
				return nil, err
			}
			format, what := a.Format, "the page"
			if format == "" {
				format = "text"
			}
			if a.Target != "" {
				what = a.Target
			}
			title := "Text"
			if format == "html" {
				title = "HTML"
			}
			var r response
			r.resultf("%s of %s (%d characters):\n```%s\n%s\n```", title, what, c.Total, format, c.Text)
			if c.Truncated {
				r.resultf("(Cut at %d of %d characters: give target to read one part.)", maxContentChars, c.Total)
			}
			r.set("content", c)
			return r.build(), nil
		})
}

// maxFindMatches caps the lines browser_find lists.
const maxFindMatches = 50

// FindParams are the arguments of browser_find.
type FindParams struct {
	Text  string `json:"text,omitempty" jsonschema:"Text to find (case-insensitive)"`
	Regex string `json:"regex,omitempty" jsonschema:"Or a regular expression (RE2)"`
	SessionArg
}

func findTool(d *Deps) Tool {
	return define(d, "browser_find", ToolsetReading,
		"Search the page's snapshot for text or a regex; returns the matching lines with their refs.",
		annotations{title: "Find in the page", readOnly: true, idempotent: true},
		func(ctx context.Context, s *Session, a FindParams) (*mcp.CallToolResult, error) {
			if (a.Text == "") == (a.Regex == "") {
				return nil, invalidInput("text", "give either text or regex")
			}
			var re *regexp.Regexp
			if a.Regex != "" {
				var err error
				if re, err = regexp.Compile(a.Regex); err != nil {
					return nil, invalidInput("regex", "%v", err)
				}
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			matches, total, err := p.Find(ctx, a.Text, re, maxFindMatches)
			if err != nil {
				return nil, err
			}
			what := strconv.Quote(a.Text)
			if re != nil {
				what = "/" + a.Regex + "/"
			}
			var r response
			if total == 0 {
				r.resultf("No line of the snapshot matches %s.", what)
			} else {
				r.resultf("%d lines of the snapshot match %s:", total, what)
			}
			for _, m := range matches {
				if m.Under != "" {
					r.resultf("- %s (inside %s)", m.Line, truncate(m.Under, 120))
				} else {
					r.resultf("- %s", m.Line)
				}
			}
			if total > len(matches) {
				r.resultf("(and %d more: narrow the search)", total-len(matches))
			}
			if matches == nil {
				matches = []browser.FindMatch{}
			}
			r.set("matches", matches)
			r.set("total", total)
			return r.build(), nil
		})
}

// PDFParams are the arguments of browser_pdf_save.
type PDFParams struct {
	Path string `json:"path,omitempty" jsonschema:"File to write: in the working dir or --file-roots, over HTTP new in the output dir (default: a new temp file)"`
	SessionArg
}

func pdfTool(d *Deps) Tool {
	return define(d, "browser_pdf_save", ToolsetReading,
		"Save the page as a PDF file; returns its path and size.",
		annotations{title: "Save as PDF", idempotent: true},
		func(ctx context.Context, s *Session, a PDFParams) (*mcp.CallToolResult, error) {
			out, err := d.outputPath("path", a.Path, "page-*.pdf")
			if err != nil {
				return nil, err
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				out.discard()
				return nil, err
			}
			data, err := p.PDF(ctx)
			if err != nil {
				out.discard()
				return nil, err
			}
			if err := out.write(data); err != nil {
				return nil, err
			}
			var r response
			r.resultf("Saved the page as PDF: %s (%d KB).", out.path, (len(data)+1023)/1024)
			r.set("path", out.path)
			r.set("bytes", len(data))
			return r.build(), nil
		})
}
