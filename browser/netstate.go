package browser

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/e2e-mcp/e2e-mcp/browser/devices"
)

// emulateByRule is Network.emulateNetworkConditionsByRule with the
// parameters of both protocol versions Chrome has had: up to Chromium 148
// at least, offline is a parameter of the command (and required, or the
// call fails with "Invalid parameters"); later, a field of each condition
// (cdproto's). Chrome ignores the field it does not know.
var emulateByRule = cdp.Command[byRuleParams, network.EmulateNetworkConditionsByRuleResult]{Method: network.CommandEmulateNetworkConditionsByRule}

type byRuleParams struct {
	Offline                  bool                  `json:"offline"`
	MatchedNetworkConditions []*network.Conditions `json:"matchedNetworkConditions"`
}

// SetNetworkState puts every tab of the session, and every tab it opens
// later, in a network state: online, offline (navigator.onLine is false,
// requests fail) or a throttling preset (devices.NetworkStates).
func (t *Tabs) SetNetworkState(ctx context.Context, state string) error {
	if _, err := devices.NetworkState(state); err != nil {
		return err
	}
	t.changeSetup(func(s *pageSetup) { s.netState = state })
	for _, p := range t.livePages() {
		if err := p.applyNetworkState(ctx, state); err != nil {
			return err
		}
	}
	// Popups and iframes not attached yet are offline too.
	return t.needWide(ctx)
}

// applyNetworkState sets the conditions in each of the page's sessions (its
// out-of-process iframes have a network stack of their own) and what
// navigator.onLine says.
func (p *Page) applyNetworkState(ctx context.Context, state string) error {
	s, _ := devices.NetworkState(state)
	c := network.Conditions{Offline: s.Offline, Latency: s.Latency, DownloadThroughput: s.DownloadThroughput,
		UploadThroughput: s.UploadThroughput, ConnectionType: network.ConnectionType(s.ConnectionType)}
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	for _, h := range p.hosts() {
		_, err := callOn(cctx, h, emulateByRule, byRuleParams{Offline: c.Offline, MatchedNetworkConditions: []*network.Conditions{&c}})
		if err == nil {
			_, err = callOn(cctx, h, network.OverrideNetworkState, network.OverrideNetworkStateParams{
				Offline: c.Offline, Latency: c.Latency, DownloadThroughput: c.DownloadThroughput,
				UploadThroughput: c.UploadThroughput, ConnectionType: c.ConnectionType})
		}
		if err != nil {
			return p.ctxError(cctx, err, "set the network state")
		}
	}
	return nil
}
