package runner

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// saveArtifacts writes a failing step's whole response (error, dev-server
// log, console errors, failed requests), its text as given (masked), and
// its images: step-N.png, then step-N-2.png... (a visual check's baseline,
// actual image and diff).
func saveArtifacts(dir, name string, step int, images []mcptools.Image, text string) string {
	base := filepath.Join(safeName(name), fmt.Sprintf("step-%d", step))
	if err := mcptools.WriteUserFile(dir, base+".md", []byte(text+"\n")); err != nil {
		return ""
	}
	for i, img := range images {
		ext := ".png"
		if img.MIMEType == "image/jpeg" {
			ext = ".jpg"
		}
		if i > 0 {
			ext = fmt.Sprintf("-%d%s", i+1, ext)
		}
		_ = mcptools.WriteUserFile(dir, base+ext, img.Data)
	}
	return filepath.Join(dir, safeName(name))
}

// safeName is a flow's name as a file's: no separator, no colon, no NUL.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == 0 {
			return '_'
		}
		return r
	}, s)
}
