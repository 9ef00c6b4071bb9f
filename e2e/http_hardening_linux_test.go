package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
)

// rawMCP sends one request to /mcp with headers and returns the status and
// body (the first 64 KB).
func (s *httpServer) rawMCP(t *testing.T, method string, headers map[string]string, body io.Reader) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, s.base+"/mcp", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatalf("%s /mcp: %v", method, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, string(b)
}

const listCall = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"session_list","arguments":{}}}`

// TestHTTPMCPSessionBoundToPrincipal: an MCP session belongs to the OAuth
// subject that initialized it: another subject gets what an unknown
// session id gets (404) for a call, a stream and a DELETE, and the owner
// goes on working.
func TestHTTPMCPSessionBoundToPrincipal(t *testing.T) {
	j := newJWKS(t)
	env, _ := serverEnv(t)
	iss, resource := "https://issuer.test", "http://mcp.test/mcp"
	s := startHTTP(t, append(env, "E2E_MCP_OAUTH_ISSUER="+iss, "E2E_MCP_OAUTH_JWKS_URL="+j.URL, "E2E_MCP_OAUTH_RESOURCE="+resource))
	aliceAuth := map[string]string{"Authorization": "Bearer " + j.tokenFor(t, iss, resource, "alice")}
	bobAuth := "Bearer " + j.tokenFor(t, iss, resource, "bob")
	alice, err := s.clientWith(t, aliceAuth)
	if err != nil {
		t.Fatal(err)
	}
	mustCall(t, alice, "session_list", nil)
	id := alice.GetTransport().(*transport.StreamableHTTP).GetSessionId()
	if id == "" {
		t.Fatal("no Mcp-Session-Id")
	}
	as := func(auth string) map[string]string {
		return map[string]string{"Authorization": auth, "Mcp-Session-Id": id}
	}
	fake := map[string]string{"Authorization": bobAuth, "Mcp-Session-Id": "mcp-session-00000000-0000-0000-0000-000000000000"}
	codeUnknown, bodyUnknown := s.rawMCP(t, "POST", fake, strings.NewReader(listCall))
	for _, m := range []string{"POST", "GET", "DELETE"} {
		var body io.Reader
		if m == "POST" {
			body = strings.NewReader(listCall)
		}
		code, out := s.rawMCP(t, m, as(bobAuth), body)
		if code != http.StatusNotFound || strings.Contains(out, "yours") {
			t.Errorf("bob's %s on alice's MCP session: %d %q", m, code, out)
		}
		if m == "POST" && (code != codeUnknown || out != bodyUnknown) {
			t.Errorf("bob's POST on alice's session (%d %q) is told apart from an unknown session (%d %q)", code, out, codeUnknown, bodyUnknown)
		}
	}
	mustCall(t, alice, "session_list", nil) // alice's session is alive
}

// TestHTTPBodyLimit: a body over --http-max-body gets 413 before anything
// reads it whole: a 150 MB body leaves the server's peak memory about where
// it was (the race-detector build the tests run multiplies what a read
// costs, and the first second runs without collection: the limit is 1 MiB
// here so that what is read stays small even so).
func TestHTTPBodyLimit(t *testing.T) {
	env, _ := serverEnv(t)
	s := startHTTP(t, append(env, "E2E_MCP_AUTH_TOKEN=tok", "E2E_MCP_HTTP_MAX_BODY=1048576"))
	auth := map[string]string{"Authorization": "Bearer tok"}
	peak := func() int {
		f, err := os.Open(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
				n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
				return n
			}
		}
		t.Fatal("no VmHWM")
		return 0
	}
	before := peak()
	big := io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"`),
		io.LimitReader(zeros{}, 150<<20), strings.NewReader(`"}}`))
	code, body := s.rawMCP(t, "POST", auth, big)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "--http-max-body") {
		t.Errorf("150 MB body, sent chunked: %d %s", code, body)
	}
	declared := strings.NewReader(strings.Repeat("a", 20<<20))
	if code, body := s.rawMCP(t, "POST", auth, declared); code != http.StatusRequestEntityTooLarge {
		t.Errorf("20 MB body with its length: %d %s", code, body)
	}
	if grew := peak() - before; grew > 64<<10 {
		t.Errorf("peak memory grew by %d MB for a refused body", grew>>10)
	}
	// Within the limit all is as before.
	if c, err := s.clientWith(t, auth); err != nil {
		t.Fatalf("an ordinary client: %v", err)
	} else {
		mustCall(t, c, "session_list", nil)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// TestHTTPProtocolAnswers: a call without Mcp-Session-Id is a 400 (as the
// specification says, not the 404 that tells a client its session ended),
// and a JSON-RPC batch of a 2025-11-25 request gets an Invalid Request
// that says its version has no batches (not a parse error; 2025-03-26's
// are served: batch_rpc_test.go).
func TestHTTPProtocolAnswers(t *testing.T) {
	env, _ := serverEnv(t)
	s := startHTTP(t, env)
	code, body := s.rawMCP(t, "POST", nil, strings.NewReader(listCall))
	if code != http.StatusBadRequest || !strings.Contains(body, "Mcp-Session-Id") || !strings.Contains(body, "-32600") {
		t.Errorf("a call without a session: %d %s", code, body)
	}
	code, body = s.rawMCP(t, "DELETE", nil, nil)
	if code != http.StatusBadRequest {
		t.Errorf("a DELETE without a session: %d %s", code, body)
	}
	code, body = s.rawMCP(t, "POST", nil, strings.NewReader(`[`+listCall+`,`+listCall+`]`))
	if code != http.StatusBadRequest || !strings.Contains(body, "-32600") || !strings.Contains(body, "2025-03-26 only") {
		t.Errorf("a batch: %d %s", code, body)
	}
}

// TestHTTPHealthStartsNoBrowser: anyone may ask /health (it needs no
// credential), so it must not make the server launch a browser.
func TestHTTPHealthStartsNoBrowser(t *testing.T) {
	env, tmp := serverEnv(t)
	s := startHTTP(t, append(env, "E2E_MCP_AUTH_TOKEN=tok"))
	for range 3 {
		code, body := s.get(t, "/health")
		if code != http.StatusOK || !strings.Contains(body, `"running":false`) || !strings.Contains(body, `"executable":"`) {
			t.Errorf("/health: %d %s", code, body)
		}
	}
	if ps := chromeProcesses(tmp); len(ps) != 0 {
		t.Errorf("/health started a browser: %v", ps)
	}
}

// TestHTTPLocalOrigin: on a loopback listener a page served from this
// machine (an MCP inspector on its own port) may call; a foreign page may
// not.
func TestHTTPLocalOrigin(t *testing.T) {
	env, _ := serverEnv(t)
	s := startHTTP(t, env)
	for origin, want := range map[string]int{"http://localhost:6274": 200, "http://127.0.0.1:5173": 200, "https://evil.example": 403} {
		if code, _ := s.post(t, map[string]string{"Origin": origin}); code != want {
			t.Errorf("initialize from %s: %d, want %d", origin, code, want)
		}
	}
}
