package runner

import (
	"encoding/base64"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/mark3labs/mcp-go/mcp"
)

// saveArtifacts writes a failing step's whole response (error, dev-server
// log, console errors, failed requests), its text as given (masked), and
// its images: step-N.png, then step-N-2.png... (a visual check's baseline,
// actual image and diff).
func saveArtifacts(dir, name string, step int, r *mcp.CallToolResult, text string) string {
	base := filepath.Join(safeName(name), fmt.Sprintf("step-%d", step))
	if err := mcptools.WriteUserFile(dir, base+".md", []byte(text+"\n")); err != nil {
		return ""
	}
	n := 0
	for _, c := range r.Content {
		if img, ok := c.(mcp.ImageContent); ok {
			if b, err := base64.StdEncoding.DecodeString(img.Data); err == nil {
				ext := ".png"
				if img.MIMEType == "image/jpeg" {
					ext = ".jpg"
				}
				if n++; n > 1 {
					ext = fmt.Sprintf("-%d%s", n, ext)
				}
				_ = mcptools.WriteUserFile(dir, base+ext, b)
			}
		}
	}
	return filepath.Join(dir, safeName(name))
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == 0 {
			return '_'
		}
		return r
	}, s)
}
