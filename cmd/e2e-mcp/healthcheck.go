package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/e2e-mcp/e2e-mcp/cmd/e2e-mcp/internal/config"
)

// healthcheckTimeout bounds one probe: a container runtime runs it every
// interval and counts a probe that hangs as a failure anyway.
const healthcheckTimeout = 5 * time.Second

// healthcheckMain is `e2e-mcp healthcheck [URL]`: GET URL (by
// default /health of the server E2E_MCP_HTTP names, on loopback) and exit
// 0 on 200, else 1. It is the container image's HEALTHCHECK, which has no
// curl; /health answers 503 when no browser can be had.
func healthcheckMain(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := config.NewFlagSet("healthcheck")
	if err := fs.Parse(args); err != nil {
		return flagsFailed("healthcheck", err, func(w io.Writer) {
			fmt.Fprint(w, "Usage: e2e-mcp healthcheck [URL]\n\n"+
				"Gets URL (default: /health of the server E2E_MCP_HTTP names, on loopback) and exits 0 when it\n"+
				"answers 200, else 1: the container image's HEALTHCHECK, which has no curl. /health answers 503\n"+
				"when no browser can be had.\n")
		}, stdout, stderr)
	}
	if fs.NArg() > 1 {
		return usageError(stderr, "healthcheck", "give one URL at most")
	}
	var u string
	if fs.NArg() == 1 {
		u = fs.Arg(0)
	} else {
		var err error
		if u, err = healthURL(getenv("E2E_MCP_HTTP")); err != nil {
			fmt.Fprintf(stderr, "e2e-mcp healthcheck: %v\n", err)
			return 2
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), healthcheckTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil) //nolint:gosec // the URL the operator's health check names
	if err != nil {
		fmt.Fprintf(stderr, "e2e-mcp healthcheck: %v\n", err)
		return 2
	}
	resp, err := http.DefaultClient.Do(req) //nolint:gosec // same URL
	if err != nil {
		fmt.Fprintf(stderr, "e2e-mcp healthcheck: %v\n", err)
		return 1
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "e2e-mcp healthcheck: %s: %s\n%s\n", u, resp.Status, strings.TrimSpace(string(body)))
		return 1
	}
	fmt.Fprintf(stdout, "%s: %s\n", u, resp.Status)
	return 0
}

// healthURL is the /health URL of a server listening on addr (an --http
// value): a wildcard or empty host is reached on loopback.
func healthURL(addr string) (string, error) {
	if addr == "" {
		addr = ":8931"
	}
	if strings.HasPrefix(addr, "unix:") {
		return "", fmt.Errorf("E2E_MCP_HTTP %q is a Unix socket: pass the URL of a TCP listener", addr)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("E2E_MCP_HTTP %q: want host:port (or pass the URL)", addr)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/health", nil
}
