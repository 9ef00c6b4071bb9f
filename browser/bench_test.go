//go:build !unit

package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// bigTableRows is the size of the big-table page: Playwright MCP renders
// its snapshot in 492 KB (445 ms); ours must stay within half of that.
const (
	bigTableRows     = 1500
	bigTableMaxBytes = 246 * 1024
)

func init() {
	pages["/bench/rows1500"] = bigTablePage(bigTableRows)
}

// bigTablePage is a table of n rows; each row has a text cell, a cell with
// a button and a cell with a link.
func bigTablePage(n int) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><title>Orders</title><h1>Orders</h1>
<table><caption>All orders</caption>
<thead><tr><th scope="col">Order</th><th scope="col">Action</th><th scope="col">Details</th></tr></thead><tbody>
`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "<tr><td>Order %d from customer %d</td><td><button type=\"button\">Edit %d</button></td><td><a href=\"/orders/%d\">View %d</a></td></tr>\n", i, i*7%1000, i, i, i)
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

// openPageTB is openPage for benchmarks.
func openPageTB(tb testing.TB, path string) *Page {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := testManager.NewPage(ctx)
	if err != nil {
		tb.Fatalf("NewPage: %v", err)
	}
	tb.Cleanup(p.Close)
	if _, err := p.Navigate(ctx, testServer.URL+path); err != nil {
		tb.Fatalf("Navigate(%s): %v", path, err)
	}
	return p
}

// checkBigTable asserts the size bound and that every row's button and
// link has a ref.
func checkBigTable(tb testing.TB, s *Snapshot) {
	tb.Helper()
	if n := len(s.YAML); n > bigTableMaxBytes {
		tb.Errorf("snapshot of %d rows is %d bytes (%.1f KB), want <= %d", bigTableRows, n, float64(n)/1024, bigTableMaxBytes)
	}
	byName := map[string]bool{}
	for _, info := range s.Refs {
		byName[info.Role+" "+info.Name] = true
	}
	missing := 0
	for i := 1; i <= bigTableRows; i++ {
		for _, want := range []string{fmt.Sprintf("button Edit %d", i), fmt.Sprintf("link View %d", i)} {
			if !byName[want] {
				if missing++; missing <= 5 {
					tb.Errorf("no ref for %s", want)
				}
			}
		}
	}
	if missing > 5 {
		tb.Errorf("... %d refs missing in all", missing)
	}
}

func TestSnapshotBigTable(t *testing.T) {
	t.Parallel()
	p := openPage(t, "/bench/rows1500")
	start := time.Now()
	s := snapshot(t, p, SnapshotOptions{})
	t.Logf("%d rows: %.1f KB in %s", bigTableRows, float64(len(s.YAML))/1024, time.Since(start))
	checkBigTable(t, s)
	// Each row is one line: its cells are leaves.
	wantLines(t, s.YAML, `button "Edit 1500" [ref=`, `link "View 1500" [ref=`, `[url=/orders/1500]`)
}

func BenchmarkSnapshot1500Rows(b *testing.B) {
	p := openPageTB(b, "/bench/rows1500")
	ctx := context.Background()
	var size int
	for b.Loop() {
		s, err := p.Snapshot(ctx, SnapshotOptions{})
		if err != nil {
			b.Fatal(err)
		}
		size = len(s.YAML)
	}
	b.ReportMetric(float64(size)/1024, "KB/snapshot")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/snapshot")
}
