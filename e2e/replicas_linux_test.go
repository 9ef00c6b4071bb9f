package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// affinityProxy is the load balancer of docs/replicas.md, small. A request
// without Mcp-Session-Id is an initialize: it goes to the next live replica
// in turn, and the Mcp-Session-Id of its answer is remembered with that
// replica. Every later request with the id goes there; an id it does not
// know gets 404, as the server answers one. A replica it cannot reach is
// marked down with its sessions (a load balancer's passive health check):
// that request gets 502, later ones with its ids 404, so the client
// re-initializes, on a live replica.
type affinityProxy struct {
	replicas []*httputil.ReverseProxy

	mu    sync.Mutex
	next  int
	down  []bool
	owner map[string]int         // Mcp-Session-Id -> the replica that made it
	seen  map[string]map[int]int // Mcp-Session-Id -> replica -> requests it got
}

func newAffinityProxy(t *testing.T, bases ...string) *affinityProxy {
	t.Helper()
	p := &affinityProxy{down: make([]bool, len(bases)), owner: map[string]int{}, seen: map[string]map[int]int{}}
	for i, base := range bases {
		target, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		p.replicas = append(p.replicas, &httputil.ReverseProxy{
			Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(target) },
			ModifyResponse: func(resp *http.Response) error {
				sid := resp.Header.Get("Mcp-Session-Id")
				if sid != "" && resp.Request.Header.Get("Mcp-Session-Id") == "" {
					p.mu.Lock()
					p.owner[sid] = i
					p.countLocked(sid, i)
					p.mu.Unlock()
				}
				return nil
			},
			ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
				if r.Context().Err() == nil { // the replica failed, not the client
					p.mu.Lock()
					p.down[i] = true
					for sid, o := range p.owner {
						if o == i {
							delete(p.owner, sid)
						}
					}
					p.mu.Unlock()
				}
				http.Error(w, fmt.Sprintf("replica %d unreachable: %v", i, err), http.StatusBadGateway)
			},
		})
	}
	return p
}

func (p *affinityProxy) countLocked(sid string, replica int) {
	if p.seen[sid] == nil {
		p.seen[sid] = map[int]int{}
	}
	p.seen[sid][replica]++
}

func (p *affinityProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sid := r.Header.Get("Mcp-Session-Id")
	p.mu.Lock()
	i, ok := -1, false
	if sid == "" {
		for range p.down {
			n := p.next % len(p.replicas)
			p.next++
			if !p.down[n] {
				i, ok = n, true
				break
			}
		}
	} else if i, ok = p.owner[sid]; ok {
		p.countLocked(sid, i)
	}
	p.mu.Unlock()
	switch {
	case !ok && sid == "":
		http.Error(w, "no replica is up", http.StatusServiceUnavailable)
	case !ok:
		http.Error(w, "unknown session", http.StatusNotFound)
	default:
		p.replicas[i].ServeHTTP(w, r)
	}
}

// replicaOf is the replica the proxy routes sid to (-1: none), and the
// requests of sid each replica got.
func (p *affinityProxy) replicaOf(sid string) (int, map[int]int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	seen := map[int]int{}
	for r, n := range p.seen[sid] {
		seen[r] = n
	}
	if i, ok := p.owner[sid]; ok {
		return i, seen
	}
	return -1, seen
}

// callErr is call that returns the transport's error instead of failing.
func callErr(c *client.Client, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	return c.CallTool(ctx, req)
}

// serverProcesses lists the live e2e-mcp processes started with TMPDIR=tmp.
func serverProcesses(tmp string) []proctest.Process {
	return proctest.MustFind(proctest.CmdlineContains(bin), proctest.HasEnv("TMPDIR="+tmp), proctest.Live)
}

