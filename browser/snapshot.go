package browser

import (
	"context"
	"encoding/json"

	"github.com/chromedp/cdproto/cdp"
)

// Snapshots: the page's accessibility tree as YAML, whole, folded to the
// budget, or as what changed since the last answer. The engine's side:
// js/20_snapshot.js walks the page into a tree and keeps it up to date,
// js/22_fold.js folds it, js/24_changes.js diffs it and holds snapshot().

// SnapshotOptions select what a snapshot shows.
type SnapshotOptions struct {
	// Target limits the snapshot to the subtree of this ref or selector.
	Target string
	// Depth limits how deep the tree goes below its top lines, counted as
	// Playwright counts it (the top lines are depth 0): 1 shows the top
	// lines and their children. 0 means no limit.
	Depth int
	// InteractiveOnly lists only the elements that have refs.
	InteractiveOnly bool
	// From shows the children of Target (or the page's top level) from
	// this one on, 1-based, as a fold line says; 0 shows them all.
	From int
	// Full never folds: the whole tree, however large.
	Full bool
	// Boxes has each element's line say where it is, as --snapshot-boxes
	// does for every snapshot.
	Boxes bool
}

// WholePage says whether the options ask for the whole page as it is (a
// snapshot later answers compare with: boxes are not part of that).
func (o SnapshotOptions) WholePage() bool {
	return o.Target == "" && o.Depth == 0 && !o.InteractiveOnly && o.From == 0 && !o.Boxes
}

// RefInfo describes the element behind a ref.
type RefInfo struct {
	Role string `json:"role"`
	Name string `json:"name"`
}

// Snapshot kinds: what a [Snapshot]'s YAML holds.
const (
	SnapWhole   = "whole"   // the page, or the part asked for
	SnapChanges = "changes" // only what changed since the last snapshot an answer showed
	SnapNone    = "none"    // nothing changed since then (YAML is empty)
)

// Snapshot is the page's accessibility tree as YAML, with its refs.
type Snapshot struct {
	YAML string             `json:"yaml"`
	Refs map[string]RefInfo `json:"refs"`
	Info Info               `json:"info"`
	// Kind says what YAML holds (SnapWhole, SnapChanges, SnapNone).
	Kind string `json:"kind"`
	// Folds counts the fold lines in YAML: parts left out to keep within
	// the snapshot budget, each saying how to open it.
	Folds int `json:"folds,omitempty"`
	// Frames says the page has iframes; changes are then not computed by
	// the engine (Kind is SnapWhole) and the caller compares the text.
	Frames bool `json:"frames,omitempty"`
	token  string
}

// Snapshot renders the page's accessibility tree in the Playwright MCP
// format, with iframes (same- and cross-process) in place and their refs
// prefixed fN, folded to the snapshot budget unless opts.Full. The main
// frame takes one round trip. A whole-page snapshot becomes the baseline
// of the next [Page.Changes].
func (p *Page) Snapshot(ctx context.Context, opts SnapshotOptions) (*Snapshot, error) {
	snap, err := p.snapshot(ctx, opts, "", false)
	if err == nil && opts.WholePage() && !opts.Full {
		p.shown = snap.token
	}
	return snap, err
}

// Changes is the page state an action answers with: what changed since
// the last snapshot an answer showed (Kind SnapChanges or SnapNone), or the
// whole page, folded, when that is not clearly larger (SnapWhole), or when
// onlyChanges is false and there is no earlier snapshot of this document.
// Only the elements on the paths to a change are read again.
func (p *Page) Changes(ctx context.Context, onlyChanges bool) (*Snapshot, error) {
	snap, err := p.snapshot(ctx, SnapshotOptions{}, p.shown, onlyChanges)
	if err != nil {
		return nil, err
	}
	p.shown = snap.token
	return snap, nil
}

// FullSnapshot is the whole page, never folded, without becoming the
// baseline of changes (for searching it).
func (p *Page) FullSnapshot(ctx context.Context) (*Snapshot, error) {
	return p.snapshot(ctx, SnapshotOptions{Full: true}, "", false)
}

