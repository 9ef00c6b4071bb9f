package launcher

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/metrics"
	"go.uber.org/zap"
)

// A browser can stop answering without dying: its process stopped, its UI
// thread stuck, or the connection to it blocked. Then every session's calls
// hang until their own timeouts, new sessions fail, and only a restart
// helps. The watchdog asks the browser something trivial now and then (a
// browser-level call, answered on the browser's own thread, costing a few
// microseconds) and, after a deadline is missed twice in a row, treats the
// browser as dead: its owner kills it (or, for a remote one, drops the
// connection) and tells each session on it once as browser_crashed, as a
// crash is; the next call starts a new one.

// Watchdog timings: a probe every watchEvery, each with watchTimeout to
// answer; watchStrikes missed in a row make a hung browser.
var (
	watchEvery   = 5 * time.Second
	watchTimeout = 10 * time.Second
	watchStrikes = 2
)

// Watch probes the browser behind bctx until bctx ends, and calls hung
// (once) when it stops answering; log is told of each probe missed. It is
// run on a goroutine of its own for each browser launched or connected.
func Watch(bctx context.Context, log *zap.Logger, hung func(why string)) {
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	strikes := 0
	for {
		select {
		case <-bctx.Done():
			return
		case <-t.C:
		}
		start := time.Now()
		cctx, cancel := context.WithTimeout(bctx, watchTimeout)
		_, err := chromedp.CallBrowser(cctx, browser.GetVersion, cdp.Empty{})
		cancel()
		if bctx.Err() != nil {
			return // closed or died meanwhile: not ours to report
		}
		if err == nil || !errors.Is(err, context.DeadlineExceeded) {
			strikes = 0
			continue
		}
		strikes++
		log.Warn("the browser did not answer a probe", zap.Duration("waited", time.Since(start)), zap.Int("strikes", strikes))
		if strikes >= watchStrikes {
			metrics.BrowserCrashed(metrics.CrashHung)
			hung(fmt.Sprintf("the browser stopped answering (no answer within %s, %d times in a row) and was stopped", watchTimeout, watchStrikes))
			return
		}
	}
}
