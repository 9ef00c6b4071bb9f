package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"time"

	"github.com/e2e-mcp/e2e-mcp/httpauth"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/metrics"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.uber.org/zap"
)

// HTTPOptions are the HTTP server's settings, which cmd/e2e-mcp maps its
// flags onto.
type HTTPOptions struct {
	// Addr is the TCP address to listen on (--http; ":8931" means
	// loopback). Socket, when set, is a Unix socket's path to listen on
	// instead (--http unix:PATH): the local user's, where clients are not
	// whoever the network lets through.
	Addr, Socket string
	// ReplicaID names this replica in its MCP session ids (--replica-id,
	// replica.go); "" none.
	ReplicaID string
	// ClientIdleTimeout and MaxClients bound the MCP sessions
	// (--client-idle-timeout, --max-clients; lifetime.go).
	ClientIdleTimeout time.Duration
	MaxClients        int
	// MaxBody bounds a request's body (--http-max-body).
	MaxBody int64
	// RateClients is the initializes a client may make a minute over TCP
	// (--rate-clients; 0 no limit).
	RateClients int
	// DrainTimeout bounds the calls in flight at the end (--drain-timeout).
	DrainTimeout time.Duration
	// Guard is httpauth's Host, Origin and credential checks; its
	// ListenAddr is set here, from the listener.
	Guard httpauth.Options
	// Health is what /health and /metrics report on.
	Health Health
}

// Health is what /health reports on, besides the MCP sessions.
type Health struct {
	// Version is the server's version (in the log too).
	Version string
	// Browser is the browser's state (browser.Manager.State): a problem
	// (none found, its launches keep failing) makes the server unhealthy;
	// the state is shown as it is.
	Browser func() (problem string, state any)
	// Sessions are the browser sessions, counted against MaxSessions
	// (--max-sessions).
	Sessions    *mcptools.Registry
	MaxSessions int
}

// remote reports whether clients reach the server over TCP: then they may
// be anyone the network lets through, and the server is strict.
func (o *HTTPOptions) remote() bool { return o.Socket == "" }

