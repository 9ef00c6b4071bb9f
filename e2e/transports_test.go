package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Playwright MCP's HTTP surface, which its users' scripts and clients
// expect: the "Listening on" line, Streamable HTTP at / as at /mcp, and the
// legacy SSE transport at /sse.

var listeningRE = regexp.MustCompile(`(?m)^Listening on (http://127\.0\.0\.1:(\d+))$`)

// request sends one raw request to path and returns the status, headers
// and body (a stream is not read).
func (s *httpServer) request(t *testing.T, method, path, token, session, body string) (int, http.Header, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	var b []byte
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ = io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	}
	return resp.StatusCode, resp.Header, string(b)
}

// clientsActive is the live MCP sessions /health counts.
func (s *httpServer) clientsActive(t *testing.T) int {
	t.Helper()
	_, body := s.get(t, "/health")
	var h struct {
		Checks map[string]struct {
			Value map[string]any `json:"value"`
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(body), &h); err != nil {
		t.Fatalf("/health: %v: %s", err, body)
	}
	n, _ := h.Checks["clients"].Value["active"].(float64)
	return int(n)
}

// TestHTTPListeningAndRoot: on --http 127.0.0.1:0 the server prints
// "Listening on http://127.0.0.1:PORT" with the port it got, and an
// .mcp.json entry whose URL serves and which names the token without
// showing it. Streamable HTTP answers at / as at /mcp, every method of it
// (POST, the GET stream, the DELETE that ends the session) behind the same
// token.
func TestHTTPListeningAndRoot(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	s := startHTTP(t, append(env, "E2E_MCP_AUTH_TOKEN=s3cret"))
	var cfg struct {
		MCPServers map[string]struct {
			Type    string            `json:"type"`
			URL     string            `json:"url"`
			Headers map[string]string `json:"headers"`
		} `json:"mcpServers"`
	}
	// The line comes first, the snippet after it in later writes: wait
	// for the snippet whole.
	var log string
	var m []string
	waitFor(t, 10*time.Second, "the Listening on line and the config snippet after it", func() bool {
		log = s.log.String()
		if m = listeningRE.FindStringSubmatch(log); m == nil {
			return false
		}
		after := log[strings.Index(log, m[0]):]
		brace := strings.Index(after, "{")
		return brace >= 0 && json.NewDecoder(strings.NewReader(after[brace:])).Decode(&cfg) == nil
	})
	if m[2] == "0" || m[1] != s.base {
		t.Errorf("Listening on %s, but the server listens at %s", m[1], s.base)
	}
	entry := cfg.MCPServers["e2e-mcp"]
	if entry.Type != "http" || entry.URL != s.base+"/mcp" || entry.Headers["Authorization"] != "Bearer ${E2E_MCP_AUTH_TOKEN}" {
		t.Errorf("the snippet's entry: %+v", entry)
	}
	if strings.Contains(log, "s3cret") {
		t.Error("the server's stderr shows the token")
	}

	for _, path := range []string{"/", "/mcp"} {
		if code, _, _ := s.request(t, http.MethodPost, path, "", "", rawInitializeBody); code != http.StatusUnauthorized {
			t.Errorf("%s without the token: %d, want 401", path, code)
		}
		c, err := client.NewStreamableHttpClient(s.base+path, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer s3cret"}))
		if err != nil {
			t.Fatal(err)
		}
		if err := initialize(c); err != nil {
			t.Fatalf("a client at %s: %v", path, err)
		}
		mustContain(t, path+" navigate", mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"}), "### Page")
		id := c.GetSessionId()
		before := s.clientsActive(t)
		if code, h, _ := s.request(t, http.MethodGet, path, "s3cret", id, ""); code != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "text/event-stream") {
			t.Errorf("GET %s (the listening stream): %d %q", path, code, h.Get("Content-Type"))
		}
		// (mcp-go's client sends its DELETE without the headers it was
		// given, so the test sends it.)
		if code, _, body := s.request(t, http.MethodDelete, path, "s3cret", id, ""); code != http.StatusOK {
			t.Errorf("DELETE %s: %d %s", path, code, body)
		}
		_ = c.Close()
		waitFor(t, 10*time.Second, "the DELETE at "+path+" to end the session", func() bool { return s.clientsActive(t) == before-1 })
		if code, _, _ := s.request(t, http.MethodPost, path, "s3cret", id, `{"jsonrpc":"2.0","id":9,"method":"tools/list"}`); code != http.StatusNotFound {
			t.Errorf("%s after its DELETE: %d, want 404", path, code)
		}
	}
}

const rawInitializeBody = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// sseClient opens mcp-go's SSE client on the server's /sse with headers
// and initializes it on protocol version 2024-11-05, that transport's.
func (s *httpServer) sseClient(t *testing.T, headers map[string]string) (*client.Client, error) {
	t.Helper()
	c, err := client.NewSSEMCPClient(s.base+"/sse", transport.WithHeaders(headers))
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = c.Close() })
	// The stream lives as long as Start's context: the client's Close
	// ends it (the client waits for the endpoint event 30 s at most).
	if err := c.Start(context.Background()); err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.ProtocolVersion20241105
	req.Params.ClientInfo = mcp.Implementation{Name: "e2e-sse", Version: "1"}
	res, err := c.Initialize(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if res.ProtocolVersion != mcp.ProtocolVersion20241105 {
		return nil, fmt.Errorf("initialize agreed on %s", res.ProtocolVersion)
	}
	return c, nil
}

// sseSession is the session id of an SSE client: its message URL's.
func sseSession(t *testing.T, c *client.Client) string {
	t.Helper()
	tr, ok := c.GetTransport().(*transport.SSE)
	if !ok || tr.GetEndpoint() == nil {
		t.Fatal("not an SSE client with an endpoint")
	}
	return tr.GetEndpoint().Query().Get("sessionId")
}

// TestSSETransport: mcp-go's SSE client (protocol 2024-11-05) through
// /sse: refused without the token and from a foreign origin; with it,
// tools/list and browser calls work, two clients' browser sessions are
// isolated, a stream counts against --max-clients (a third is refused with
// 503 and evicts neither), its session id is no Streamable session's, and
// a closed stream ends its MCP session and its browser session, while the
// other client works on.
func TestSSETransport(t *testing.T) {
	f := newFixture(t, isolationRoutes)
	env, _ := serverEnv(t)
	s := startHTTP(t, append(env, "E2E_MCP_AUTH_TOKEN=s3cret", "E2E_MCP_MAX_CLIENTS=2"))
	s.token = "s3cret"
	if _, err := s.sseClient(t, nil); !errors.Is(err, transport.ErrAuthorizationRequired) {
		t.Errorf("an SSE client without the token: %v, want a 401", err)
	}
	if _, err := s.sseClient(t, map[string]string{"Authorization": "Bearer s3cret", "Origin": "https://evil.example"}); err == nil || !strings.Contains(err.Error(), "403") {
		t.Errorf("an SSE client from a foreign origin: %v, want a 403", err)
	}
	auth := map[string]string{"Authorization": "Bearer s3cret"}
	a, err := s.sseClient(t, auth)
	if err != nil {
		t.Fatalf("SSE client: %v", err)
	}
	b, err := s.sseClient(t, auth)
	if err != nil {
		t.Fatalf("second SSE client: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tools, err := a.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil || len(tools.Tools) == 0 {
		t.Fatalf("tools/list: %v", err)
	}
	checkIsolated(t, f, map[string]func(string, map[string]any) string{
		"alice": func(tool string, args map[string]any) string { return mustCall(t, a, tool, args) },
		"bob":   func(tool string, args map[string]any) string { return mustCall(t, b, tool, args) },
	})
	if got := scrape(t, s, "e2e_mcp_sessions_active"); got != 2 {
		t.Errorf("browser sessions: %v, want 2 (one each)", got)
	}

	// Both streams open at --max-clients 2: no room, and neither goes.
	code, h, body := s.request(t, http.MethodGet, "/sse", "s3cret", "", "")
	if code != http.StatusServiceUnavailable || h.Get("Retry-After") == "" || !strings.Contains(body, "--max-clients") {
		t.Errorf("a third stream: %d %q %s, want 503 with Retry-After", code, h.Get("Retry-After"), body)
	}
	if code, _, _ := s.request(t, http.MethodPost, "/mcp", "s3cret", "", rawInitializeBody); code != http.StatusServiceUnavailable {
		t.Errorf("a Streamable initialize with both streams open: %d, want 503", code)
	}
	// An SSE session is no Streamable one.
	if code, _, _ := s.request(t, http.MethodPost, "/mcp", "s3cret", sseSession(t, a), `{"jsonrpc":"2.0","id":9,"method":"tools/list"}`); code != http.StatusNotFound {
		t.Errorf("a Streamable request naming an SSE session: %d, want 404", code)
	}

	// a's stream closes: its MCP session and its browser session end.
	aID := sseSession(t, a)
	_ = a.Close()
	waitFor(t, 10*time.Second, "the closed stream's sessions to end", func() bool {
		return s.clientsActive(t) == 1 && scrape(t, s, "e2e_mcp_sessions_active") == 1
	})
	if code, _, _ := s.request(t, http.MethodPost, "/sse?sessionId="+aID, "s3cret", "", `{"jsonrpc":"2.0","id":9,"method":"tools/list"}`); code != http.StatusNotFound {
		t.Errorf("a message to the closed stream's session: %d, want 404", code)
	}
	mustContain(t, "bob after alice left", mustCall(t, b, "browser_navigate", map[string]any{"url": f.URL + "/iso"}), "cookie=who=bob")
	if _, err := s.sseClient(t, auth); err != nil {
		t.Errorf("a stream where one closed: %v", err)
	}
}

// TestSSECancelledCallGetsNoAnswer: over SSE, a call the client cancels
// (notifications/cancelled, POSTed as every message is) gets no answer on
// the stream, counts as no failure, and the session works on.
func TestSSECancelledCallGetsNoAnswer(t *testing.T) {
	f, started := longCall(t)
	env, _ := serverEnv(t)
	s := startHTTP(t, append(env, "E2E_MCP_ALLOWED_ORIGINS="+f.URL))
	c, err := s.sseClient(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"})
	tr := c.GetTransport()
	var mu sync.Mutex
	var answer *transport.JSONRPCResponse
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		res, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(int64(9001)),
			Method: "tools/call", Params: map[string]any{"name": "browser_evaluate", "arguments": map[string]any{"function": holdFunction}}})
		if err == nil {
			mu.Lock()
			answer = res
			mu.Unlock()
		}
	}()
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the call never reached the page")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := tr.SendNotification(ctx, mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{
		Method: "notifications/cancelled", Params: mcp.NotificationParams{AdditionalFields: map[string]any{"requestId": 9001, "reason": "no longer needed"}}}}); err != nil {
		t.Fatal(err)
	}
	// session_errors holds the session, so it answers once the cancelled
	// call has ended; the snapshot after it, once that call's answer, had
	// it been sent, was on the stream before.
	mustContain(t, "session_errors", mustCall(t, c, "session_errors", nil), "No failures in session")
	mustCall(t, c, "browser_snapshot", nil)
	mu.Lock()
	defer mu.Unlock()
	if answer != nil {
		b, _ := json.Marshal(answer)
		t.Errorf("the cancelled call was answered: %s", b)
	}
}
