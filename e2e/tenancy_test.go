package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// tokenFor signs an access token for one subject.
func (j *jwks) tokenFor(t *testing.T, iss, aud, sub string) string {
	t.Helper()
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{"iss": iss, "aud": aud, "sub": sub,
		"exp": time.Now().Add(time.Hour).Unix(), "iat": time.Now().Unix()})
	tok.Header["kid"] = "k1"
	s, err := tok.SignedString(j.key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// cookieOf reads document.cookie of a session's current page.
func cookieOf(t *testing.T, c *client.Client, session string) string {
	t.Helper()
	return mustCall(t, c, "browser_evaluate", map[string]any{"sessionId": session,
		"function": "() => { try { return 'cookie=[' + document.cookie + ']' } catch (e) { return 'cookie=[] at ' + location.href } }"})
}

// TestHTTPSessionsBelongToTheirPrincipal: over HTTP with OAuth, one user's
// sessions are out of another's reach: not listed, not readable, not
// ended, not exported, whatever id the other passes; the same user reaches
// them from another MCP session.
func TestHTTPSessionsBelongToTheirPrincipal(t *testing.T) {
	f := newFixture(t, isolationRoutes)
	j := newJWKS(t)
	env, _ := serverEnv(t)
	iss, resource := "https://issuer.test", "http://mcp.test/mcp"
	s := startHTTP(t, append(env, "E2E_MCP_OAUTH_ISSUER="+iss, "E2E_MCP_OAUTH_JWKS_URL="+j.URL, "E2E_MCP_OAUTH_RESOURCE="+resource))
	as := func(sub string) *client.Client {
		c, err := s.clientWith(t, map[string]string{"Authorization": "Bearer " + j.tokenFor(t, iss, resource, sub)})
		if err != nil {
			t.Fatalf("client of %s: %v", sub, err)
		}
		return c
	}
	alice, bob, alice2 := as("alice"), as("bob"), as("alice")

	mustCall(t, alice, "browser_navigate", map[string]any{"url": f.URL + "/iso?who=alice", "sessionId": "work"})
	mustCall(t, alice, "browser_navigate", map[string]any{"url": f.URL + "/iso?who=alice-default"})
	mustContain(t, "alice's own session", cookieOf(t, alice, "work"), "who=alice]")
	aliceDefault := ""
	for _, l := range strings.Split(mustCall(t, alice, "session_list", nil), "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[0] == "-" && f[1] != "work" && f[2] == "(yours):" {
			aliceDefault = f[1]
		}
	}
	if aliceDefault == "" {
		t.Fatalf("alice's default session is not in her list:\n%s", mustCall(t, alice, "session_list", nil))
	}

	// Bob sees none of it, and the ids alice uses are his own names.
	list := mustCall(t, bob, "session_list", nil)
	if strings.Contains(list, "work") || strings.Contains(list, aliceDefault) {
		t.Errorf("bob's session_list shows alice's sessions:\n%s", list)
	}
	for _, id := range []string{"work", aliceDefault} {
		if got := cookieOf(t, bob, id); strings.Contains(got, "alice") {
			t.Errorf("bob reads alice's session %s: %s", id, got)
		}
		if out := text(call(t, bob, "server_logs", map[string]any{"sessionId": id})); strings.Contains(out, "alice") {
			t.Errorf("bob's server_logs of %s: %s", id, out)
		}
		if out := text(call(t, bob, "session_export_flow", map[string]any{"sessionId": id})); strings.Contains(out, "alice") {
			t.Errorf("bob exports alice's flow %s:\n%s", id, out)
		}
		mustCall(t, bob, "session_end", map[string]any{"sessionId": id})
	}

	// Alice's sessions lived through all of it; her other MCP session
	// reaches them, since they are hers.
	mustContain(t, "alice after bob's calls", cookieOf(t, alice, "work"), "who=alice]")
	mustContain(t, "alice's default after bob's calls", cookieOf(t, alice, ""), "who=alice-default]")
	mustContain(t, "alice's other connection", mustCall(t, alice2, "session_list", nil), "work")
	mustContain(t, "alice's other connection", cookieOf(t, alice2, "work"), "who=alice]")
}

