package launcher

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/e2e-mcp/e2e-mcp/webdriver"
	"go.uber.org/zap"
)

// Browsers from a WebDriver grid: what a session asks a grid for, the
// endpoint of the browser it gets, and the pings that keep the grid's
// session alive (docs/architecture.md §10). Package browser decides which
// session asks, and deletes the WebDriver session when it ends.

// gridPingEvery is how often a grid session is sent a command that changes
// nothing: a grid that ends idle sessions does not see CDP traffic.
const gridPingEvery = time.Minute

// GridCaps are the capabilities a session asks the grid g for: Chrome (or
// Chromium, which chromedriver calls chrome) with our flags that matter,
// and CDP, which Selenium Grid 4 hands out as se:cdp.
func (c Config) GridCaps(g *webdriver.Grid) map[string]any {
	args := []string{"--disable-dev-shm-usage"}
	for _, f := range c.Flags() {
		if f.Value == "" {
			args = append(args, "--"+f.Name)
		} else {
			args = append(args, "--"+f.Name+"="+f.Value)
		}
	}
	if !c.Headed {
		args = append(args, "--headless=new")
	}
	if c.WindowWidth > 0 {
		// As a local launch: a window that holds the default viewport.
		args = append(args, fmt.Sprintf("--window-size=%d,%d", c.WindowWidth, c.WindowHeight))
	}
	if (os.Getuid() == 0 && g.Loopback()) || c.NoSandbox {
		// A chromedriver of this machine starts Chrome as us, and Chrome
		// refuses to run as root with its sandbox; or the operator turned
		// the sandbox off (--no-sandbox: a grid node in a container).
		args = append(args, "--no-sandbox")
	}
	return map[string]any{"alwaysMatch": map[string]any{
		"browserName":        "chrome",
		"goog:chromeOptions": map[string]any{"args": args},
		"se:cdpEnabled":      true,
	}}
}

// GridEndpoint is the browser of the WebDriver session s that grid g made:
// its CDP websocket, dialled as it is, with the grid's headers.
func GridEndpoint(s *webdriver.Session, g *webdriver.Grid) Endpoint {
	return Endpoint{RawURL: s.CDP, Header: g.Header(), exact: true}
}

// PingGrid keeps the grid session s from being ended as idle while we use
// it, until ctx ends.
func PingGrid(ctx context.Context, s *webdriver.Session, log *zap.Logger) {
	t := time.NewTicker(gridPingEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		if err := s.Ping(cctx); err != nil && ctx.Err() == nil {
			log.Warn("WebDriver session ping failed", zap.String("grid", s.Grid().String()), zap.String("session", s.ID), zap.Error(err))
		}
		cancel()
	}
}
