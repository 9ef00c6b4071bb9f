package mcptools

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/netguard"
	"github.com/mark3labs/mcp-go/mcp"
)

// Downloads: what an action made the page download is waited for (within
// downloadWait), moved out of the browser's profile into the downloads
// directory, and reported in that action's answer.

// downloadWait bounds how long an answer waits for its downloads to end.
const downloadWait = 30 * time.Second

// downloadDir is where downloads are kept, in the first file root (over
// HTTP, the caller's own directory of the output directory).
func (d *Deps) downloadDir() string {
	if d.Remote {
		return "downloads"
	}
	return "e2e-mcp-downloads"
}

// deliverDownloads adds the downloads the call started to its answer.
func (d *Deps) deliverDownloads(ctx context.Context, s *Session, res *mcp.CallToolResult) {
	if s.tabs == nil || res == nil || res.IsError || !s.tabs.DownloadsBegun() {
		return
	}
	d.reportDownloads(res, d.keepDownloads(ctx, s.tabs.TakeDownloads(ctx, downloadWait, false)))
}

// keptDownload is a download as the answer reports it.
type keptDownload struct {
	Name  string `json:"name"`
	URL   string `json:"url"`
	State string `json:"state"`
	Size  int64  `json:"size"`
	Path  string `json:"path,omitempty"`
	Note  string `json:"note,omitempty"`
}

// keepDownloads moves finished downloads into the downloads directory.
func (d *Deps) keepDownloads(ctx context.Context, list []netguard.Download) []keptDownload {
	var out []keptDownload
	for _, dl := range list {
		k := keptDownload{Name: dl.Name, URL: dl.URL, State: dl.State, Size: dl.Size}
		switch {
		case dl.Error != "":
			k.Note = "not kept: " + dl.Error
		case dl.State != "completed":
			k.Note = "not finished: " + dl.State
		default:
			path, size, err := d.moveDownload(ctx, dl.Path, dl.Name)
			if err != nil {
				k.Note = "not kept: " + err.Error()
			} else {
				k.Path, k.Size = path, size
			}
		}
		out = append(out, k)
	}
	return out
}

// moveDownload moves Chrome's file into the downloads directory under
// name, or name (2), (3)... when taken: a new file, 0644, written as every
// file a tool writes (files.go), so no link leads it out of the roots.
func (d *Deps) moveDownload(ctx context.Context, from, name string) (string, int64, error) {
	out, err := d.serverFile(ctx, "download", d.downloadDir(), name)
	if err != nil {
		return "", 0, err
	}
	out.fresh = true
	src, err := os.Open(from) //nolint:gosec // Chrome's file in the profile we made
	if err != nil {
		return "", 0, err
	}
	defer src.Close() //nolint:errcheck // read only
	o, n, err := out.createNumbered(src)
	if err != nil {
		return "", 0, err
	}
	_ = os.Remove(from) // Chrome's copy, in the profile we made
	return o.path, n, nil
}

// reportDownloads adds a ### Downloads section and the structured list.
func (d *Deps) reportDownloads(res *mcp.CallToolResult, kept []keptDownload) {
	if len(kept) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("\n### Downloads\n")
	for _, k := range kept {
		if k.Path != "" {
			fmt.Fprintf(&b, "- %s: %d bytes, saved to %s\n", k.Name, k.Size, k.Path)
		} else {
			fmt.Fprintf(&b, "- %s (%s): %s\n", k.Name, k.URL, k.Note)
		}
	}
	text := strings.TrimRight(b.String(), "\n")
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(mcp.TextContent); ok {
			tc.Text += text
			res.Content[0] = tc
		}
	} else {
		res.Content = []mcp.Content{mcp.NewTextContent(strings.TrimSpace(text))}
	}
	if sc, ok := res.StructuredContent.(map[string]any); ok {
		sc["downloads"] = kept
	} else if res.StructuredContent == nil {
		res.StructuredContent = map[string]any{"downloads": kept}
	}
}
