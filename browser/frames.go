package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/cdpcall"
	"github.com/e2e-mcp/e2e-mcp/browser/selector"
	"github.com/e2e-mcp/e2e-mcp/browser/snaptext"
)

// A host is a CDP session that frames live in: the tab itself, or the
// target of an out-of-process (cross-site) iframe, which Chrome runs in
// another renderer with its own session. Same-process iframes share their
// parent's host.
type host struct {
	ctx    context.Context // chromedp context bound to the target
	cancel context.CancelFunc
	target target.ID
	// guarded: Fetch is on in this session (enableGuard), so it pauses
	// its own requests and the browser-level guard leaves them alone.
	guarded atomic.Bool
}

// callOn runs a CDP command on a host's session, bounded by ctx
// (cdpcall.On).
func callOn[P, R any](ctx context.Context, h *host, cmd cdp.Command[P, R], params P) (R, error) {
	return cdpcall.On(ctx, h.ctx, cmd, params)
}

// frameTable is what a page knows of its frames. It is guarded by Page.mu.
type frameTable struct {
	parent map[cdp.FrameID]cdp.FrameID
	// num gives each frame seen in a snapshot a number for its ref prefix
	// (f1, f2, ...), stable for the page's life; byNum is its inverse.
	num    map[cdp.FrameID]int
	byNum  map[int]cdp.FrameID
	next   int
	refSeq map[cdp.FrameID]int // last ref number handed out per child frame
	hosts  map[target.ID]*host // out-of-process iframes
}

func newFrameTable() frameTable {
	return frameTable{parent: map[cdp.FrameID]cdp.FrameID{}, num: map[cdp.FrameID]int{}, byNum: map[int]cdp.FrameID{},
		refSeq: map[cdp.FrameID]int{}, hosts: map[target.ID]*host{}}
}

// frameEventLocked records frame and execution-context events of any host.
// It reports whether ev was one of them.
func (p *Page) frameEventLocked(h *host, ev any) bool {
	switch e := ev.(type) {
	case *runtime.EventExecutionContextCreated:
		var aux struct {
			FrameID   cdp.FrameID `json:"frameId"`
			IsDefault bool        `json:"isDefault"`
		}
		if json.Unmarshal(e.Context.AuxData, &aux) != nil || aux.FrameID == "" {
			return false
		}
		c := execContext{id: e.Context.ID, unique: e.Context.UniqueID, host: h}
		switch {
		case e.Context.Name == worldName:
			p.worlds[aux.FrameID] = c
		case aux.IsDefault:
			p.mains[aux.FrameID] = c
		default:
			return false
		}
	case *runtime.EventExecutionContextDestroyed:
		p.dropContextsLocked(func(c execContext) bool { return c.unique == e.ExecutionContextUniqueID })
	case *runtime.EventExecutionContextsCleared:
		p.dropContextsLocked(func(c execContext) bool { return c.host == h })
	case *page.EventFrameAttached:
		p.frames.parent[e.FrameID] = e.ParentFrameID
	case *page.EventFrameNavigated:
		if e.Frame != nil && e.Frame.ParentID != "" {
			p.frames.parent[e.Frame.ID] = e.Frame.ParentID
		}
		if h == p.main && e.Frame != nil && e.Frame.ID == p.frame {
			// A new document: the current page's console starts here.
			p.doc++
			if !p.closed {
				p.tellConsoleLocked(ConsoleEvent{Navigated: true})
			}
			l, unlock := p.logs()
			l.NewDocument()
			unlock()
		}
	case *target.EventAttachedToTarget:
		if e.TargetInfo != nil && e.TargetInfo.Type == "iframe" && p.frames.hosts != nil {
			if _, ok := p.frames.hosts[e.TargetInfo.TargetID]; !ok {
				nh := &host{target: e.TargetInfo.TargetID}
				p.frames.hosts[nh.target] = nh
				go p.attachFrameHost(nh)
			}
		}
	default:
		return false
	}
	return true
}

func (p *Page) dropContextsLocked(gone func(execContext) bool) {
	for _, m := range []map[cdp.FrameID]execContext{p.worlds, p.mains} {
		for f, c := range m {
			if gone(c) {
				delete(m, f)
			}
		}
	}
}

