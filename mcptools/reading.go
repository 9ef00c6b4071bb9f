package mcptools

import (
	"context"
	"encoding/binary"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/measure"
	"github.com/e2e-mcp/e2e-mcp/browser/snaptext"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/mark3labs/mcp-go/mcp"
	"go.uber.org/zap"
)

// SnapshotParams are the arguments of browser_snapshot.
type SnapshotParams struct {
	Target          string `json:"target,omitempty" jsonschema:"Subtree at a ref or selector"`
	From            int    `json:"from,omitempty" jsonschema:"A fold line's from"`
	Depth           int    `json:"depth,omitempty" jsonschema:"Max tree depth (0: all)"`
	InteractiveOnly bool   `json:"interactiveOnly,omitempty" jsonschema:"Only elements with refs"`
	Diff            bool   `json:"diff,omitempty" jsonschema:"Only changes since your last"`
	Full            bool   `json:"full,omitempty" jsonschema:"No folding (still capped)"`
	Filename        string `json:"filename,omitempty" jsonschema:"Write it all here"`
	Boxes           bool   `json:"boxes,omitempty" jsonschema:"Lines with [box=x,y,w,h]"`
	SessionArg
}

func snapshotTool(d *Deps) Tool {
	return define(d, "browser_snapshot", ToolsetReading,
		"Accessibility snapshot (YAML) with refs (e5). Big pages fold: open one with target+from, or browser_find.",
		annotations{title: "Page snapshot", readOnly: true, idempotent: true},
		func(ctx context.Context, s *Session, a SnapshotParams) (*mcp.CallToolResult, error) {
			switch {
			case a.Depth < 0:
				return nil, invalidInput("depth", "%d: use 0 (no limit) or more", a.Depth)
			case a.From < 0:
				return nil, invalidInput("from", "%d: use the from value of a fold line (1 or more)", a.From)
			case a.Diff && (a.Target != "" || a.Depth != 0 || a.InteractiveOnly || a.From != 0 || a.Full || a.Filename != "" || a.Boxes):
				return nil, invalidInput("diff", "compares whole-page snapshots: leave out target, from, depth, interactiveOnly, full, filename and boxes")
			case a.Filename != "" && (a.From != 0 || a.Depth != 0 || a.InteractiveOnly):
				return nil, invalidInput("filename", "writes the whole tree (of target, if given): leave out from, depth and interactiveOnly")
			}
			opts := browser.SnapshotOptions{Target: a.Target, Depth: a.Depth, InteractiveOnly: a.InteractiveOnly, From: a.From, Full: a.Full, Boxes: a.Boxes}
			if a.Filename != "" {
				return snapshotToFile(ctx, d, s, a)
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			r := response{asked: true}
			mode := snapFull
			if a.Diff {
				mode = snapDiff
			}
			if err := r.pageState(ctx, s, p, mode, opts, d.MaxSnapshotBytes); err != nil {
				return nil, err
			}
			return r.build(), nil
		})
}

// snapshotToFile writes the whole tree (of a.Target, if given) to a file,
// never folded or capped, and answers with where it is.
func snapshotToFile(ctx context.Context, d *Deps, s *Session, a SnapshotParams) (*mcp.CallToolResult, error) {
	out, err := d.outputPath(ctx, "filename", a.Filename, "snapshot-*.yaml")
	if err != nil {
		return nil, err
	}
	p, err := s.Page(ctx, d.Browser)
	if err != nil {
		out.discard()
		return nil, err
	}
	snap, err := p.Snapshot(ctx, browser.SnapshotOptions{Target: a.Target, Full: true, Boxes: a.Boxes})
	if err != nil {
		out.discard()
		return nil, err
	}
	s.rememberRefs(snap.Refs, false)
	data := []byte(strings.TrimRight(snap.YAML, "\n") + "\n")
	if err := out.write(data); err != nil {
		return nil, err
	}
	var r response
	r.pageInfo(snap.Info, p)
	r.resultf("Wrote the snapshot (%d lines, %d refs, %d KB) to %s.", strings.Count(string(data), "\n"), len(snap.Refs), (len(data)+1023)/1024, out.path)
	r.set("path", out.path)
	r.set("bytes", len(data))
	return r.build(), nil
}

// ScreenshotParams are the arguments of browser_take_screenshot.
type ScreenshotParams struct {
	Target   string `json:"target,omitempty" jsonschema:"Only this element (ref or selector)"`
	Element  string `json:"element,omitempty"`
	FullPage bool   `json:"fullPage,omitempty" jsonschema:"Whole scrollable page"`
	Type     string `json:"type,omitempty" jsonschema:"Default png,enum=png,enum=jpeg,enum=webp"`
	Scale    string `json:"scale,omitempty" jsonschema:"enum=css,enum=device"`
	Filename string `json:"filename,omitempty" jsonschema:"Save it here instead"`
	SessionArg
}

// screenshotType is the image type a screenshot is taken in: the one
// asked, else the filename's extension's, else png (as Playwright MCP).
func screenshotType(typ, filename string) string {
	if typ != "" {
		return typ
	}
	switch strings.ToLower(filepath.Ext(filename)) {
	case ".jpg", ".jpeg":
		return "jpeg"
	case ".webp":
		return "webp"
	}
	return "png"
}

func screenshotTool(d *Deps) Tool {
	return define(d, "browser_take_screenshot", ToolsetReading,
		"Screenshot of the viewport, full page or an element.",
		annotations{title: "Take a screenshot", readOnly: true},
		func(ctx context.Context, s *Session, a ScreenshotParams) (*mcp.CallToolResult, error) {
			if a.Target != "" && a.FullPage {
				return nil, invalidInput("fullPage", "give either target or fullPage, not both")
			}
			typ := screenshotType(a.Type, a.Filename)
			var out, saved *outputFile
			var saveErr error
			if a.Filename != "" {
				var err error
				if out, err = d.outputPath(ctx, "filename", a.Filename, "page-*."+typ); err != nil {
					return nil, err
				}
			} else {
				// Sent, and also saved in the output directory the
				// operator named, as Playwright MCP does.
				saved, saveErr = d.outputDirFile(ctx, "filename", "", "page-"+fileStamp(time.Now())+"."+typ)
			}
			p, err := s.Page(ctx, d.Browser)
			var img []byte
			if err == nil {
				img, err = p.Screenshot(ctx, measure.ScreenshotOptions{Target: a.Target, FullPage: a.FullPage, Format: typ, CSSPixels: a.Scale != "device"})
			}
			if err != nil {
				for _, o := range []*outputFile{out, saved} {
					if o != nil {
						o.discard()
					}
				}
				return nil, err
			}
			mime, what := "image/"+typ, "viewport"
			switch {
			case a.Element != "" && a.Target != "":
				what = a.Element + " (" + a.Target + ")"
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
			if out != nil {
				// Saved, as Playwright MCP does, and not sent as well.
				if err := out.write(img); err != nil {
					return nil, err
				}
				r.resultf("Saved to %s.", out.path)
				r.set("path", out.path)
				return r.build(), nil
			}
			if saved != nil {
				if saveErr = saved.write(img); saveErr == nil {
					r.resultf("Saved to %s.", saved.path)
					r.set("path", saved.path)
				}
			}
			if saveErr != nil {
				// The picture is the answer; the copy is the operator's.
				r.resultf("Not saved in the output directory: %v.", saveErr)
				if d.Logger != nil {
					d.Logger.Warn("a screenshot was not saved in the output directory", zap.Error(saveErr))
				}
			}
			r.images = append(r.images, mcp.NewImageContent(browser.EncodeBase64(img), mime))
			return r.build(), nil
		})
}

// pathLine is a line above a browser_find match, clipped short with its
// ref kept: the ref is what the agent acts on.
func pathLine(line string) string {
	const n = 120
	if len(line) <= n {
		return line
	}
	ref := refInLine.FindString(line)
	return text.Clip(strings.TrimSpace(refInLine.ReplaceAllString(line, "")), n-len(ref)) + " " + ref
}

// refInLine is a snapshot line's ref.
var refInLine = regexp.MustCompile(`\[ref=[a-z0-9]+\]`)

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
		"The page's or an element's rendered text or HTML.",
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
	Text  string `json:"text,omitempty" jsonschema:"Text (case-insensitive)"`
	Regex string `json:"regex,omitempty" jsonschema:"Or a regex (RE2); /re/i for flags"`
	Role  string `json:"role,omitempty" jsonschema:"ARIA role"`
	Name  string `json:"name,omitempty" jsonschema:"Part of the name"`
	SessionArg
}

func findTool(d *Deps) Tool {
	return define(d, "browser_find", ToolsetReading,
		"Search the whole page (folds, iframes) by text, regex, role or name: matches with refs.",
		annotations{title: "Find in the page", readOnly: true, idempotent: true},
		func(ctx context.Context, s *Session, a FindParams) (*mcp.CallToolResult, error) {
			if a.Text != "" && a.Regex != "" {
				return nil, invalidInput("text", "give text or regex, not both")
			}
			if a.Text == "" && a.Regex == "" && a.Role == "" && a.Name == "" {
				return nil, invalidInput("text", "give text, regex, role or name")
			}
			q := snaptext.FindQuery{Text: a.Text, Role: strings.ToLower(strings.TrimSpace(a.Role)), Name: a.Name}
			if a.Regex != "" {
				var err error
				if q.Regex, err = browser.RegexArg(a.Regex); err != nil {
					return nil, err
				}
				q.Source = a.Regex
			}
			p, err := s.Page(ctx, d.Browser)
			if err != nil {
				return nil, err
			}
			matches, total, err := p.Find(ctx, q, maxFindMatches)
			if err != nil {
				return nil, err
			}
			var refs = map[string]browser.RefInfo{}
			for _, m := range matches {
				for _, c := range append([]snaptext.FindMatch{m}, m.Controls...) {
					if c.Ref != "" && c.Role != "" {
						refs[c.Ref] = browser.RefInfo{Role: c.Role, Name: c.Name}
					}
				}
			}
			s.rememberRefs(refs, false)
			what := q.String()
			var r response
			if total == 0 {
				r.resultf("Nothing on the page matches %s.", what)
			} else {
				r.resultf("%d of the page's lines match %s:", total, what)
			}
			// Each match under its path from the root, as a tree: the lines
			// a match shares with the one before are not repeated.
			var above []int
			for _, m := range matches {
				shared := 0
				for shared < len(m.PathAt) && shared < len(above) && m.PathAt[shared] == above[shared] {
					shared++
				}
				for i := shared; i < len(m.Path); i++ {
					r.resultf("%s%s", strings.Repeat("  ", i), pathLine(m.Path[i]))
				}
				pad := strings.Repeat("  ", len(m.Path))
				r.resultf("%s%s", pad, text.Clip(m.Line, 600))
				// A container's controls, so that the agent can act in it.
				for _, c := range m.Controls {
					r.resultf("%s  %s", pad, text.Clip(c.Line, 300))
				}
				if m.More > 0 {
					r.resultf("%s  (and %d more inside)", pad, m.More)
				}
				above = append(append(above[:0:0], m.PathAt...), m.At)
			}
			if total > len(matches) {
				r.resultf("(and %d more: narrow the search)", total-len(matches))
			}
			if matches == nil {
				matches = []snaptext.FindMatch{}
			}
			r.set("matches", matches)
			r.set("total", total)
			return r.build(), nil
		})
}

// PDFParams are the arguments of browser_pdf_save.
type PDFParams struct {
	Path string `json:"path,omitempty" jsonschema:"File to write (file roots; over HTTP a new file in the output dir). Default: a temp file"`
	// Filename is Playwright MCP's name for path.
	Filename string `json:"filename,omitempty" jsonschema:"Same as path"`
	SessionArg
}

func pdfTool(d *Deps) Tool {
	return define(d, "browser_pdf_save", ToolsetReading,
		"Save the page as a PDF file; returns its path and size.",
		annotations{title: "Save as PDF", idempotent: true},
		func(ctx context.Context, s *Session, a PDFParams) (*mcp.CallToolResult, error) {
			field, path := "path", a.Path
			switch {
			case a.Path != "" && a.Filename != "":
				return nil, invalidInput("filename", "give path or filename (the same), not both")
			case a.Filename != "":
				field, path = "filename", a.Filename
			}
			out, err := d.outputPath(ctx, field, path, "page-*.pdf")
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
