package mcptools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/mark3labs/mcp-go/mcp"
)

// Downloads: what an action made the page download is waited for (within
// downloadWait), moved out of the browser's profile into the downloads
// directory, and reported in that action's answer.

// downloadWait bounds how long an answer waits for its downloads to end.
const downloadWait = 30 * time.Second

// downloadDir is where downloads are kept: e2e-mcp-downloads in the first
// file root (roots.go), or over HTTP the output directory's downloads.
func (d *Deps) downloadDir(ctx context.Context) (string, error) {
	fr, err := d.writeRoots(ctx)
	if err != nil {
		return "", err
	}
	if d.Remote {
		return filepath.Join(fr.base, "downloads"), nil
	}
	return filepath.Join(fr.dirs[0], "e2e-mcp-downloads"), nil
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
func (d *Deps) keepDownloads(ctx context.Context, list []browser.Download) []keptDownload {
	var out []keptDownload
	dir, dirErr := d.downloadDir(ctx)
	for _, dl := range list {
		k := keptDownload{Name: dl.Name, URL: dl.URL, State: dl.State, Size: dl.Size}
		switch {
		case dl.Error != "":
			k.Note = "not kept: " + dl.Error
		case dl.State != "completed":
			k.Note = "not finished: " + dl.State
		case dirErr != nil:
			k.Note = "not kept: " + dirErr.Error()
		default:
			path, size, err := moveDownload(dl.Path, dir, dl.Name)
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

// moveDownload moves Chrome's file to dir under name, or name (2), (3)...
// when taken; a new file, 0644, never through a link.
func moveDownload(from, dir, name string) (string, int64, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil { //nolint:gosec // a directory the user reads
		return "", 0, err
	}
	src, err := os.Open(from) //nolint:gosec // Chrome's file in the profile we made
	if err != nil {
		return "", 0, err
	}
	defer src.Close() //nolint:errcheck // read only
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 1; i < 1000; i++ {
		path := filepath.Join(dir, name)
		if i > 1 {
			path = filepath.Join(dir, fmt.Sprintf("%s (%d)%s", stem, i, ext))
		}
		dst, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o644) //nolint:gosec // a file the user reads
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", 0, err
		}
		n, err := io.Copy(dst, src)
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(path)
			return "", 0, err
		}
		_ = os.Remove(from)
		return path, n, nil
	}
	return "", 0, fmt.Errorf("no free name for %s in %s", name, dir)
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