// attachFrameHost opens our own session to an out-of-process iframe (chromedp
// auto-attaches to it but does not route its messages) and injects the page
// engine there, for its current and future documents.
func (p *Page) attachFrameHost(h *host) {
	hctx, cancel := chromedp.NewContext(p.ctx, chromedp.WithTargetID(h.target), chromedp.WithDetachOnCancel(),
		chromedp.WithListener(p.listener(h)))
	p.mu.Lock()
	h.ctx, h.cancel = hctx, cancel
	alive := p.frames.hosts != nil
	p.mu.Unlock()
	if !alive {
		cancel()
		return
	}
	if err := chromedp.Do(hctx); err != nil {
		p.log.Debug("attach to iframe target: " + err.Error())
		cancel()
		return
	}
	// When the iframe goes (navigated away, removed), forget its session.
	if gone, err := chromedp.Detached(hctx); err == nil {
		go func() {
			select {
			case <-gone:
			case <-hctx.Done():
			}
			p.mu.Lock()
			if p.frames.hosts != nil {
				delete(p.frames.hosts, h.target)
			}
			p.dropContextsLocked(func(c execContext) bool { return c.host == h })
			p.signalLocked()
			p.mu.Unlock()
			cancel()
		}()
	}
	cctx, ccancel := context.WithTimeout(hctx, p.m.opts.ActionTimeout)
	defer ccancel()
	if p.tabs != nil {
		// What the session emulates holds in its iframes too (locale,
		// time zone, user agent...): the tab's overrides do not reach
		// another renderer. Its document may be loading already: first.
		if e := p.tabs.setupOf().emulation; !e.IsZero() {
			p.emulateFrame(cctx, h, e)
		}
	}
	if err := p.prepareHost(cctx, h); err != nil {
		p.log.Debug("iframe target: " + err.Error())
	}
}

// frameOfRef returns the frame a ref belongs to.
func (p *Page) frameOfRef(ref string) (cdp.FrameID, error) {
	r, ok := selector.ParseRef(ref)
	if !ok || !r.InFrame {
		return p.frame, nil
	}
	n := r.Frame
	p.mu.Lock()
	f, ok := p.frames.byNum[n]
	p.mu.Unlock()
	if !ok {
		return "", &Error{Kind: KindRefNotFound, Message: fmt.Sprintf("ref %s names frame f%d, which no snapshot of this page has shown", ref, n),
			Step: StepSnapshot}
	}
	return f, nil
}

// frameNumber returns (assigning on first sight) the number of a frame.
func (p *Page) frameNumber(f cdp.FrameID) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n, ok := p.frames.num[f]; ok {
		return n
	}
	p.frames.next++
	p.frames.num[f], p.frames.byNum[p.frames.next] = p.frames.next, f
	return p.frames.next
}

// refSeqOf and setRefSeq keep the ref counter of a frame (the main frame's
// is p.refSeq).
func (p *Page) refSeqOf(f cdp.FrameID) int {
	if f == p.frame {
		return p.refSeq
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.frames.refSeq[f]
}

func (p *Page) setRefSeq(f cdp.FrameID, n int) {
	if f == p.frame {
		p.refSeq = max(p.refSeq, n)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.frames.refSeq[f] = max(p.frames.refSeq[f], n)
}

// prefixOf is the ref prefix of a frame: "" for the main frame, else fN.
func (p *Page) prefixOf(f cdp.FrameID) string {
	if f == p.frame {
		return ""
	}
	return "f" + strconv.Itoa(p.frameNumber(f))
}

// located is where a target is: the frame, and the JavaScript expression
// that yields the element in that frame's engine world.
type located struct {
	frame cdp.FrameID
	expr  string
	sel   *selector.Selector // nil for a ref
	// rest are the selector parts still to run (from the frame's document).
	rest []selector.Part
}

// locate starts resolving target: a ref goes straight to its frame; a
// selector starts in the main frame and may enter iframes as it runs (see
// [Page.enterFrame]).
func (p *Page) locate(target string) (located, error) {
	if selector.IsRef(target) {
		f, err := p.frameOfRef(target)
		if err != nil {
			return located{}, err
		}
		return located{frame: f, expr: fnResolve.call(target)}, nil
	}
	sel, err := ParseSelector(target, p.m.opts.TestIDAttribute)
	if err != nil {
		return located{}, err
	}
	return p.selectorIn(p.frame, sel, sel.Parts), nil
}

func (p *Page) selectorIn(f cdp.FrameID, sel *selector.Selector, parts []selector.Part) located {
	return located{frame: f, sel: sel, rest: parts, expr: fnOne.call(parts, sel.Text)}
}

// enterFrame continues a selector inside the iframe the engine stopped at.
// It reports ok=false when err is not such a signal.
func (p *Page) enterFrame(ctx context.Context, loc located, err error) (located, bool, error) {
	e, isErr := AsError(err)
	if !isErr || loc.sel == nil {
		return loc, false, nil
	}
	if e.Kind != kindEnterFrame {
		return loc, false, nil
	}
	k := e.framePart
	child, err := p.childFrame(ctx, loc.frame, fnTakeFrameOwner.call())
	if err != nil {
		return loc, true, err
	}
	return p.selectorIn(child, loc.sel, loc.rest[k:]), true, nil
}

// childFrame evaluates expr (which yields a frame owner element) in a
// frame's engine world and returns the frame it owns.
func (p *Page) childFrame(ctx context.Context, f cdp.FrameID, expr string) (cdp.FrameID, error) {
	w, err := p.worldOf(ctx, f)
	if err != nil {
		return "", p.ctxError(ctx, err, "find the iframe")
	}
	res, err := callOn(ctx, w.host, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, UniqueContextID: w.unique})
	if err != nil {
		return "", p.ctxError(ctx, err, "find the iframe")
	}
	if res.ExceptionDetails != nil {
		return "", p.engineError(ctx, w, res.ExceptionDetails)
	}
	if res.Result == nil || res.Result.ObjectID == "" {
		return "", newError(KindElementNotFound, "take a new snapshot", "the iframe is gone")
	}
	defer func() {
		rctx, cancel := detached(ctx)
		defer cancel()
		_, _ = callOn(rctx, w.host, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: res.Result.ObjectID})
	}()
	d, err := callOn(ctx, w.host, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: res.Result.ObjectID})
	if err != nil {
		return "", p.ctxError(ctx, err, "find the iframe")
	}
	if d.Node == nil || d.Node.FrameID == "" {
		return "", newError(KindElementNotFound, "take a new snapshot", "the iframe has no document yet")
	}
	return d.Node.FrameID, nil
}

