package browser

import "context"

// A tool that shows the page's snapshot right after an action lets the
// action's settle barrier take that snapshot: the round trip that makes
// sure the action's events have reached us then also brings the snapshot,
// instead of one round trip for each. The snapshot is kept in a token of
// the call's context, so it can never outlive the call that took it.

type snapTokenKey struct{}

type snapToken struct {
	page *Page
	snap *Snapshot
}

// SnapshotAfter marks ctx as the context of a call that takes a whole-page
// snapshot after its action.
func SnapshotAfter(ctx context.Context) context.Context {
	return context.WithValue(ctx, snapTokenKey{}, &snapToken{})
}

// NoSnapshotAfter unmarks ctx, for an action whose result no snapshot
// follows directly (the first fields of a form).
func NoSnapshotAfter(ctx context.Context) context.Context {
	return context.WithValue(ctx, snapTokenKey{}, (*snapToken)(nil))
}

func tokenOf(ctx context.Context) *snapToken {
	t, _ := ctx.Value(snapTokenKey{}).(*snapToken)
	return t
}

// keepSettled stores the snapshot a barrier took (nil forgets it).
func (p *Page) keepSettled(ctx context.Context, s *Snapshot) {
	if t := tokenOf(ctx); t != nil {
		t.page, t.snap = p, s
	}
}

// takeSettled returns, once, the snapshot the last barrier of this call
// took of p, if nothing has happened since that makes it stale.
func (p *Page) takeSettled(ctx context.Context) *Snapshot {
	t := tokenOf(ctx)
	if t == nil || t.page != p || t.snap == nil {
		return nil
	}
	s := t.snap
	t.snap = nil
	return s
}
