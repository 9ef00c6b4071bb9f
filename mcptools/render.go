package mcptools

import (
	"context"
	"fmt"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/mark3labs/mcp-go/mcp"
)

// response collects the sections of a tool's answer, in the order agents
// know from Playwright MCP: Result, Page, Snapshot.
type response struct {
	result   strings.Builder
	page     strings.Builder
	snapshot string
	images   []mcp.Content
	data     map[string]any
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
	if r.snapshot != "" {
		b.WriteString(r.snapshot)
	}
	res := &mcp.CallToolResult{Content: append([]mcp.Content{mcp.NewTextContent(strings.TrimRight(b.String(), "\n"))}, r.images...)}
	if r.data != nil {
		res.StructuredContent = r.data
	}
	return res
}

// pageState adds the page's URL, title, new console errors and dialogs, and
// a snapshot: the whole tree when full is set or the page is new to this
// session, else only what changed since the last snapshot the agent saw.
func (r *response) pageState(ctx context.Context, s *Session, p *browser.Page, full bool, opts browser.SnapshotOptions) error {
	snap, err := p.Snapshot(ctx, opts)
	if err != nil {
		return err
	}
	r.pageInfo(snap.Info, p)
	yaml := strings.TrimRight(snap.YAML, "\n")
	defer func() { s.lastSnap, s.lastURL = yaml, snap.Info.URL }()
	if !full && s.lastSnap != "" && s.lastURL == snap.Info.URL && opts == (browser.SnapshotOptions{}) {
		diff, changed := browser.DiffSnapshot(s.lastSnap, yaml)
		switch {
		case !changed:
			r.snapshot = "### Snapshot\nNo changes since the last snapshot.\n"
			return nil
		case len(diff) < len(yaml)*7/10:
			r.snapshot = "### Snapshot (changes since the last snapshot)\n```yaml\n" + diff + "\n```\n"
			return nil
		}
	}
	r.snapshot = "### Snapshot\n```yaml\n" + yaml + "\n```\n"
	return nil
}

// pageInfo renders the ### Page section.
func (r *response) pageInfo(info browser.Info, p *browser.Page) {
	fmt.Fprintf(&r.page, "- Page URL: %s\n- Page Title: %s\n", info.URL, info.Title)
	if info.Status >= 400 {
		fmt.Fprintf(&r.page, "- HTTP status: %d\n", info.Status)
	}
	console, dropped, dialogs := p.TakeEvents()
	if len(console) > 0 {
		fmt.Fprintf(&r.page, "- New console errors: %d\n", len(console)+dropped)
		for _, m := range console[max(0, len(console)-10):] {
			fmt.Fprintf(&r.page, "  - %s: %s\n", m.Level, truncate(m.Text, 300))
		}
	}
	for _, d := range dialogs {
		fmt.Fprintf(&r.page, "- Dialog (answered automatically): %s\n", truncate(d, 300))
	}
	r.set("page", info)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
