// Package metrics holds the Prometheus collectors of the server, served at
// /metrics in HTTP mode: sessions, tool calls and their errors and latency,
// browser launches and crashes, dev servers, and the process (memory, CPU,
// goroutines).
package metrics

import (
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// The collectors. They live in a registry of their own (see [registry]), so
// that tests and embedders see exactly these.
var (
	// SessionsCreated counts the sessions made.
	SessionsCreated = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "e2e_mcp_sessions_created_total", Help: "Sessions made."})
	// SessionsEnded counts the sessions ended, by reason (end, idle,
	// evicted, connection_closed, server_exit).
	SessionsEnded = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "e2e_mcp_sessions_ended_total", Help: "Sessions ended, by reason."}, []string{"reason"})
	// ToolCalls counts tool calls by tool.
	ToolCalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "e2e_mcp_tool_calls_total", Help: "Tool calls, by tool."}, []string{"tool"})
	// ToolsInFlight is the number of tool calls running now.
	ToolsInFlight = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "e2e_mcp_tool_calls_in_flight", Help: "Tool calls running now."})
	// ToolErrors counts failed tool calls by tool and error type.
	ToolErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "e2e_mcp_tool_errors_total", Help: "Failed tool calls, by tool and error type."}, []string{"tool", "type"})
	// ToolSeconds is the latency of tool calls by tool.
	ToolSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "e2e_mcp_tool_duration_seconds", Help: "Tool call latency, by tool.",
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}}, []string{"tool"})
	// browserLaunches counts browser launches by result (BrowserLaunched).
	browserLaunches = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "e2e_mcp_browser_launches_total", Help: "Browser launches, by result (ok, failed)."}, []string{"result"})
	// browserCrashes counts browsers that died, tabs that crashed and
	// browsers replaced as hung (BrowserCrashed).
	browserCrashes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "e2e_mcp_browser_crashes_total",
		Help: "Browser processes that died (kind=browser), tabs whose renderer crashed (kind=tab), browsers replaced as hung (kind=hung)."}, []string{"kind"})
	// clientsEnded counts the MCP sessions over HTTP that ended, by
	// reason (ClientEnded).
	clientsEnded = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "e2e_mcp_clients_ended_total",
		Help: "MCP sessions over HTTP that ended: by their client's DELETE (reason=deleted), after --client-idle-timeout of silence (idle), unused after their initialize (unused), to make room under --max-clients (evicted)."}, []string{"reason"})
	// clientsRefused counts the initializes refused, by reason
	// (ClientRefused).
	clientsRefused = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "e2e_mcp_clients_refused_total",
		Help: "Initializes refused: every MCP session busy at --max-clients (reason=full), over --rate-clients (rate)."}, []string{"reason"})
)

// ClientEnd is why an MCP session ended: the label of
// e2e_mcp_clients_ended_total.
type ClientEnd string

// The ends of an MCP session.
const (
	ClientDeleted ClientEnd = "deleted" // its client's DELETE
	ClientIdle    ClientEnd = "idle"    // --client-idle-timeout without a request or a stream
	ClientUnused  ClientEnd = "unused"  // no request after its initialize
	ClientEvicted ClientEnd = "evicted" // made room for another under --max-clients
)

// ClientRefusal is why an initialize was refused: the label of
// e2e_mcp_clients_refused_total.
type ClientRefusal string

// The refusals of an initialize.
const (
	ClientsFull ClientRefusal = "full" // every session at the cap is busy
	ClientRate  ClientRefusal = "rate" // the client's rate is spent
)

// CrashKind is what crashed: the label of e2e_mcp_browser_crashes_total.
type CrashKind string

// The kinds of crash.
const (
	CrashBrowser CrashKind = "browser" // the browser process died
	CrashTab     CrashKind = "tab"     // a tab's renderer crashed
	CrashHung    CrashKind = "hung"    // the browser stopped answering and was replaced
)

// crashKinds and launchResults are every value of their labels: each is
// declared at zero when the registry is made, so that a rate() or an alert
// on them works before the first crash.
var (
	crashKinds     = []CrashKind{CrashBrowser, CrashTab, CrashHung}
	launchResults  = []string{"ok", "failed"}
	clientEnds     = []ClientEnd{ClientDeleted, ClientIdle, ClientUnused, ClientEvicted}
	clientRefusals = []ClientRefusal{ClientsFull, ClientRate}
)

// ClientEnded counts an MCP session ended for why.
func ClientEnded(why ClientEnd) { clientsEnded.WithLabelValues(string(why)).Inc() }

// ClientRefused counts an initialize refused for why.
func ClientRefused(why ClientRefusal) { clientsRefused.WithLabelValues(string(why)).Inc() }

// BrowserCrashed counts a crash of its kind.
func BrowserCrashed(kind CrashKind) { browserCrashes.WithLabelValues(string(kind)).Inc() }

// BrowserLaunched counts a launch that worked or failed.
func BrowserLaunched(ok bool) {
	r := launchResults[1]
	if ok {
		r = launchResults[0]
	}
	browserLaunches.WithLabelValues(r).Inc()
}

// registry holds the collectors. It is made on first use (when /metrics is
// served), not at package init: the Go and process collectors probe the
// runtime and /proc, and a stdio server that never serves /metrics should
// not make every initialize wait for that. The counters count from the
// start either way.
var registry = sync.OnceValue(func() *prometheus.Registry {
	r := prometheus.NewRegistry()
	r.MustRegister(SessionsCreated, SessionsEnded, ToolCalls, ToolsInFlight, ToolErrors, ToolSeconds,
		browserLaunches, browserCrashes, clientsEnded, clientsRefused,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, k := range crashKinds {
		browserCrashes.WithLabelValues(string(k))
	}
	for _, res := range launchResults {
		browserLaunches.WithLabelValues(res)
	}
	for _, e := range clientEnds {
		clientsEnded.WithLabelValues(string(e))
	}
	for _, e := range clientRefusals {
		clientsRefused.WithLabelValues(string(e))
	}
	return r
})

// Handler serves the collectors in the Prometheus text format.
func Handler() http.Handler {
	return promhttp.HandlerFor(registry(), promhttp.HandlerOpts{})
}

// Gauges reads the numbers the server keeps itself (sessions open, dev
// servers running, MCP sessions live) at scrape time, so they cannot drift.
type Gauges struct {
	SessionsActive    func() float64
	DevServersRunning func() float64
	// ClientsActive is the live MCP sessions over HTTP (nil: not served).
	ClientsActive func() float64
}

var gaugesOnce sync.Once

// RegisterGauges registers the gauges once (later calls are ignored: a
// process serves one registry of sessions).
func RegisterGauges(g Gauges) {
	gaugesOnce.Do(func() { registerGauges(g) })
}

func registerGauges(g Gauges) {
	registry().MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "e2e_mcp_sessions_active", Help: "Sessions open now."}, g.SessionsActive),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "e2e_mcp_dev_servers_running", Help: "Sessions with a started dev server."}, g.DevServersRunning),
	)
	if g.ClientsActive != nil {
		registry().MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "e2e_mcp_clients_active",
			Help: "MCP sessions over HTTP live now (at most --max-clients)."}, g.ClientsActive))
	}
}
