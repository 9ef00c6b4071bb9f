package browser

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
	"github.com/e2e-mcp/e2e-mcp/browser/launcher"
	"github.com/e2e-mcp/e2e-mcp/browser/netguard"
	"github.com/e2e-mcp/e2e-mcp/netpolicy"
	"github.com/e2e-mcp/e2e-mcp/webdriver"
	"go.uber.org/zap"
)

// Options configure a [Manager]. The zero value of a field means its default.
type Options struct {
	// ExecPath is the browser executable; empty means [launcher.FindExecutable]("").
	ExecPath string
	// Headed shows browser windows instead of running headless.
	Headed bool
	// NoSandbox starts Chrome without its sandbox, as it always is as root:
	// for containers whose seccomp profile forbids the user namespaces the
	// sandbox needs.
	NoSandbox bool
	// ProfileRoot is where temporary profiles go; empty means the temp dir.
	ProfileRoot string
	// ActionTimeout bounds waiting for an element to become actionable (5s).
	ActionTimeout time.Duration
	// NavigationTimeout bounds a navigation (30s).
	NavigationTimeout time.Duration
	// TestIDAttribute is the attribute testid= selectors match (data-testid).
	TestIDAttribute string
	// LaunchTimeout bounds starting the browser (30s).
	LaunchTimeout time.Duration
	// Logger receives the browser's log lines; nil means none.
	Logger *zap.Logger
	// Endpoints are browsers elsewhere to use instead of launching one:
	// sessions are spread across them.
	Endpoints []launcher.Endpoint
	// SharedRemote: the first session on an endpoint uses the browser's
	// default context and its open tab (a person's signed-in browser), as
	// Playwright MCP does unless --isolated; the others get contexts of
	// their own.
	SharedRemote bool
	// Grids are WebDriver grids to take browsers from instead: each
	// session gets a browser of its own (grid.go).
	Grids []*webdriver.Grid
	// Policy decides which requests pages may make (browser/netguard); nil means
	// the default: file:// blocked, nothing intercepted.
	Policy *netpolicy.Policy
	// SnapshotBudget is about how many bytes a snapshot may take before it
	// is folded (docs/architecture.md §5); 0 means never fold.
	SnapshotBudget int
	// MaxDownloadBytes bounds the file one download may be (1 GiB): a
	// larger one is cancelled as it passes the limit and reported.
	MaxDownloadBytes int64
	// Viewport is the size in CSS pixels every tab starts with (as
	// Playwright's default 1280x720), whatever the window's; zero means the
	// browser's own (headless Chrome's is 780x493). Emulation and
	// browser_resize change it; an emulation reset comes back to it.
	Viewport devices.Size
	// SettleTime bounds an action's wait for the requests it started
	// (500 ms; docs/architecture.md §5).
	SettleTime time.Duration
	// ConnectTimeout bounds connecting to a browser elsewhere (an
	// endpoint's); 0 means LaunchTimeout.
	ConnectTimeout time.Duration
	// IgnoreHTTPSErrors lets pages load over HTTPS whatever their
	// certificate says.
	IgnoreHTTPSErrors bool
	// SnapshotBoxes has each element's line of a snapshot say its box
	// ([box=x,y,width,height], CSS pixels of its frame's viewport).
	SnapshotBoxes bool
	// BypassCSP: pages' Content-Security-Policy is not enforced (as
	// Playwright's bypassCSP context option): their inline scripts and
	// styles, eval and any source load whatever the policy says.
	BypassCSP bool
	// JavaScriptDisabled: pages' own scripts do not run (as Playwright's
	// javaScriptEnabled: false). The engine, in its isolated world, still
	// reads and acts on them.
	JavaScriptDisabled bool
}

