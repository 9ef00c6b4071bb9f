package e2e

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// TestIdleHTTPClientKeepsItsMCPSession: an agent that stops to write code
// for longer than --idle-timeout keeps its MCP session over HTTP, with or
// without an open GET stream: its browser session ended (said once, on
// the next call), the MCP session did not, and the next calls work.
func TestIdleHTTPClientKeepsItsMCPSession(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	s := startHTTP(t, append(env, "E2E_MCP_IDLE_TIMEOUT=2s", "E2E_MCP_ALLOWED_ORIGINS="+f.URL))
	for _, listen := range []bool{false, true} {
		var opts []transport.StreamableHTTPCOption
		if listen {
			opts = append(opts, transport.WithContinuousListening()) //nolint:staticcheck // the GET stream of the versions we serve is what is tested
		}
		c, err := client.NewStreamableHttpClient(s.base+"/mcp", opts...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		if err := c.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := initialize(c); err != nil {
			t.Fatal(err)
		}
		mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"})
		// Idle on purpose: three times the idle timeout, so that every
		// sweep (each runs at half of it) has had its chance.
		time.Sleep(6 * time.Second)
		res := call(t, c, "browser_snapshot", nil)
		if !res.IsError || !strings.Contains(text(res), "session_ended") || !strings.Contains(text(res), "--idle-timeout") {
			t.Errorf("stream=%v: the first call after the idle time must say the browser session ended, once:\n%s", listen, text(res))
		}
		out := mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/"})
		mustContain(t, "the call after", out, "### Page")
	}
}

// TestSilentHTTPClientIsSweptAndToldWhy: a client that sends nothing for
// --client-idle-timeout, with no stream open, loses its MCP session; its
// next request gets the specification's 404 with a body saying why and to
// initialize again. A client listening on its GET stream is not swept
// (every heartbeat counts), however long it says nothing.
func TestSilentHTTPClientIsSweptAndToldWhy(t *testing.T) {
	env, _ := serverEnv(t)
	s := startHTTP(t, append(env, "E2E_MCP_CLIENT_IDLE_TIMEOUT=3s"))
	silent := s.client(t)
	listening, err := client.NewStreamableHttpClient(s.base+"/mcp", transport.WithContinuousListening()) //nolint:staticcheck // as above
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = listening.Close() })
	// Started on a context that lasts (the listening stream lives on it),
	// then initialized.
	if err := listening.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := initialize(listening); err != nil {
		t.Fatal(err)
	}
	mustCall(t, silent, "session_list", nil)
	mustCall(t, listening, "session_list", nil)
	id := silent.GetSessionId()
	time.Sleep(8 * time.Second) // silent on purpose, past the timeout and its sweeps

	mustCall(t, listening, "session_list", nil)
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`
	req, _ := http.NewRequest(http.MethodPost, s.base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(b), "--client-idle-timeout") ||
		!strings.Contains(string(b), "send initialize") || !strings.Contains(string(b), `"id":7`) {
		t.Errorf("the swept client's request: %d %s", resp.StatusCode, b)
	}
	// The clear path back: a new session.
	again := s.client(t)
	mustCall(t, again, "session_list", nil)
}
