package webdriver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/e2e-mcp/e2e-mcp/redact"
)

// DevToolsWebSocket asks a browser's DevTools HTTP endpoint for the
// websocket to drive it by: the webSocketDebuggerUrl of its /json/version.
// base is the endpoint as configured: http://host:9222, or a service's
// https://host/path?key=K (ws and wss stand for http and https); its path
// and query are kept, /json/version/ put after the path. header goes with
// the request, as it goes with the websocket's handshake: a hosted browser
// service checks its credential on both. Over plain HTTP a host name is
// resolved first and the request sent to its address, since Chrome answers
// only a Host that is an address or localhost. c nil is
// http.DefaultClient.
//
// Every /json/version request goes through here (TestOneVersionRequest).
func DevToolsWebSocket(ctx context.Context, c *http.Client, base string, header http.Header) (string, error) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("DevTools endpoint %q: want http://host:port", redact.URL(base))
	}
	switch u.Scheme {
	case "ws", "http":
		u.Scheme = "http"
		if host := u.Hostname(); host != "localhost" && net.ParseIP(host) == nil {
			addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
			if err != nil || len(addrs) == 0 {
				return "", fmt.Errorf("DevTools endpoint %s: resolve %s: %w", redact.URL(base), host, err)
			}
			port := u.Port()
			if port == "" {
				port = "80"
			}
			u.Host = net.JoinHostPort(addrs[0].IP.String(), port)
		}
	case "wss", "https":
		u.Scheme = "https"
	default:
		return "", fmt.Errorf("DevTools endpoint %q: want http://host:port", redact.URL(base))
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/json/version/"
	u.RawPath, u.Fragment, u.User = "", "", nil
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", fmt.Errorf("DevTools endpoint %s: %w", redact.URL(base), err)
	}
	for k, vs := range header {
		req.Header[k] = append([]string(nil), vs...)
	}
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		// The client's error quotes the URL, query and all.
		return "", fmt.Errorf("DevTools endpoint %s: %w", redact.URL(base), redact.Err(err))
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("DevTools endpoint %s: /json/version answered %s", redact.URL(base), resp.Status)
	}
	var ver struct {
		WS string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&ver); err != nil || ver.WS == "" {
		return "", fmt.Errorf("DevTools endpoint %s: its /json/version names no webSocketDebuggerUrl", redact.URL(base))
	}
	return ver.WS, nil
}
