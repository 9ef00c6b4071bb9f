package mcptools

import (
	"context"
	"fmt"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/browser/snaptext"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
	"github.com/mark3labs/mcp-go/mcp"
)

// response collects the sections of a tool's answer, in the order agents
// know from Playwright MCP: Result, Page, Snapshot.
type response struct {
	result   strings.Builder
	page     strings.Builder
	tabs     strings.Builder
	modal    strings.Builder
	snapshot string
	images   []mcp.Content
	data     map[string]any
	// asked: the agent asked for the snapshot (browser_snapshot), which
	// --snapshot-mode none leaves in.
	asked bool
}

func (r *response) resultf(format string, args ...any) {
	fmt.Fprintf(&r.result, format, args...)
	r.result.WriteByte('\n')
}

func (r *response) set(key string, v any) {
	if r.data == nil {
		r.data = map[string]any{}
	}
	r.data[key] = v
}

func (r *response) build() *mcp.CallToolResult {
	var b strings.Builder
	if r.result.Len() > 0 {
		b.WriteString("### Result\n")
		b.WriteString(r.result.String())
	}
	if r.page.Len() > 0 {
		b.WriteString("### Page\n")
		b.WriteString(r.page.String())
	}
	b.WriteString(r.tabs.String())
	b.WriteString(r.modal.String())
	if r.snapshot != "" {
		b.WriteString(r.snapshot)
	}
	res := &mcp.CallToolResult{Content: append([]mcp.Content{mcp.NewTextContent(strings.TrimRight(b.String(), "\n"))}, r.images...)}
	if r.data != nil {
		res.StructuredContent = r.data
	}
	return res
}

// snapMode says how much of the snapshot a response shows.
type snapMode int

const (
	// snapFull shows the whole tree (after a navigation, or on request).
	snapFull snapMode = iota
	// snapChanges shows what changed since the session's last snapshot of
	// the page, when that is clearly smaller than the whole (after actions).
	snapChanges
	// snapDiff always shows only the changes (browser_snapshot diff=true).
	snapDiff
)