// ServeHTTP speaks MCP over Streamable HTTP at /mcp (and /message, the
// seeds' path) with /health and /metrics beside it, until ctx ends. Then it
// stops taking requests and lets the calls in flight finish, bounded by the
// drain timeout; the caller then ends every session.
func ServeHTTP(ctx context.Context, o HTTPOptions, log *zap.Logger, srv *server.MCPServer) error {
	reg := o.Health.Sessions
	// The MCP sessions: their ids (with --replica-id, naming this
	// replica), owners, lifetimes and cap (lifetime.go).
	ids := newClientSessions(sessionPrefix(o.ReplicaID), o.ClientIdleTimeout, o.MaxClients)
	mcpHandler := server.NewStreamableHTTPServer(srv,
		// Sessions are what isolation hangs on: keep clients on the
		// protocol versions that have Mcp-Session-Id (stack-notes §1.6).
		server.WithStreamableHTTPProtocolVersions(mcp.LegacyProtocolVersions()...),
		// Unknown or ended session ids get 404, so a client re-initializes
		// instead of talking to a session whose hooks never ran. With
		// --replica-id the ids name this replica (replica.go). mcp-go's own
		// manager remembers every ended id for good; ours, a bounded few.
		server.WithSessionIdManager(ids),
		// Clients that vanish without DELETE are swept after
		// --client-idle-timeout of silence with no stream open, by ids
		// (lifetime.go), not by mcp-go's sweeper.
		server.WithHeartbeatInterval(30*time.Second),
		// httpauth's guard checks Host and Origin (with the configured
		// allowances) before a request reaches this handler.
		server.WithDisableLocalhostProtection(true),
		// Resumable SSE streams: event ids, Last-Event-ID replay, from a
		// store with bounds (mcp-go's keeps every event of a session for
		// as long as it lives; eventstore.go).
		server.WithEventStore(newBoundedEvents(maxSessionEvents, maxEvents)),
		// The transport's own warnings go to our log (stderr), never stdout.
		// A call outlives its connection: a client that loses it mid-call
		// reconnects with Last-Event-ID and gets the answer from the event
		// store, instead of the call being cut. (Every tool is bounded by
		// its own timeouts; notifications/cancelled still cancels a call.)
		// And the client's key (OAuth subject, else its address) for rate
		// limits, from the request the guard let through.
		// (Not for the CLI's Unix socket: a command that gives up, on its
		// --timeout, ends its call, so the session is free for the next.)
		server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
			if o.remote() {
				ctx = context.WithoutCancel(ctx)
			}
			return callContext(ctx, r)
		}),
		server.WithStreamableHTTPLogger(slog.New(slog.NewTextHandler(zap.NewStdLog(log.Named("http")).Writer(),
			&slog.HandlerOptions{Level: slog.LevelWarn}))),
	)
	metrics.RegisterGauges(metrics.Gauges{
		SessionsActive:    func() float64 { n, _ := reg.Counts(); return float64(n) },
		DevServersRunning: func() float64 { _, n := reg.Counts(); return float64(n) },
		ClientsActive:     func() float64 { return float64(ids.count()) },
	})
	mux := http.NewServeMux()
	gate := newMCPGate(mcpHandler, o.MaxBody, ids)
	if o.remote() {
		// Not on the CLI's Unix socket, where every command initializes.
		gate.limitInitializes(o.RateClients)
	}
	sweepCtx, stopSweep := context.WithCancel(context.Background())
	defer stopSweep()
	go ids.sweep(sweepCtx, gate.endTransport)
	// The legacy SSE transport (sse.go), in the same table of sessions.
	// Its calls outlive their POST (mcp-go detaches them).
	gate.sse = newSSETransport(srv, log, func(ctx context.Context, r *http.Request) context.Context {
		// Sessions are what isolation hangs on: no stateless version.
		return server.WithSupportedProtocolVersions(callContext(ctx, r), mcp.LegacyProtocolVersions())
	})
	// Streamable HTTP at /mcp, and at / as Playwright MCP answers it.
	mux.Handle("/{$}", gate)
	mux.Handle("/mcp", gate)
	mux.Handle("/message", gate)
	mux.HandleFunc(ssePath, gate.serveSSE)
	mux.Handle("GET /health", HealthHandler(o.Health, func() (active, limit int) { return ids.count(), ids.max }))
	mux.Handle("GET /metrics", metrics.Handler())

	ln, guardAddr, err := listen(&o)
	if err != nil {
		return err
	}
	guardOpts := o.Guard
	guardOpts.ListenAddr = guardAddr
	guard, err := httpauth.New(guardOpts)
	if err != nil {
		_ = ln.Close()
		return err
	}
	hs := &http.Server{Handler: guard.Handler(mux), ReadHeaderTimeout: 10 * time.Second}
	log.Info("serving MCP over HTTP", zap.String("version", o.Health.Version), zap.String("addr", ln.Addr().String()),
		zap.String("mcp", "http://"+ln.Addr().String()+"/mcp"))
	if o.remote() {
		// What scripts and Playwright MCP's tests wait for, and what a
		// person copies into a client's settings.
		_, _ = fmt.Fprint(os.Stderr, listeningNote(ln.Addr(), o.Guard.Token != ""))
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	// Drain: no new connections; calls in flight get the drain timeout.
	// Streams that stay open (GET listeners) are cut when it ends; an SSE
	// stream closes once its calls in flight are answered.
	log.Info("draining HTTP", zap.Duration("timeout", o.DrainTimeout))
	gate.sse.drain()
	dctx, cancel := context.WithTimeout(context.Background(), o.DrainTimeout)
	defer cancel()
	if err := hs.Shutdown(dctx); err != nil {
		_ = hs.Close()
		if !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		log.Warn("drain timeout: cut the remaining connections")
	}
	return nil
}

// callContext is what a call made over HTTP carries from its request:
// the principal the guard authenticated, and its client's rate-limit key.
func callContext(ctx context.Context, r *http.Request) context.Context {
	if p, ok := httpauth.PrincipalFromContext(r.Context()); ok {
		// An OAuth subject's sessions are its own, whichever of its MCP
		// sessions calls.
		ctx = mcptools.WithPrincipal(ctx, p.Key())
	}
	return context.WithValue(ctx, clientKeyCtx{}, httpauth.ClientKey(r))
}