// snapshot takes a snapshot; since, when not empty, asks for the changes
// since that engine token (onlyChanges: even when they are not smaller
// than the page). The engine reads again only the elements its watch saw
// change (docs/architecture.md §5), except for a full snapshot, which reads
// every element afresh.
func (p *Page) snapshot(ctx context.Context, opts SnapshotOptions, since string, onlyChanges bool) (*Snapshot, error) {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	frame, root := p.frame, ""
	if opts.Target != "" {
		loc, err := p.resolveIn(cctx, opts.Target, func(loc located) error {
			var ok bool
			return p.evalIn(cctx, loc.frame, "(("+loc.expr+"), true)", &ok)
		})
		if err != nil {
			return nil, err
		}
		frame, root = loc.frame, loc.expr
	}
	q := snapQuery{Depth: engineDepth(opts.Depth), InteractiveOnly: opts.InteractiveOnly, From: opts.From, Since: since,
		OnlyChanges: onlyChanges, Fresh: opts.Full, RootTarget: opts.Target, Boxes: opts.Boxes || p.m.opts.SnapshotBoxes}
	if !opts.Full {
		q.Budget = p.m.opts.SnapshotBudget
	}
	if frame == p.frame {
		p.mu.Lock()
		q.yield, p.net.yieldFirst = p.net.yieldFirst, false
		p.mu.Unlock()
	}
	snap, err := p.frameSnapshot(cctx, frame, q, root)
	if err != nil {
		return nil, p.targetError(cctx, err, opts.Target, nil)
	}
	if snap.Kind != SnapNone {
		p.stitchFrames(cctx, frame, snap, q, 0)
	}
	if frame != p.frame {
		if snap.Info, err = p.Info(cctx); err != nil {
			return nil, err
		}
	}
	return snap, nil
}

// engineDepth is a depth as the engine counts it: the levels shown (1:
// the top lines only), 0 for no limit.
func engineDepth(depth int) int {
	if depth <= 0 {
		return 0
	}
	return depth + 1
}

// snapQuery is what the engine's snapshot() is asked (js/24_changes.js).
type snapQuery struct {
	// Depth is how many levels are shown (1: the top lines only; 0: all).
	Depth           int    `json:"depth,omitempty"`
	InteractiveOnly bool   `json:"interactiveOnly,omitempty"`
	From            int    `json:"from,omitempty"`
	Budget          int    `json:"budget,omitempty"`
	Since           string `json:"since,omitempty"`
	OnlyChanges     bool   `json:"onlyChanges,omitempty"`
	Fresh           bool   `json:"fresh,omitempty"`
	RootTarget      string `json:"rootTarget,omitempty"`
	Boxes           bool   `json:"boxes,omitempty"`
	RefSeq          int    `json:"refSeq"`
	Prefix          string `json:"prefix"`
	// yield: the page's queued tasks run first (a fetch an action
	// awaited has answered: the code after its await runs then).
	yield bool
}

// frameSnapshot is one frame's snapshot, of its body or of the element
// rootExpr yields.
func (p *Page) frameSnapshot(ctx context.Context, f cdp.FrameID, q snapQuery, rootExpr string) (*Snapshot, error) {
	q.RefSeq, q.Prefix = p.refSeqOf(f), p.prefixOf(f)
	arg, _ := json.Marshal(q)
	call := fnSnapshot.call(jsExpr(arg))
	if rootExpr != "" {
		call = fnSnapshot.call(jsExpr("Object.assign(" + string(arg) + ", {root: " + rootExpr + "})"))
	}
	var res struct {
		Snap struct {
			YAML   string             `json:"yaml"`
			RefSeq int                `json:"refSeq"`
			Refs   map[string]RefInfo `json:"refs"`
			Token  string             `json:"token"`
			Kind   string             `json:"kind"`
			Folds  int                `json:"folds"`
			Frames bool               `json:"frames"`
			Error  string             `json:"error"`
			Input  bool               `json:"input"`
		} `json:"snap"`
		Info Info `json:"info"`
	}
	expr := "({snap: " + call + ", info: " + fnPageInfo.call() + "})"
	if q.yield {
		expr = "new Promise((r) => setTimeout(() => r(" + expr + ")))"
	}
	if err := p.evalIn(ctx, f, expr, &res); err != nil {
		return nil, err
	}
	if res.Snap.Error != "" {
		if res.Snap.Input {
			return nil, &Error{Kind: KindInvalidInput, Message: res.Snap.Error, Hint: "take the from value from a fold line of a recent snapshot"}
		}
		return nil, &Error{Kind: KindScriptError, Message: res.Snap.Error, Hint: "the page engine failed on this page; report it with the page's HTML"}
	}
	p.setRefSeq(f, res.Snap.RefSeq)
	if res.Snap.Refs == nil {
		res.Snap.Refs = map[string]RefInfo{}
	}
	return &Snapshot{YAML: res.Snap.YAML, Refs: res.Snap.Refs, Info: res.Info, Kind: res.Snap.Kind, Folds: res.Snap.Folds,
		Frames: res.Snap.Frames, token: res.Snap.Token}, nil
}
