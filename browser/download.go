package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/netguard"
	"go.uber.org/zap"
)

// Downloads: Chrome saves what a session's pages download into a directory
// of the session's own, inside the browser's profile (so it goes when the
// browser goes, however the server ends), under the download's id. The
// caller takes each finished download and moves the file where the agent
// can read it.

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
	// (Options.MaxDownloadBytes), or a remote browser's that could not be
	// fetched (remotedownload.go).
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

// downloadLog is a session's downloads, guarded by its own lock (events
// update it on the browser's read loop).
type downloadLog struct {
	mu      sync.Mutex
	dir     string
	list    []*Download
	changed chan struct{}
	// fetch: the browser is remote and denies downloads, which the session
	// fetches itself (remotedownload.go); fetches are those under way.
	fetch   bool
	fetches sync.WaitGroup
}

// enableDownloads has Chrome save the context's downloads in a directory
// of their own and report them: in our browser's profile, or for the
// browser of a grid on this machine (a chromedriver of ours) in a
// directory named like a profile of this process (so that a later server
// removes it should this one be killed). A remote browser saves on its own
// machine, where we cannot read: it denies them, and the session fetches
// each one itself (remotedownload.go).
func (t *Tabs) enableDownloads(ctx context.Context) error {
	profile := t.m.ProfileDir()
	if t.remote != nil && t.remote.wd != nil && t.remote.local {
		dir, err := newProfileDir(t.m.opts.ProfileRoot)
		if err != nil {
			return fmt.Errorf("downloads directory: %w", err)
		}
		return t.allowDownloads(ctx, dir)
	}
	if t.remote != nil {
		return t.denyAndFetchDownloads(ctx)
	}
	if profile == "" {
		return nil
	}
	dir, err := os.MkdirTemp(profile, "downloads-")
	if err != nil {
		return fmt.Errorf("downloads directory: %w", err)
	}
	return t.allowDownloads(ctx, dir)
}

// allowDownloads has Chrome save the context's downloads in dir (which
// the session removes as it ends) and report them.
func (t *Tabs) allowDownloads(ctx context.Context, dir string) error {
	if err := t.setDownloadBehavior(ctx, cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, dir); err != nil {
		_ = os.RemoveAll(dir)
		return err
	}
	t.downloads.mu.Lock()
	t.downloads.dir = dir
	t.downloads.changed = make(chan struct{})
	t.downloads.mu.Unlock()
	return nil
}

const denyBehavior = cdpbrowser.SetDownloadBehaviorBehaviorDeny

// setDownloadBehavior tells Chrome what to do with the context's downloads
// (saved in dir when allowed), with events on.
func (t *Tabs) setDownloadBehavior(ctx context.Context, b cdpbrowser.SetDownloadBehaviorBehavior, dir string) error {
	cctx, cancel := t.browserCtx(ctx)
	defer cancel()
	_, err := chromedp.CallBrowser(cctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: b, BrowserContextID: t.id, DownloadPath: dir, EventsEnabled: new(true)})
	if err != nil {
		return fmt.Errorf("set download behavior %s: %w", b, err)
	}
	return nil
}

// onDownloadEvent records the downloads of this context's tabs. It runs on
// the browser's read loop: state only.
func (t *Tabs) onDownloadEvent(ev any) {
	l := &t.downloads
	switch e := ev.(type) {
	case *cdpbrowser.EventDownloadWillBegin:
		// A tab's own frame is the session's; an iframe's may be another
		// session's, told apart by the pages' frame tables later (their
		// locks are not for the read loop).
		t.mu.Lock()
		_, tab := t.infos[target.ID(e.FrameID)]
		hidden := t.hidden[target.ID(e.FrameID)]
		t.mu.Unlock()
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
					t.startFetchLocked(d)
				}
				continue
			}
			if d.Error != "" {
				continue // refused already
			}
			d.State, d.Size = string(e.State), int64(e.ReceivedBytes)
			if max := t.m.opts.MaxDownloadBytes; int64(e.ReceivedBytes) > max || int64(e.TotalBytes) > max {
				// A page must not fill the disk: cancelled as it passes
				// the limit (or at once, when it says it will).
				d.State, d.Error = "canceled", netguard.ErrTooLarge(max).Error()
				go t.cancelDownload(e.GUID, filepath.Join(l.dir, e.GUID))
			} else if e.State == cdpbrowser.DownloadProgressStateCompleted {
				d.Path = filepath.Join(l.dir, e.GUID)
			}
			l.signalLocked()
		}
	}
}

// cancelDownload stops a download Chrome is saving and removes what it
// wrote.
func (t *Tabs) cancelDownload(guid, path string) {
	ctx, cancel := t.browserCtx(context.Background())
	defer cancel()
	if _, err := chromedp.CallBrowser(ctx, cdpbrowser.CancelDownload, cdpbrowser.CancelDownloadParams{GUID: guid, BrowserContextID: t.id}); err != nil {
		t.m.log.Debug("cancel a download", zap.String("guid", guid), zap.Error(err))
	}
	_ = os.Remove(path)
}

func (l *downloadLog) signalLocked() {
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

// TakeDownloads returns the downloads not taken yet that have ended,
// waiting up to wait for those still going (they are taken later if they
// outlast it). With atLeastOne it also waits, within wait, for one to
// begin and end.
func (t *Tabs) TakeDownloads(ctx context.Context, wait time.Duration, atLeastOne bool) []Download {
	l := &t.downloads
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		t.dropOthers()
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
			return t.takeEnded()
		}
		select {
		case <-changed:
		case <-deadline.C:
			return t.takeEnded()
		case <-ctx.Done():
			return t.takeEnded()
		}
	}
}

// takeEnded takes the downloads that have ended, leaving those going.
func (t *Tabs) takeEnded() []Download {
	l := &t.downloads
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
func (t *Tabs) dropOthers() {
	l := &t.downloads
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
		ours[f] = t.ownsFrame(f)
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

// ownsFrame reports whether one of the session's attached tabs holds the
// frame.
func (t *Tabs) ownsFrame(f cdp.FrameID) bool {
	for _, p := range t.livePages() {
		if p.hostOf(target.ID(f)) != nil {
			return true
		}
		p.mu.Lock()
		_, known := p.frames.parent[f]
		p.mu.Unlock()
		if known {
			return true
		}
	}
	return false
}

// downloadBeginWait bounds how long an action that clicked a download
// link waits for the browser to say the download began.
const downloadBeginWait = 2 * time.Second

// waitDownloadBegun waits, up to wait, until a download not taken yet has
// begun (downloads not allowed in the session: at once).
func (t *Tabs) waitDownloadBegun(ctx context.Context, wait time.Duration) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		l := &t.downloads
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

// DownloadsBegun says whether a download has begun that was not taken.
func (t *Tabs) DownloadsBegun() bool {
	t.dropOthers()
	l := &t.downloads
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, d := range l.list {
		if !d.taken {
			return true
		}
	}
	return false
}
