package netguard

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/chromedp/cdproto/fetch"
	cdpio "github.com/chromedp/cdproto/io"
	"github.com/chromedp/cdproto/network"
	"github.com/e2e-mcp/e2e-mcp/browser/cdpcall"
	"go.uber.org/zap"
)

// A remote browser's download is fetched again in a hidden tab of the
// session (remotedownload.go): each hop is paused by the tab's
// guard and held to the policy and the routes at the request stage, and
// the final response is taken at the response stage, its body read over
// IO.read into a local file, and the navigation aborted.

const (
	// RemoteDownloadTimeout bounds one fetch of a remote browser's
	// download, body included.
	RemoteDownloadTimeout = 5 * time.Minute
	// ioChunk is how much one IO.read asks for.
	ioChunk = 1 << 20
)

// detached is the context that releases what a call held (a stream),
// even when the client cancelled the call (cdpcall.Detached).
func detached(ctx context.Context) (context.Context, context.CancelFunc) {
	return cdpcall.Detached(ctx)
}

// bodyTake is a hidden tab's fetch of a download: where its body goes,
// the most it may be, and what came of it.
type bodyTake struct {
	path string
	max  int64
	done chan BodyTaken
}

// BodyTaken is what a taken body came to: the bytes written, or why not.
type BodyTaken struct {
	N   int64
	Err error
}

// TakeBody has the guard pause the tab's documents' responses, and write
// the body of the first that is not a redirect to path (at most max
// bytes); the channel says what came of it. Fetch must be enabled again
// (with Patterns) for it to take effect.
func (g *PageGuard) TakeBody(path string, max int64) <-chan BodyTaken {
	take := &bodyTake{path: path, max: max, done: make(chan BodyTaken, 1)}
	g.take.Store(take)
	return take.done
}

// pausedAtResponse says whether a paused request is at the response stage.
func pausedAtResponse(e *fetch.EventRequestPaused) bool {
	return e.ResponseStatusCode != 0 || e.ResponseErrorReason != ""
}

// atResponse answers a response a hidden tab's fetch paused: a redirect
// goes on (its next hop is paused and checked at the request stage), an
// error ends the fetch, and a file's body is taken and written, then the
// navigation aborted so that Chrome makes no download of it.
func (g *PageGuard) atResponse(h Session, e *fetch.EventRequestPaused) {
	ctx, cancel := context.WithTimeout(h.CDP(), RemoteDownloadTimeout)
	defer cancel()
	take := g.take.Load()
	status := e.ResponseStatusCode
	redirect := status >= 300 && status < 400 && headerOf(e.ResponseHeaders, "Location") != ""
	if take == nil || redirect || e.ResponseErrorReason != "" {
		if _, err := callOn(ctx, h, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID}); err != nil && ctx.Err() == nil {
			g.tab.Log().Debug("continue a response", zap.String("url", e.Request.URL), zap.Error(err))
		}
		return
	}
	var r BodyTaken
	if status >= 400 {
		r.Err = fmt.Errorf("fetching it again in the remote browser failed: HTTP %d", status)
	} else {
		r.N, r.Err = takeBody(ctx, h, e.RequestID, take.path, take.max)
	}
	select {
	case take.done <- r:
	default: // the fetch has its answer already
	}
	_, _ = callOn(ctx, h, fetch.FailRequest, fetch.FailRequestParams{RequestID: e.RequestID, ErrorReason: network.ErrorReasonAborted})
}

// headerOf is a response header's value, its name in any case.
func headerOf(hs []*fetch.HeaderEntry, name string) string {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

// ErrTooLarge is why a download over the limit is not kept.
func ErrTooLarge(max int64) error {
	return fmt.Errorf("it is larger than %d bytes, the most a page may download (--max-download-size)", max)
}

// takeBody streams the body of a response paused at the response stage
// into path, at most max bytes: a larger one is refused and nothing kept.
func takeBody(ctx context.Context, h Session, id fetch.RequestID, path string, max int64) (int64, error) {
	s, err := callOn(ctx, h, fetch.TakeResponseBodyAsStream, fetch.TakeResponseBodyAsStreamParams{RequestID: id})
	if err != nil {
		return 0, fmt.Errorf("reading it in the remote browser: %w", err)
	}
	defer func() {
		rctx, cancel := detached(ctx)
		defer cancel()
		_, _ = callOn(rctx, h, cdpio.Close, cdpio.CloseParams{Handle: s.Stream})
	}()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) //nolint:gosec // our own directory
	if err != nil {
		return 0, err
	}
	var n int64
	for {
		rr, err := callOn(ctx, h, cdpio.Read, cdpio.ReadParams{Handle: s.Stream, Size: ioChunk})
		if err == nil && n+int64(len(rr.Data)) > max {
			err = ErrTooLarge(max)
		}
		if err == nil {
			_, err = f.Write(rr.Data)
			n += int64(len(rr.Data))
		}
		if err != nil || rr.EOF {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				_ = os.Remove(path)
				return 0, err
			}
			return n, nil
		}
	}
}
