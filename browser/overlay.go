package browser

import (
	"context"
	"encoding/base64"
	"maps"
	"mime"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// Highlight draws a box over target (a ref or selector) until
// HideHighlight, for a person watching a headed session; style is CSS
// added to the box's own. The box takes no pointer events and is hidden
// from snapshots.
func (p *Page) Highlight(ctx context.Context, target, style string) error {
	var done struct{}
	_, err := p.actionable(ctx, target, fnHighlight, &done, style)
	return err
}

// HideHighlight removes target's box, or (target "") every box of the
// page's main frame; it returns how many it removed.
func (p *Page) HideHighlight(ctx context.Context, target string) (int, error) {
	var out struct{ Removed int }
	if target != "" {
		_, err := p.actionable(ctx, target, fnHideHighlight, &out)
		return out.Removed, err
	}
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	err := p.evalEngine(cctx, fnHideHighlight.call(nil), &out)
	return out.Removed, err
}

// Drop drops files (paths on the browser's machine) and data (MIME type to
// text) on target as from outside the page: the browser's own drag events
// (dragenter, dragover, drop) at the element's point, with real File
// objects. A target whose dragover handlers do not accept the drag gets no
// drop, and that is an error.
func (p *Page) Drop(ctx context.Context, target string, files []string, data map[string]string) error {
	if len(files) == 0 && len(data) == 0 {
		return newError(KindInvalidInput, "give paths (files) or data (MIME type to text)", "nothing to drop")
	}
	x, y, frame, err := p.pointOf(ctx, target, fnHoverPoint)
	if err != nil {
		return err
	}
	if len(files) > 0 && len(data) > 0 {
		// Chromium's drag from outside carries files or texts, not both
		// (the texts are lost): the page gets events made in it instead.
		return p.dropInPage(ctx, target, files, data, x, y)
	}
	drag := &input.DragData{Files: files, DragOperationsMask: 1 | 2 | 16} // copy, link, move
	types := make([]string, 0, len(data))
	for t := range data {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		drag.Items = append(drag.Items, &input.DragDataItem{MimeType: t, Data: data[t]})
	}
	dropped := false
	err = p.mouseAct(ctx, "drop", func(cctx context.Context) error {
		if err := p.evalIn(cctx, frame, fnWatchDrop.call(), nil); err != nil {
			return err
		}
		for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
			if _, err := chromedp.Call(cctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: x, Y: y, Data: drag}); err != nil {
				return err
			}
		}
		if err := p.evalIn(cctx, frame, fnDropDone.call(), &dropped); err != nil {
			return err
		}
		if !dropped {
			// The browser still holds the drag it refused: end it.
			_, err := chromedp.Call(cctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: input.DispatchDragEventTypeDragCancel, X: x, Y: y, Data: drag})
			return err
		}
		return nil
	})
	if err == nil && !dropped {
		return dropRefused(target)
	}
	return err
}

func dropRefused(target string) error {
	return newError(KindNotActionable, "drop on the element whose dragover handler accepts drops (calls preventDefault), e.g. the drop zone itself",
		"%s did not accept the drop: no dragover handler called preventDefault()", target)
}

// maxDropBytes bounds the files dropInPage carries into the page.
const maxDropBytes = 16 << 20

// droppedFile is a file as dropEvents makes a File of it.
type droppedFile struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	B64      string `json:"b64"`
	Modified int64  `json:"modified"`
}

// dropInPage drops files and texts together with drag events made in the
// page, as Playwright does in every browser: the files' bytes go into the
// page, at most maxDropBytes of them.
func (p *Page) dropInPage(ctx context.Context, target string, files []string, data map[string]string, x, y float64) error {
	var all []droppedFile
	total := 0
	for _, f := range files {
		b, err := os.ReadFile(f) //nolint:gosec // the caller checked the path against the file roots
		if err != nil {
			return newError(KindInvalidInput, "give readable files", "%s: %v", f, err)
		}
		if total += len(b); total > maxDropBytes {
			return newError(KindInvalidInput, "drop them without data (the browser's own drag takes any size), or fewer files",
				"files and data dropped together take at most %d MB of files", maxDropBytes>>20)
		}
		var modified int64
		if st, err := os.Stat(f); err == nil {
			modified = st.ModTime().UnixMilli()
		}
		typ := mime.TypeByExtension(filepath.Ext(f))
		if typ == "" {
			typ = "application/octet-stream"
		}
		all = append(all, droppedFile{Name: filepath.Base(f), Type: typ, B64: base64.StdEncoding.EncodeToString(b), Modified: modified})
	}
	pairs := make([][2]string, 0, len(data))
	for _, t := range slices.Sorted(maps.Keys(data)) {
		pairs = append(pairs, [2]string{t, data[t]})
	}
	before := p.mark()
	var outcome string
	if _, err := p.actionable(ctx, target, fnDropEvents, &outcome, all, pairs, x, y); err != nil {
		return err
	}
	if outcome != "accepted" {
		return dropRefused(target)
	}
	return p.settle(ctx, before)
}
