package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/internal/proctest"
)

// TestSecretsNotInherited: the server's credentials are not in the
// environment of the dev server it starts, nor of Chrome.
func TestSecretsNotInherited(t *testing.T) {
	env, tmp := serverEnv(t)
	state := t.TempDir()
	s := startHTTP(t, append(env, "E2E_MCP_AUTH_TOKEN=very-secret-token", "E2E_MCP_SERVER_COMMAND="+devfixture, "FIXTURE_STATE="+state))
	c, err := s.clientWith(t, map[string]string{"Authorization": "Bearer very-secret-token"})
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, c, "session_start", nil)
	if res.IsError {
		t.Fatalf("session_start: %s", text(res))
	}
	sc, _ := res.StructuredContent.(map[string]any)
	pid := 0
	if dev, ok := sc["devServer"].(map[string]any); ok {
		if p, ok := dev["pid"].(float64); ok {
			pid = int(p)
		}
	}
	if pid == 0 {
		t.Fatalf("no dev server pid in %v", res.StructuredContent)
	}
	mustCall(t, c, "browser_navigate", map[string]any{"url": "/"})
	pids := []int{pid}
	for _, p := range proctest.MustFind(proctest.CmdlineContains("--user-data-dir=" + tmp + "/")) {
		pids = append(pids, p.PID)
	}
	if len(pids) < 2 {
		t.Fatalf("found no Chrome process under %s", tmp)
	}
	for _, p := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", p))
		if err != nil {
			t.Fatalf("read the environment of %d: %v", p, err)
		}
		if strings.Contains(string(b), "very-secret-token") || strings.Contains(string(b), "E2E_MCP_AUTH_TOKEN") {
			t.Errorf("process %d inherited the auth token", p)
		}
	}
}