// toViewport turns a point in a frame's viewport into the tab's viewport,
// adding the offset of each iframe on the way up (after scrolling it into
// view in its parent).
func (p *Page) toViewport(ctx context.Context, f cdp.FrameID, x, y float64) (float64, float64, error) {
	for f != p.frame {
		p.mu.Lock()
		parent, ok := p.frames.parent[f]
		p.mu.Unlock()
		if !ok {
			return 0, 0, fmt.Errorf("frame %s has no known parent", f)
		}
		pw, err := p.worldOf(ctx, parent)
		if err != nil {
			return 0, 0, p.ctxError(ctx, err, "find the iframe's page")
		}
		owner, err := callOn(ctx, pw.host, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: f})
		if err != nil {
			return 0, 0, p.ctxError(ctx, err, "find the iframe element")
		}
		obj, err := callOn(ctx, pw.host, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: owner.BackendNodeID, ExecutionContextID: pw.id})
		if err != nil || obj.Object == nil {
			return 0, 0, p.ctxError(ctx, err, "find the iframe element")
		}
		res, err := callOn(ctx, pw.host, runtime.CallFunctionOn, runtime.CallFunctionOnParams{ObjectID: obj.Object.ObjectID,
			FunctionDeclaration: "function() { return " + fnFrameOffset.call(jsExpr("this")) + " }", ReturnByValue: new(true), AwaitPromise: new(true)})
		_, _ = callOn(ctx, pw.host, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: obj.Object.ObjectID})
		if err != nil {
			return 0, 0, p.ctxError(ctx, err, "measure the iframe")
		}
		var off struct{ X, Y float64 }
		if res.ExceptionDetails != nil || json.Unmarshal(res.Result.Value, &off) != nil {
			return 0, 0, fmt.Errorf("measure the iframe of frame %s", f)
		}
		x, y, f = x+off.X, y+off.Y, parent
	}
	return x, y, nil
}

// stitchFrames takes a snapshot of each iframe in a frame's snapshot and
// puts it in place under the iframe's line, with refs prefixed fN. It
// recurses into nested iframes.
func (p *Page) stitchFrames(ctx context.Context, f cdp.FrameID, snap *Snapshot, q snapQuery, depth int) {
	if depth > 5 {
		return
	}
	// Visit the iframes in document order, so frames are numbered (f1, f2,
	// ...) the same way every time.
	var iframes []string
	for ref, info := range snap.Refs {
		if info.Role == "iframe" {
			iframes = append(iframes, ref)
		}
	}
	sort.Slice(iframes, func(i, j int) bool {
		return strings.Index(snap.YAML, "[ref="+iframes[i]+"]") < strings.Index(snap.YAML, "[ref="+iframes[j]+"]")
	})
	for _, ref := range iframes {
		child, err := p.childFrame(ctx, f, fnResolve.call(ref))
		if err != nil {
			continue // a frame without a document yet shows as an empty iframe
		}
		// A frame's document is read whole (no changes, no from), in what is
		// left of the budget, and as deep as the levels left below the
		// iframe's line (none: the iframe's line alone).
		cq := snapQuery{Depth: q.Depth, InteractiveOnly: q.InteractiveOnly, Fresh: true, Boxes: q.Boxes}
		if q.Depth > 0 {
			if cq.Depth = q.Depth - snaptext.LineLevel(snap.YAML, "[ref="+ref+"]"); cq.Depth <= 0 {
				continue
			}
		}
		if q.Budget > 0 {
			cq.Budget = max(q.Budget-len(snap.YAML), minFrameBudget)
		}
		sub, err := p.frameSnapshot(ctx, child, cq, "")
		if err != nil {
			continue
		}
		p.stitchFrames(ctx, child, sub, cq, depth+1)
		snap.Folds += sub.Folds
		snap.YAML = snaptext.InsertUnder(snap.YAML, "[ref="+ref+"]", sub.YAML)
		for r, i := range sub.Refs {
			snap.Refs[r] = i
		}
	}
}

// minFrameBudget is the least budget an iframe's snapshot gets, however
// much of it the page around it took.
const minFrameBudget = 2048
