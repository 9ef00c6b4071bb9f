package browser

import (
	"context"

	"github.com/chromedp/cdproto/security"
	"github.com/chromedp/chromedp"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
)

// pageSetup is what a session sets for all its tabs, and puts into each
// tab as it is attached (popups included): emulated media and device, the
// network state, the fake clock and init scripts. Each setter changes it
// under Tabs.mu and applies the change to the tabs already attached;
// Tabs.open applies all of it to a new one.
type pageSetup struct {
	media       devices.Media       // what media queries see (emulate.go)
	emulation   devices.Emulation   // the device and user (devices.go)
	netState    string              // the network state, "" for online (netstate.go)
	clock       *devices.ClockState // the fake clock, once installed (clock.go)
	initScripts []string            // run in every new document (initscript.go)
	vitals      bool                // the web vitals watcher runs (measure.go)
}

// setupOf is a copy of the session's setup.
func (t *Tabs) setupOf() pageSetup {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.setup
	s.initScripts = append([]string(nil), s.initScripts...)
	return s
}

// changeSetup changes the session's setup under its lock.
func (t *Tabs) changeSetup(change func(s *pageSetup)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	change(&t.setup)
}

// applySetup puts a session's setup into a tab it attaches: scripts first,
// so that they run in the tab's next document like the rest.
func (p *Page) applySetup(ctx context.Context, s pageSetup) error {
	if p.m.opts.IgnoreHTTPSErrors && p.tabs != nil && p.tabs.remote != nil {
		// Our own browser was launched ignoring them; a browser elsewhere
		// is told for each tab.
		cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
		_, err := chromedp.Call(cctx, security.SetIgnoreCertificateErrors, security.SetIgnoreCertificateErrorsParams{Ignore: true})
		cancel()
		if err != nil {
			return p.ctxError(cctx, err, "ignore certificate errors")
		}
	}
	for _, src := range s.initScripts {
		if err := p.addInitScript(ctx, src); err != nil {
			return err
		}
	}
	if s.vitals {
		if err := p.addVitalsWatcher(ctx); err != nil {
			return err
		}
	}
	if s.media != (devices.Media{}) {
		if err := p.applyMedia(ctx, s.media); err != nil {
			return err
		}
	}
	if !s.emulation.IsZero() {
		if err := p.applyEmulation(ctx, s.emulation); err != nil {
			return err
		}
	} else if p.m.opts.Viewport.Width != 0 {
		if err := p.defaultViewport(ctx); err != nil {
			return err
		}
	}
	if s.clock != nil {
		if err := p.installClock(ctx, *s.clock); err != nil {
			return err
		}
	}
	if s.netState != "" && s.netState != "online" {
		return p.applyNetworkState(ctx, s.netState)
	}
	return nil
}

// defaultViewport gives a new tab the default size (Options.Viewport): one
// call, where applyEmulation would make a dozen.
func (p *Page) defaultViewport(ctx context.Context) error {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	if err := p.unlessDialog(cctx, func(c context.Context) error { return p.setViewport(c, devices.Emulation{}) }, false); err != nil {
		return p.ctxError(cctx, err, "set the viewport")
	}
	return nil
}
