package browser

import (
	"context"
	"encoding/base64"
	"io"
	"maps"
	"mime"
	"path/filepath"
	"slices"
	"sort"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
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
	var carried []droppedFile
	if len(files) > 0 && len(data) > 0 {
		// Chromium's drag from outside carries files or texts, not both
		// (the texts are lost): the page gets events made in it instead,
		// with the files' bytes, read before anything is done.
		var err error
		if carried, err = readDropFiles(files, maxDropBytes); err != nil {
			return err
		}
	}
	x, y, frame, err := p.pointOf(ctx, target, fnHoverPoint)
	if err != nil {
		return err
	}
	if carried != nil {
		return p.dropInPage(ctx, target, carried, data, x, y)
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

// readDropFiles reads the files dropInPage carries into the page, at most
// limit bytes of them together. Each is opened without waiting (a FIFO put
// in a file's place would keep the call), refused unless it is a regular
// file, refused by its size before a byte of it is read, and read through
// a limit, so that one that grows meanwhile cannot pass either.
func readDropFiles(files []string, limit int64) ([]droppedFile, error) {
	tooBig := func(f string, size int64) error {
		return newError(KindInvalidInput, "drop them without data (the browser's own drag takes any size), or fewer files",
			"%s is %s bytes: files and data dropped together take at most %d MB of files; nothing was read", f, text.Commas(int(size)), limit>>20)
	}
	var all []droppedFile
	left := limit
	for _, f := range files {
		fd, err := openNoWait(f)
		if err != nil {
			return nil, newError(KindInvalidInput, "give readable files", "%s: %v", f, err)
		}
		b, err := func() ([]byte, error) {
			defer func() { _ = fd.Close() }()
			st, err := fd.Stat()
			switch {
			case err != nil:
				return nil, newError(KindInvalidInput, "give readable files", "%s: %v", f, err)
			case !st.Mode().IsRegular():
				return nil, newError(KindInvalidInput, "give regular files", "%s is not a regular file", f)
			case st.Size() > left:
				return nil, tooBig(f, st.Size())
			}
			b, err := io.ReadAll(io.LimitReader(fd, left+1))
			if err != nil {
				return nil, newError(KindInvalidInput, "give readable files", "%s: %v", f, err)
			}
			if int64(len(b)) > left {
				return nil, newError(KindInvalidInput, "drop files that do not change while they are dropped",
					"%s grew past %d MB while it was read", f, limit>>20)
			}
			all = append(all, droppedFile{Name: filepath.Base(f), Type: fileType(f), B64: base64.StdEncoding.EncodeToString(b),
				Modified: st.ModTime().UnixMilli()})
			return b, nil
		}()
		if err != nil {
			return nil, err
		}
		left -= int64(len(b))
	}
	return all, nil
}

// fileType is a file's MIME type by its extension.
func fileType(f string) string {
	if typ := mime.TypeByExtension(filepath.Ext(f)); typ != "" {
		return typ
	}
	return "application/octet-stream"
}

// dropInPage drops files (read by readDropFiles) and texts together with
// drag events made in the page, as Playwright does in every browser: the
// files' bytes go into the page.
func (p *Page) dropInPage(ctx context.Context, target string, all []droppedFile, data map[string]string, x, y float64) error {
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