// pageState adds the page's URL, title, new console errors and dialogs, and
// a snapshot as mode says, capped at maxBytes.
func (r *response) pageState(ctx context.Context, s *Session, p *browser.Page, mode snapMode, opts browser.SnapshotOptions, maxBytes int) error {
	if s.batching {
		return nil
	}
	if s.noSnapshots && !r.asked {
		// --snapshot-mode none: the page in a line; browser_snapshot reads it.
		if p.Dialog() == nil && !p.Gone() {
			r.pageInfo(p.LastInfo(), p)
			r.tabsInfo(ctx, s)
		}
		return nil
	}
	if p.Gone() && s.tabs != nil && !s.tabs.Gone() {
		// The action closed the tab (window.close): show the one now current.
		np, _, err := s.tabs.Sync(ctx)
		if err != nil {
			return err
		}
		r.resultf("The tab closed; tab %d is current now.", s.tabs.CurrentIndex())
		p, mode = np, snapFull
	}
	if d := p.Dialog(); d != nil {
		// The page runs no script until the dialog is answered: no snapshot.
		r.pageInfo(p.LastInfo(), p)
		r.tabsInfo(ctx, s)
		r.dialog(d)
		return nil
	}
	whole := opts.WholePage()
	var snap *browser.Snapshot
	var err error
	if mode != snapFull && whole {
		snap, err = p.Changes(ctx, mode == snapDiff)
	} else {
		snap, err = p.Snapshot(ctx, opts)
	}
	if err != nil {
		return err
	}
	// A folded page does not list every ref: it cannot tell same-named
	// elements apart for a recorded locator.
	s.rememberRefs(snap.Refs, whole && !opts.Full && snap.Kind == browser.SnapWhole && snap.Folds == 0)
	// The structured answer: what the snapshot holds and the role and name
	// of each ref it hands out; the YAML itself only for a client that asks
	// (the text has it).
	sd := map[string]any{"kind": snap.Kind, "refs": snap.Refs}
	r.set("snapshot", sd)
	withYAML := wantsSnapshotYAML(s.req)
	if withYAML {
		sd["yaml"] = ""
	}
	r.pageInfo(snap.Info, p)
	r.tabsInfo(ctx, s)
	yaml := strings.TrimRight(snap.YAML, "\n")
	prev, samePage := s.lastSnap, s.lastSnap != "" && s.lastURL == snap.Info.URL
	if whole && snap.Kind == browser.SnapWhole {
		s.lastSnap, s.lastURL = yaml, snap.Info.URL
	}
	title := "### Snapshot"
	switch {
	case snap.Kind == browser.SnapNone:
		r.snapshot = "### Snapshot\nNo changes since the last snapshot.\n"
		return nil
	case snap.Kind == browser.SnapChanges:
		title = "### Snapshot (changes since the last snapshot)"
	case mode != snapFull && whole && snap.Frames:
		// The engine compares only its own document: with iframes, the text is compared.
		switch diff, changed := snaptext.Diff(prev, yaml); {
		case !samePage && mode == snapDiff:
			title = "### Snapshot (no earlier snapshot of this page: all of it)"
		case !samePage:
		case !changed:
			r.snapshot = "### Snapshot\nNo changes since the last snapshot.\n"
			return nil
		case mode == snapDiff || len(diff) < len(yaml)*7/10:
			title, yaml = "### Snapshot (changes since the last snapshot)", diff
		}
	case mode == snapDiff:
		title = "### Snapshot (no earlier snapshot of this page: all of it)"
	}
	if yaml == "" {
		r.snapshot = title + "\nThe page shows nothing (empty body).\n"
		return nil
	}
	body, cut := capLines(yaml, maxBytes)
	r.snapshot = title + "\n```yaml\n" + body + "\n```\n"
	s.noteReads(body) // what the agent reads (assertReads)
	if withYAML {
		sd["yaml"] = body
	}
	if cut {
		r.snapshot += fmt.Sprintf("(Snapshot cut at %d KB of %d KB. For the rest, call browser_snapshot with target=<ref or selector of a part> and from=N, or filename to write it whole, or start the server with a larger --max-snapshot-bytes.)\n",
			len(body)>>10, len(yaml)>>10)
	}
	if snap.Folds > 0 {
		r.snapshot += "(\"…\" lines are folded parts: browser_snapshot with their target and from opens one; browser_find searches everything.)\n"
		r.set("folds", snap.Folds)
	}
	return nil
}

// MetaSnapshotYAML is the _meta key of a tool call with which a client asks
// for the snapshot's YAML in structuredContent too (the CLI does); agents
// read it in the text, and need it once.
const MetaSnapshotYAML = "e2e-mcp/snapshot-yaml"

func wantsSnapshotYAML(req mcp.CallToolRequest) bool {
	if req.Params.Meta == nil {
		return false
	}
	v, _ := req.Params.Meta.AdditionalFields[MetaSnapshotYAML].(bool)
	return v
}

// capLines cuts text at the last line break within max bytes (0: no cap).
func capLines(text string, max int) (string, bool) {
	if max <= 0 || len(text) <= max {
		return text, false
	}
	cut := strings.LastIndexByte(text[:max], '\n')
	if cut <= 0 {
		cut = max
	}
	return text[:cut], true
}

