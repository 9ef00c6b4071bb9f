package netguard

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"go.uber.org/zap"
)

// Downloads: Chrome saves what a session's pages download into a directory
// of the session's own, inside the browser's profile (so it goes when the
// browser goes, however the server ends), under the download's id. The
// caller takes each finished download and moves the file where the agent
// can read it. A remote browser's downloads are denied, and the session
// fetches each one again itself (remotedownload.go).

// Download is one file a page downloaded.
type Download struct {
	URL string `json:"url"`
	// Name is the name the site suggested.
	Name string `json:"name"`
	// State is inProgress, completed or canceled.
	State string `json:"state"`
	Size  int64  `json:"size"`
	// Path is where Chrome saved it (a completed download).
	Path string `json:"-"`
	// Error says why the download was not kept: larger than the limit
	// (browser's Options.MaxDownloadBytes), or a remote browser's that
	// could not be fetched (remotedownload.go).
	Error string `json:"error,omitempty"`

	guid  string
	taken bool
	// frameID is the frame that began it; frame is the same while it is
	// an iframe not known to be one of the session's (dropOthers decides,
	// off the read loop).
	frameID, frame cdp.FrameID
	// fetching: the session is fetching it from a remote browser; url is
	// its whole URL until then (URL is as kept: a long one is clipped).
	fetching bool
	url      string
}

// maxDownloads bounds the downloads a session remembers.
const maxDownloads = 100

// Downloads are a session's downloads, guarded by their own lock (events
// update them on the browser's read loop).
type Downloads struct {
	mu      sync.Mutex
	dir     string
	list    []*Download
	changed chan struct{}
	// fetch: the browser is remote and denies downloads, which the session
	// fetches itself (remotedownload.go); fetches are those under
	// way.
	fetch   bool
	fetches sync.WaitGroup
}

// DownloadSide is what a session's downloads need of the engine (browser's
// Tabs).
type DownloadSide interface {
	// FrameTab says whether a frame is one of the session's tabs, and one
	// of its hidden tabs. It is asked on the browser's read loop.
	FrameTab(frame cdp.FrameID) (tab, hidden bool)
	// Pages are the session's attached tabs that are not gone: a frame one
	// of them holds is the session's.
	Pages() []Page
	// MaxBytes is the most a page may download.
	MaxBytes() int64
	// Browser is a context for one command to the browser, bounded by the
	// action timeout and ctx; BrowserContextID is the session's browser
	// context, whose downloads the commands are about.
	Browser(ctx context.Context) (context.Context, context.CancelFunc)
	BrowserContextID() cdp.BrowserContextID
	// Log is the server's logger.
	Log() *zap.Logger
	// OpenHidden opens a hidden tab of the session, to fetch a remote
	// browser's download again in.
	OpenHidden(ctx context.Context) (HiddenTab, error)
	// Context is the guard's state of the session (a request it blocks in
	// a hidden tab is listed there).
	Context() *Context
}

// Enable has Chrome save the context's downloads in dir (which Close
// removes) and report them; with fetch (a remote browser, which would save
// them on its own machine) it denies them instead, with events on, and the
// session fetches each one again into dir (remotedownload.go).
func (l *Downloads) Enable(ctx context.Context, side DownloadSide, dir string, fetch bool) error {
	b, path := cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, dir
	if fetch {
		b, path = cdpbrowser.SetDownloadBehaviorBehaviorDeny, ""
	}
	if err := setDownloadBehavior(ctx, side, b, path); err != nil {
		_ = os.RemoveAll(dir)
		return err
	}
	l.mu.Lock()
	l.dir, l.fetch = dir, fetch
	l.changed = make(chan struct{})
	l.mu.Unlock()
	return nil
}

