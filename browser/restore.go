package browser

import (
	"context"
	"time"
)

// restoreTimeout bounds putting back what a call changed for its length.
const restoreTimeout = 5 * time.Second

// detached is the context that puts back what a call changed for its
// length (a throttled CPU or network, animations held still, drags
// intercepted, a scratch tab's blank mode) or releases what it held (a
// stream, a remote object): ctx's values without its cancellation, bounded
// by restoreTimeout. A client that cancels a call (notifications/cancelled,
// session_end) must not leave the tab changed for every later call, and a
// restore run on the cancelled context fails at once.
//
// Every deferred function of this package that talks to the browser gets
// its context here, and nothing else detaches one (TestRestoresDetached).
func detached(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), restoreTimeout)
}
