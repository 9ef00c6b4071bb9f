//go:build load

package e2e

import (
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestLoad (make load): 20 concurrent HTTP clients, each in its own
// session, loop navigate/snapshot/click on the fixture site for 60 s
// (E2E_LOAD_DURATION, E2E_LOAD_CLIENTS change that): no call may fail, no
// session may see another's cookie or storage, and after the server's
// shutdown no Chrome process is left. It logs p50/p95 per tool.
func TestLoad(t *testing.T) {
	clients, duration := 20, 60*time.Second
	if v := os.Getenv("E2E_LOAD_CLIENTS"); v != "" {
		fmt.Sscan(v, &clients)
	}
	if v := os.Getenv("E2E_LOAD_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatal(err)
		}
		duration = d
	}
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /load", func(w http.ResponseWriter, r *http.Request) {
			who := r.URL.Query().Get("who")
			http.SetCookie(w, &http.Cookie{Name: "who", Value: who, Path: "/"})
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<!doctype html><title>Load %s</title><h1>Load</h1>
<p role="status" id="s">count=0</p><button onclick="this.n=(this.n||0)+1; document.getElementById('s').textContent='count='+this.n+' '+document.cookie+' storage='+localStorage.getItem('who')">Count</button>
<script>if (!localStorage.getItem('who')) localStorage.setItem('who', %q);</script>`, who, who)
		})
	})
	env, tmp := serverEnv(t)
	env = append(env, "E2E_MCP_LOG_LEVEL=info", fmt.Sprintf("E2E_MCP_MAX_SESSIONS=%d", clients+5))
	s := startHTTP(t, env)

	var mu sync.Mutex
	lat := map[string][]time.Duration{}
	failures, calls := 0, 0
	var wg sync.WaitGroup
	deadline := time.Now().Add(duration)
	for i := range clients {
		c := s.client(t)
		who := fmt.Sprintf("client%02d", i)
		wg.Go(func() {
			timed := func(tool string, args map[string]any) (*mcp.CallToolResult, string) {
				start := time.Now()
				res := call(t, c, tool, args)
				d := time.Since(start)
				out := text(res)
				mu.Lock()
				calls++
				lat[tool] = append(lat[tool], d)
				if res.IsError {
					failures++
					t.Errorf("%s %s failed:\n%s", who, tool, out)
				}
				mu.Unlock()
				return res, out
			}
			for n := 0; time.Now().Before(deadline); n++ {
				timed("browser_navigate", map[string]any{"url": f.URL + "/load?who=" + who})
				_, snap := timed("browser_snapshot", nil)
				if !strings.Contains(snap, "Load "+who) {
					t.Errorf("%s: snapshot is not of its own page:\n%s", who, snap)
				}
				_, out := timed("browser_click", map[string]any{"target": "role=button[name=Count]"})
				if !strings.Contains(out, "count=1 who="+who+" storage="+who) {
					t.Errorf("%s: click shows another session's state, or none:\n%s", who, out)
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%d clients, %s: %d calls, %d failed", clients, duration, calls, failures)
	for _, tool := range []string{"browser_navigate", "browser_snapshot", "browser_click"} {
		d := lat[tool]
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		if len(d) == 0 {
			t.Fatalf("no %s calls", tool)
		}
		t.Logf("%-17s n=%4d p50=%6.0f ms p95=%6.0f ms", tool, len(d), ms(d[len(d)/2]), ms(d[len(d)*95/100]))
	}
	if failures > 0 {
		t.Errorf("%d of %d calls failed", failures, calls)
	}
	// Shutdown leaves nothing behind.
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not exit within 60s")
	}
	requireNoChrome(t, tmp, 15*time.Second)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
