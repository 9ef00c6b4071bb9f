package browser

import (
	"context"
	"maps"
	"slices"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
)

// Network states a session's pages can be put in: offline, or throttled as
// Chrome DevTools' presets (latency in ms, throughput in bytes a second).
var networkStates = map[string]network.Conditions{
	"online":  {DownloadThroughput: -1, UploadThroughput: -1},
	"offline": {Offline: true, DownloadThroughput: -1, UploadThroughput: -1},
	"slow-3g": {Latency: 2000, DownloadThroughput: 500 * 1000 / 8 * 0.8, UploadThroughput: 500 * 1000 / 8 * 0.8, ConnectionType: network.ConnectionTypeCellular3g},
	"fast-3g": {Latency: 562.5, DownloadThroughput: 1.6 * 1000 * 1000 / 8 * 0.9, UploadThroughput: 750 * 1000 / 8 * 0.9, ConnectionType: network.ConnectionTypeCellular3g},
	"fast-4g": {Latency: 165, DownloadThroughput: 9 * 1000 * 1000 / 8 * 0.9, UploadThroughput: 1.5 * 1000 * 1000 / 8 * 0.9, ConnectionType: network.ConnectionTypeCellular4g},
}

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

// NetworkStates are the states SetNetworkState takes.
func NetworkStates() []string { return slices.Sorted(maps.Keys(networkStates)) }

// SetNetworkState puts every tab of the session, and every tab it opens
// later, in a network state: online, offline (navigator.onLine is false,
// requests fail) or a throttling preset.
func (t *Tabs) SetNetworkState(ctx context.Context, state string) error {
	if _, ok := networkStates[state]; !ok {
		return newError(KindInvalidInput, "use one of "+text.JoinOr(NetworkStates()), "network state %q", state)
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
	c := networkStates[state]
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