// setDownloadBehavior tells Chrome what to do with the context's downloads
// (saved in dir when allowed), with events on.
func setDownloadBehavior(ctx context.Context, side DownloadSide, b cdpbrowser.SetDownloadBehaviorBehavior, dir string) error {
	cctx, cancel := side.Browser(ctx)
	defer cancel()
	_, err := chromedp.CallBrowser(cctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: b, BrowserContextID: side.BrowserContextID(), DownloadPath: dir, EventsEnabled: new(true)})
	if err != nil {
		return fmt.Errorf("set download behavior %s: %w", b, err)
	}
	return nil
}

// Close waits for the fetches of a remote browser's downloads, then
// removes the downloads' directory.
func (l *Downloads) Close() {
	// Fetches of a remote browser's downloads end with the tabs: wait for
	// them before their directory goes.
	l.fetches.Wait()
	l.mu.Lock()
	if l.dir != "" {
		_ = os.RemoveAll(l.dir)
		l.dir = ""
	}
	l.mu.Unlock()
}

// OnEvent records the downloads of the session's tabs. It runs on the
// browser's read loop: state only.
func (l *Downloads) OnEvent(side DownloadSide, ev any) {
	switch e := ev.(type) {
	case *cdpbrowser.EventDownloadWillBegin:
		// A tab's own frame is the session's; an iframe's may be another
		// session's, told apart by the pages' frame tables later (their
		// locks are not for the read loop).
		tab, hidden := side.FrameTab(e.FrameID)
		if hidden {
			return // a hidden tab's (should the fetch of one become a download), not the page's
		}
		d := &Download{URL: keepURL(e.URL), Name: safeName(e.SuggestedFilename), State: "inProgress", guid: e.GUID, frameID: e.FrameID}
		if !tab {
			d.frame = e.FrameID
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.dir == "" {
			return
		}
		if l.fetch {
			d.url = e.URL // to fetch it again; let go once fetched
		}
		if len(l.list) >= maxDownloads {
			l.list = l.list[1:]
		}
		l.list = append(l.list, d)
		l.signalLocked()
	case *cdpbrowser.EventDownloadProgress:
		l.mu.Lock()
		defer l.mu.Unlock()
		for _, d := range l.list {
			if d.guid != e.GUID || d.fetching {
				continue
			}
			if l.fetch {
				// Denied, as asked: the session fetches it.
				if e.State == cdpbrowser.DownloadProgressStateCanceled && d.State == "inProgress" {
					l.startFetchLocked(side, d)
				}
				continue
			}
			if d.Error != "" {
				continue // refused already
			}
			d.State, d.Size = string(e.State), int64(e.ReceivedBytes)
			if max := side.MaxBytes(); int64(e.ReceivedBytes) > max || int64(e.TotalBytes) > max {
				// A page must not fill the disk: cancelled as it passes
				// the limit (or at once, when it says it will).
				d.State, d.Error = "canceled", ErrTooLarge(max).Error()
				go cancelDownload(side, e.GUID, filepath.Join(l.dir, e.GUID))
			} else if e.State == cdpbrowser.DownloadProgressStateCompleted {
				d.Path = filepath.Join(l.dir, e.GUID)
			}
			l.signalLocked()
		}
	}
}

// cancelDownload stops a download Chrome is saving and removes what it
// wrote.
func cancelDownload(side DownloadSide, guid, path string) {
	ctx, cancel := side.Browser(context.Background())
	defer cancel()
	if _, err := chromedp.CallBrowser(ctx, cdpbrowser.CancelDownload, cdpbrowser.CancelDownloadParams{GUID: guid, BrowserContextID: side.BrowserContextID()}); err != nil {
		side.Log().Debug("cancel a download", zap.String("guid", guid), zap.Error(err))
	}
	_ = os.Remove(path)
}

func (l *Downloads) signalLocked() {
	if l.changed != nil {
		close(l.changed)
		l.changed = make(chan struct{})
	}
}

// safeName is a file name a site suggested, without a directory.
func safeName(s string) string {
	s = filepath.Base(filepath.Clean("/" + s))
	if s == "/" || s == "." || s == "" {
		return "download"
	}
	if len(s) > maxNameKept {
		// No file system takes a longer name: its start and its
		// extension.
		ext := filepath.Ext(s)
		if len(ext) > 16 {
			ext = ""
		}
		s = strings.ToValidUTF8(s[:maxNameKept-len(ext)], "") + ext
	}
	return s
}

// maxNameKept bounds a download's name (file systems take 255 bytes).
const maxNameKept = 200

// Take returns the downloads not taken yet that have ended, waiting up to
// wait for those still going (they are taken later if they outlast it).
// With atLeastOne it also waits, within wait, for one to begin and end.
func (l *Downloads) Take(ctx context.Context, side DownloadSide, wait time.Duration, atLeastOne bool) []Download {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		l.dropOthers(side)
		l.mu.Lock()
		pending, going := 0, false
		for _, d := range l.list {
			if !d.taken {
				pending++
				going = going || d.State == "inProgress"
			}
		}
		changed := l.changed
		l.mu.Unlock()
		if changed == nil || (!going && (pending > 0 || !atLeastOne)) {
			return l.takeEnded()
		}
		select {
		case <-changed:
		case <-deadline.C:
			return l.takeEnded()
		case <-ctx.Done():
			return l.takeEnded()
		}
	}
}

