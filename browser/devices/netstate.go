package devices

import (
	"maps"
	"slices"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
	"github.com/e2e-mcp/e2e-mcp/internal/text"
)

// NetworkConditions are what a network state makes of a session's pages'
// network: offline or not, and its latency (ms), throughput (bytes a
// second; -1 is not throttled) and connection type (cellular3g,
// cellular4g; "" for none), as CDP's Network.Conditions take them.
type NetworkConditions struct {
	Offline                              bool
	Latency                              float64
	DownloadThroughput, UploadThroughput float64
	ConnectionType                       string
}

// Network states a session's pages can be put in: offline, or throttled as
// Chrome DevTools' presets (latency in ms, throughput in bytes a second).
var networkStates = map[string]NetworkConditions{
	"online":  {DownloadThroughput: -1, UploadThroughput: -1},
	"offline": {Offline: true, DownloadThroughput: -1, UploadThroughput: -1},
	"slow-3g": {Latency: 2000, DownloadThroughput: 500 * 1000 / 8 * 0.8, UploadThroughput: 500 * 1000 / 8 * 0.8, ConnectionType: "cellular3g"},
	"fast-3g": {Latency: 562.5, DownloadThroughput: 1.6 * 1000 * 1000 / 8 * 0.9, UploadThroughput: 750 * 1000 / 8 * 0.9, ConnectionType: "cellular3g"},
	"fast-4g": {Latency: 165, DownloadThroughput: 9 * 1000 * 1000 / 8 * 0.9, UploadThroughput: 1.5 * 1000 * 1000 / 8 * 0.9, ConnectionType: "cellular4g"},
}

// NetworkStates are the states browser's Tabs.SetNetworkState takes.
func NetworkStates() []string { return slices.Sorted(maps.Keys(networkStates)) }

// NetworkState is the conditions of the network state named state, or a
// refusal (a [*refusal.Error]) naming the states.
func NetworkState(state string) (NetworkConditions, error) {
	c, ok := networkStates[state]
	if !ok {
		return c, refusal.Invalid("use one of "+text.JoinOr(NetworkStates()), "network state %q", state)
	}
	return c, nil
}