// TestHTTPStaticTokenSessionsPerConnection: with a static token (or none)
// clients cannot be told apart by credential, so each MCP session is its
// own principal; --shared-sessions lets an operator share named sessions.
func TestHTTPStaticTokenSessionsPerConnection(t *testing.T) {
	f := newFixture(t, isolationRoutes)
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			env, _ := serverEnv(t)
			env = append(env, "E2E_MCP_AUTH_TOKEN=tok", "E2E_MCP_SHARED_SESSIONS="+strconv.FormatBool(shared))
			s := startHTTP(t, env)
			a, err := s.clientWith(t, map[string]string{"Authorization": "Bearer tok"})
			if err != nil {
				t.Fatal(err)
			}
			b, err := s.clientWith(t, map[string]string{"Authorization": "Bearer tok"})
			if err != nil {
				t.Fatal(err)
			}
			mustCall(t, a, "browser_navigate", map[string]any{"url": f.URL + "/iso?who=ann", "sessionId": "team"})
			listed := strings.Contains(mustCall(t, b, "session_list", nil), "team")
			got := cookieOf(t, b, "team")
			if shared && (!strings.Contains(got, "who=ann") || !listed) {
				t.Errorf("--shared-sessions: b does not share a's named session: %s (listed: %v)", got, listed)
			}
			if !shared && (strings.Contains(got, "ann") || listed) {
				t.Errorf("b reaches a's session without --shared-sessions: %s (listed: %v)", got, listed)
			}
		})
	}
}

// TestBusySessionAndSessionEnd: a call waits a bounded time for a session
// another call holds, then answers busy naming that call; session_end
// cancels the call that holds the session and ends it at once, even when
// the holder's HTTP connection is gone; typing slowly is bounded.
func TestBusySessionAndSessionEnd(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	s := startHTTP(t, append(env, "E2E_MCP_SHARED_SESSIONS=true", "E2E_MCP_BUSY_TIMEOUT=1s"))
	a, b := s.client(t), s.client(t)
	mustCall(t, a, "browser_navigate", map[string]any{"url": f.URL + "/", "sessionId": "s1"})

	// a's long call, whose connection then drops.
	ctx, drop := context.WithCancel(context.Background())
	held := make(chan struct{})
	go func() {
		defer close(held)
		req := mcp.CallToolRequest{}
		req.Params.Name = "browser_wait_for"
		req.Params.Arguments = map[string]any{"text": "never on this page", "timeout": 55, "sessionId": "s1"}
		_, _ = a.CallTool(ctx, req)
	}()
	var busy *mcp.CallToolResult
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		busy = call(t, b, "browser_snapshot", map[string]any{"sessionId": "s1"})
		if busy.IsError {
			break
		}
	}
	wantError(t, busy, "busy", "browser_wait_for", "session_end")
	drop()
	<-held

	mustCall(t, b, "session_end", map[string]any{"sessionId": "s1"})
	// The call that held the session was cancelled by it, not waited for.
	waitFor(t, 10*time.Second, "the held call to end as cancelled", func() bool {
		for _, l := range strings.Split(s.log.String(), "\n") {
			if strings.Contains(l, "tool cancelled") && strings.Contains(l, "browser_wait_for") && strings.Contains(l, "session_end") {
				return true
			}
		}
		return false
	})
	if strings.Contains(mustCall(t, b, "session_list", nil), "s1") {
		t.Error("s1 is still listed after session_end")
	}

	long := strings.Repeat("x", 2001)
	wantError(t, call(t, b, "browser_type", map[string]any{"target": "body", "text": long, "slowly": true}), "invalid_input", "at most 2000")
}

// TestEndedSessionIsToldOnce: a session the server ends by itself (idle,
// or evicted for room) is not silently replaced by a blank one: the next
// call says what happened, once; the call after works in a new session.
func TestEndedSessionIsToldOnce(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c, log := startClientLog(t, append(env, "E2E_MCP_IDLE_TIMEOUT=1s", "E2E_MCP_MAX_SESSIONS=2"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/", "sessionId": "idler"})
	waitFor(t, 30*time.Second, "the idle session to end", func() bool {
		for _, l := range strings.Split(log.String(), "\n") {
			if strings.Contains(l, "session ended") && strings.Contains(l, "idler") && strings.Contains(l, "idle") {
				return true
			}
		}
		return false
	})
	// session_list does not swallow it (it holds the caller's default session).
	mustCall(t, c, "session_list", map[string]any{"sessionId": "idler"})
	wantError(t, call(t, c, "browser_snapshot", map[string]any{"sessionId": "idler"}), "session_ended", "idle-timeout", "call again")
	mustContain(t, "the call after", mustCall(t, c, "browser_snapshot", map[string]any{"sessionId": "idler"}), "about:blank")
}

// TestEvictedSessionIsToldOnce: --max-sessions makes room by ending the
// least recently used idle session; its next call says so.
func TestEvictedSessionIsToldOnce(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_MAX_SESSIONS=2"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/", "sessionId": "one"})
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/", "sessionId": "two"})
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/", "sessionId": "three"})
	wantError(t, call(t, c, "browser_snapshot", map[string]any{"sessionId": "one"}), "session_ended", "--max-sessions")
	mustCall(t, c, "browser_snapshot", map[string]any{"sessionId": "one"})
}
