// Package cdpcall is how the page engine and the packages below it send
// one DevTools command to one session, and the context a restore runs on.
//
// A session's chromedp context lives as long as its target; a call has
// its own deadline and may be cancelled by the client. [On] sends a
// command on the session's connection bounded by the call's context, and
// says so when the call's end cut the command short. [Detached] is the
// context that puts back what a call changed for its length, or releases
// what it held, even when the call was cancelled: browser's
// TestRestoresDetached holds every deferred restore to it, and it is the
// one place that detaches a context. It imports chromedp and cdproto
// only; browser and its packages import it, and it imports none of them.
package cdpcall

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// RestoreTimeout bounds putting back what a call changed for its length.
const RestoreTimeout = 5 * time.Second

// On runs a CDP command on the session of the chromedp context session,
// bounded by ctx. When ctx ended first, the error says so (it wraps
// ctx's error, with the command's own in brackets).
func On[P, R any](ctx, session context.Context, cmd cdp.Command[P, R], params P) (R, error) {
	sc, cancel := context.WithCancel(session)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	r, err := chromedp.Call(sc, cmd, params)
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return r, err
}

// Detached is the context that puts back what a call changed for its
// length (a throttled CPU or network, animations held still, drags
// intercepted, a scratch tab's blank mode) or releases what it held (a
// stream, a remote object): ctx's values without its cancellation, bounded
// by RestoreTimeout. A client that cancels a call (notifications/cancelled,
// session_end) must not leave the tab changed for every later call, and a
// restore run on the cancelled context fails at once.
func Detached(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), RestoreTimeout)
}
