package e2e

import (
	"bytes"
	"fmt"
	"net/http"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRunProjects: a run config (e2e-mcp.yaml in the working directory)
// names three projects, and the flow runs in each, named NAME [project]:
// desktop with a 1000x700 viewport, mobile as an iPhone 15 sending an
// X-Env header, staging on another server (its baseURL replaces the
// flow's). The servers record what each page load saw: its width and
// header. --project mobile runs that one; --list shows the names.
func TestRunProjects(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	site := func(id string) *fixture {
		return newFixture(t, func(mux *http.ServeMux, _ *fixture) {
			mux.HandleFunc("GET /proj/page.html", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				fmt.Fprintf(w, "<!doctype html><meta name=viewport content=\"width=device-width\"><title>P</title><h1>Hi</h1><p role=status></p><script>"+
					"fetch('/proj/seen?w=' + innerWidth + '&env=%s').then(() => { document.querySelector('p').textContent = 'sent' })</script>", r.Header.Get("X-Env"))
			})
			mux.HandleFunc("GET /proj/seen", func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen = append(seen, fmt.Sprintf("%s w=%s env=%s", id, r.URL.Query().Get("w"), r.URL.Query().Get("env")))
				mu.Unlock()
			})
		})
	}
	local, staging := site("local"), site("staging")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"flows/page.yaml": "name: page\nbaseURL: " + local.URL + "\nsteps:\n  - navigate: /proj/page.html\n" +
			"  - expect: {target: 'role=status', check: text, expected: sent, timeout: 2}\n",
		"e2e-mcp.yaml": "projects:\n  - name: desktop\n    use: {viewport: {width: 1000, height: 700}}\n" +
			"  - name: mobile\n    use: {device: iPhone 15, headers: {X-Env: mobile}}\n" +
			"  - name: staging\n    use: {baseURL: '" + staging.URL + "', viewport: {width: 800, height: 600}}\n",
	})
	env, tmp := runEnvironment(t)
	run := func(args ...string) (string, int) {
		t.Helper()
		// The config is the working directory's.
		return runFlowsIn(t, dir, env, args...)
	}
	got := func() string {
		mu.Lock()
		defer mu.Unlock()
		s := append([]string(nil), seen...)
		sort.Strings(s)
		seen = nil
		return strings.Join(s, ", ")
	}

	out, code := run("flows", "--parallel", "2")
	lines := resultLines(out)
	sort.Strings(lines)
	if code != 0 || strings.Join(lines, ", ") != "PASS page [desktop], PASS page [mobile], PASS page [staging]" {
		t.Fatalf("three projects: exit %d:\n%s", code, out)
	}
	if g := got(); g != "local w=1000 env=, local w=393 env=mobile, staging w=800 env=" {
		t.Errorf("what the pages saw: %s", g)
	}
	requireNoChrome(t, tmp, 10*time.Second)

	out, code = run("flows", "--project", "mobile")
	if code != 0 || strings.Join(resultLines(out), ", ") != "PASS page [mobile]" || got() != "local w=393 env=mobile" {
		t.Errorf("--project mobile: exit %d:\n%s", code, out)
	}
	out, code = run("flows", "--list", "--project", "desktop,staging")
	if code != 0 || !strings.Contains(out, "page.yaml › page [desktop]\n") || !strings.Contains(out, "page.yaml › page [staging]\nTotal: 2 flows in 1 file\n") {
		t.Errorf("--list: exit %d:\n%s", code, out)
	}
	out, code = run("flows", "--project", "tablet")
	if code != 2 || !strings.Contains(out, `--project "tablet": the projects are desktop, mobile, staging`) {
		t.Errorf("an unknown project: exit %d:\n%s", code, out)
	}
}

// runFlowsIn runs `e2e-mcp run` in dir and returns its output and exit
// code.
func runFlowsIn(t *testing.T, dir string, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"run"}, args...)...)
	cmd.Env, cmd.Dir = env, dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), 0
}
