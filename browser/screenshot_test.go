//go:build !unit

package browser

import (
	"bytes"
	"context"
	"image/jpeg"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/browser/measure"
)

// TestScreenshot_SmallJPEG: a capture with MaxWidth is a JPEG scaled down
// to that width with the viewport's proportions, at the quality asked.
func TestScreenshot_SmallJPEG(t *testing.T) {
	p := openPage(t, "/bench/rows1500")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	full, err := p.Screenshot(ctx, measure.ScreenshotOptions{Format: "jpeg"})
	if err != nil {
		t.Fatal(err)
	}
	small, err := p.Screenshot(ctx, measure.ScreenshotOptions{Format: "jpeg", Quality: 50, MaxWidth: 400})
	if err != nil {
		t.Fatal(err)
	}
	fc, err := jpeg.DecodeConfig(bytes.NewReader(full))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := jpeg.DecodeConfig(bytes.NewReader(small))
	if err != nil {
		t.Fatalf("the small capture is not a JPEG: %v", err)
	}
	if fc.Width <= 400 {
		t.Fatalf("the viewport is %d px wide: the test needs one wider than 400", fc.Width)
	}
	if sc.Width != 400 || abs(sc.Height-fc.Height*400/fc.Width) > 2 {
		t.Errorf("scaled capture is %dx%d, want 400 wide in the viewport's %dx%d proportions", sc.Width, sc.Height, fc.Width, fc.Height)
	}
	if len(small) >= len(full) {
		t.Errorf("the small capture (%d bytes) is not smaller than the full one (%d)", len(small), len(full))
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// BenchmarkReportShot is the cost of the screenshot a session takes after
// each action when its report keeps them (JPEG at 50, 800 px wide), on a
// small form page and on the 1,500-row table page.
func BenchmarkReportShot(b *testing.B) {
	for _, path := range []string{"/locators", "/bench/rows1500"} {
		b.Run(path, func(b *testing.B) {
			p := openPageTB(b, path)
			ctx := context.Background()
			var size int
			for b.Loop() {
				img, err := p.Screenshot(ctx, measure.ScreenshotOptions{Format: "jpeg", Quality: 50, MaxWidth: 800})
				if err != nil {
					b.Fatal(err)
				}
				size = len(img)
			}
			b.ReportMetric(float64(size)/1024, "KB")
		})
	}
}
