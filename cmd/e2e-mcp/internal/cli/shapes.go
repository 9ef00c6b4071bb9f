package cli

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/mark3labs/mcp-go/mcp"
)

// How the CLI turns a tool's answer into its own (text, or --json with the
// fields each command documents).

func structured(res *mcp.CallToolResult) any {
	if res.StructuredContent != nil {
		return res.StructuredContent
	}
	return nil
}

// pageShape: the page after an action (URL, title) and its snapshot, or
// what changed in it, as the response showed.
func pageShape(res *mcp.CallToolResult, text string) (cliResult, error) {
	data := map[string]any{}
	sc, _ := res.StructuredContent.(map[string]any)
	if p, ok := sc["page"].(map[string]any); ok {
		data["url"], data["title"] = p["url"], p["title"]
	}
	if snap, ok := sc["snapshot"].(map[string]any); ok {
		if y, _ := snap["yaml"].(string); y != "" {
			data["snapshot"] = y
		}
	}
	return cliResult{data: data, text: text}, nil
}

// snapshotShape: the CLI's snapshot answer, {"snapshot","refs","origin"},
// from the structured answer (the CLI asks for the YAML in it).
func snapshotShape(res *mcp.CallToolResult, _ string) (cliResult, error) {
	sc, _ := res.StructuredContent.(map[string]any)
	snap, _ := sc["snapshot"].(map[string]any)
	yaml, _ := snap["yaml"].(string)
	refs := map[string]map[string]string{}
	if m, ok := snap["refs"].(map[string]any); ok {
		for ref, v := range m {
			info, _ := v.(map[string]any)
			role, _ := info["role"].(string)
			name, _ := info["name"].(string)
			refs[ref] = map[string]string{"role": role, "name": name}
		}
	}
	origin := ""
	if p, ok := sc["page"].(map[string]any); ok {
		origin, _ = p["url"].(string)
	}
	return cliResult{data: map[string]any{"snapshot": yaml, "refs": refs, "origin": origin}, text: yaml}, nil
}

// evalShape: the function's JSON result.
func evalShape(res *mcp.CallToolResult, text string) (cliResult, error) {
	sc, _ := res.StructuredContent.(map[string]any)
	v := sc["result"]
	if raw, ok := v.(json.RawMessage); ok {
		var x any
		_ = json.Unmarshal(raw, &x)
		v = x
	}
	b, _ := json.Marshal(v)
	return cliResult{data: v, text: string(b)}, nil
}

// screenshotShape writes the image to path (or a temp file) and returns it.
func screenshotShape(path string) func(*mcp.CallToolResult, string) (cliResult, error) {
	return func(res *mcp.CallToolResult, _ string) (cliResult, error) {
		for _, c := range res.Content {
			img, ok := c.(mcp.ImageContent)
			if !ok {
				continue
			}
			b, err := base64.StdEncoding.DecodeString(img.Data)
			if err != nil {
				return cliResult{}, err
			}
			if path == "" {
				f, err := os.CreateTemp("", "e2e-mcp-screenshot-*.png")
				if err != nil {
					return cliResult{}, err
				}
				path = f.Name()
				_ = f.Close()
			}
			if err := mcptools.WriteUserFile(filepath.Dir(path), filepath.Base(path), b); err != nil {
				return cliResult{}, err
			}
			abs, _ := filepath.Abs(path)
			return cliResult{data: map[string]any{"path": abs, "bytes": len(b)}, text: abs}, nil
		}
		return cliResult{}, errors.New("the screenshot answer holds no image")
	}
}