// TestReplicasBehindAffinityProxy: two `serve --http` replicas behind a
// proxy with affinity on Mcp-Session-Id. Two clients land on different
// replicas, each replica holds its own client's browser state and counts
// only its calls, and every request of a client reaches its replica. A
// killed replica costs its client the session (502, then 404: initialize
// again) and nothing else; no Chrome and no server is left.
func TestReplicasBehindAffinityProxy(t *testing.T) {
	f := newFixture(t)
	const token = "replica-s3cret" // the same credential on every replica
	var reps []*httpServer
	var tmps []string
	for i := range 2 {
		env, tmp := serverEnv(t)
		s := startHTTP(t, append(env, "E2E_MCP_AUTH_TOKEN="+token, fmt.Sprintf("E2E_MCP_REPLICA_ID=r%d", i)))
		s.token = token
		reps, tmps = append(reps, s), append(tmps, tmp)
	}
	p := newAffinityProxy(t, reps[0].base, reps[1].base)
	lb := httptest.NewServer(p)
	t.Cleanup(lb.Close)
	open := func() *client.Client {
		t.Helper()
		c, err := client.NewStreamableHttpClient(lb.URL+"/mcp",
			transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		if err := initialize(c); err != nil {
			t.Fatalf("initialize through the proxy: %v", err)
		}
		return c
	}

	a, b := open(), open()
	sa, sb := a.GetSessionId(), b.GetSessionId()
	if ra, _ := p.replicaOf(sa); ra != 0 {
		t.Fatalf("client a's session %q is on replica %d, want 0 (the first initialize)", sa, ra)
	}
	if rb, _ := p.replicaOf(sb); rb != 1 {
		t.Fatalf("client b's session %q is on replica %d, want 1 (round robin)", sb, rb)
	}
	// Each replica names itself in the ids it makes (--replica-id), and
	// answers an id of another replica as unknown.
	if !strings.HasPrefix(sa, "mcp-session-r0.") || !strings.HasPrefix(sb, "mcp-session-r1.") {
		t.Errorf("session ids %q and %q, want them made by r0 and r1", sa, sb)
	}
	post := func(base, sid string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(reps[1].base, sa); code != http.StatusNotFound {
		t.Errorf("replica 1 given replica 0's session id: %d, want 404", code)
	}

	// Each client signs up on the same page with its own name; each
	// replica keeps its own client's page.
	signup := f.URL + "/signup.html"
	mustCall(t, a, "browser_navigate", map[string]any{"url": signup})
	mustCall(t, b, "browser_navigate", map[string]any{"url": signup})
	mustContain(t, "a's sign-up", mustCall(t, a, "browser_type", map[string]any{"target": "label=Name", "text": "Ada", "submit": true}), "Welcome, Ada!")
	mustContain(t, "b's sign-up", mustCall(t, b, "browser_type", map[string]any{"target": "label=Name", "text": "Grace", "submit": true}), "Welcome, Grace!")
	mustCall(t, b, "browser_navigate", map[string]any{"url": f.URL + "/visual/pricing.html"})
	outA := mustCall(t, a, "browser_snapshot", nil)
	mustContain(t, "a's page, a call later", outA, "Sign up", "Welcome, Ada!")
	if strings.Contains(outA, "Grace") || strings.Contains(outA, "pricing") {
		t.Errorf("a sees b's page:\n%s", outA)
	}
	mustContain(t, "b's page, a call later", mustCall(t, b, "browser_snapshot", nil), "Plans and pricing")

	// What each replica says of itself: one session, its own client's
	// calls only (a navigated once, b twice), and a browser of its own.
	for i, navs := range []float64{1, 2} {
		s := reps[i]
		if got := scrape(t, s, "e2e_mcp_sessions_active"); got != 1 {
			t.Errorf("replica %d: sessions active = %v, want 1", i, got)
		}
		if got := scrape(t, s, "e2e_mcp_tool_calls_total", "tool", "browser_navigate"); got != navs {
			t.Errorf("replica %d: browser_navigate calls = %v, want %v", i, got, navs)
		}
		if got := scrape(t, s, "e2e_mcp_tool_calls_total", "tool", "browser_type"); got != 1 {
			t.Errorf("replica %d: browser_type calls = %v, want 1", i, got)
		}
		if len(chromeProcesses(tmps[i])) == 0 {
			t.Errorf("replica %d runs no Chrome of its own", i)
		}
	}
	// Every request of each client went to its replica: initialize,
	// notifications/initialized and its calls (a made 3, b 4) at least.
	for sid, want := range map[string]struct{ replica, least int }{sa: {0, 5}, sb: {1, 6}} {
		if _, seen := p.replicaOf(sid); len(seen) != 1 || seen[want.replica] < want.least {
			t.Errorf("requests of session %s by replica: %v, want all (%d or more) on replica %d", sid, seen, want.least, want.replica)
		}
	}

	// An id no replica made is refused as the server refuses it.
	if code := post(lb.URL, "mcp-session-unknown"); code != http.StatusNotFound {
		t.Errorf("unknown Mcp-Session-Id through the proxy: %d, want 404", code)
	}

	// Replica 0 dies. Its client's next call fails at the proxy (502);
	// the proxy then forgets its sessions, so the call after is an unknown
	// session (404): the client must initialize again.
	_ = reps[0].cmd.Process.Kill()
	select {
	case <-reps[0].done:
	case <-time.After(20 * time.Second):
		t.Fatal("replica 0 did not exit after SIGKILL")
	}
	if _, err := callErr(a, "browser_snapshot", nil); err == nil || !strings.Contains(err.Error(), "502") {
		t.Errorf("a's call to a dead replica: err = %v, want the proxy's 502", err)
	}
	if _, err := callErr(a, "browser_snapshot", nil); !errors.Is(err, transport.ErrSessionTerminated) {
		t.Errorf("a's next call: err = %v, want %v", err, transport.ErrSessionTerminated)
	}
	// b goes on where it was; a new client lands on the live replica.
	mustContain(t, "b after replica 0 died", mustCall(t, b, "browser_snapshot", nil), "Plans and pricing")
	c := open()
	if rc, _ := p.replicaOf(c.GetSessionId()); rc != 1 {
		t.Errorf("a new client went to replica %d, want 1 (0 is down)", rc)
	}
	outC := mustCall(t, c, "browser_navigate", map[string]any{"url": signup})
	if strings.Contains(outC, "Welcome") {
		t.Errorf("a new session starts with another's page state:\n%s", outC)
	}
	if got := scrape(t, reps[1], "e2e_mcp_sessions_active"); got != 2 {
		t.Errorf("replica 1: sessions active = %v, want 2 (b and the new client)", got)
	}
	// The dead replica's Chrome died with it.
	requireNoChrome(t, tmps[0], 10*time.Second)

	// Close the clients (DELETE goes to their replica too), stop replica 1.
	_ = b.Close()
	_ = c.Close()
	if _, seen := p.replicaOf(sb); len(seen) != 1 || seen[1] == 0 {
		t.Errorf("requests of b's session by replica: %v, want all on replica 1", seen)
	}
	_ = reps[1].cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-reps[1].done:
	case <-time.After(30 * time.Second):
		t.Fatal("replica 1 did not exit within 30s of SIGTERM")
	}
	requireNoChrome(t, tmps[1], 10*time.Second)
	for i, tmp := range tmps {
		if left := serverProcesses(tmp); len(left) != 0 {
			t.Errorf("replica %d: server processes left: %v", i, left)
		}
	}
}