// takeEnded takes the downloads that have ended, leaving those going.
func (l *Downloads) takeEnded() []Download {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Download
	for _, d := range l.list {
		if !d.taken && d.State != "inProgress" {
			d.taken = true
			out = append(out, *d)
		}
	}
	return out
}

// dropOthers keeps, of the downloads iframes began, those of the
// session's frames: every context's downloads are reported to each.
func (l *Downloads) dropOthers(side DownloadSide) {
	l.mu.Lock()
	var unsure []cdp.FrameID
	for _, d := range l.list {
		if d.frame != "" {
			unsure = append(unsure, d.frame)
		}
	}
	l.mu.Unlock()
	if len(unsure) == 0 {
		return
	}
	ours := map[cdp.FrameID]bool{}
	for _, f := range unsure {
		ours[f] = frameOwner(side.Pages(), f) != nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	kept := l.list[:0]
	for _, d := range l.list {
		if d.frame != "" {
			owned, seen := ours[d.frame]
			if seen && !owned {
				continue
			}
			if seen {
				d.frame = ""
			}
		}
		kept = append(kept, d)
	}
	l.list = kept
}

// WaitBegun waits, up to wait, until a download not taken yet has begun
// (downloads not allowed in the session: at once).
func (l *Downloads) WaitBegun(ctx context.Context, wait time.Duration) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		l.mu.Lock()
		changed := l.changed
		begun := false
		for _, d := range l.list {
			begun = begun || !d.taken
		}
		l.mu.Unlock()
		if changed == nil || begun {
			return
		}
		select {
		case <-changed:
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// Begun says whether a download has begun that was not taken.
func (l *Downloads) Begun(side DownloadSide) bool {
	l.dropOthers(side)
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, d := range l.list {
		if !d.taken {
			return true
		}
	}
	return false
}

// ErrNotOurs is why a fetch of a remote browser's download was not made:
// the frame that began it is another session's.
var ErrNotOurs = errors.New("another session's download")

// startFetchLocked begins fetching a download the remote browser was
// denied, off the read loop. Called with the log's lock held, on the read
// loop.
func (l *Downloads) startFetchLocked(side DownloadSide, d *Download) {
	d.fetching = true
	frame, unsure, u := d.frameID, d.frame != "", d.url
	path := filepath.Join(l.dir, d.guid)
	l.fetches.Add(1)
	go func() {
		defer l.fetches.Done()
		size, err := fetchDownload(side, frame, unsure, u, path)
		l.mu.Lock()
		defer l.mu.Unlock()
		d.fetching, d.url = false, ""
		switch {
		case errors.Is(err, ErrNotOurs):
			d.State = "canceled" // another session's: dropOthers drops it
		case err != nil:
			d.State, d.Error = "canceled", err.Error()
		default:
			d.State, d.Path, d.Size = "completed", path, size
		}
		l.signalLocked()
	}()
}
