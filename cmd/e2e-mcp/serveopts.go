package main

import (
	"strings"

	"github.com/e2e-mcp/e2e-mcp/browser"
	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/config"
	"github.com/e2e-mcp/e2e-mcp/httpauth"
	"github.com/e2e-mcp/e2e-mcp/mcptools"
	"github.com/e2e-mcp/e2e-mcp/transport"
)

// httpOptions maps the settings onto the HTTP transport's options
// (package transport serves MCP; cmd only wires it).
func httpOptions(cfg *config.Config, bm *browser.Manager, reg *mcptools.Registry) transport.HTTPOptions {
	return transport.HTTPOptions{Addr: cfg.HTTP, Socket: cfg.UnixSocket(), ReplicaID: cfg.ReplicaID,
		ClientIdleTimeout: cfg.ClientIdleTimeout, MaxClients: cfg.MaxClients, MaxBody: cfg.HTTPMaxBody,
		RateClients: cfg.RateClients, DrainTimeout: cfg.DrainTimeout,
		// The listener's address is the transport's to fill in.
		Guard:  guardOptions(cfg, ""),
		Health: health(bm, reg, cfg.MaxSessions)}
}

// health is what /health reports on: the browser's state, the sessions
// against --max-sessions.
func health(bm *browser.Manager, reg *mcptools.Registry, maxSessions int) transport.Health {
	return transport.Health{Version: Version(), Sessions: reg, MaxSessions: maxSessions,
		Browser: func() (string, any) {
			st := bm.State()
			return st.Problem, st
		}}
}

// guardOptions are the HTTP server's Host, Origin and credential checks.
// --allowed-hosts makes its list (and --http-allowed-hosts') the only
// Hosts accepted over TCP; on the CLI's Unix socket, which no web page
// reaches, it widens the check as --http-allowed-hosts does.
func guardOptions(cfg *config.Config, addr string) httpauth.Options {
	o := httpauth.Options{ListenAddr: addr, AllowedHosts: splitList(cfg.AllowedHosts + "," + cfg.HTTPAllowedHosts),
		OnlyAllowedHosts: splitList(cfg.AllowedHosts) != nil && cfg.UnixSocket() == "",
		AllowedOrigins:   splitList(cfg.HTTPAllowedOrigins), Token: cfg.AuthToken, PublicPaths: []string{"/health"}}
	if cfg.OAuthIssuer != "" {
		o.OAuth = &httpauth.OAuthOptions{Issuer: cfg.OAuthIssuer, JWKSURL: cfg.OAuthJWKSURL, Resource: cfg.OAuthResource,
			RequiredScopes: splitList(cfg.OAuthScopes), Scopes: splitList(cfg.OAuthScopes)}
	}
	return o
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
