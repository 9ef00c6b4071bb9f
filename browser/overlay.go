package browser

import (
	"context"
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
		return newError(KindNotActionable, "drop on the element whose dragover handler accepts drops (calls preventDefault), e.g. the drop zone itself",
			"%s did not accept the drop: no dragover handler called preventDefault()", target)
	}
	return err
}