func (o *Options) setDefaults() {
	if o.ActionTimeout <= 0 {
		o.ActionTimeout = 5 * time.Second
	}
	if o.NavigationTimeout <= 0 {
		o.NavigationTimeout = 30 * time.Second
	}
	if o.LaunchTimeout <= 0 {
		o.LaunchTimeout = 30 * time.Second
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	if o.SettleTime <= 0 {
		o.SettleTime = settleCap
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = o.LaunchTimeout
	}
	if o.MaxDownloadBytes <= 0 {
		o.MaxDownloadBytes = 1 << 30
	}
}

// Manager owns one Chrome process, launched on first use and shared by all
// pages; every [Page] gets its own BrowserContext on it.
type Manager struct {
	opts Options
	log  *zap.Logger

	mu     sync.Mutex
	closed bool
	local  *launcher.Local // the browser launched here (guarded by mu)
	pages  map[*Page]struct{}
	guards netguard.Browsers // the request policy at the browser level, per browser
	// pool gets the browsers elsewhere (Options.Endpoints, Options.Grids);
	// nil when the manager launches its own. It has its own lock.
	pool *launcher.Pool
}

// NewManager returns a Manager; it starts no process until a page is needed.
func NewManager(opts Options) *Manager {
	opts.setDefaults()
	m := &Manager{opts: opts, log: opts.Logger.Named("browser"), pages: map[*Page]struct{}{}}
	m.local = launcher.NewLocal(m.launchConfig())
	m.pool = m.newPool()
	return m
}

// TestIDAttribute is the attribute testid= selectors match.
func (m *Manager) TestIDAttribute() string { return m.opts.TestIDAttribute }

func (m *Manager) pidLocked() int { return m.local.PID() }

// PID is the browser's process ID, or 0 when it is not running.
func (m *Manager) PID() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.pidLocked()
}

// ProfileDir is the running browser's profile directory, or "".
func (m *Manager) ProfileDir() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.local.Profile()
}

// Version launches the browser if needed and returns its product string,
// such as "Chrome/156.0.8078.79".
func (m *Manager) Version(ctx context.Context) (string, error) {
	var bctx context.Context
	var err error
	if m.pool != nil {
		var done func()
		if bctx, done, err = m.pool.Look(ctx); err != nil {
			return "", poolClosed(err)
		}
		defer done()
	} else {
		m.mu.Lock()
		bctx, err = m.launch()
		m.mu.Unlock()
	}
	if err != nil {
		return "", err
	}
	cctx, cancel := context.WithCancel(bctx)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	v, err := chromedp.CallBrowser(cctx, browser.GetVersion, cdp.Empty{})
	if err != nil {
		return "", fmt.Errorf("browser version: %w", err)
	}
	return v.Product, nil
}

// Prelaunch starts the local browser, if this manager launches one and it
// is not running, so that a first tab later need not wait for the launch:
// e2e-mcp run overlaps it with a shared dev server's start. A browser got
// from a grid or an endpoint is left for the first tab to get. A launch
// that fails is said to that first tab, as its own would be.
func (m *Manager) Prelaunch() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pool != nil {
		return
	}
	_, _ = m.launch()
}

// Close closes every page and the browser and removes its profile. It is
// safe to call more than once.
func (m *Manager) Close() error {
	m.mu.Lock()
	pages := make([]*Page, 0, len(m.pages))
	for p := range m.pages {
		pages = append(pages, p)
	}
	m.closed = true
	remote := m.pool != nil
	if remote {
		m.pool.Stop()
	}
	m.mu.Unlock()
	if remote {
		// Remote browsers stay: dispose of our browser contexts in them
		// while connected, then disconnect. A grid's browsers go: their
		// sessions are deleted, in parallel.
		var wg sync.WaitGroup
		seen := map[*Tabs]bool{}
		for _, p := range pages {
			if p.tabs != nil && !seen[p.tabs] {
				seen[p.tabs] = true
				wg.Go(p.tabs.Close)
			}
		}
		wg.Wait()
		m.pool.Close()
		return nil
	}
	m.mu.Lock()
	m.local.Shutdown()
	m.mu.Unlock()
	// The browser is gone: closing the pages only releases their contexts.
	for _, p := range pages {
		p.Close()
	}
	return nil
}
