package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// clientLogOf collects what the server sends to a client's log and its
// progress notifications, after asking for every level.
type clientLogOf struct {
	mu       sync.Mutex
	messages []string
	progress []map[string]any
}

func listen(t *testing.T, c *client.Client) *clientLogOf {
	t.Helper()
	l := &clientLogOf{}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		l.mu.Lock()
		defer l.mu.Unlock()
		switch n.Method {
		case "notifications/message":
			b, _ := json.Marshal(n.Params)
			l.messages = append(l.messages, string(b))
		case string(mcp.MethodNotificationProgress):
			l.progress = append(l.progress, n.Params.AdditionalFields)
		}
	})
	req := mcp.SetLevelRequest{}
	req.Params.Level = mcp.LoggingLevelDebug
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.SetLevel(ctx, req); err != nil { //nolint:staticcheck // the client's log is what is checked
		t.Fatal(err)
	}
	return l
}

// await waits for a log message holding every one of want and returns it.
func (l *clientLogOf) await(t *testing.T, what string, want ...string) string {
	t.Helper()
	var found string
	waitFor(t, 15*time.Second, what, func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
	next:
		for _, m := range l.messages {
			for _, w := range want {
				if !strings.Contains(m, w) {
					continue next
				}
			}
			found = m
			return true
		}
		return false
	})
	return found
}

// TestSessionEventsInClientLog: a client that asked for its log hears of
// its session's life: started (info), its dev server exiting while the
// session lives (warning), ended and why (info).
func TestSessionEventsInClientLog(t *testing.T) {
	env, _ := fixtureEnv(t)
	c := startClient(t, env)
	l := listen(t, c)
	res := call(t, c, "session_start", map[string]any{"commandPath": devfixture})
	if res.IsError {
		t.Fatalf("session_start: %s", text(res))
	}
	l.await(t, "the session's start", `"level":"info"`, `"event":"session started"`, `"by":"session_start"`)
	sc, _ := res.StructuredContent.(map[string]any)
	dev, _ := sc["devServer"].(map[string]any)
	pid, _ := dev["pid"].(float64)
	if pid == 0 {
		t.Fatalf("no dev server pid: %v", sc)
	}
	if err := syscall.Kill(int(pid), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	l.await(t, "the dev server's exit", `"level":"warning"`, `"event":"dev server exited"`, fmt.Sprintf(`"pid":%d`, int(pid)))
	mustCall(t, c, "session_end", nil)
	l.await(t, "the session's end", `"level":"info"`, `"event":"session ended"`, `"why":"session_end"`)
}

// TestProgressOfLongCalls: a call that names a progressToken is told how it
// goes while it runs: a wait every second, with values that only grow; a
// batch step by step, with the count of its steps.
func TestProgressOfLongCalls(t *testing.T) {
	f := newFixture(t, func(mux *http.ServeMux, _ *fixture) {
		mux.HandleFunc("GET /slow-text", func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Slow</title><p id="p">waiting</p><script>setTimeout(() => { document.getElementById('p').textContent = 'ready now'; }, 2500)</script>`)
		})
	})
	env, _ := serverEnv(t)
	c := startClient(t, env)
	l := listen(t, c)
	callWith := func(token, tool string, args map[string]any) {
		t.Helper()
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tool, args
		req.Params.Meta = &mcp.Meta{ProgressToken: token}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		if res, err := c.CallTool(ctx, req); err != nil || res.IsError {
			t.Fatalf("%s: %v %s", tool, err, text(res))
		}
	}
	of := func(token string) []map[string]any {
		l.mu.Lock()
		defer l.mu.Unlock()
		var out []map[string]any
		for _, p := range l.progress {
			if p["progressToken"] == token {
				out = append(out, p)
			}
		}
		return out
	}
	growing := func(token string, ps []map[string]any) {
		t.Helper()
		last := -1.0
		for _, p := range ps {
			v, _ := p["progress"].(float64)
			if v <= last {
				t.Errorf("%s: progress went from %g to %g: %v", token, last, v, ps)
			}
			last = v
		}
	}

	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/slow-text"})
	callWith("wait-1", "browser_wait_for", map[string]any{"text": "ready now"})
	waits := of("wait-1")
	if len(waits) < 2 || !strings.Contains(fmt.Sprint(waits[0]["message"]), "browser_wait_for") {
		t.Errorf("a 2.5 s wait reported %d time(s): %v", len(waits), waits)
	}
	growing("wait-1", waits)

	callWith("batch-1", "browser_batch", map[string]any{"steps": []any{
		map[string]any{"navigate": f.URL + "/slow-text"},
		map[string]any{"wait": map[string]any{"text": "ready now"}},
	}})
	steps := of("batch-1")
	growing("batch-1", steps)
	sawSecond := false
	for _, p := range steps {
		if p["total"] != 2.0 {
			t.Errorf("a batch's progress without its count of steps: %v", p)
		}
		if strings.Contains(fmt.Sprint(p["message"]), "(step 2 of 2)") {
			sawSecond = true
		}
	}
	if len(steps) < 3 || !sawSecond {
		t.Errorf("the batch reported %v", steps)
	}
}
