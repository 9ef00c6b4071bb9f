//go:build !unit

package mcptools

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"go.uber.org/zap"
)

// inProcess serves the tools to an in-process MCP client over a real browser.
func inProcess(t *testing.T, maxSnapshot int) (*client.Client, *httptest.Server) {
	t.Helper()
	log := zap.NewNop()
	bm := browser.NewManager(browser.Options{ExecPath: os.Getenv("E2E_MCP_BROWSER_PATH"), ProfileRoot: t.TempDir(), Logger: log})
	reg := NewRegistry(bm, log)
	t.Cleanup(func() { reg.CloseAll(); _ = bm.Close() })
	srv := NewServer("test", &Deps{Browser: bm, Sessions: reg, Logger: log, MaxSnapshotBytes: maxSnapshot})
	c, err := client.NewInProcessClientWithOptions(srv, client.WithProtocolVersion(mcp.ProtocolVersion20251125))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/long":
			fmt.Fprint(w, "<title>Long</title><ul>")
			for i := range 400 {
				fmt.Fprintf(w, "<li><button>Item %d</button></li>", i)
			}
			fmt.Fprint(w, "</ul>")
		default:
			fmt.Fprint(w, `<title>Counter</title><h1>Counter</h1><button onclick="document.getElementById('n').textContent++">Add</button><p id="n">0</p><p>Static text</p>`+strings.Repeat(`<p>More static text that does not change</p>`, 10))
		}
	}))
	t.Cleanup(site.Close)
	return c, site
}

func callText(t *testing.T, c *client.Client, tool string, args map[string]any) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var b strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func TestSnapshot_DiffAndCap(t *testing.T) {
	c, site := inProcess(t, 4096)
	out, _ := callText(t, c, "browser_navigate", map[string]any{"url": site.URL + "/"})
	if !strings.Contains(out, "Static text") {
		t.Fatalf("navigate shows the whole page:\n%s", out)
	}
	out, _ = callText(t, c, "browser_snapshot", map[string]any{"diff": true})
	if !strings.Contains(out, "No changes since the last snapshot.") {
		t.Errorf("diff of an unchanged page:\n%s", out)
	}
	out, _ = callText(t, c, "browser_click", map[string]any{"target": "text=Add"})
	if !strings.Contains(out, "changes since the last snapshot") || !strings.Contains(out, "paragraph: \"1\"") || strings.Contains(out, "Static text") {
		t.Errorf("click response should show only the counter's change:\n%s", out)
	}
	callText(t, c, "browser_click", map[string]any{"target": "text=Add"})
	out, _ = callText(t, c, "browser_snapshot", nil)
	if !strings.Contains(out, "Static text") || !strings.Contains(out, `paragraph: "2"`) {
		t.Errorf("a plain snapshot is whole:\n%s", out)
	}
	if out, isErr := callText(t, c, "browser_snapshot", map[string]any{"diff": true, "depth": 1}); !isErr || !strings.Contains(out, "invalid_input") {
		t.Errorf("diff with depth: want invalid_input, got:\n%s", out)
	}

	// Past the cap the snapshot is cut at a line, with a notice.
	out, _ = callText(t, c, "browser_navigate", map[string]any{"url": site.URL + "/long"})
	if !strings.Contains(out, "(Snapshot cut at 3 KB of") || !strings.Contains(out, "--max-snapshot-bytes") {
		t.Errorf("a long page's snapshot is not cut with a notice:\n%.600s", out)
	}
	if strings.Contains(out, "Item 399") {
		t.Errorf("the cut snapshot still holds the last item")
	}
	yaml := out[strings.Index(out, "```yaml\n")+8 : strings.LastIndex(out, "\n```")]
	if len(yaml) > 4096 || strings.HasSuffix(yaml, "[ref=") {
		t.Errorf("cut snapshot is %d bytes or cut mid-line", len(yaml))
	}
}
