package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/e2e-mcp/e2e-mcp/browser/storage"
	"github.com/e2e-mcp/e2e-mcp/internal/dirlock"
	"go.uber.org/zap"
)

// Profile keeps what sessions leave (cookies, local storage) in a
// directory across runs (--user-data-dir): a session's browser context
// starts in the state the last one to close saved, and saves its own as it
// closes (browser_close, the session's end). As a browser profile is, the
// directory is held while a browser context runs on it: from its launch
// to its close, or its browser's death (Profile.hold). Another server may
// open it once none of ours runs on it; while one does, its sessions are
// told so, as browser_launch_failed.
type Profile struct {
	// Dir is the directory.
	Dir string

	mu     sync.Mutex
	holds  int    // browser contexts of this server running on it
	unlock func() // lets the lock go, while holds > 0
}

// profileState is the file of a profile's state, in its directory.
const profileState = "e2e-mcp-storage-state.json"

// OpenProfile makes dir (0700) if needed and checks that files can be made
// in it, so that one that cannot be held stops the start. It takes no
// hold: a session's browser context does, as it opens (a directory another
// server's browser holds now is no error).
func OpenProfile(dir string) (*Profile, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := dirlock.Prepare(abs); err != nil {
		return nil, err
	}
	return &Profile{Dir: abs}, nil
}

// Close lets the directory go, should a hold still be taken (the server's
// exit lets it go in any case).
func (p *Profile) Close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.unlock != nil {
		p.unlock()
		p.unlock, p.holds = nil, 0
	}
}

// profileHold is one browser context's hold on the profile: let goes once,
// whoever calls it first (the context's close, or its browser's death).
type profileHold struct {
	once     sync.Once
	p        *Profile
	released chan struct{}
}

// hold takes the directory for a browser context of this server: the
// first takes the lock, which the last to let go lets go. A directory a
// browser of another server runs on, or a Chrome as its own profile (as
// Playwright MCP's --user-data-dir is), is a browser_launch_failed the
// agent can act on.
func (p *Profile) hold() (*profileHold, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.holds == 0 {
		if pid := chromeOn(p.Dir); pid != 0 {
			return nil, &ToolError{Type: ErrBrowserLaunchFail,
				Message:    fmt.Sprintf("--user-data-dir %s is already in use: a Chrome (pid %d) runs on it as its profile", p.Dir, pid),
				Suggestion: "call again once that browser is closed; or start this server with --isolated or another --user-data-dir"}
		}
		unlock, err := dirlock.Lock(p.Dir)
		if err != nil {
			if errors.Is(err, dirlock.ErrInUse) {
				return nil, &ToolError{Type: ErrBrowserLaunchFail,
					Message:    fmt.Sprintf("--user-data-dir %s is already in use: %v, whose browser runs on it", p.Dir, err),
					Suggestion: "call again once that browser is closed (browser_close there, or its server's end); or start this server with --isolated or another --user-data-dir"}
			}
			return nil, fmt.Errorf("--user-data-dir %s: %w", p.Dir, err)
		}
		p.unlock = unlock
	}
	p.holds++
	return &profileHold{p: p, released: make(chan struct{})}, nil
}

// let gives the hold back (more than once is once).
func (h *profileHold) let() {
	h.once.Do(func() {
		p := h.p
		p.mu.Lock()
		if p.holds--; p.holds == 0 && p.unlock != nil {
			p.unlock()
			p.unlock = nil
		}
		p.mu.Unlock()
		close(h.released)
	})
}

// until lets the hold go when gone is closed (the browser under the
// context died), unless it was let go before.
func (h *profileHold) until(gone <-chan struct{}) {
	go func() {
		select {
		case <-gone:
			h.let()
		case <-h.released:
		}
	}()
}

// Load is the state the last session saved, or nil when none has.
func (p *Profile) Load() (*storage.State, error) {
	path := filepath.Join(p.Dir, profileState)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return ReadStorageState(path)
}

// Save writes a session's state for the next one (0600: it holds
// credentials).
func (p *Profile) Save(st *storage.State) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	out, err := userDirFile(p.Dir, profileState, "userDataDir")
	if err != nil {
		return err
	}
	out.mode = 0o600
	_, err = out.create(strings.NewReader(string(b)))
	return err
}

// holdProfile takes the session's profile, if it has one, for the browser
// context it is about to open.
func (s *Session) holdProfile() error {
	if s.profile == nil || s.profileHold != nil {
		return nil
	}
	h, err := s.profile.hold()
	if err != nil {
		return err
	}
	s.profileHold = h
	return nil
}

// letProfile gives the session's hold on its profile back: its browser
// context is closed, or never opened.
func (s *Session) letProfile() {
	if s.profileHold != nil {
		s.profileHold.let()
		s.profileHold = nil
	}
}

// saveProfile leaves the session's cookies and storage in its profile.
func (s *Session) saveProfile(ctx context.Context, log *zap.Logger) {
	if s.profile == nil || s.tabs == nil || s.tabs.Gone() {
		return
	}
	// No tab's session storage: a browser that starts again has none.
	st, err := s.tabs.StorageState(ctx, nil)
	if err == nil {
		err = s.profile.Save(st)
	}
	if err != nil {
		log.Warn("the session's cookies and storage were not saved in --user-data-dir", zap.String("session", s.ID), zap.Error(err))
	}
}

// startProfile puts a new browser context of the session in the state its
// profile holds (over --storage-state, which it replaces once saved).
func (s *Session) startProfile() error {
	if s.profile == nil || s.tabs == nil || s.tabs == s.stateIn {
		return nil
	}
	st, err := s.profile.Load()
	if err != nil {
		return fmt.Errorf("--user-data-dir %s: %w", s.profile.Dir, err)
	}
	if st != nil {
		s.startState = st
	}
	return nil
}