// pageInfo renders the ### Page section.
func (r *response) pageInfo(info browser.Info, p *browser.Page) {
	fmt.Fprintf(&r.page, "- Page URL: %s\n- Page Title: %s\n", info.URL, info.Title)
	if info.Status >= 400 {
		fmt.Fprintf(&r.page, "- HTTP status: %d\n", info.Status)
	}
	console, dropped := p.TakeEvents()
	if len(console) > 0 {
		fmt.Fprintf(&r.page, "- New console errors: %d\n", len(console)+dropped)
		for _, m := range console[max(0, len(console)-10):] {
			fmt.Fprintf(&r.page, "  - %s: %s\n", m.Level, text.Clip(m.Text, 300))
		}
	}
	if blocked := p.TakeBlocked(); len(blocked) > 0 {
		fmt.Fprintf(&r.page, "- Blocked requests: %d (refused by the request policy)\n", len(blocked))
		for _, b := range blocked[:min(5, len(blocked))] {
			fmt.Fprintf(&r.page, "  - %s: %s\n", text.Clip(b.URL, 200), b.Rule)
		}
		r.set("blockedRequests", blocked)
	}
	if p.FileChooserOpen() {
		r.page.WriteString("- File chooser open: answer it with browser_file_upload (paths)\n")
	}
	r.set("page", info)
}

// tabsInfo lists the session's tabs when there is more than one, and says
// when a page opened new ones.
func (r *response) tabsInfo(ctx context.Context, s *Session) {
	if s.tabs == nil {
		return
	}
	s.newTabs += s.tabs.TakePopups(ctx)
	if s.newTabs > 0 {
		fmt.Fprintf(&r.page, "- New tabs opened: %d (they are not current: select one with browser_tabs)\n", s.newTabs)
		r.set("tabsOpened", s.newTabs)
		s.newTabs = 0
	}
	if s.tabs.Len() > 1 {
		r.writeTabs(shortTabs(s.tabs.List(ctx), maxTabsShown))
	}
}

// maxTabsShown bounds the tabs a page state lists (browser_tabs lists all):
// a page that opened two hundred popups must not make every answer long.
const maxTabsShown = 12

// shortTabs keeps at most n tabs of a list: the first and the last ones,
// and the current one; a nil entry stands for those left out.
func shortTabs(tabs []browser.TabInfo, n int) []*browser.TabInfo {
	out := make([]*browser.TabInfo, 0, min(len(tabs), n+1))
	if len(tabs) <= n {
		for i := range tabs {
			out = append(out, &tabs[i])
		}
		return out
	}
	head := n / 2
	tail := n - head - 1 // room for the current one
	gap := false
	for i := range tabs {
		if i < head || i >= len(tabs)-tail || tabs[i].Current {
			out = append(out, &tabs[i])
			gap = false
			continue
		}
		if !gap {
			out = append(out, nil)
			gap = true
		}
	}
	return out
}

// writeTabs renders the ### Open tabs section (a nil entry: tabs left out).
func (r *response) writeTabs(tabs []*browser.TabInfo) {
	r.tabs.WriteString("### Open tabs\n")
	shown := make([]browser.TabInfo, 0, len(tabs))
	for _, t := range tabs {
		if t == nil {
			r.tabs.WriteString("- … (more tabs: browser_tabs action=list lists them all)\n")
			continue
		}
		shown = append(shown, *t)
		cur := ""
		if t.Current {
			cur = " (current)"
		}
		title := t.Title
		if title == "" {
			title = "(no title)"
		}
		fmt.Fprintf(&r.tabs, "- %d:%s [%s](%s)", t.Index, cur, text.Clip(title, 80), t.URL)
		if t.Dialog != "" {
			fmt.Fprintf(&r.tabs, " - dialog open: %s", text.Clip(t.Dialog, 120))
		}
		r.tabs.WriteByte('\n')
	}
	r.set("tabs", shown)
}

// dialog renders the ### Dialog section: what blocks the page, and how to
// go on.
func (r *response) dialog(d *browser.Dialog) {
	fmt.Fprintf(&r.modal, "### Dialog\nA %s dialog is open: %q", d.Type, text.Clip(d.Message, 500))
	if d.Type == "prompt" && d.DefaultPrompt != "" {
		fmt.Fprintf(&r.modal, " (default answer %q)", text.Clip(d.DefaultPrompt, 200))
	}
	r.modal.WriteString("\nThe page is blocked until you answer it with browser_handle_dialog (accept; promptText for a prompt).\n")
	r.set("dialog", d)
}