// listeningNote is what the server prints on stderr once it listens on
// TCP: "Listening on http://HOST:PORT" (the port it got, when asked for
// 0; a wildcard address as localhost), as Playwright MCP prints it, and
// the settings a client takes to connect (an .mcp.json's), the token
// named, never shown.
func listeningNote(addr net.Addr, token bool) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "Listening on " + addr.String() + "\n"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	base := "http://" + net.JoinHostPort(host, port)
	entry := map[string]any{"type": "http", "url": base + "/mcp"}
	if token {
		entry["headers"] = map[string]string{"Authorization": "Bearer ${E2E_MCP_AUTH_TOKEN}"}
	}
	snippet, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{"e2e-mcp": entry}}, "", "  ")
	return "Listening on " + base + "\n" +
		"Put this in your client's MCP settings (.mcp.json):\n" + string(snippet) + "\n" +
		"Clients of the legacy SSE transport connect to " + base + ssePath + "\n"
}

// health is the JSON /health answers.
type health struct {
	Status  string                 `json:"status"` // ok or unhealthy
	Version string                 `json:"version"`
	Checks  map[string]healthCheck `json:"checks"`
}

type healthCheck struct {
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
	Value  any    `json:"value,omitempty"`
}

// HealthHandler answers 200 when a browser runs or can be started, 503
// when none can be had (none found, or its launches keep failing); it also
// reports sessions and MCP sessions (clients: how many are live, and their
// cap) against their limits, and memory. It never starts a browser
// itself: /health needs no credential, and anyone reaching it must not be
// able to make the server launch one.
func HealthHandler(o Health, clients func() (active, limit int)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		problem, st := o.Browser()
		h := health{Status: "ok", Version: o.Version, Checks: map[string]healthCheck{
			"browser": {OK: problem == "", Detail: problem, Value: st}}}
		n, dev := o.Sessions.Counts()
		h.Checks["sessions"] = healthCheck{OK: true, Value: map[string]int{"active": n, "max": o.MaxSessions, "devServers": dev}}
		active, limit := clients()
		h.Checks["clients"] = healthCheck{OK: true, Value: map[string]int{"active": active, "max": limit}}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		h.Checks["memory"] = healthCheck{OK: true, Value: map[string]uint64{"heapMB": ms.HeapAlloc >> 20, "sysMB": ms.Sys >> 20}}
		code := http.StatusOK
		if !h.Checks["browser"].OK {
			h.Status, code = "unhealthy", http.StatusServiceUnavailable
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(h)
	})
}

// clientKeyCtx carries the HTTP client's rate-limit key in a call's context.
type clientKeyCtx struct{}

// ClientKey is the rate-limit key of a call's client: from the HTTP request,
// or "stdio" for the one client of a stdio server.
func ClientKey(ctx context.Context) string {
	if k, ok := ctx.Value(clientKeyCtx{}).(string); ok && k != "" {
		return k
	}
	return "stdio"
}

// listen opens the HTTP server's listener: TCP (":8931" means loopback:
// every interface is a choice to make by naming one, 0.0.0.0:8931), or a
// Unix socket for unix:PATH (a stale socket file is replaced). It returns
// the address the Host check knows the server by.
func listen(o *HTTPOptions) (net.Listener, string, error) {
	if path := o.Socket; path != "" {
		if c, err := net.Dial("unix", path); err == nil { //nolint:gosec // the socket the operator named with --http unix:PATH
			_ = c.Close()
			return nil, "", fmt.Errorf("listen on %s: another server answers there", path)
		}
		_ = os.Remove(path) //nolint:gosec // a socket nobody answers on is stale; the operator named it
		ln, err := net.Listen("unix", path)
		if err != nil {
			return nil, "", fmt.Errorf("listen on %s: %w", path, err)
		}
		_ = os.Chmod(path, 0o600) //nolint:gosec // the operator named the socket
		return ln, "localhost:0", nil
	}
	addr := o.Addr
	if host, port, err := net.SplitHostPort(addr); err == nil && host == "" {
		addr = net.JoinHostPort("127.0.0.1", port)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, ln.Addr().String(), nil
}
