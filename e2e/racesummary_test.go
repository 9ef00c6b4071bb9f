package e2e

import (
	"strings"
	"testing"
)

// TestRaceSummary checks that the short form of a race report keeps both
// accesses and this module's frames under each, and drops the rest.
func TestRaceSummary(t *testing.T) {
	report := `==================
WARNING: DATA RACE
Write at 0x00c000123 by goroutine 63:
  github.com/e2e-mcp/e2e-mcp/browser.(*Page).onEvent()
      /src/browser/page.go:320 +0x1
  github.com/chromedp/chromedp.runListeners()
      /mod/chromedp/target.go:140 +0x2

Previous read at 0x00c000123 by goroutine 70:
  github.com/e2e-mcp/e2e-mcp/mcptools.(*Session).reportShot()
      /src/mcptools/steplog.go:230 +0x3
  github.com/mark3labs/mcp-go/server.(*MCPServer).handleToolCall()
      /mod/mcp-go/server.go:2180 +0x4

Goroutine 63 (running) created at:
  github.com/chromedp/chromedp.(*Target).run()
==================`
	got := raceSummary(report)
	for _, want := range []string{"WARNING: DATA RACE", "Write at 0x00c000123 by goroutine 63:", "browser.(*Page).onEvent()",
		"Previous read at 0x00c000123 by goroutine 70:", "mcptools.(*Session).reportShot()", "Goroutine 63 (running) created at:"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"chromedp.runListeners", "/src/browser/page.go", "handleToolCall"} {
		if strings.Contains(got, not) {
			t.Errorf("summary keeps %q:\n%s", not, got)
		}
	}
}
