package browser

import (
	"context"

	"github.com/e2e-mcp/e2e-mcp/browser/cdpcall"
)

// detached is the context that puts back what a call changed for its
// length, or releases what it held, even when the client cancelled the
// call (cdpcall.Detached). Every deferred function of this package that
// talks to the browser gets its context here, and nothing else detaches
// one (TestRestoresDetached).
func detached(ctx context.Context) (context.Context, context.CancelFunc) {
	return cdpcall.Detached(ctx)
}
